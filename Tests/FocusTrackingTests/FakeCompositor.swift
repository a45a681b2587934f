// Test support for backends whose compositor Debian does not package (Hyprland, niri): a real
// Unix socket server in the test that speaks the compositor's documented protocol from a script.
// It stands in for the compositor; the backend under test is the real one.
#if canImport(Glibc)
import Glibc
#endif
import FocusTracking
import Foundation
import Synchronization

struct TestFailure: Error, CustomStringConvertible { var description: String }

func tempDirectory() -> String {
    var t = Array("/tmp/gestured-focus.XXXXXX".utf8CString)
    return t.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
}

/// A listening socket; each accepted connection is handed to `serve` on its own thread.
final class FakeSocketServer: @unchecked Sendable {
    let path: String
    private let fd: Int32
    private var thread: Thread?
    let received = Mutex<[UInt8]>([])
    private let connections = Mutex<[Int32]>([])

    init(path: String, serve: @escaping @Sendable (Int32, FakeSocketServer) -> Void) throws {
        self.path = path
        unlink(path)
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b }; raw[bytes.count] = 0 }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0, listen(fd, 8) == 0 else { throw TestFailure(description: "cannot listen on \(path)") }
        let listener = fd
        let t = Thread { [self] in
            while true {
                let c = accept(listener, nil, nil)
                if c < 0 { return }
                connections.withLock { $0.append(c) }
                serve(c, self)
                connections.withLock { $0.removeAll { $0 == c } }
                close(c)
            }
        }
        thread = t
        t.start()
    }

    /// Closes the listening socket and removes its path (the compositor going away).
    func shutdown() {
        connections.withLock { for c in $0 { Glibc.shutdown(c, Int32(SHUT_RDWR)) } }
        Glibc.shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
        unlink(path)
    }

    static func send(_ c: Int32, _ text: String) { send(c, Array(text.utf8)) }

    static func send(_ c: Int32, _ bytes: [UInt8]) {
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { Glibc.send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            off += n
        }
    }

    /// Reads one line (up to the newline) from the client.
    func readLine(_ c: Int32) -> String {
        var out: [UInt8] = []
        var b: UInt8 = 0
        while read(c, &b, 1) == 1 { received.withLock { $0.append(b) }; if b == 0x0a { break }; out.append(b) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Waits until the client hangs up (or 10 s pass).
    static func waitForHangUp(_ c: Int32) {
        var p = pollfd(fd: c, events: Int16(POLLIN), revents: 0)
        var b = [UInt8](repeating: 0, count: 4096)
        while poll(&p, 1, 10_000) > 0, read(c, &b, b.count) > 0 {}
    }
}

/// A tracker under test, with everything it reported and logged.
final class Recorder: Sendable {
    let reports = Mutex<[FocusTracker.Report]>([])
    let logs = Mutex<[String]>([])
}

final class TrackerProbe: Sendable {
    let recorder = Recorder()
    let tracker: FocusTracker

    init(_ kind: FocusBackendKind, env: [String: String]) {
        let r = recorder
        tracker = FocusTracker(backend: kind, environment: env, log: { line in r.logs.withLock { $0.append(line) } },
                               observe: { x in r.reports.withLock { $0.append(x) } })
        tracker.start()
    }

    deinit { tracker.stop() }

    var changes: [FocusChange] {
        recorder.reports.withLock { $0.compactMap { if case .changed(let c) = $0 { return c }; return nil } }
    }

    func logged(_ text: String) -> Int { recorder.logs.withLock { $0.filter { $0.contains(text) }.count } }

    /// Waits (up to 10 s) for `ok`.
    func wait(_ what: String, _ ok: () -> Bool) throws {
        for _ in 0..<1000 { if ok() { return }; usleep(10_000) }
        throw TestFailure(description: "timed out waiting for \(what); reports: \(recorder.reports.withLock { $0 }); logs: \(recorder.logs.withLock { $0 })")
    }
}

func window(_ app: String, _ title: String, instance: String = "") -> FocusChange {
    .window(FocusedWindow(appID: app, instance: instance, title: title))
}
