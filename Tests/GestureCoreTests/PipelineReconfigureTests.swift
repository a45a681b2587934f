import GestureCore
import GestureTestSupport
import Testing

/// A reload's new settings take over a device's pipeline only when nothing is on it
/// (`isIdle`), and the new pipeline continues the old one (issue 27).
@Suite struct PipelineReconfigureTests {
    /// One finger in slot 2 moving 50 mm right over 200 ms on the test touchscreen.
    static func stroke(at t0: Int64, id: Int32) -> [InputEvent] {
        var out = [ev(t0, EventType.abs, AbsCode.mtSlot, 2), ev(t0, EventType.abs, AbsCode.mtTrackingId, id),
                   ev(t0, EventType.abs, AbsCode.mtPositionX, 200), ev(t0, EventType.abs, AbsCode.mtPositionY, 250),
                   ev(t0, EventType.key, KeyCode.btnTouch, 1), ev(t0, EventType.syn, SynCode.report, 0)]
        for k in 1...10 {
            out += [ev(t0 + Int64(k) * 20, EventType.abs, AbsCode.mtPositionX, Int32(200 + k * 50)),
                    ev(t0 + Int64(k) * 20, EventType.syn, SynCode.report, 0)]
        }
        // The lift: no ABS_MT_SLOT, the device's current slot is still 2.
        out += [ev(t0 + 220, EventType.abs, AbsCode.mtTrackingId, -1), ev(t0 + 220, EventType.key, KeyCode.btnTouch, 0),
                ev(t0 + 220, EventType.syn, SynCode.report, 0)]
        return out
    }

    static func gestures(_ p: inout GesturePipeline, _ events: [InputEvent]) -> [GestureEvent] {
        var out: [GestureEvent] = []
        for e in events { p.feed(e) { if case .gesture(let g) = $0 { out.append(g) } } }
        return out
    }

    @Test func isIdle_onlyWithNothingDownAndNothingWaiting() {
        var p = GesturePipeline(device: TestDevices.screen)
        #expect(p.isIdle)
        let s = Self.stroke(at: 0, id: 1)
        for e in s.prefix(6) { p.feed(e) { _ in } }
        #expect(!p.isIdle, "a finger is down")
        for e in s.dropFirst(6) { p.feed(e) { _ in } }
        #expect(p.isIdle, "lifted, and the pan ended: nothing waits")
        // A tap waiting for its double tap is not idle.
        var q = GesturePipeline(device: TestDevices.screen, doubleTapFingerCounts: [1])
        for e in [ev(0, EventType.abs, AbsCode.mtTrackingId, 5), ev(0, EventType.abs, AbsCode.mtPositionX, 500),
                  ev(0, EventType.abs, AbsCode.mtPositionY, 500), ev(0, EventType.key, KeyCode.btnTouch, 1),
                  ev(0, EventType.syn, SynCode.report, 0), ev(60, EventType.abs, AbsCode.mtTrackingId, -1),
                  ev(60, EventType.key, KeyCode.btnTouch, 0), ev(60, EventType.syn, SynCode.report, 0)] { q.feed(e) { _ in } }
        #expect(!q.isIdle, "the tap waits for a possible second tap")
        q.advance(to: .milliseconds(2000)) { _ in }
        #expect(q.isIdle)
    }

    @Test func reconfigured_takesNewThresholds_andContinuesSlotAndNumbering() {
        var p = GesturePipeline(device: TestDevices.screen)
        let first = Self.gestures(&p, Self.stroke(at: 0, id: 1))
        #expect(first.contains { $0.kind == .swipe }, "50 mm is a swipe at the defaults: \(first.map(\.kind))")
        var t = Thresholds.defaults(for: p.device)
        t.swipeMinimumDistance = 900
        var q = p.reconfigured(thresholds: t, boundKinds: Set(GestureKind.all), doubleTapFingerCounts: [])
        // The second stroke never says ABS_MT_SLOT: it is read in slot 2, where the device is.
        let second = Self.gestures(&q, Array(Self.stroke(at: 1000, id: 2).dropFirst()))
        #expect(!second.contains { $0.kind == .swipe }, "900 mm is not reached: \(second.map(\.kind))")
        #expect(second.contains { $0.kind == .pan }, "the stroke is still seen (slot carried over): \(second.map(\.kind))")
        let firstIDs = Set(first.map(\.id)), secondIDs = Set(second.map(\.id))
        #expect(firstIDs.isDisjoint(with: secondIDs), "gesture ids continue: \(firstIDs) then \(secondIDs)")
    }
}
