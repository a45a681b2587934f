import GestureCore
import GestureTestSupport
import Testing

@Suite struct RecognizerLongPressTests {
    let pad = ScenarioDevices.touchpad()
    let screen = ScenarioDevices.touchscreen()

    @Test func longPress_heldPastDuration_beganThenEndedAtLift() {
        check("down 1 at (50,35) at 0ms; up 1 at 700ms", on: pad,
              expect: "longPress began fingers=1 at=500ms; longPress ended fingers=1 at=700ms")
    }
    @Test func longPress_liftJustBeforeDuration_nothing() {
        check("down 1 at (50,35) at 0ms; up 1 at 499ms", on: pad, expect: "nothing")
    }
    @Test func longPress_movementJustBelowSlop_stillBegins() {
        check("down 1 at (50,35) at 0ms; move 1 to (51.25,35) by 100ms; up 1 at 600ms", on: pad,
              expect: "longPress began fingers=1 at=500ms; longPress ended fingers=1")
    }
    @Test func longPress_whenFingerMovesToSlop_fails() {
        check("down 1 at (50,35) at 0ms; move 1 to (51.35,35) by 100ms; up 1 at 600ms", on: pad, expect: "nothing")
    }
    @Test func longPress_touchscreen_twoFingers() {
        // Touchscreen: < 3 mm (the Atmel 2-finger hold drifts 2.8 % of the screen).
        check("down 1 at (100,100), 2 at (130,100) at 0ms; move 1 to (102.9,100) by 100ms; up 1, 2 at 650ms", on: screen,
              expect: "longPress began fingers=2 at=500ms; longPress ended fingers=2 at=650ms")
        check("down 1 at (100,100), 2 at (130,100) at 0ms; move 1 to (103.1,100) by 100ms; up 1, 2 at 650ms", on: screen,
              expect: "nothing")
    }
    @Test func longPress_motionAfterBegan_isChanged_notPan() {
        let events = check("down 1 at (50,35) at 0ms; move 1 to (70,35) from 600ms by 800ms; up 1 at 900ms", on: pad,
                           expect: "longPress began fingers=1 at=500ms; longPress ended fingers=1")
        let changed = events.filter { $0.kind == .longPress && $0.phase == .changed }
        #expect(changed.count == 20)
        #expect(abs((events.last?.dxMillimeters ?? 0) - 20) < 1e-6)
    }
    @Test func longPress_twoFingersSlidingOn_spreadingALittle_staysItsDrag() {
        // The Nexio recording: after the hold the fingers slide 60 mm and spread 6 mm apart;
        // translation is more than twice the span change, so no pinch takes the hold over.
        check("down 1 at (100,100), 2 at (130,100) at 0ms; move 1 to (97,160), 2 to (133,160) from 600ms by 1000ms; up 1, 2 at 1010ms",
              on: screen, expect: "longPress began fingers=2 at=500ms; longPress ended fingers=2")
    }
    @Test func longPress_twoFingersSpreadingMoreThanTheySlide_pinchTakesOver() {
        // Just the other side: 10 mm of slide against 8 mm of spread.
        check("down 1 at (100,100), 2 at (130,100) at 0ms; move 1 to (96,110), 2 to (134,110) from 600ms by 1000ms; up 1, 2 at 1010ms",
              on: screen, expect: """
                longPress began fingers=2 at=500ms; longPress cancelled fingers=2
                pinch began fingers=2; pinch ended out fingers=2
                """)
    }
    @Test func longPress_cancelsOnMovement_whenConfigured() {
        check("down 1 at (50,35) at 0ms; move 1 to (52,35) from 600ms by 700ms; up 1 at 900ms", on: pad,
              expect: "longPress began fingers=1 at=500ms; longPress cancelled fingers=1",
              tweak: { $0.longPressCancelsOnMovement = true })
        check("down 1 at (50,35) at 0ms; move 1 to (51.2,35) from 600ms by 700ms; up 1 at 900ms", on: pad,
              expect: "longPress began fingers=1 at=500ms; longPress ended fingers=1 at=900ms",
              tweak: { $0.longPressCancelsOnMovement = true })
    }
    @Test func longPress_fingerCountChangeBeforeBegan_restartsTimer() {
        check("down 1 at (40,35) at 0ms; down 2 at (55,35) at 300ms; up 1, 2 at 900ms", on: pad,
              expect: "longPress began fingers=2 at=800ms; longPress ended fingers=2 at=900ms")
    }
    @Test func longPress_fingerCountChangeAfterBegan_cancelsAfterDebounce() {
        check("down 1 at (40,35) at 0ms; down 2 at (55,35) at 600ms; up 2 at 1300ms; up 1 at 1390ms", on: pad,
              expect: """
                longPress began fingers=1 at=500ms; longPress cancelled fingers=1 at=700ms
                longPress began fingers=2 at=1200ms; longPress ended fingers=2 at=1390ms
                """)
    }
    @Test func longPress_countFlickerWithinDebounce_keepsGoing() {
        check("down 1 at (40,35) at 0ms; down 2 at (55,35) at 600ms; up 2 at 690ms; up 1 at 1000ms", on: pad,
              expect: "longPress began fingers=1 at=500ms; longPress ended fingers=1 at=1000ms")
    }
}
