import Testing
@testable import GestureCore
import GestureTestSupport

/// A new transform takes over at the next moment no finger is down and nothing waits, never
/// under a finger (GesturePipeline+Orientation.swift).
@Suite struct PipelineOrientationTests {
    /// 1 finger from the middle of the 100 × 50 mm test screen 30 mm towards its top (y down)
    /// in 10 steps of 10 ms; down at `ms`, lifted 10 ms after the last step.
    static func swipeUp(at ms: Int64, id: Int32) -> [InputEvent] {
        var e = contact(ms, slot: 0, id: id, x: 600, y: 400) + [ev(ms, EventType.key, KeyCode.btnTouch, 1), syn(ms)]
        for i in 1...10 {
            let t = ms + Int64(i) * 10
            e += [ev(t, EventType.abs, AbsCode.mtPositionY, 400 - Int32(i) * 30), syn(t)]
        }
        let end = ms + 110
        return e + [ev(end, EventType.abs, AbsCode.mtTrackingId, -1), ev(end, EventType.key, KeyCode.btnTouch, 0), syn(end)]
    }

    static func swipes(_ events: [InputEvent], into p: inout GesturePipeline) -> [GestureEvent] {
        var out: [GestureEvent] = []
        for e in events { p.feed(e) { if case .gesture(let g) = $0, g.kind == .swipe { out.append(g) } } }
        return out
    }

    @Test func test_aTurnAskedForUnderAFinger_waitsForTheLift() {
        var p = GesturePipeline(device: TestDevices.screen, boundKinds: [.swipe, .pan])
        let first = Self.swipeUp(at: 1000, id: 1)
        // The finger is down and moving when the screen turns (sway transform 90).
        var seen = Self.swipes(Array(first.prefix(12)), into: &p)
        let atOnce = p.setTransform(.screen(clockwiseDegrees: 90))
        #expect(atOnce == false)
        #expect(p.pendingTransform != nil && p.transform == .identity)
        seen += Self.swipes(Array(first.dropFirst(12)), into: &p)
        #expect(seen.map(\.direction) == [.up], "the swipe keeps the axes it began in")
        // Lifted: the turn is in force, and the device's axes swapped (50 wide, 100 high).
        #expect(p.pendingTransform == nil && p.transform == .screen(clockwiseDegrees: 90))
        #expect(p.device.size.width == 50 && p.device.size.height == 100)
        // The same motion on the glass is now the picture's left (its top is at the panel's right).
        let second = Self.swipes(Self.swipeUp(at: 3000, id: 2), into: &p)
        #expect(second.map(\.direction) == [.left])
        #expect((second.first?.id ?? 0) > (seen.first?.id ?? 0), "gesture ids go on, never repeat")
    }

    @Test func test_aTurnAskedForWhileIdle_isInForceAtOnce() {
        var p = GesturePipeline(device: TestDevices.screen, boundKinds: [.swipe, .pan])
        var atOnce = p.setTransform(.screen(clockwiseDegrees: 180))
        #expect(atOnce)
        #expect(Self.swipes(Self.swipeUp(at: 1000, id: 1), into: &p).map(\.direction) == [.down])
        atOnce = p.setTransform(.identity)
        #expect(atOnce)
        #expect(Self.swipes(Self.swipeUp(at: 3000, id: 2), into: &p).map(\.direction) == [.up])
    }

    /// A tap waiting to become a double tap is a gesture in flight: the turn waits for its end.
    @Test func test_aWaitingTap_holdsTheTurnBackUntilItResolves() {
        var p = GesturePipeline(device: TestDevices.screen, boundKinds: Set(GestureKind.all), doubleTapFingerCounts: [1])
        let tap = contact(1000, slot: 0, id: 1, x: 600, y: 250) + [ev(1000, EventType.key, KeyCode.btnTouch, 1), syn(1000),
                  ev(1040, EventType.abs, AbsCode.mtTrackingId, -1), ev(1040, EventType.key, KeyCode.btnTouch, 0), syn(1040)]
        for e in tap { p.feed(e) { _ in } }
        #expect(p.nextDeadline != nil)
        let atOnce = p.setTransform(.screen(clockwiseDegrees: 270))
        #expect(atOnce == false)
        p.advance(to: .milliseconds(5000)) { _ in }
        #expect(p.transform == .screen(clockwiseDegrees: 270))
    }

    /// The decoder of the turned device starts from the positions the old one held: the kernel
    /// sends only changed values, so a new touch at the old x sends no ABS_MT_POSITION_X.
    @Test func test_theTurnedDecoder_keepsTheLastPositions() {
        var p = GesturePipeline(device: TestDevices.screen, boundKinds: [.swipe])
        for e in Self.swipeUp(at: 1000, id: 1) { p.feed(e) { _ in } }
        let atOnce = p.setTransform(.screen(clockwiseDegrees: 180))
        #expect(atOnce)
        // A new touch with only its tracking id: it is where the last one lifted (x 600, y 100).
        var touch: Touch?
        for e in contact(3000, slot: 0, id: 2) + [ev(3000, EventType.key, KeyCode.btnTouch, 1), syn(3000)] {
            p.feed(e) { if case .frame(let f) = $0 { touch = f.touches.first } }
        }
        // Turned 180°: x 600 of 100…1100 is 50 mm from either side; y 100 of 0…500 is 40 mm from the bottom.
        #expect(touch.map { abs($0.x - 50) < 0.01 && abs($0.y - 40) < 0.01 } == true, "\(String(describing: touch))")
    }
}
