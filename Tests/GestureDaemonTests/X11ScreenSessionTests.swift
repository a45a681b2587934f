// The screen's orientation from X11 RandR (X11Screen.swift), with real X servers and `gestured
// listen` given only DISPLAY. Debian 12's X servers that run without hardware: Xvfb refuses any
// rotation (BadMatch), Xorg's dummy driver offers only `normal`, and Xephyr 21.1.7 advertises
// the four rotations but dies (SIGSEGV in DamageDestroy) on every change of one. Xwayland
// turns its RandR CRTC with the compositor's wl_output, so a headless sway with Xwayland is the
// X server that turns here; Xvfb checks what a plain X server can: its output read at start
// and an RRNotify (its CRTC switched off and on) followed.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

@Suite(.serialized) struct X11ScreenSessionTests {
    /// `gestured listen --print-screen` in the environment `environment` only; what it printed
    /// so far, and its log.
    final class PrintScreen {
        let process = Process()
        let outPath: String, logPath: String

        init(_ s: DesktopSession, environment: [String: String]) throws {
            guard let bin = TestPaths.binary else { throw TestFailure(description: "no gestured binary") }
            process.executableURL = URL(fileURLWithPath: bin)
            process.arguments = ["listen", "--print-screen"]
            var env = ["PATH": "/usr/bin:/bin", "HOME": s.dir]
            env.merge(environment) { $1 }
            process.environment = env
            outPath = s.dir + "/print-screen.out"
            logPath = s.dir + "/print-screen.log"
            for p in [outPath, logPath] { _ = FileManager.default.createFile(atPath: p, contents: nil) }
            process.standardOutput = FileHandle(forWritingAtPath: outPath)
            process.standardError = FileHandle(forWritingAtPath: logPath)
            try process.run()
        }

        deinit { process.terminate(); process.waitUntilExit() }

        var out: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }
        var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
    }

    /// sway turns HEADLESS-1; Xwayland's RandR turns XWAYLAND0 the same way (`xrandr` names sway's
    /// `transform 90` "right"), and listen, knowing only DISPLAY, prints each turn as sway names it.
    @Test func xwayland_printScreen_followsEachTurnThroughRandR() throws {
        let s = try DesktopSession.sway(xwayland: true)
        guard let display = s.xwaylandDisplay else { throw TestFailure(description: "no Xwayland display") }
        let p = try PrintScreen(s, environment: ["DISPLAY": display])
        try s.waitUntil("the first report: \(p.out) \(p.log)") { p.out.contains("outputs: XWAYLAND0: transform normal\n") }
        #expect(p.log.contains("following X11 RandR output transforms at DISPLAY \(display)"), "\(p.log)")
        for t in ["90", "180", "270", "flipped", "flipped-90", "normal"] {
            try s.swaymsg("output HEADLESS-1 transform \(t)")
            try s.waitUntil("transform \(t): \(p.out)") { p.out.hasSuffix("outputs: XWAYLAND0: transform \(t)\n") }
        }
    }

    /// The daemon and listen with a replayed touchscreen swipe and left-edge swipe, sway turned
    /// through the four transforms, listen following Xwayland's RandR (DISPLAY only): the same
    /// names as the person holding the device gives them, as with sway's own backends.
    @Test func xwayland_turnedThroughFourTransforms_namesSwipesAndEdgesAsThePersonDoes() throws {
        let s = try DesktopSession.sway(xwayland: true)
        guard let display = s.xwaylandDisplay else { throw TestFailure(description: "no Xwayland display") }
        try ScreenOrientationSessionTests.turnThroughFour(s, listenEnvironment: ["DISPLAY": display], output: "XWAYLAND0") {
            try s.swaymsg("output HEADLESS-1 transform \($0)")
        }
    }

    /// A plain X server: Xvfb's one output `screen` is read at start; switching its CRTC off
    /// (`xrandr --output screen --off`) and on again arrives as RRNotify, never polled.
    @Test func xvfb_printScreen_readsTheOutputAndFollowsItsCRTC() throws {
        let s = try DesktopSession.x11()
        guard let display = s.environment["DISPLAY"] else { throw TestFailure(description: "no DISPLAY") }
        let p = try PrintScreen(s, environment: ["DISPLAY": display])
        try s.waitUntil("the first report: \(p.out) \(p.log)") { p.out.contains("outputs: screen: transform normal\n") }
        // xrandr also asks for a smaller screen, which Xvfb refuses after switching the CRTC off:
        // its status is not the point, the CRTC's state is.
        _ = try s.run(["xrandr", "--output", "screen", "--off"])
        try s.waitUntil("the output switched off: \(p.out)") { p.out.hasSuffix("outputs: screen: transform normal (inactive)\n") }
        _ = try s.run(["xrandr", "--output", "screen", "--auto"])
        try s.waitUntil("the output on again: \(p.out)") { p.out.hasSuffix("outputs: screen: transform normal\n") }
    }
}
