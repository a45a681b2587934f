// ReconnectingClient (what `gestured listen` runs) against a real Unix socket the test serves:
// connect failures are reported once, the subscribe line goes out on every connection, messages
// come in parsed, and a closed connection is followed by a reconnect.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GestureCore
import GestureDaemon
import GestureWire
import Testing
import LinuxSystem

/// A listening Unix socket of the test's own.
private final class TestServer {
    let fd: Int32
    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b }; raw[bytes.count] = 0 }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0, listen(fd, 4) == 0 else { throw TestFailure(description: "bind/listen \(path): \(String(cString: strerror(errno)))") }
    }
    deinit { close(fd) }

    /// Accepts one client, reads its first line, sends `lines`, closes. Returns the line read.
    func serveOnce(_ lines: [String]) -> String {
        let c = accept(fd, nil, nil)
        guard c >= 0 else { return "" }
        defer { close(c) }
        var got: [UInt8] = []
        var byte: UInt8 = 0
        while read(c, &byte, 1) == 1 && byte != UInt8(ascii: "\n") { got.append(byte) }
        let out = Array(lines.map { $0 + "\n" }.joined().utf8)
        _ = out.withUnsafeBytes { write(c, $0.baseAddress, $0.count) }
        return String(decoding: got, as: UTF8.self)
    }
}

private final class Events: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ s: String) { lock.lock(); items.append(s); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
}

@Suite struct ReconnectingClientTests {
    @Test func reportsOnce_subscribesOnEveryConnection_andReconnects() throws {
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/s.sock"
        let events = Events()
        let done = DispatchSemaphore(value: 0)
        let subscribe = WireEncoder.subscribe(Subscription(kinds: [.pan]))
        let client = ReconnectingClient(path: path, subscribe: subscribe, initialBackoff: .milliseconds(20),
                                        maximumBackoff: .milliseconds(80))
        Thread.detachNewThread {
            var connections = 0
            client.run { event in
                switch event {
                case .connectFailed(let e, _, let first): events.add("failed first=\(first) errno=\(e.error.code)")
                case .connected: connections += 1; events.add("connected")
                case .message(let m, _):
                    if case .gesture(let g, let d) = m { events.add("gesture \(g.kind) device \(d.id ?? -1)") }
                    if case .hello = m { events.add("hello") }
                case .unparsable(let line, _): events.add("unparsable \(line)")
                case .disconnected: events.add("disconnected")
                }
                return connections < 2 || !events.all.last!.hasPrefix("gesture")
            }
            done.signal()
        }
        // A few failed attempts first: nobody listens yet.
        for _ in 0..<400 where events.all.filter({ $0.hasPrefix("failed") }).count < 3 { usleep(25_000) }
        let server = try TestServer(path: path)
        let hello = WireEncoder.hello(daemonVersion: "t", devices: [])
        let gesture = GestureJSON.encode(GestureEvent(kind: .pan, phase: .began, id: 1, fingers: 2, time: .zero),
                                         device: GestureJSON.DeviceInfo(id: 4, name: "pad", kind: .touchpad), origin: .zero)
        let first = server.serveOnce([hello, "not json", gesture])
        let second = server.serveOnce([hello, gesture])
        #expect(done.wait(timeout: .now() + 10) == .success, "the client did not finish: \(events.all)")
        #expect(first == subscribe && second == subscribe, "subscribe lines: '\(first)', '\(second)'")
        let got = events.all
        let failures = got.filter { $0.hasPrefix("failed") }
        #expect(failures.count >= 2 && failures.first == "failed first=true errno=\(SystemError.noSuchFile.code)"
                && failures.dropFirst().allSatisfy { $0.hasPrefix("failed first=false") }, "\(failures)")
        #expect(Array(got.drop { $0.hasPrefix("failed") }) == [
            "connected", "hello", "unparsable not json", "gesture pan device 4", "disconnected",
            "connected", "hello", "gesture pan device 4",
        ], "\(got)")
    }
}
