import GestureCore
import GestureTestSupport
import Testing

/// Tap scenarios (doubleTap unbound unless the test is about the wait, so taps come at lift).
@Suite struct RecognizerTapTests {
    let pad = ScenarioDevices.touchpad()
    let screen = ScenarioDevices.touchscreen()
    let noDouble = Set(GestureKind.all).subtracting([.doubleTap])

    @Test func tap_oneFinger_touchpad_recognizedAtLift() {
        check("down 1 at (50,35) at 0ms; up 1 at 100ms", on: pad, expect: "tap recognized fingers=1 at=100ms", bound: noDouble)
    }
    @Test func tap_liftJustWithinTimeout_recognized() {
        check("down 1 at (50,35) at 0ms; up 1 at 180ms", on: pad, expect: "tap recognized fingers=1 at=180ms", bound: noDouble)
    }
    @Test func tap_liftJustAfterTimeout_fails() {
        check("down 1 at (50,35) at 0ms; up 1 at 181ms", on: pad, expect: "nothing", bound: noDouble)
    }
    @Test func tap_movementJustBelowSlop_recognized() {
        check("down 1 at (50,35) at 0ms; move 1 to (51.25,35) by 50ms; up 1 at 100ms", on: pad,
              expect: "tap recognized fingers=1", bound: noDouble)
    }
    @Test func tap_whenFingerMovesBeyondSlop_fails() {
        check("down 1 at (50,35) at 0ms; move 1 to (51.4,35) by 50ms; up 1 at 100ms", on: pad,
              expect: "nothing", bound: noDouble)
    }
    @Test func tap_threeFingersStaggered_countsMaximum() {
        check("""
            down 1 at (40,35) at 0ms; down 2 at (50,35) at 20ms; down 3 at (60,35) at 40ms
            up 1 at 100ms; up 2 at 120ms; up 3 at 140ms
            """, on: pad, expect: "tap recognized fingers=3 at=140ms", bound: noDouble)
    }
    @Test func tap_touchpadTimeoutGrowsPerExtraFinger() {
        // Two fingers: 180 + 20 ms after the last down.
        check("down 1 at (40,35) at 0ms; down 2 at (50,35) at 30ms; up 2 at 215ms; up 1 at 230ms", on: pad,
              expect: "tap recognized fingers=2 at=230ms", bound: noDouble)
        check("down 1 at (40,35) at 0ms; down 2 at (50,35) at 30ms; up 2 at 215ms; up 1 at 231ms", on: pad,
              expect: "nothing", bound: noDouble)
    }
    @Test func tap_timeoutCountsFromTheLastFingerDown() {
        // 2nd finger lands at 100 ms: the 180 ms run from there (lift at 270 ms is in time).
        check("down 1 at (40,35) at 0ms; down 2 at (50,35) at 100ms; up 1, 2 at 270ms", on: pad,
              expect: "tap recognized fingers=2", bound: noDouble)
    }
    @Test(arguments: 1...5) func tap_nFingers_touchscreen(n: Int) {
        let downs = (1...n).map { "down \($0) at (\(50 + 20 * $0),100) at 0ms" }.joined(separator: "; ")
        let ups = "up " + (1...n).map(String.init).joined(separator: ", ") + " at 250ms"
        check("\(downs); \(ups)", on: screen, expect: "tap recognized fingers=\(n)", bound: noDouble)
    }
    @Test func tap_sixFingers_isNoTap() {
        let downs = (1...6).map { "down \($0) at (\(50 + 20 * $0),100) at 0ms" }.joined(separator: "; ")
        check("\(downs); up 1, 2, 3, 4, 5, 6 at 100ms", on: screen, expect: "nothing", bound: noDouble)
    }
    @Test func tap_touchscreen_timeoutAndSlopEdges() {
        check("down 1 at (100,100) at 0ms; up 1 at 300ms", on: screen, expect: "tap recognized fingers=1", bound: noDouble)
        check("down 1 at (100,100) at 0ms; up 1 at 301ms", on: screen, expect: "nothing", bound: noDouble)
        check("down 1 at (100,100) at 0ms; move 1 to (101.95,100) by 50ms; up 1 at 100ms", on: screen,
              expect: "tap recognized fingers=1", bound: noDouble)
        check("down 1 at (100,100) at 0ms; move 1 to (102.05,100) by 50ms; up 1 at 100ms", on: screen,
              expect: "nothing", bound: noDouble)
    }
    @Test func tap_wobbleOutAndBack_withinExcursion_isATap() {
        // Real taps roll out and back (ALPS: 2.8 mm in 70 ms). Touchpad excursion: 4 mm.
        check("down 1 at (50,35) at 0ms; move 1 to (53.9,35) by 30ms; move 1 to (50.5,35) by 60ms; up 1 at 70ms", on: pad,
              expect: "tap recognized fingers=1", bound: noDouble)
        // Down longer than tapQuickDuration (80 ms): the 4 mm excursion holds.
        check("down 1 at (50,35) at 0ms; move 1 to (54.1,35) by 30ms; move 1 to (50.5,35) by 60ms; move 1 to (50.5,35) by 130ms; up 1 at 140ms",
              on: pad, expect: "nothing", bound: noDouble)
        // Touchscreen excursion: 6 mm.
        check("down 1 at (100,100) at 0ms; move 1 to (100,105.9) by 30ms; move 1 to (100,101) by 60ms; move 1 to (100,101) by 130ms; up 1 at 140ms",
              on: screen, expect: "tap recognized fingers=1", bound: noDouble)
        check("down 1 at (100,100) at 0ms; move 1 to (100,106.1) by 30ms; move 1 to (100,101) by 60ms; move 1 to (100,101) by 130ms; up 1 at 140ms",
              on: screen, expect: "nothing", bound: noDouble)
    }
    // A quick tap's landing jitters: a contact no longer than tapQuickDuration (80 ms) may stray
    // tapQuickMaximumExcursion (touchpad 5 mm, touchscreen 8 mm) before it lifts.
    @Test func quickTap_landingJitter_swingsOutAndBack_isATap() {
        // 71 ms, 4.2 mm out and back within 50 ms, lifting 1 mm from where it landed.
        check("down 1 at (50,35) at 0ms; move 1 to (54.2,35) by 20ms; move 1 to (51,35) by 50ms; up 1 at 71ms", on: pad,
              expect: "tap recognized fingers=1 at=71ms", bound: noDouble)
    }
    @Test func quickTap_excursionEdges_touchpad() {
        check("down 1 at (50,35) at 0ms; move 1 to (54.9,35) by 30ms; move 1 to (51,35) by 60ms; up 1 at 71ms", on: pad,
              expect: "tap recognized fingers=1", bound: noDouble)
        check("down 1 at (50,35) at 0ms; move 1 to (55.1,35) by 30ms; move 1 to (51,35) by 60ms; up 1 at 71ms", on: pad,
              expect: "pan began right fingers=1 at=30ms; pan ended right fingers=1", bound: noDouble)
    }
    @Test func quickTap_durationEdges() {
        // 4.5 mm out and back: a tap when the contact lasts 80 ms, none when it lasts 81 ms.
        check("down 1 at (50,35) at 0ms; move 1 to (54.5,35) by 30ms; move 1 to (51,35) by 60ms; up 1 at 80ms", on: pad,
              expect: "tap recognized fingers=1", bound: noDouble)
        check("down 1 at (50,35) at 0ms; move 1 to (54.5,35) by 30ms; move 1 to (51,35) by 60ms; up 1 at 81ms", on: pad,
              expect: "nothing", bound: noDouble)
    }
    @Test func quickTap_excursionEdges_touchscreen() {
        check("down 1 at (100,100) at 0ms; move 1 to (100,107.9) by 30ms; move 1 to (100,101) by 60ms; up 1 at 71ms", on: screen,
              expect: "tap recognized fingers=1", bound: noDouble)
        check("down 1 at (100,100) at 0ms; move 1 to (100,108.1) by 30ms; move 1 to (100,101) by 60ms; up 1 at 71ms", on: screen,
              expect: "pan began down fingers=1 at=30ms; pan ended down fingers=1", bound: noDouble)
    }
    @Test func tap_semiMT_twoFingers_boxJumpsDoNotFailTheTap() {
        let semi = ScenarioDevices.touchpad(semiMT: true, slots: 2)
        check("down 1 at (40,30), 2 at (60,40) at 0ms; move 1 to (40,25) by 40ms; move 1 to (38,22) by 80ms; up 1, 2 at 120ms",
              on: semi, expect: "tap recognized fingers=2", bound: noDouble)
    }
    @Test func tap_semiMT_countsFromBtnTool() {
        // Two slots, three fingers: BTN_TOOL_TRIPLETAP gives the count, the box corners jump.
        let semi = ScenarioDevices.touchpad(semiMT: true, slots: 2)
        check("""
            down 1 at (40,30), 2 at (45,32) at 0ms
            count 3 at 10ms; move 2 to (60,40) by 10ms
            up 1, 2 at 90ms; count 0 at 90ms
            """, on: semi, expect: "tap recognized fingers=3", bound: noDouble)
    }
    @Test func tap_position_isCentroidFraction() {
        let events = check("down 1 at (25,35) at 0ms; up 1 at 50ms", on: pad, expect: "tap recognized fingers=1", bound: noDouble)
        #expect(abs((events.first?.x ?? -1) - 0.25) < 1e-9)
        #expect(abs((events.first?.y ?? -1) - 0.5) < 1e-9)
    }
}
