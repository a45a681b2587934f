// The screen's orientation under GNOME's compositor: a real headless Mutter (Debian 12's 43.8)
// whose virtual monitor is turned through org.gnome.Mutter.DisplayConfig.ApplyMonitorsConfig on
// its session bus, as GNOME's display settings and its accelerometer rotation turn it; `gestured
// listen` follows it through wl_output (WaylandScreen.swift), which Mutter sends again on every
// turn, so no DisplayConfig backend is needed. Mutter 43 offers wl_output version 3, without
// the connector's name; listen takes it from xdg-output, so the output is called what
// DisplayConfig calls it (its virtual monitor: Meta-0), as udev's WL_OUTPUT would name it.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

private let mutterInstalled = access("/usr/bin/mutter", X_OK) == 0 && access("/usr/bin/dbus-run-session", X_OK) == 0

@Suite(.serialized, .enabled(if: mutterInstalled, "mutter is not installed (Debian package mutter); Tests/test.sh installs it"))
struct MutterScreenSessionTests {
    /// DisplayConfig's transform is wl_output's, counterclockwise (wayland.xml: "90 degrees
    /// counter-clockwise"); listen prints it clockwise, as sway names its transforms.
    static let turns: [(displayConfig: Int, printed: String)] = [
        (1, "270"), (2, "180"), (3, "90"), (5, "flipped-270"), (0, "normal"),
    ]

    static func listenEnvironment(_ s: DesktopSession) -> [String: String] {
        s.environment.filter { ["WAYLAND_DISPLAY", "XDG_RUNTIME_DIR"].contains($0.key) }
    }

    /// listen's name for Mutter's one output, from its first report: DisplayConfig's connector.
    static func outputName(_ p: X11ScreenSessionTests.PrintScreen, _ s: DesktopSession) throws -> String {
        try s.waitUntil("the first report: \(p.out) \(p.log)") { p.out.contains(": transform normal\n") }
        guard let name = p.out.firstMatch(of: /outputs: ([^;\n]+): transform normal\n/)?.1 else {
            throw TestFailure(description: "no single output in \(p.out)")
        }
        let connector = try s.displayConfigState().connector
        #expect(name == connector, "listen's output name, DisplayConfig's is \(connector)")
        return String(name)
    }

    @Test func mutter_printScreen_followsDisplayConfigThroughWlOutput() throws {
        let s = try DesktopSession.mutter()
        let p = try X11ScreenSessionTests.PrintScreen(s, environment: Self.listenEnvironment(s))
        let name = try Self.outputName(p, s)
        #expect(p.log.contains("following Wayland wl_output output transforms"), "\(p.log)")
        for turn in Self.turns {
            try s.mutterTransform(turn.displayConfig)
            try s.waitUntil("DisplayConfig transform \(turn.displayConfig): \(p.out)") {
                p.out.hasSuffix("outputs: \(name): transform \(turn.printed)\n")
            }
        }
    }

    /// The daemon and listen with a replayed touchscreen swipe and left-edge swipe, Mutter's
    /// monitor turned through the four transforms: named as the person holding the device names
    /// them, with the same checks as under sway.
    @Test func mutter_turnedThroughFourTransforms_namesSwipesAndEdgesAsThePersonDoes() throws {
        let s = try DesktopSession.mutter()
        let name: String
        do {
            let p = try X11ScreenSessionTests.PrintScreen(s, environment: Self.listenEnvironment(s))
            name = try Self.outputName(p, s)
        }
        // sway's clockwise names as DisplayConfig's counterclockwise transforms.
        let displayConfig = ["normal": 0, "90": 3, "180": 2, "270": 1]
        try ScreenOrientationSessionTests.turnThroughFour(s, listenEnvironment: Self.listenEnvironment(s), output: name) {
            try s.mutterTransform(displayConfig[$0]!)
        }
    }
}
