// Per-application bindings end to end, with real desktops: the daemon replays a 4-finger swipe
// up, `gestured listen` runs the binding for the focused application. Real sway (headless) with
// two foot windows; real Xvfb with openbox (EWMH) and two xterms.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

@Suite(.serialized) struct FocusSessionTests {
    static let swipe4 = TestPaths.fixture("touchscreen-ep0430m09-4finger-swipe-up")

    /// The listen config: a global binding, one for app A, one for no focused window.
    static func config(out: String, app: String) -> String {
        """
        bindings:
          - gesture: swipe
            fingers: 4
            command: 'echo "global $GESTURE_DIRECTION" >> \(out)'
          - gesture: swipe
            fingers: 4
            app: "\(app)"
            command: 'echo "app $GESTURE_DIRECTION" >> \(out)'
          - gesture: swipe
            fingers: 4
            app: none
            command: 'echo "nothing $GESTURE_DIRECTION" >> \(out)'
        """
    }

    /// Runs `gestured listen` against a looping replay; `steps` each focus something and name
    /// the line the next swipe must write.
    static func run(_ session: DesktopSession, app: String, backend: String?, steps: [(String, () throws -> Void)]) throws {
        guard let bin = TestPaths.binary else { throw TestFailure(description: "no gestured binary") }
        let out = session.dir + "/bindings.out"
        let cfg = session.dir + "/listen.yaml"
        try config(out: out, app: app).write(toFile: cfg, atomically: true, encoding: .utf8)
        try steps[0].1()
        // listen first, so that it follows the focus before the first gesture: a gesture that
        // arrives before the backend has answered runs the global bindings (focus unknown).
        let daemonDir = session.dir + "/daemon"
        try FileManager.default.createDirectory(atPath: daemonDir, withIntermediateDirectories: true)
        let listen = Process()
        listen.executableURL = URL(fileURLWithPath: bin)
        listen.arguments = ["listen", "--config", cfg, "--socket", daemonDir + "/s.sock"] + (backend.map { ["--focus-backend", $0] } ?? [])
        var env = ["PATH": "/usr/bin:/bin", "HOME": session.dir]
        env.merge(session.environment) { $1 }
        listen.environment = env
        let listenLog = session.dir + "/listen.log"
        _ = FileManager.default.createFile(atPath: listenLog, contents: nil)
        listen.standardError = FileHandle(forWritingAtPath: listenLog)
        try listen.run()
        defer { listen.terminate(); listen.waitUntilExit() }
        try session.waitUntil("listen following the focus") {
            ((try? String(contentsOfFile: listenLog, encoding: .utf8)) ?? "").contains("focus: following")
        }
        let d = try DaemonProcess(["--replay", swipe4, "--replay-wait-for-clients", "1", "--replay-loop"], directory: daemonDir)
        defer { _ = d.stop() }
        var seen = 0
        for (i, (expected, focus)) in steps.enumerated() {
            if i > 0 { try focus() }
            // The first swipe after this focus change: lines written meanwhile by a replay that
            // was already under way when the focus changed are skipped.
            try session.waitUntil("'\(expected) up' after step \(i); daemon: \(d.log)", seconds: 20) {
                let lines = ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").split(separator: "\n")
                guard lines.count > seen + 1 || (i == 0 && lines.count > seen) else { return false }
                let fresh = lines[(i == 0 ? seen : seen + 1)...]
                #expect(fresh.first == "\(expected) up", "step \(i): lines \(lines)")
                seen = lines.count
                return true
            }
        }
        let log = (try? String(contentsOfFile: listenLog, encoding: .utf8)) ?? ""
        #expect(log.components(separatedBy: "focus: following").count == 2, "listen's log: \(log)")
    }

    @Test func sway_focusedAppRunsItsBinding_otherAppRunsTheGlobalOne() throws {
        let s = try DesktopSession.sway()
        try s.foot(appID: "gestured-test-a", title: "A")
        try s.foot(appID: "gestured-test-b", title: "B")
        try Self.run(s, app: "gestured-test-a", backend: nil, steps: [
            ("app", { try s.swaymsg("[app_id=gestured-test-a] focus") }),
            ("global", { try s.swaymsg("[app_id=gestured-test-b] focus") }),
            ("nothing", { try s.swaymsg("workspace 2") }),
            ("app", { try s.swaymsg("[app_id=gestured-test-a] focus") }),
        ])
    }

    @Test func wlrForeignToplevel_onSway_followsTheActivatedWindow() throws {
        let s = try DesktopSession.sway()
        try s.foot(appID: "gestured-test-a", title: "A")
        try s.foot(appID: "gestured-test-b", title: "B")
        try Self.run(s, app: "gestured-test-*a", backend: "wlr", steps: [
            ("app", { try s.swaymsg("[app_id=gestured-test-a] focus") }),
            ("global", { try s.swaymsg("[app_id=gestured-test-b] focus") }),
        ])
    }

    @Test func x11_openbox_focusedClassRunsItsBinding_otherRunsTheGlobalOne() throws {
        let s = try DesktopSession.x11()
        try s.xterm(class: "GesturedTestA", title: "A")
        try s.xterm(class: "GesturedTestB", title: "B")
        try Self.run(s, app: "gesturedtesta", backend: nil, steps: [
            ("app", { try s.activate(class: "GesturedTestA") }),
            ("global", { try s.activate(class: "GesturedTestB") }),
            ("app", { try s.activate(class: "GesturedTestA") }),
        ])
    }

    /// sway killed and started again on the same socket path: `listen --print-app` says the
    /// loss once, falls back, reconnects by itself and says once that sway is back.
    @Test func sway_restart_listenSaysOnceAndReconnects() throws {
        guard let bin = TestPaths.binary else { throw TestFailure(description: "no gestured binary") }
        let s = try DesktopSession.sway()
        try s.foot(appID: "gestured-test-a", title: "A")
        let listen = Process()
        listen.executableURL = URL(fileURLWithPath: bin)
        listen.arguments = ["listen", "--print-app"]
        var env = ["PATH": "/usr/bin:/bin", "HOME": s.dir]
        env.merge(s.environment) { $1 }
        listen.environment = env
        let outPath = s.dir + "/print-app.out", errPath = s.dir + "/print-app.err"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        listen.standardOutput = FileHandle(forWritingAtPath: outPath)
        listen.standardError = FileHandle(forWritingAtPath: errPath)
        try listen.run()
        defer { listen.terminate(); listen.waitUntilExit() }
        func out() -> String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }
        func err() -> String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }
        try s.waitUntil("the first focus") { out().contains("app: gestured-test-a  title: \"A\"") }
        s.killSway()
        try s.waitUntil("the loss") { out().contains("backend lost: sway") }
        usleep(1_500_000)                                   // reconnection attempts meanwhile
        try s.startSway()
        try s.foot(appID: "gestured-test-b", title: "B")
        try s.waitUntil("the return") { out().contains("app: gestured-test-b  title: \"B\"") }
        #expect(out().components(separatedBy: "backend lost: sway").count == 2, "stdout: \(out())")
        #expect(out().components(separatedBy: "backend: sway").count == 3, "stdout: \(out())")
        #expect(err().components(separatedBy: "focus: lost sway").count == 2, "stderr: \(err())")
        #expect(err().components(separatedBy: "sway is back").count == 2, "stderr: \(err())")
    }
}
