import GestureCore
import GestureTestSupport
@testable import GestureDaemon
import Testing

/// `at: touch` clicks through a pointer that shares the touchscreen's own axes, so a gesture's
/// position (in the user's view, after the config's rotation/inversion) must go back to device
/// units: untransform must undo AxisTransform exactly, for every rotation and inversion.
@Suite struct TouchPointerMappingTests {
    static let x = AbsInfo(minimum: 0, maximum: 4000), y = AbsInfo(minimum: 0, maximum: 2000)
    static let device = TestDevices.anonymous("t", x: x, y: y, properties: [], keys: [])

    @Test(arguments: [0, 90, 180, 270], [(false, false), (true, false), (false, true), (true, true)])
    func test_untransform_undoesTheAxisTransform(rotation: Int, inversion: (Bool, Bool)) {
        let t = AxisTransform(rotationDegrees: rotation, invertX: inversion.0, invertY: inversion.1)
        let rawX: Int32 = 400, rawY: Int32 = 600        // 0.1 and 0.3 of their axes: a swap or a mirror shows
        let ex = t.apply(ev(0, EventType.abs, AbsCode.mtPositionX, rawX), device: Self.device)
        let ey = t.apply(ev(0, EventType.abs, AbsCode.mtPositionY, rawY), device: Self.device)
        // The user's view: the transformed description's ranges, fractions on its X and Y.
        let view = t.apply(to: Self.device)
        var fx = 0.0, fy = 0.0
        for e in [ex, ey] {
            let info = view.absInfo[e.code]!
            let f = Double(e.value - info.minimum) / Double(info.maximum - info.minimum)
            if e.code == AbsCode.mtPositionX { fx = f } else { fy = f }
        }
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
        let view = t.apply(to: d)
        var fx = 0.0, fy = 0.0
        for e in [t.apply(ev(0, EventType.abs, AbsCode.mtPositionX, rawX), device: d), t.apply(ev(0, EventType.abs, AbsCode.mtPositionY, rawY), device: d)] {
            let info = view.absInfo[e.code]!
            let f = Double(e.value - info.minimum) / Double(info.maximum - info.minimum)
            if e.code == AbsCode.mtPositionX { fx = f } else { fy = f }
        }
        let (ux, uy) = ActionService.untransform(fx, fy, t)
        #expect(ActionService.scale(ux, TouchPointerMappingTests.x) == rawX && ActionService.scale(uy, TouchPointerMappingTests.y) == rawY,
                "screen \(screen): (\(fx), \(fy)) → (\(ux), \(uy))")
    }
}
