// Issue 26 item 6: `gestured listen --print-app` printed window titles and app ids raw, so a
// window could put escape sequences, BEL, CR and a forged `gestured:` line on the terminal.
// Real sway with a foot window whose app id and title hold control characters; Hyprland, which
// Debian does not package, from a stand-in speaking its event socket's protocol.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

@Suite(.serialized) struct ListenPrintAppTests {
    /// Starts `listen --print-app` with `environment`; returns a function reading its stdout.
    static func printApp(_ dir: String, environment: [String: String], backend: String?) throws -> (Process, () -> String) {
        guard let bin = TestPaths.binary else { throw TestFailure(description: "no gestured binary") }
        let listen = Process()
        listen.executableURL = URL(fileURLWithPath: bin)
        listen.arguments = ["listen", "--print-app"] + (backend.map { ["--focus-backend", $0] } ?? [])
        var env = ["PATH": "/usr/bin:/bin", "HOME": dir]
        env.merge(environment) { $1 }
        listen.environment = env
        let outPath = dir + "/print-app.out"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        listen.standardOutput = FileHandle(forWritingAtPath: outPath)
        listen.standardError = FileHandle.nullDevice
        try listen.run()
        return (listen, { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" })
    }

    /// No control character but the line ends, and no line that is not listen's own.
    static func checkClean(_ out: String) {
        let controls = out.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7f }
        #expect(controls.isEmpty, "control characters reached the terminal: \(controls.map { $0.value }); stdout: \(out.debugDescription)")
        #expect(!out.split(separator: "\n").contains { $0.hasPrefix("gestured: forged") }, "a forged line: \(out.debugDescription)")
    }

    @Test func sway_controlCharactersInAppIDAndTitle_areEscaped() throws {
        let s = try DesktopSession.sway()
        try s.spawn(["foot", "--app-id=evil\u{1b}[31m\u{7}", "--title=t\r\ngestured: forged\u{1b}]0;x\u{7}", "--", "sleep", "600"],
                    log: "foot-evil.log")
        try s.waitUntil("the window") { try s.run(["swaymsg", "-t", "get_tree"]).1.contains("evil\\u001b") }
        let (listen, out) = try Self.printApp(s.dir, environment: s.environment, backend: nil)
        defer { listen.terminate(); listen.waitUntilExit() }
        try s.waitUntil("the focus") { out().contains("app: evil") }
        #expect(out().contains(#"app: evil\x1b[31m\x07  title: "t\r\ngestured: forged\x1b]0;x\x07""#), "stdout: \(out().debugDescription)")
        Self.checkClean(out())
    }

    @Test func hyprland_controlCharactersInClassAndTitle_areEscaped() throws {
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/hypr/sig", withIntermediateDirectories: true)
        let path = dir + "/hypr/sig/.socket2.sock"
        let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(server) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b }; raw[bytes.count] = 0 }
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(server, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0 && listen(server, 4) == 0)
        let (listenProcess, out) = try Self.printApp(dir, environment: ["HYPRLAND_INSTANCE_SIGNATURE": "sig", "XDG_RUNTIME_DIR": dir],
                                                     backend: "hyprland")
        defer { listenProcess.terminate(); listenProcess.waitUntilExit() }
        var tv = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(server, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let c = accept(server, nil, nil)
        #expect(c >= 0, "listen did not connect")
        defer { close(c) }
        let line = Array("activewindow>>evil\u{1b}[2J\u{7},t\rgestured: forged\u{1b}]0;x\u{7}\n".utf8)
        _ = line.withUnsafeBytes { send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        for _ in 0..<200 where !out().contains("app: evil") { usleep(50_000) }
        #expect(out().contains(#"app: evil\x1b[2J\x07  title: "t\rgestured: forged\x1b]0;x\x07""#), "stdout: \(out().debugDescription)")
        Self.checkClean(out())
    }
}
