// The screen's orientation under KDE's compositor: a real headless KWin (Debian 12's 5.27) whose
// output is turned with kscreen-doctor, which sets it through libkscreen and
// kde_output_management_v2 as KDE's display settings and its auto-rotation do. `gestured
// listen` follows it through wl_output (WaylandScreen.swift), which KWin sends again on every
// turn, so no KDE backend is needed.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

private let kwinInstalled = access("/usr/bin/kwin_wayland", X_OK) == 0 && access("/usr/bin/kscreen-doctor", X_OK) == 0
    && access("/usr/bin/dbus-daemon", X_OK) == 0

@Suite(.serialized, .enabled(if: kwinInstalled, "kwin_wayland, kscreen-doctor or dbus-daemon is not installed (Debian packages kwin-wayland, libkf5screen-bin, dbus-daemon); Tests/test.sh installs them"))
struct KWinScreenSessionTests {
    /// kscreen-doctor's rotations as listen names them, from the sources: libkscreen 5.27's KWin
    /// backend (backends/kwayland/waylandoutputdevice.cpp, toKWaylandTransform) sends `left` as
    /// WL_OUTPUT_TRANSFORM_90, `inverted` as 180, `right` as 270. wayland.xml counts these
    /// counterclockwise ("90 degrees counter-clockwise"), listen clockwise as sway does, so
    /// `left` turns the picture a quarter counterclockwise, as xrandr's `left` does: listen's
    /// 270. (KDE's display settings label `left` "90° Clockwise" with a monitor icon turned
    /// clockwise, kscreen's kcm/package/contents/ui/RotationButton.qml: the turn of the device,
    /// which the picture undoes.) libkscreen 5.27 has no flipped rotations (src/output.h:
    /// None, Left, Inverted, Right) and kscreen-doctor takes none (src/doctor/doctor.cpp), so
    /// KDE's tools cannot mirror the screen here.
    static let turns: [(kscreen: String, printed: String)] = [
        ("left", "270"), ("inverted", "180"), ("right", "90"), ("normal", "normal"),
    ]

    /// sway's clockwise names (the person's table in ScreenOrientationSessionTests) as
    /// kscreen-doctor's rotations, from the same sources.
    static let kscreenRotation = ["normal": "normal", "90": "right", "180": "inverted", "270": "left"]

    static func listenEnvironment(_ s: DesktopSession) -> [String: String] {
        s.environment.filter { ["WAYLAND_DISPLAY", "XDG_RUNTIME_DIR"].contains($0.key) }
    }

    /// listen's name for KWin's one output, from its first report: the one kscreen-doctor lists.
    static func outputName(_ p: X11ScreenSessionTests.PrintScreen, _ s: DesktopSession) throws -> String {
        try s.waitUntil("the first report: \(p.out) \(p.log)", seconds: 30) { p.out.contains(": transform normal\n") }
        guard let name = p.out.firstMatch(of: /outputs: ([^;\n]+): transform normal\n/)?.1 else {
            throw TestFailure(description: "no single output in \(p.out)")
        }
        let listed = try s.kwinOutputs().map(\.name)
        #expect(listed == [String(name)], "listen's output name, kscreen-doctor lists \(listed)")
        return String(name)
    }

    @Test func kwin_printScreen_followsKscreenDoctorThroughWlOutput() throws {
        let s = try DesktopSession.kwin()
        let p = try X11ScreenSessionTests.PrintScreen(s, environment: Self.listenEnvironment(s))
        let name = try Self.outputName(p, s)
        #expect(p.log.contains("following Wayland wl_output output transforms"), "\(p.log)")
        for turn in Self.turns {
            try s.kscreenDoctor(["output.\(name).rotation.\(turn.kscreen)"])
            try s.waitUntil("kscreen-doctor rotation \(turn.kscreen): \(p.out)", seconds: 30) {
                p.out.hasSuffix("outputs: \(name): transform \(turn.printed)\n")
            }
        }
    }

    /// The daemon and listen with a replayed touchscreen swipe and left-edge swipe, KWin's
    /// output turned through the four rotations: named as the person holding the device names
    /// them, with the same checks as under sway.
    @Test func kwin_turnedThroughFourRotations_namesSwipesAndEdgesAsThePersonDoes() throws {
        let s = try DesktopSession.kwin()
        let name: String
        do {
            let p = try X11ScreenSessionTests.PrintScreen(s, environment: Self.listenEnvironment(s))
            name = try Self.outputName(p, s)
        }
        try ScreenOrientationSessionTests.turnThroughFour(s, listenEnvironment: Self.listenEnvironment(s), output: name) {
            try s.kscreenDoctor(["output.\(name).rotation.\(Self.kscreenRotation[$0]!)"])
        }
    }
}
