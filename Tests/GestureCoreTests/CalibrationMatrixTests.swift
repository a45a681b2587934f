import Testing
@testable import GestureCore
import GestureTestSupport

/// udev's LIBINPUT_CALIBRATION_MATRIX and the screen's turn as `AxisTransform`s. The matrices
/// are libinput's documented ones (doc/user/absolute-axes.rst: "0 -1 1 1 0 0" turns 90°
/// clockwise, "-1 0 1 0 -1 1" 180°, "0 1 0 -1 0 1" 270°), not gestured's output.
@Suite struct CalibrationMatrixTests {
    @Test(arguments: [("0 -1 1 1 0 0", 90), ("-1 0 1 0 -1 1", 180), ("0 1 0 -1 0 1", 270), ("1 0 0 0 1 0", 0)])
    func test_libinputsRotationMatrices_areTheConfigsRotations(text: String, degrees: Int) throws {
        let (t, problem) = AxisTransform.calibration(text)
        #expect(problem == nil)
        let m = try #require(t)
        #expect(m == AxisTransform(rotationDegrees: degrees))
        #expect(m.rotationDegrees == degrees)
    }

    @Test func test_theTopLeftCornerGoesWhereLibinputPutsIt() throws {
        // 90° clockwise: the device's top-left (0,0) is the picture's top-right (1,0).
        let t = try #require(AxisTransform.calibration("0 -1 1 1 0 0").0)
        let p = t.map(0, 0)
        #expect(p.x == 1 && p.y == 0)
        let back = t.unmap(p.x, p.y)
        #expect(back.x == 0 && back.y == 0)
    }

    @Test func test_badMatrices_sayWhy() {
        #expect(AxisTransform.calibration("1 0 0 0 1").1 == .notSixNumbers("1 0 0 0 1"))
        #expect(AxisTransform.calibration("1 0 0 0 one 0").1 == .notSixNumbers("1 0 0 0 one 0"))
        #expect(AxisTransform.calibration("1 0 0 0 0 0").0 == nil)
        #expect(AxisTransform.calibration("1 0 0 0 0 0").1 == .flattensAnAxis)
        // A slight shear: the nearest axis-aligned map (no turn) is used, and said.
        let (t, problem) = AxisTransform.calibration("1 0.1 0 0 1 0")
        #expect(problem == .notAxisAligned)
        #expect(t == .identity)
    }

    @Test func test_quarterTurnsCompose() {
        let r90 = AxisTransform(rotationDegrees: 90)
        #expect(r90.then(r90) == AxisTransform(rotationDegrees: 180))
        #expect(r90.then(r90).then(r90).then(r90) == .identity)
        #expect(r90.then(r90.inverse) == .identity)
        #expect(AxisTransform(rotationDegrees: 270, invertX: true).then(AxisTransform(rotationDegrees: 270, invertX: true).inverse) == .identity)
    }

    @Test func test_summary_namesTheTurnAndTheMirror() {
        #expect(AxisTransform.identity.summary == "as the device reports")
        #expect(AxisTransform(rotationDegrees: 270).summary == "rotated 270°")
        #expect(AxisTransform(rotationDegrees: 90, invertX: true).summary == "rotated 90°, x inverted")
        #expect(AxisTransform.calibration("1.25 0 -0.125 0 1 0").0?.summary == "matrix 1.25 0 -0.125 0 1 0")
    }

    /// A calibration that trims the panel: the picture spans the middle 80 % of the x axis.
    @Test func test_scaleAndOffset_movePositionsAndHoldThemAtThePicturesEdge() throws {
        let t = try #require(AxisTransform.calibration("1.25 0 -0.125 0 1 0").0)
        let d = TestDevices.screen   // x 100…1100
        func x(_ raw: Int32) -> Int32 { t.pictureAxes(d, x: AbsCode.mtPositionX, y: AbsCode.mtPositionY).x.value(raw) }
        #expect(x(200) == 100)          // 10 % of the panel: the picture's left edge
        #expect(x(600) == 600)          // the middle stays
        #expect(x(1000) == 1100)        // 90 %: the picture's right edge
        #expect(x(100) == 100)          // outside the picture: held at its edge
        #expect(x(1100) == 1100)
    }

    /// sway's `transform 90` turns the picture 90° clockwise: its top is at the panel's right
    /// edge, its left at the panel's top. The person turns the device a quarter counterclockwise.
    @Test func test_screenTurnedClockwise_putsThePicturesTopAtThePanelsRight() {
        let t = AxisTransform.screen(clockwiseDegrees: 90)
        let rightMiddle = t.map(1, 0.5), topMiddle = t.map(0.5, 0)
        #expect(rightMiddle.x == 0.5 && rightMiddle.y == 0)       // the picture's top
        #expect(topMiddle.x == 0 && topMiddle.y == 0.5)           // the picture's left
        #expect(AxisTransform.screen(clockwiseDegrees: 180).map(0, 0) == (1, 1))
        let flipped = AxisTransform.screen(clockwiseDegrees: 0, flipped: true).map(0.25, 0.5)
        #expect(flipped.x == 0.75 && flipped.y == 0.5)
    }

    @Test func test_orientation_appliesCalibrationThenConfigThenScreen() {
        let o = DeviceOrientation(calibration: AxisTransform(rotationDegrees: 90), calibrationSource: "udev LIBINPUT_CALIBRATION_MATRIX",
                                  config: AxisTransform(rotationDegrees: 0, invertX: true),
                                  screen: AxisTransform.screen(clockwiseDegrees: 90), screenSource: "sway output X")
        // (0,0) → 90°: (1,0) → invert x: (0,0) → screen 90 (= rotation 270: x' = y, y' = 1 − x): (0,1).
        let p = o.transform.map(0, 0)
        #expect(p.x == 0 && p.y == 1)
        #expect(o.sources == ["udev LIBINPUT_CALIBRATION_MATRIX=0 -1 1 1 0 0", "config x inverted",
                              "screen rotated 270°: sway output X"])
    }
}
