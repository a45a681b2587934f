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
    // Hold, then move. By default the motion after a hold ends the long press and is a gesture
    // of its own (a person who rests and then scrolls or zooms); with `longPressDrag` it is the
    // long press's own drag.
    @Test func holdThenMove_oneFinger_panAfterTheHold() {
        // One finger rests 0.75 s, then moves 23 mm over 3.9 s.
        check("down 1 at (30,35) at 0ms; move 1 to (53,35) from 750ms by 4650ms; up 1 at 4700ms", on: pad,
              expect: """
                longPress began fingers=1 at=500ms; longPress ended fingers=1
                pan began right fingers=1; swipe recognized right fingers=1; pan ended right fingers=1 at=4700ms
                """)
    }
    @Test func holdThenMove_panBeginsAtThePanSlop() {
        // 1 finger on a pad: the pan slop is 1.5 mm from where the finger landed.
        check("down 1 at (50,35) at 0ms; move 1 to (51.45,35) from 600ms by 700ms; up 1 at 800ms", on: pad,
              expect: "longPress began fingers=1 at=500ms; longPress ended fingers=1 at=800ms")
        check("down 1 at (50,35) at 0ms; move 1 to (51.55,35) from 600ms by 700ms; up 1 at 800ms", on: pad,
              expect: """
                longPress began fingers=1 at=500ms; longPress ended fingers=1 at=700ms
                pan began right fingers=1 at=700ms; pan ended right fingers=1 at=800ms
                """)
    }
    @Test func holdThenMove_twoFingersRestThenScroll_pan() {
        // Two fingers rest 2.4 s on a touchscreen, then scroll 64 mm down together.
        check("down 1 at (100,60), 2 at (130,60) at 0ms; move 1 to (100,124), 2 to (130,124) from 2400ms by 3000ms; up 1, 2 at 3010ms",
              on: screen, expect: """
                longPress began fingers=2 at=500ms; longPress ended fingers=2
                pan began down fingers=2; swipe recognized down fingers=2; pan ended down fingers=2
                """)
        // And on a touchpad, 0.75 s then 23 mm.
        check("down 1 at (40,20), 2 at (55,20) at 0ms; move 1 to (40,43), 2 to (55,43) from 750ms by 1300ms; up 1, 2 at 1310ms",
              on: pad, expect: """
                longPress began fingers=2 at=500ms; longPress ended fingers=2
                pan began down fingers=2; swipe recognized down fingers=2; pan ended down fingers=2
                """)
    }
    @Test func holdThenMove_twoFingersRestThenPinch_pinch() {
        // Two fingers rest 1 s, then pinch to 0.32 of their span.
        check("down 1 at (100,100), 2 at (150,100) at 0ms; move 1 to (117,100), 2 to (133,100) from 1000ms by 1400ms; up 1, 2 at 1410ms",
              on: screen, expect: """
                longPress began fingers=2 at=500ms; longPress ended fingers=2
                pinch began fingers=2; pinch ended in fingers=2
                """)
    }
    @Test func longPressDrag_motionAfterBegan_isChanged_notPan() {
        let events = check("down 1 at (50,35) at 0ms; move 1 to (70,35) from 600ms by 800ms; up 1 at 900ms", on: pad,
                           expect: "longPress began fingers=1 at=500ms; longPress ended fingers=1",
                           tweak: { $0.longPressDrag = true })
        let changed = events.filter { $0.kind == .longPress && $0.phase == .changed }
        #expect(changed.count == 20)
        #expect(abs((events.last?.dxMillimeters ?? 0) - 20) < 1e-6)
    }
    @Test func longPressDrag_twoFingersRestThenScroll_staysTheDrag() {
        check("down 1 at (100,60), 2 at (130,60) at 0ms; move 1 to (100,124), 2 to (130,124) from 2400ms by 3000ms; up 1, 2 at 3010ms",
              on: screen, expect: "longPress began fingers=2 at=500ms; longPress ended fingers=2 at=3010ms",
              tweak: { $0.longPressDrag = true })
    }
    @Test func longPressDrag_twoFingersSlidingOn_spreadingALittle_staysItsDrag() {
        // The Nexio recording: after the hold the fingers slide 60 mm and spread 6 mm apart;
        // translation is more than twice the span change, so no pinch takes the hold over.
        check("down 1 at (100,100), 2 at (130,100) at 0ms; move 1 to (97,160), 2 to (133,160) from 600ms by 1000ms; up 1, 2 at 1010ms",
              on: screen, expect: "longPress began fingers=2 at=500ms; longPress ended fingers=2",
              tweak: { $0.longPressDrag = true })
    }
    @Test func longPressDrag_twoFingersSpreadingMoreThanTheySlide_pinchTakesOver() {
        // Just the other side: 10 mm of slide against 8 mm of spread.
        check("down 1 at (100,100), 2 at (130,100) at 0ms; move 1 to (96,110), 2 to (134,110) from 600ms by 1000ms; up 1, 2 at 1010ms",
              on: screen, expect: """
                longPress began fingers=2 at=500ms; longPress ended fingers=2
                pinch began fingers=2; pinch ended out fingers=2
                """, tweak: { $0.longPressDrag = true })
    }
    @Test func longPress_cancelsOnMovement_whenConfigured() {
        check("down 1 at (50,35) at 0ms; move 1 to (52,35) from 600ms by 700ms; up 1 at 900ms", on: pad,
              expect: """
                longPress began fingers=1 at=500ms; longPress cancelled fingers=1 at=670ms
                pan began right fingers=1 at=680ms; pan ended right fingers=1 at=900ms
                """, tweak: { $0.longPressCancelsOnMovement = true })
        // With the drag, a long press cancelled by movement leaves nothing else to begin.
        check("down 1 at (50,35) at 0ms; move 1 to (52,35) from 600ms by 700ms; up 1 at 900ms", on: pad,
              expect: "longPress began fingers=1 at=500ms; longPress cancelled fingers=1 at=670ms",
              tweak: { $0.longPressCancelsOnMovement = true; $0.longPressDrag = true })
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
