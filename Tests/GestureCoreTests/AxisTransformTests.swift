import Testing
@testable import GestureCore
import GestureTestSupport

/// A rotated touchscreen: 200 × 100 mm, 10 units per mm, protocol B.
@Suite struct AxisTransformTests {
    let screen = TestDevices.slots("rotated panel", slots: 10, x: TestDevices.axis(0, 2000, 10), y: TestDevices.axis(0, 1000, 10))

    /// One finger down at device units (x, y); returns where the decoder puts it, in mm.
    func touchDown(at x: Int32, _ y: Int32, _ t: AxisTransform) -> (x: Double, y: Double, width: Double, height: Double)? {
        let device = t.apply(to: screen)
        var decoder = SlotDecoder(device: screen, transform: t)
        let raw = [
            ev(0, EventType.abs, AbsCode.mtTrackingId, 1),
            ev(0, EventType.abs, AbsCode.mtPositionX, x),
            ev(0, EventType.abs, AbsCode.mtPositionY, y),
            ev(0, EventType.key, KeyCode.btnTouch, 1),
            ev(0, EventType.syn, SynCode.report, 0),
        ]
        var frame: TouchFrame?
        for e in raw { if let f = decoder.decode(e) { frame = f } }
        guard let touch = frame?.touches.first else { return nil }
        return (touch.x, touch.y, device.size.width, device.size.height)
    }

    @Test func test_identity_leavesPositionsAlone() throws {
        let p = try #require(touchDown(at: 100, 200, .identity))
        #expect(abs(p.x - 10) < 0.01 && abs(p.y - 20) < 0.01)
        #expect(p.width == 200 && p.height == 100)
    }

    @Test func test_rotation90_putsTheTopLeftCornerAtTheTopRight() throws {
        let p = try #require(touchDown(at: 0, 0, AxisTransform(rotationDegrees: 90)))
        // The surface is now 100 wide, 200 high; (0,0) went clockwise to the top-right corner.
        #expect(p.width == 100 && p.height == 200)
        #expect(abs(p.x - 100) < 0.01 && abs(p.y - 0) < 0.01)
    }

    @Test func test_rotation90_movesAPointClockwise() throws {
        // 10 mm right of the top-left, 20 mm down → 20 mm from the right edge, 10 mm down.
        let p = try #require(touchDown(at: 100, 200, AxisTransform(rotationDegrees: 90)))
        #expect(abs(p.x - 80) < 0.01 && abs(p.y - 10) < 0.01)
    }

    @Test func test_rotation180_mirrorsBothAxes() throws {
        let p = try #require(touchDown(at: 100, 200, AxisTransform(rotationDegrees: 180)))
        #expect(abs(p.x - 190) < 0.01 && abs(p.y - 80) < 0.01)
        #expect(p.width == 200 && p.height == 100)
    }

    @Test func test_rotation270_movesAPointCounterclockwise() throws {
        let p = try #require(touchDown(at: 100, 200, AxisTransform(rotationDegrees: 270)))
        #expect(abs(p.x - 20) < 0.01 && abs(p.y - 190) < 0.01)
    }

    @Test func test_invertX_mirrorsOnlyX_afterTheRotation() throws {
        let p = try #require(touchDown(at: 100, 200, AxisTransform(rotationDegrees: 0, invertX: true)))
        #expect(abs(p.x - 190) < 0.01 && abs(p.y - 20) < 0.01)
        let q = try #require(touchDown(at: 100, 200, AxisTransform(rotationDegrees: 90, invertY: true)))
        #expect(abs(q.x - 80) < 0.01 && abs(q.y - 190) < 0.01)
    }

    /// The transform turns touches, never the device's state: the decoder keeps the values as
    /// the device sent them, in its own axes.
    @Test func test_deviceState_staysInTheDevicesUnits() {
        var decoder = SlotDecoder(device: screen, transform: AxisTransform(rotationDegrees: 90, invertX: true))
        for e in [ev(0, EventType.abs, AbsCode.mtTrackingId, 7), ev(0, EventType.abs, AbsCode.mtPositionX, 100),
                  ev(0, EventType.abs, AbsCode.mtPositionY, 200), ev(0, EventType.key, KeyCode.btnTouch, 1),
                  ev(0, EventType.syn, SynCode.report, 0)] { _ = decoder.decode(e) }
        #expect(decoder.state.value(slot: 0, code: AbsCode.mtTrackingId) == 7)
        #expect(decoder.state.value(slot: 0, code: AbsCode.mtPositionX) == 100)
        #expect(decoder.state.value(slot: 0, code: AbsCode.mtPositionY) == 200)
        #expect(decoder.state.isDown(KeyCode.btnTouch))
    }
}
