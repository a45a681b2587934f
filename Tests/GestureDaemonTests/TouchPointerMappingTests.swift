import GestureCore
import GestureTestSupport
@testable import GestureDaemon
import Testing

/// `at: touch` clicks through a pointer that shares the touchscreen's own axes, so a gesture's
/// position (in the user's view, after the config's rotation/inversion) must go back to device
/// units: untransform must undo AxisTransform exactly, for every rotation and inversion. The
/// position is the decoder's (it turns a contact's raw position into the user's view).
@Suite struct TouchPointerMappingTests {
    static let x = AbsInfo(minimum: 0, maximum: 4000), y = AbsInfo(minimum: 0, maximum: 2000)
    static let device = TestDevices.anonymous("t", x: x, y: y, properties: [], keys: [])

    /// Where the decoder puts a contact at (`rawX`, `rawY`) on `d` under `t`: fractions of the
    /// user's view (the turned description's size) along its x and y.
    static func viewFractions(_ t: AxisTransform, _ d: DeviceDescription, _ rawX: Int32, _ rawY: Int32) -> (Double, Double) {
        var decoder = SlotDecoder(device: d, transform: t)
        var touch: Touch?
        for e in [ev(0, EventType.abs, AbsCode.mtPositionX, rawX), ev(0, EventType.abs, AbsCode.mtPositionY, rawY),
                  ev(0, EventType.syn, SynCode.mtReport, 0), ev(0, EventType.syn, SynCode.report, 0)] {
            if let f = decoder.decode(e) { touch = f.touches.first }
        }
        let view = t.apply(to: d).size
        return ((touch?.x ?? -1) / view.width, (touch?.y ?? -1) / view.height)
    }

    @Test(arguments: [0, 90, 180, 270], [(false, false), (true, false), (false, true), (true, true)])
    func test_untransform_undoesTheAxisTransform(rotation: Int, inversion: (Bool, Bool)) {
        let t = AxisTransform(rotationDegrees: rotation, invertX: inversion.0, invertY: inversion.1)
        let rawX: Int32 = 400, rawY: Int32 = 600        // 0.1 and 0.3 of their axes: a swap or a mirror shows
        let (fx, fy) = Self.viewFractions(t, Self.device, rawX, rawY)
        let (ux, uy) = ActionService.untransform(fx, fy, t)
        #expect(ActionService.scale(ux, Self.x) == rawX && ActionService.scale(uy, Self.y) == rawY,
                "rotation \(rotation) invert \(inversion): (\(fx), \(fy)) → (\(ux), \(uy))")
    }
}

/// `at: touch` on a turned touchscreen: the click goes back through the whole transform in force
/// (udev's matrix, the config, the screen's turn), so it lands on the panel where the finger was.
@Suite struct TurnedTouchPointerMappingTests {
    @Test(arguments: [0, 90, 180, 270])
    func test_untransform_undoesCalibrationConfigAndScreen(screen: Int) throws {
        let o = DeviceOrientation(calibration: try #require(AxisTransform.calibration("0 -1 1 1 0 0").0),
                                  config: AxisTransform(rotationDegrees: 0, invertY: true),
                                  screen: .screen(clockwiseDegrees: screen))
        let t = o.transform
        let d = TouchPointerMappingTests.device
        let rawX: Int32 = 400, rawY: Int32 = 600
        let (fx, fy) = TouchPointerMappingTests.viewFractions(t, d, rawX, rawY)
        let (ux, uy) = ActionService.untransform(fx, fy, t)
        #expect(ActionService.scale(ux, TouchPointerMappingTests.x) == rawX && ActionService.scale(uy, TouchPointerMappingTests.y) == rawY,
                "screen \(screen): (\(fx), \(fy)) → (\(ux), \(uy))")
    }
}
