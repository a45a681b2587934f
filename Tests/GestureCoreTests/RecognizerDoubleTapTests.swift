import GestureCore
import GestureTestSupport
import Testing

@Suite struct RecognizerDoubleTapTests {
    let pad = ScenarioDevices.touchpad()
    let screen = ScenarioDevices.touchscreen()

    @Test func doubleTap_touchpad_secondDownJustWithinGap() {
        check("down 1 at (50,35) at 0ms; up 1 at 80ms; down 1 at (50,35) at 260ms; up 1 at 330ms", on: pad,
              expect: "doubleTap recognized fingers=1 at=330ms")
    }
    @Test func doubleTap_touchpad_secondDownJustAfterGap_givesTwoTaps() {
        check("down 1 at (50,35) at 0ms; up 1 at 80ms; down 1 at (50,35) at 261ms; up 1 at 330ms", on: pad,
              expect: "tap recognized fingers=1 after=260ms by=261ms; tap recognized fingers=1 after=510ms by=511ms")
    }
    @Test func doubleTap_touchpad_gapGrowsPerExtraFinger() {
        // 2 fingers: 180 + 20 ms.
        check("""
            down 1 at (40,35), 2 at (55,35) at 0ms; up 1, 2 at 80ms
            down 1 at (40,35), 2 at (55,35) at 280ms; up 1, 2 at 350ms
            """, on: pad, expect: "doubleTap recognized fingers=2")
        check("""
            down 1 at (40,35), 2 at (55,35) at 0ms; up 1, 2 at 80ms
            down 1 at (40,35), 2 at (55,35) at 281ms; up 1, 2 at 350ms
            """, on: pad, expect: "tap recognized fingers=2; tap recognized fingers=2")
    }
    @Test func doubleTap_singleTap_waitsForTheGap_latencyCost() {
        // The cost of a doubleTap binding: the tap comes 180 ms after the lift, not at it.
        check("down 1 at (50,35) at 0ms; up 1 at 80ms", on: pad, expect: "tap recognized fingers=1 after=260ms by=261ms")
        check("down 1 at (100,100) at 0ms; up 1 at 80ms", on: screen, expect: "tap recognized fingers=1 after=380ms by=381ms")
    }
    @Test func doubleTap_touchscreen_minimumGap() {
        check("down 1 at (100,100) at 0ms; up 1 at 80ms; down 1 at (100,100) at 119ms; up 1 at 180ms", on: screen,
              expect: "tap recognized fingers=1 at=119ms; tap recognized fingers=1")
        check("down 1 at (100,100) at 0ms; up 1 at 80ms; down 1 at (100,100) at 120ms; up 1 at 180ms", on: screen,
              expect: "doubleTap recognized fingers=1 at=180ms")
    }
    @Test func doubleTap_touchscreen_maximumGapAndDistance() {
        check("down 1 at (100,100) at 0ms; up 1 at 80ms; down 1 at (100,100) at 380ms; up 1 at 430ms", on: screen,
              expect: "doubleTap recognized fingers=1")
        check("down 1 at (100,100) at 0ms; up 1 at 80ms; down 1 at (100,100) at 381ms; up 1 at 430ms", on: screen,
              expect: "tap recognized fingers=1; tap recognized fingers=1")
        check("down 1 at (100,100) at 0ms; up 1 at 80ms; down 1 at (114.9,100) at 200ms; up 1 at 250ms", on: screen,
              expect: "doubleTap recognized fingers=1")
        check("down 1 at (100,100) at 0ms; up 1 at 80ms; down 1 at (115.1,100) at 200ms; up 1 at 250ms", on: screen,
              expect: "tap recognized fingers=1 at=200ms; tap recognized fingers=1")
    }
    @Test func doubleTap_differentFingerCounts_areTwoTaps() {
        check("down 1 at (50,35) at 0ms; up 1 at 80ms; down 1 at (45,35), 2 at (55,35) at 200ms; up 1, 2 at 260ms", on: pad,
              expect: "tap recognized fingers=1 at=260ms; tap recognized fingers=2")
    }
    @Test func doubleTap_secondTouchIsAPan_firstTapStillReported() {
        check("down 1 at (50,35) at 0ms; up 1 at 80ms; down 1 at (50,35) at 200ms; move 1 to (70,35) by 300ms; up 1 at 310ms",
              on: pad, expect: "tap recognized fingers=1; pan began right fingers=1; swipe recognized right fingers=1; pan ended right fingers=1")
    }
    @Test func doubleTap_onlyForBoundFingerCounts() {
        var arena = RecognizerArena(device: pad, thresholds: .defaults(for: pad), doubleTapFingerCounts: [1])
        let events = Scenario("down 1 at (45,35), 2 at (55,35) at 0ms; up 1, 2 at 80ms").run(&arena, tail: 0)
        // Reported at the lift: no doubleTap binding for 2 fingers.
        #expect(events.map(describe) == ["tap recognized fingers=2 at=80ms"])
    }
    @Test func doubleTap_tapUnbound_singleTapReportsNothing() {
        check("down 1 at (50,35) at 0ms; up 1 at 80ms", on: pad, expect: "nothing", bound: [.doubleTap])
        check("down 1 at (50,35) at 0ms; up 1 at 80ms; down 1 at (50,35) at 200ms; up 1 at 260ms", on: pad,
              expect: "doubleTap recognized fingers=1", bound: [.doubleTap])
    }
    @Test func doubleTap_threeTaps_areOneDoubleTapAndOneTap() {
        check("""
            down 1 at (50,35) at 0ms; up 1 at 60ms; down 1 at (50,35) at 150ms; up 1 at 210ms
            down 1 at (50,35) at 300ms; up 1 at 360ms
            """, on: pad, expect: "doubleTap recognized fingers=1 at=210ms; tap recognized fingers=1 after=540ms by=541ms")
    }
}
