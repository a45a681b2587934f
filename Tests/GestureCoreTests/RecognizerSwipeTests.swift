import GestureCore
import GestureTestSupport
import Testing

@Suite struct RecognizerSwipeTests {
    let pad = ScenarioDevices.touchpad()
    let screen = ScenarioDevices.touchscreen()

    @Test func swipe_oneFingerRight_recognizedAtThreshold_notAtLift() {
        // 31 mm in 200 ms, a frame every 10 ms (1.55 mm each): 6 mm is reached at 40 ms, where
        // the tap's quick excursion (5 mm) is passed too and the pan begins.
        check("down 1 at (30,35) at 0ms; move 1 to (61,35) by 200ms; up 1 at 220ms", on: pad, expect: """
            pan began right fingers=1 at=40ms; swipe recognized right fingers=1 at=40ms; pan ended right fingers=1 at=220ms
            """)
    }
    @Test func swipe_justBelowDistance_noSwipe() {
        check("down 1 at (30,35) at 0ms; move 1 to (35.9,35) by 100ms; up 1 at 120ms", on: pad,
              expect: "pan began right fingers=1; pan ended right fingers=1")
    }
    @Test func swipe_justAboveDistance_swipe() {
        check("down 1 at (30,35) at 0ms; move 1 to (36.1,35) by 100ms; up 1 at 120ms", on: pad,
              expect: "pan began right fingers=1; swipe recognized right fingers=1 at=100ms; pan ended right fingers=1")
    }
    @Test(arguments: [("left", "(20,35)"), ("up", "(50,15)"), ("down", "(50,55)"), ("right", "(80,35)")])
    func swipe_fourDirections(direction: String, target: String) {
        check("down 1 at (50,35) at 0ms; move 1 to \(target) by 150ms; up 1 at 160ms", on: pad,
              expect: "swipe recognized \(direction) fingers=1", bound: [.swipe])
    }
    @Test func swipe_eightDirections_diagonal() {
        check("down 1 at (30,20) at 0ms; move 1 to (50,38) by 150ms; up 1 at 160ms", on: pad,
              expect: "swipe recognized downRight fingers=1", bound: [.swipe], directions: 8)
        let events = check("down 1 at (30,20) at 0ms; move 1 to (50,38) by 150ms; up 1 at 160ms", on: pad,
                           expect: "swipe recognized right fingers=1", bound: [.swipe], directions: 4)
        // dx/dy are carried so a binding can re-quantize.
        let e = events[0]
        #expect(GestureDirection.quantize(dx: e.dxMillimeters!, dy: e.dyMillimeters!, directions: 8) == .downRight)
        #expect(abs(e.distanceMillimeters! - (e.dxMillimeters! * e.dxMillimeters! + e.dyMillimeters! * e.dyMillimeters!).squareRoot()) < 1e-9)
    }
    @Test func swipe_eightSectorBoundaries() {
        // ±22.5° around each axis.
        #expect(GestureDirection.quantize(dx: 10, dy: 4.1, directions: 8) == .right)
        #expect(GestureDirection.quantize(dx: 10, dy: 4.2, directions: 8) == .downRight)
        #expect(GestureDirection.quantize(dx: -4.1, dy: -10, directions: 8) == .up)
        #expect(GestureDirection.quantize(dx: -4.2, dy: -10, directions: 8) == .upLeft)
        #expect(GestureDirection.quantize(dx: -10, dy: 9.9, directions: 4) == .left)
        #expect(GestureDirection.quantize(dx: 0, dy: 0, directions: 4) == nil)
    }
    @Test func swipe_velocityAndDistance() {
        let events = check("down 1 at (30,35) at 0ms; move 1 to (60,35) by 200ms; up 1 at 220ms", on: pad,
                           expect: "swipe recognized right fingers=1", bound: [.swipe])
        let e = events[0]
        #expect(e.distanceMillimeters! >= 6 && e.distanceMillimeters! < 6.1)
        // 150 mm/s steady motion; the smoothed value is below it while it ramps up.
        #expect(e.velocityMillimetersPerSecond! > 60 && e.velocityMillimetersPerSecond! <= 150.001)
    }
    @Test func swipe_threeFingersTouchscreen_thresholdFifteenMillimeters() {
        let fingers = "down 1 at (100,100), 2 at (120,100), 3 at (140,100) at 0ms"
        check("\(fingers); move 1 to (100,85.1), 2 to (120,85.1), 3 to (140,85.1) by 100ms; up 1, 2, 3 at 120ms",
              on: screen, expect: "nothing", bound: [.swipe])
        check("\(fingers); move 1 to (100,84.9), 2 to (120,84.9), 3 to (140,84.9) by 100ms; up 1, 2, 3 at 120ms",
              on: screen, expect: "swipe recognized up fingers=3 at=100ms", bound: [.swipe])
    }
    @Test func swipe_stillFingers_noSwipe() {
        // Jitter well inside the slop, back and forth for 400 ms.
        var text = "down 1 at (50,35), 2 at (60,35) at 0ms"
        for i in 1...40 {
            let j = i % 2 == 0 ? 0.3 : -0.3
            text += "; move 1 to (\(50 + j),35), 2 to (\(60 - j),35) by \(i * 10)ms"
        }
        text += "; up 1, 2 at 410ms"
        check(text, on: pad, expect: "nothing")
    }
    @Test func swipe_oncePerSequence() {
        check("down 1 at (20,35) at 0ms; move 1 to (60,35) by 200ms; move 1 to (20,35) by 400ms; up 1 at 410ms", on: pad,
              expect: "swipe recognized right fingers=1", bound: [.swipe])
    }
}
