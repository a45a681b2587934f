import GestureCore
import GestureTestSupport
import Testing

/// When the first line of a multi-finger stroke comes: fingers that all move the same way past
/// the pan slop fail the tap then, so the pan begins at the slop, not at the tap's excursion.
@Suite struct FirstLineTests {
    let pad = ScenarioDevices.touchpad()
    let noDouble = Set(GestureKind.all).subtracting([.doubleTap])

    /// The touchpad of Tests/VM/latency.py: protocol B, 5 slots, 0…4000 × 0…2500 at 40 units a mm,
    /// BTN_TOOL_* up to five fingers, a clickpad.
    static let latencyPad = TestDevices.slots(
        "sidebyside synthetic touchpad", slots: 5, x: TestDevices.axis(0, 4000, 40), y: TestDevices.axis(0, 2500, 40),
        properties: [InputProperty.pointer, InputProperty.buttonpad],
        keys: Set(TestDevices.fingerKeys + [KeyCode.btnLeft]),
        axes: [AbsCode.x: TestDevices.axis(0, 4000, 40), AbsCode.y: TestDevices.axis(0, 2500, 40)])

    /// latency.py's `swipe_frames` for the touchpad: 3 fingers land at x 1000, 1600, 2200, y 1200,
    /// move 60 units (1.5 mm) right per frame for 20 frames, lift; one frame every 12 ms (80 Hz).
    static func latencySwipe(trial: Int32 = 1) -> [InputEvent] {
        let xs: [Int32] = [1000, 1600, 2200], y: Int32 = 1200, step: Int32 = 60
        var out: [InputEvent] = []
        for (i, x) in xs.enumerated() {
            out += contact(0, slot: Int32(i), id: trial * 10 + Int32(i), x: x, y: y)
        }
        out += [ev(0, EventType.key, KeyCode.btnTouch, 1), ev(0, EventType.key, KeyCode.btnToolTripleTap, 1),
                ev(0, EventType.abs, AbsCode.x, xs[0]), ev(0, EventType.abs, AbsCode.y, y), syn(0)]
        for k in Int32(1)...20 {
            let ms = Int64(k) * 12
            for (i, x) in xs.enumerated() {
                out += [ev(ms, EventType.abs, AbsCode.mtSlot, Int32(i)), ev(ms, EventType.abs, AbsCode.mtPositionX, x + k * step)]
            }
            out += [ev(ms, EventType.abs, AbsCode.x, xs[0] + k * step), syn(ms)]
        }
        for i in xs.indices { out += contact(252, slot: Int32(i), id: -1) }
        out += [ev(252, EventType.key, KeyCode.btnTouch, 0), ev(252, EventType.key, KeyCode.btnToolTripleTap, 0), syn(252)]
        return out
    }

    static func gestures(_ events: [InputEvent], on device: DeviceDescription) -> [GestureEvent] {
        var pipeline = GesturePipeline(device: device)
        var out: [GestureEvent] = []
        let emit: (GesturePipeline.Output) -> Void = { if case .gesture(let g) = $0 { out.append(g) } }
        pipeline.feed(contentsOf: events, emit)
        pipeline.finish(emit)
        return out
    }

    /// libinput reports GESTURE_SWIPE_BEGIN for this stroke at frame 2 (3 mm); the 3-finger pan
    /// slop (2.5 mm) is passed there too, while the tap's excursion (5 mm this early) would
    /// wait for frame 4.
    @Test func latencyDriverSwipe_panBeginsAtFrame2() {
        let events = Self.gestures(Self.latencySwipe(), on: Self.latencyPad)
        let first = events.first { $0.phase == .began || $0.phase == .recognized }
        #expect(first?.kind == .pan)
        #expect(first?.fingers == 3)
        #expect(first?.direction == .right)
        #expect(first?.time == .milliseconds(24), "first line at \(String(describing: first?.time)), frame 2 is 24 ms")
        #expect(abs((first?.dxMillimeters ?? 0) - 3) < 1e-9)
        // The swipe still needs its 6 mm (frame 4), and nothing else happens.
        let swipe = events.first { $0.kind == .swipe }
        #expect(swipe?.time == .milliseconds(48))
        #expect(events.allSatisfy { $0.kind == .pan || $0.kind == .swipe }, "\(events.map(\.kind))")
        #expect(events.last?.kind == .pan && events.last?.phase == .ended)
    }

    @Test func threeFingers_togetherPastSlop_beginAtTheSlop() {
        // 100 mm/s, a frame every 10 ms: 3 mm at 30 ms passes the 2.5 mm slop with every finger.
        check("down 1 at (30,35), 2 at (45,35), 3 at (60,35) at 0ms; move 1 to (50,35), 2 to (65,35), 3 to (80,35) by 200ms; up 1, 2, 3 at 210ms",
              on: pad, expect: "pan began right fingers=3 at=30ms; swipe recognized right fingers=3 at=60ms; pan ended right fingers=3",
              bound: noDouble)
    }

    @Test func threeFingerTap_wobblingEachItsOwnWay_staysTap() {
        // Each finger rolls 2 mm out and back its own way (more than the 1.3 mm a finger may end
        // away, less than the 4 mm excursion): they share no travel.
        check("""
            down 1 at (30,35), 2 at (45,35), 3 at (60,35) at 0ms
            move 1 to (32,35), 2 to (45,37), 3 to (58,35) by 40ms
            move 1 to (30,35), 2 to (45,35), 3 to (60,35) by 100ms; up 1, 2, 3 at 120ms
            """, on: pad, expect: "tap recognized fingers=3 at=120ms", bound: noDouble)
    }

    @Test func threeFingers_rollingTogetherOutAndBack_areNoTap() {
        // The same stroke out and back, all three fingers 3 mm the same way: a pan's worth of
        // shared travel, so the tap has failed (it was a tap by the excursion alone).
        check("""
            down 1 at (30,35), 2 at (45,35), 3 at (60,35) at 0ms
            move 1 to (33,35), 2 to (48,35), 3 to (63,35) by 40ms
            move 1 to (30,35), 2 to (45,35), 3 to (60,35) by 100ms; up 1, 2, 3 at 120ms
            """, on: pad, expect: "pan began right fingers=3 at=40ms; pan ended fingers=3 at=120ms", bound: noDouble)
        check("""
            down 1 at (30,35), 2 at (45,35), 3 at (60,35) at 0ms
            move 1 to (32.2,35), 2 to (47.2,35), 3 to (62.2,35) by 40ms
            move 1 to (30,35), 2 to (45,35), 3 to (60,35) by 100ms; up 1, 2, 3 at 120ms
            """, on: pad, expect: "tap recognized fingers=3 at=120ms", bound: noDouble)
    }
}
