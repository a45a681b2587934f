import GestureConfig
import GestureCore
import Testing

/// `orientation:` on a device rule, and the orientation a device opens with (issue 29).
@Suite struct OrientationConfigTests {
    static let screen = DeviceDescription(name: "ELAN panel", properties: [InputProperty.direct],
                                          codes: [EventType.key: [KeyCode.btnTouch]],
                                          absInfo: [AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 1000),
                                                    AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 600)])

    @Test func test_orientationAccelerometer_isOptInPerDevice() throws {
        let c = try Config.parse("devices:\n  - match: {name: \"ELAN*\"}\n    orientation: accelerometer\n", file: "t")
        #expect(c.settings(for: Self.screen).followAccelerometer)
        #expect(!Config().settings(for: Self.screen).followAccelerometer)
        let later = try Config.parse("devices:\n  - match: {}\n    orientation: accelerometer\n  - match: {}\n    orientation: session\n", file: "t")
        #expect(!later.settings(for: Self.screen).followAccelerometer)
    }

    @Test func test_aBadOrientation_isAnErrorWithLineAndColumn() {
        var d: [ConfigDiagnostic] = []
        do { _ = try Config.parse("devices:\n  - match: {}\n    orientation: gyroscope\n", file: "t.yaml") }
        catch { d = error.diagnostics }
        #expect(d.count == 1 && d.first?.line == 3 && d.first?.column == 18)
        #expect(d.first?.message.contains("orientation must be session or accelerometer") == true)
    }

    /// udev's matrix first, then the config's rotation: libinput's 90° then the config's 90° is 180°.
    @Test func test_atOpen_composesUdevThenConfig_touchscreensOnly() {
        var s = DeviceSettings(thresholds: .defaults(for: Self.screen))
        s.rotation = 90
        let (o, notes) = DeviceOrientation.atOpen(kind: .touchscreen, settings: s, calibrationMatrix: "0 -1 1 1 0 0", output: "eDP-1")
        #expect(notes.isEmpty && o.transform == AxisTransform(rotationDegrees: 180) && o.output == "eDP-1")
        #expect(o.sources == ["udev LIBINPUT_CALIBRATION_MATRIX=0 -1 1 1 0 0", "config rotated 90°"])
        let pad = DeviceOrientation.atOpen(kind: .touchpad, settings: DeviceSettings(thresholds: .defaults(for: Self.screen)),
                                           calibrationMatrix: "0 -1 1 1 0 0")
        #expect(pad.orientation.transform == .identity && pad.notes.first?.contains("touchscreens only") == true)
        let bad = DeviceOrientation.atOpen(kind: .touchscreen, settings: s, calibrationMatrix: "1 2 3")
        #expect(bad.orientation.transform == AxisTransform(rotationDegrees: 90) && bad.notes.first?.contains("not six numbers") == true)
    }
}
