import GestureCore
import GestureTestSupport
import Testing

@Suite struct RecognizerPanTests {
    let pad = ScenarioDevices.touchpad()
    let screen = ScenarioDevices.touchscreen()

    @Test func pan_twoFingers_slopEdges() {
        // Touchpad slop for two fingers: 1.5 + 0.5 mm; the move starts after the tap window
        // (200 ms for two fingers), so only the slop decides.
        let hold = "down 1 at (40,35), 2 at (55,35) at 0ms; move 1 to (40,35), 2 to (55,35) by 220ms"
        check("\(hold); move 1 to (41.9,35), 2 to (56.9,35) by 270ms; up 1, 2 at 400ms",
              on: pad, expect: "nothing", bound: [.pan])
        check("\(hold); move 1 to (42.1,35), 2 to (57.1,35) by 270ms; up 1, 2 at 400ms",
              on: pad, expect: "pan began right fingers=2 at=270ms; pan ended right fingers=2 at=400ms", bound: [.pan])
    }
    @Test func pan_oneFinger_touchscreenSlop() {
        let hold = "down 1 at (100,100) at 0ms; move 1 to (100,100) by 320ms"
        check("\(hold); move 1 to (100,101.9) by 370ms; up 1 at 400ms", on: screen, expect: "nothing", bound: [.pan])
        check("\(hold); move 1 to (100,102.1) by 370ms; up 1 at 400ms", on: screen,
              expect: "pan began down fingers=1 at=370ms; pan ended down fingers=1", bound: [.pan])
    }
    @Test func pan_waitsForTheTapToFail_thenCarriesTheWholeMotion() {
        // 1.55 mm per frame: the tap's quick excursion (5 mm within the first 80 ms) is passed at
        // 40 ms, where the pan begins with everything moved so far.
        let events = check("down 1 at (30,35) at 0ms; move 1 to (61,35) by 200ms; up 1 at 220ms", on: pad,
                           expect: "pan began right fingers=1 at=40ms; pan ended right fingers=1", bound: [.pan])
        #expect(abs((events.first?.dxMillimeters ?? 0) - 6.2) < 1e-9)
        #expect(abs((events.first?.stepDxMillimeters ?? 0) - 6.2) < 1e-9)
    }
    @Test func pan_stepsSumToTotal_andVelocity() {
        let events = check("down 1 at (40,35), 2 at (55,35) at 0ms; move 1 to (40,55), 2 to (55,55) by 200ms; up 1, 2 at 210ms",
                           on: pad, expect: "pan began down fingers=2; pan ended down fingers=2", bound: [.pan])
        let pans = events.filter { $0.kind == .pan }
        let sumY = pans.reduce(0.0) { $0 + ($1.stepDyMillimeters ?? 0) }
        #expect(abs(sumY - 20) < 1e-9)
        #expect(abs((pans.last?.dyMillimeters ?? 0) - 20) < 1e-9)
        #expect(pans.allSatisfy { $0.id == pans[0].id })
        // 100 mm/s steady for 200 ms: the smoothed velocity has converged.
        let v = pans.dropLast().last?.velocityMillimetersPerSecond ?? 0
        #expect(v > 95 && v < 105)
    }
    @Test func pan_fingerCountChange_cancelsAfterDebounce_thenRestarts() {
        check("""
            down 1 at (40,35), 2 at (55,35) at 0ms; move 1 to (40,45), 2 to (55,45) by 100ms
            down 3 at (70,45) at 100ms; move 1 to (40,60), 2 to (55,60), 3 to (70,60) by 300ms; up 1, 2, 3 at 310ms
            """, on: pad, expect: """
            pan began down fingers=2; pan cancelled fingers=2 at=200ms; pan began down fingers=3; pan ended down fingers=3
            """, bound: [.pan])
    }
    @Test func pan_countFlickerWithinDebounce_isNotCancelled() {
        check("""
            down 1 at (40,35), 2 at (55,35) at 0ms; move 1 to (40,45), 2 to (55,45) by 100ms
            down 3 at (70,45) at 100ms; up 3 at 199ms; move 1 to (40,60), 2 to (55,60) by 300ms; up 1, 2 at 310ms
            """, on: pad, expect: "pan began down fingers=2; pan ended down fingers=2 at=310ms", bound: [.pan])
    }
    @Test func pan_fingerCountDebounce_edges() {
        // A third finger that stays 99 ms changes nothing; one that stays 100 ms cancels the pan.
        let start = "down 1 at (40,35), 2 at (55,35) at 0ms; move 1 to (40,45), 2 to (55,45) by 100ms; down 3 at (70,45) at 100ms"
        check("\(start); up 3 at 199ms; move 1 to (40,50), 2 to (55,50) by 300ms; up 1, 2 at 310ms", on: pad,
              expect: "pan began down fingers=2; pan ended down fingers=2", bound: [.pan])
        check("\(start); up 3 at 200ms; move 1 to (40,50), 2 to (55,50) by 300ms; up 1, 2 at 310ms", on: pad,
              expect: "pan began down fingers=2; pan cancelled fingers=2 at=200ms; pan began down fingers=2; pan ended down fingers=2",
              bound: [.pan])
    }
    @Test func pan_staggeredLift_endsNotCancels() {
        check("""
            down 1 at (40,35), 2 at (55,35), 3 at (70,35) at 0ms; move 1 to (40,55), 2 to (55,55), 3 to (70,55) by 200ms
            up 1 at 210ms; up 2 at 240ms; up 3 at 290ms
            """, on: pad, expect: "pan began down fingers=3; pan ended down fingers=3 at=290ms", bound: [.pan])
    }
    @Test func pan_andSwipe_runTogether() {
        check("down 1 at (40,35), 2 at (55,35) at 0ms; move 1 to (20,35), 2 to (35,35) by 200ms; up 1, 2 at 210ms", on: pad,
              expect: "pan began left fingers=2; swipe recognized left fingers=2; pan ended left fingers=2")
    }
}
