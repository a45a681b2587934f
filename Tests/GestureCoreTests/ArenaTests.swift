import GestureCore
import GestureTestSupport
import Testing

@Suite struct ArenaTests {
    let pad = ScenarioDevices.touchpad()
    let screen = ScenarioDevices.touchscreen()

    @Test func arena_resynchronizedFrame_cancelsPanAndIgnoresTouchesUntilLift() {
        check("""
            down 1 at (30,35) at 0ms; move 1 to (50,35) by 100ms; resync at 105ms; move 1 to (70,35) by 200ms; up 1 at 210ms
            down 1 at (50,35) at 400ms; up 1 at 450ms
            """, on: pad, expect: """
            pan began right fingers=1; swipe recognized right fingers=1; pan cancelled fingers=1 at=105ms
            tap recognized fingers=1 after=630ms by=631ms
            """)
    }
    @Test func arena_deviceRemoved_cancelsEverythingInFlight() {
        check("down 1 at (100,100), 2 at (140,100) at 0ms; move 1 to (80,100), 2 to (160,100) by 100ms; removed at 150ms",
              on: screen, expect: "pinch began fingers=2; pinch cancelled fingers=2 at=150ms")
    }
    @Test func arena_cancelAll_cancelsLongPressAndDropsWaitingTap() {
        check("down 1 at (50,35) at 0ms; up 1 at 60ms; cancel at 100ms", on: pad, expect: "nothing")
        check("down 1 at (50,35) at 0ms; cancel at 600ms; up 1 at 700ms; down 1 at (50,35) at 900ms; up 1 at 950ms", on: pad,
              expect: "longPress began fingers=1 at=500ms; longPress cancelled fingers=1 at=600ms; tap recognized fingers=1")
    }
    @Test func arena_panCommitted_excludesPinch() {
        check("""
            down 1 at (40,35), 2 at (55,35) at 0ms; move 1 to (40,50), 2 to (55,50) by 100ms
            move 1 to (30,50), 2 to (65,50) by 200ms; up 1, 2 at 210ms
            """, on: pad, expect: "pan began down fingers=2; swipe recognized down fingers=2; pan ended down fingers=2")
    }
    @Test func arena_pinchCommitted_excludesPanAndSwipe() {
        check("""
            down 1 at (100,100), 2 at (140,100) at 0ms; move 1 to (90,100), 2 to (150,100) by 100ms
            move 1 to (90,60), 2 to (150,60) by 200ms; up 1, 2 at 210ms
            """, on: screen, expect: "pinch began fingers=2; pinch ended out fingers=2")
    }
    @Test func arena_longPressDrag_excludesSwipe() {
        check("down 1 at (50,35) at 0ms; move 1 to (80,35) from 600ms by 700ms; up 1 at 710ms", on: pad,
              expect: "longPress began fingers=1 at=500ms; longPress ended fingers=1 at=710ms", bound: [.longPress, .swipe, .pan],
              tweak: { $0.longPressDrag = true })
    }
    @Test func arena_motionAfterLongPress_endsItAndSwipes() {
        check("down 1 at (50,35) at 0ms; move 1 to (80,35) from 600ms by 700ms; up 1 at 710ms", on: pad,
              expect: """
                longPress began fingers=1 at=500ms; longPress ended fingers=1 at=610ms
                pan began right fingers=1 at=610ms; swipe recognized right fingers=1 at=620ms; pan ended right fingers=1 at=710ms
                """, bound: [.longPress, .swipe, .pan])
    }
    @Test func arena_nextDeadline_andAdvance() {
        var arena = RecognizerArena(device: pad, thresholds: .defaults(for: pad))
        #expect(arena.nextDeadline == nil)
        let down = TouchFrame(time: .milliseconds(0), touches: [Touch(id: 1, slot: 0, phase: .began, x: 50, y: 35)], fingerCount: 1)
        #expect(arena.process(down).isEmpty)
        // Tap timeout (a lift at 180 ms is still a tap: it fails just after) comes before the
        // long press (500 ms).
        #expect(arena.nextDeadline == Instant.milliseconds(180).successor)
        let up = TouchFrame(time: .milliseconds(60), touches: [Touch(id: 1, slot: 0, phase: .ended, x: 50, y: 35)], fingerCount: 0)
        #expect(arena.process(up).isEmpty)
        // Waiting for a second tap: 180 ms after the lift (a second touch at 240 ms still counts).
        #expect(arena.nextDeadline == Instant.milliseconds(240).successor)
        #expect(arena.advance(to: .milliseconds(240)).isEmpty)
        let taps = arena.advance(to: .milliseconds(241))
        #expect(taps.map(\.kind) == [.tap])
        #expect(arena.nextDeadline == nil)
    }
    @Test func arena_overdueDeadlineFiresBeforeLaterFrame() {
        var arena = RecognizerArena(device: pad, thresholds: .defaults(for: pad))
        _ = arena.process(TouchFrame(time: .milliseconds(0), touches: [Touch(id: 1, slot: 0, phase: .began, x: 50, y: 35)], fingerCount: 1))
        // No advance(to:) call: the next frame, at 600 ms, first fires the long press at 500 ms.
        let events = arena.process(TouchFrame(time: .milliseconds(600), touches: [Touch(id: 1, slot: 0, phase: .ended, x: 50, y: 35)], fingerCount: 0))
        #expect(events.map(describe) == ["longPress began fingers=1 at=500ms", "longPress ended fingers=1 at=600ms"])
    }
    @Test func arena_idsAreUniqueAndSharedWithinAGesture() {
        let events = check("down 1 at (30,35) at 0ms; move 1 to (60,35) by 200ms; up 1 at 220ms; down 1 at (50,35) at 400ms; up 1 at 450ms",
                           on: pad, expect: "pan began right fingers=1; swipe recognized right fingers=1; pan ended right fingers=1; tap recognized fingers=1",
                           bound: Set(GestureKind.all).subtracting([.doubleTap]))
        let panIDs = Set(events.filter { $0.kind == .pan }.map(\.id))
        #expect(panIDs.count == 1)
        #expect(Set(events.map(\.id)).count == 3)
    }
    @Test func arena_timeGoingBackwards_reportsBugAndKeepsWorking() {
        var arena = RecognizerArena(device: pad, thresholds: .defaults(for: pad))
        _ = arena.process(TouchFrame(time: .milliseconds(100), touches: [Touch(id: 1, slot: 0, phase: .began, x: 50, y: 35)], fingerCount: 1))
        _ = arena.process(TouchFrame(time: .milliseconds(50), touches: [Touch(id: 1, slot: 0, phase: .ended, x: 50, y: 35)], fingerCount: 0))
        let d = arena.drainDiagnostics()
        #expect(d.count == 1 && d[0].hasPrefix("gestured bug:"))
        #expect(arena.drainDiagnostics().isEmpty)
    }
    @Test func arena_unboundKinds_arbitrateButEmitNothing() {
        // Pan is unbound; the two-finger scroll still keeps the small spread from becoming a pinch.
        check("""
            down 1 at (40,35), 2 at (55,35) at 0ms; move 1 to (40,50), 2 to (55,50) by 100ms
            move 1 to (37,55), 2 to (58,55) by 200ms; up 1, 2 at 210ms
            """, on: pad, expect: "nothing", bound: [.pinch])
    }
    @Test func arena_swipeDoesNotFireWithAPendingFingerCount() {
        // A 1-finger pan is under way when a 2nd finger lands: no swipe with 1 or 2 fingers fires
        // during the debounce; after it, the 2-finger motion starts afresh.
        check("""
            down 1 at (20,35) at 0ms; move 1 to (24.5,35) by 30ms; move 1 to (25,35) by 90ms; down 2 at (25,50) at 100ms
            move 1 to (40,35), 2 to (40,50) by 190ms; move 1 to (70,35), 2 to (70,50) by 360ms; up 1, 2 at 370ms
            """, on: pad, expect: """
            pan began right fingers=1 at=90ms; pan cancelled fingers=1 at=200ms; pan began right fingers=2
            swipe recognized right fingers=2; pan ended right fingers=2
            """)
    }
    @Test func arena_moreThanFiveFingers_spoilTheTouchUntilAllLift() {
        // Six fingers slide 25 mm, then one lifts: the five left must not swipe with that motion.
        let downs = (1...6).map { "\($0) at (\(20 + 10 * $0),20)" }.joined(separator: ", ")
        let moves = (1...6).map { "\($0) to (\(20 + 10 * $0),45)" }.joined(separator: ", ")
        check("down \(downs) at 0ms; move \(moves) by 200ms; up 6 at 210ms; up 1, 2, 3, 4, 5 at 400ms", on: pad, expect: "nothing")
    }
    @Test func arena_sixthFingerLanding_cancelsAPanAtOnce() {
        let downs = (1...5).map { "\($0) at (\(20 + 10 * $0),20)" }.joined(separator: ", ")
        let moves = (1...5).map { "\($0) to (\(20 + 10 * $0),45)" }.joined(separator: ", ")
        check("down \(downs) at 0ms; move \(moves) by 200ms; down 6 at (90,45) at 210ms; up 1, 2, 3, 4, 5, 6 at 400ms",
              on: pad, expect: "pan began down fingers=5; swipe recognized down fingers=5; pan cancelled fingers=5 at=210ms")
    }
    @Test func arena_bogusToolCount_onAProtocolADevice_isIgnored() {
        // N-Trig sends BTN_TOOL_DOUBLETAP with one contact: it is a 1-finger tap.
        let x = AbsInfo(minimum: 0, maximum: 9600), y = AbsInfo(minimum: 0, maximum: 7200)
        let ntrig = TestDevices.anonymous("N-Trig-like", x: x, y: y, properties: [], keys: [KeyCode.btnTouch, KeyCode.btnToolDoubleTap])
        #expect(ntrig.contactProtocol == .anonymous)
        check("down 1 at (50,50) at 0ms; count 2 at 0ms; up 1 at 80ms; count 0 at 80ms", on: ntrig,
              expect: "tap recognized fingers=1", bound: [.tap])
    }
    @Test func arena_moreThanFiveFingers_nothing() {
        let downs = (1...6).map { "\($0) at (\(20 + 10 * $0),35)" }.joined(separator: ", ")
        let moves = (1...6).map { "\($0) to (\(20 + 10 * $0),60)" }.joined(separator: ", ")
        check("down \(downs) at 0ms; move \(moves) by 200ms; up 1, 2, 3, 4, 5, 6 at 210ms", on: pad, expect: "nothing")
    }
}
