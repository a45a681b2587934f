// libsystemd is dlopen()ed by the first thing that needs logind (CSystemd.h): the real daemon
// binary, real sockets, and the process's own /proc/PID/maps as the witness.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import GestureWire

@Suite(.serialized) struct LibsystemdOnDemandTests {
    /// The bindings of the side-by-side measurements: commands only, no keys or clicks.
    static let commandBindings = TestPaths.repo.appendingPathComponent("Tests/VM/sidebyside-bindings.yaml").path

    /// /proc/PID/maps read to its end (its size reads as 0, so not String(contentsOfFile:)).
    static func mapsLibsystemd(_ pid: Int32) -> Bool {
        let fd = open("/proc/\(pid)/maps", O_RDONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            text += chunk[0..<n]
        }
        return String(decoding: text, as: UTF8.self).contains("/libsystemd.so.0")
    }

    /// Waits up to 10 s for the daemon to map libsystemd.
    static func waitForLibsystemd(_ pid: Int32) -> Bool {
        for _ in 0..<400 { if mapsLibsystemd(pid) { return true }; usleep(25_000) }
        return false
    }

    /// Sends an emit request (after reading the hello unless `helloRead`) and returns the reply.
    static func emit(_ c: TestClient, helloRead: Bool = false) throws -> String {
        if !helloRead, c.next().map({ $0.contains("hello") }) != true { throw TestFailure(description: "no hello: \(c.lines)") }
        var r = EmitRequest()
        r.keys = ["ctrl+c"]
        c.send(WireEncoder.emit(r))
        guard let reply = c.next() else { throw TestFailure(description: "no reply to emit") }
        return reply
    }

    /// Commands only: a streaming client does not load libsystemd; the first emit request does
    /// (it follows the session lock from then on).
    @Test func commandBindingsDoNotMapLibsystemdUntilAnEmit() throws {
        let config = try String(contentsOfFile: Self.commandBindings, encoding: .utf8)
        let d = try DaemonProcess([], config: config)
        defer { _ = d.stop() }
        let c = try TestClient(d.socket)
        c.send(#"{"type": "subscribe"}"#)
        guard c.next() != nil, let ok = c.next(), ok.contains("subscribe") else { throw TestFailure(description: "\(c.lines)") }
        #expect(!Self.mapsLibsystemd(d.pid), "libsystemd mapped before any emit request")
        let reply = try Self.emit(c, helloRead: true)
        // The test runs as root (allowed) or as a user (refused, after asking sd-login who is at
        // the seat): either way logind was asked.
        #expect(reply.contains("emit"), "\(reply)")
        #expect(Self.mapsLibsystemd(d.pid), "libsystemd not mapped after an emit request; log: \(d.log)")
    }

    /// A key binding acts on gestures, so the lock is followed from start-up.
    @Test func aKeyBindingMapsLibsystemdAtStart() throws {
        let d = try DaemonProcess([], config: """
            bindings:
              - {gesture: swipe, fingers: 3, direction: right, keys: "ctrl+alt+Right"}
            """)
        defer { _ = d.stop() }
        #expect(Self.waitForLibsystemd(d.pid), "log: \(d.log)")
    }

    /// Fault injected (a real libsystemd is always installed here): LD_LIBRARY_PATH puts a file
    /// that is not a library first in the search path, so dlopen fails. The daemon says so once,
    /// naming the library and what needs it, and answers emit as it does without logind.
    @Test func aMissingLibsystemdIsSaidOnceAndEmitStillAnswers() throws {
        let lib = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: lib) }
        try "not a library\n".write(toFile: lib + "/libsystemd.so.0", atomically: true, encoding: .utf8)
        // The test's own uid is allowed, so the policy need not ask sd-login (root or not).
        let config = "log: {level: info}\nactions: {allowed_uids: [\(getuid())]}\n"
        let d = try DaemonProcess([], config: config, extraEnvironment: ["LD_LIBRARY_PATH": lib])
        defer { _ = d.stop() }
        let c = try TestClient(d.socket)
        let first = try Self.emit(c)
        c.send(WireEncoder.emit({ var r = EmitRequest(); r.keys = ["ctrl+v"]; return r }()))
        let second = c.next() ?? ""
        for reply in [first, second] {
            #expect(!reply.contains("locked") && (reply.contains("\"ok\"") || reply.contains("virtual devices")), "\(reply)")
        }
        #expect(d.waitForLog("libsystemd.so.0 cannot be loaded"))
        let said = d.log.components(separatedBy: "\n").filter { $0.contains("libsystemd.so.0") }
        #expect(said.count == 1 && said[0].contains("locked screens cannot be detected"), "\(d.log)")
        #expect(!Self.mapsLibsystemd(d.pid))
    }
}
