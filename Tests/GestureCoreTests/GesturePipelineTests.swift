import GestureCore
import GestureTestSupport
import Testing

/// GesturePipeline: one set of deadlines (decoder watchdog + arena waits) fired by one rule.
@Suite struct GesturePipelineTests {
    /// A touch whose tracking id −1 was lost: BTN_TOUCH went up at 100 ms, nothing since.
    static let stuck: [InputEvent] = [
        ev(0, EventType.abs, AbsCode.mtTrackingId, 1), ev(0, EventType.abs, AbsCode.mtPositionX, 300),
        ev(0, EventType.abs, AbsCode.mtPositionY, 200), ev(0, EventType.key, KeyCode.btnTouch, 1),
        ev(0, EventType.syn, SynCode.report, 0),
        ev(100, EventType.key, KeyCode.btnTouch, 0), ev(100, EventType.syn, SynCode.report, 0),
    ]

    /// Issue 9 bug 2, in the core: the watchdog is a deadline like the arena's, so the caller's
    /// timer ends the touch without waiting for the device to send anything.
    @Test func nextDeadline_coversTheStuckTouchWatchdog() {
        var p = GesturePipeline(device: TestDevices.screen)
        var frames: [TouchFrame] = []
        var diagnostics: [String] = []
        let collect: (GesturePipeline.Output) -> Void = { o in
            switch o {
            case .frame(let f): frames.append(f)
            case .diagnostic(let d): diagnostics.append(d)
            case .gesture: break
            }
        }
        for e in Self.stuck { p.feed(e, collect) }
        // The arena's waits come first (long press); the watchdog's is 2 s after the last frame.
        var last = Instant.zero
        while let d = p.nextDeadline, d <= .milliseconds(10_000) {
            #expect(d >= last, "deadlines go forward")
            last = d
            p.advance(to: d, collect)
        }
        let ended = frames.last?.touches.filter { $0.phase == .ended } ?? []
        #expect(ended.count == 1, "\(frames)")
        #expect(frames.last?.time == .milliseconds(2100), "ended at the watchdog's deadline")
        #expect(diagnostics.contains { $0.contains("still down") })
        #expect(p.nextDeadline == nil, "nothing left to wait for")
    }

    @Test func advance_firesDeadlinesInTimeOrder_beforeALaterEvent() {
        var p = GesturePipeline(device: TestDevices.screen)
        var times: [Instant] = []
        let collect: (GesturePipeline.Output) -> Void = { o in
            switch o {
            case .frame(let f): times.append(f.time)
            case .gesture(let g): times.append(g.time)
            case .diagnostic: break
            }
        }
        for e in Self.stuck { p.feed(e, collect) }
        // The device speaks again at 5 s: everything due before then fires first, at its own time.
        p.feed(ev(5000, EventType.syn, SynCode.report, 0), collect)
        #expect(times == times.sorted(), "\(times)")
        #expect(times.contains(.milliseconds(2100)))
        #expect(times.last == .milliseconds(5000))
    }

    /// The state at open is in the device's own units and stays so under a rotation: the
    /// pipeline's state is the device's, and a contact that continues from it is turned only as a
    /// touch, the same as one whose values came in events.
    @Test func initialState_staysInTheDevicesUnits_andTouchesTurnAlike() {
        let t = AxisTransform(rotationDegrees: 90)
        var state = EvdevState(slotCount: TestDevices.screen.slotCount)
        state.set(slot: 0, code: AbsCode.mtTrackingId, -1)
        state.set(slot: 0, code: AbsCode.mtPositionX, 300); state.set(slot: 0, code: AbsCode.mtPositionY, 500)
        var opened = GesturePipeline(device: TestDevices.screen, transform: t, initialState: state)
        #expect(opened.state.value(slot: 0, code: AbsCode.mtPositionX) == 300)
        #expect(opened.state.value(slot: 0, code: AbsCode.mtPositionY) == 500)
        var fresh = GesturePipeline(device: TestDevices.screen, transform: t)
        // The same contact: one pipeline knew its position from open (the kernel sends no value it
        // holds already), the other is told it.
        var a: [Touch] = [], b: [Touch] = []
        for e in [ev(0, EventType.abs, AbsCode.mtTrackingId, 1), ev(0, EventType.key, KeyCode.btnTouch, 1), ev(0, EventType.syn, SynCode.report, 0)] {
            opened.feed(e) { if case .frame(let f) = $0 { a += f.touches } }
        }
        for e in [ev(0, EventType.abs, AbsCode.mtTrackingId, 1), ev(0, EventType.abs, AbsCode.mtPositionX, 300),
                  ev(0, EventType.abs, AbsCode.mtPositionY, 500), ev(0, EventType.key, KeyCode.btnTouch, 1),
                  ev(0, EventType.syn, SynCode.report, 0)] {
            fresh.feed(e) { if case .frame(let f) = $0 { b += f.touches } }
        }
        #expect(a.count == 1 && b.count == 1)
        #expect(a.first?.x == b.first?.x && a.first?.y == b.first?.y)
    }
}
