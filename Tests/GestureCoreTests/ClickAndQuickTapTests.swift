import GestureCore
import GestureTestSupport
import Testing

/// Physical clicks are not taps; quick taps tolerate a little more end displacement; an edge
/// swipe only where it is bound.
@Suite struct ClickAndQuickTapTests {
    let pad = ScenarioDevices.touchpad()
    let screen = ScenarioDevices.touchscreen()
    let noDouble = Set(GestureKind.all).subtracting([.doubleTap])

    // MARK: clicks

    @Test func click_reportedCase_160msClickpadPress_isNoTap() {
        check("down 1 at (50,50) at 0ms; button down at 30ms; button up at 140ms; up 1 at 160ms",
              on: pad, expect: "nothing", bound: noDouble)
    }
    @Test func click_withoutTheButton_isATap() {
        check("down 1 at (50,50) at 0ms; up 1 at 160ms", on: pad, expect: "tap recognized fingers=1", bound: noDouble)
    }
    @Test func click_buttonPressedJustAfterTheLift_leavesTheTap() {
        check("down 1 at (50,50) at 0ms; up 1 at 160ms; button down at 170ms; button up at 200ms",
              on: pad, expect: "tap recognized fingers=1", bound: noDouble)
    }
    @Test func click_buttonOnlyInTheLastFrameBeforeTheLift_isNoTap() {
        check("down 1 at (50,50) at 0ms; button down at 150ms; up 1 at 160ms; button up at 170ms",
              on: pad, expect: "nothing", bound: noDouble)
    }
    @Test func click_twoFingers_isNoTap() {
        check("down 1 at (40,50), 2 at (60,50) at 0ms; button down at 40ms; button up at 100ms; up 1, 2 at 120ms",
              on: pad, expect: "nothing", bound: noDouble)
    }
    @Test func click_quickDoubleClick_isNoDoubleTap() {
        check("""
            down 1 at (50,50) at 0ms; button down at 20ms; button up at 60ms; up 1 at 80ms
            down 1 at (50,50) at 150ms; button down at 170ms; button up at 210ms; up 1 at 230ms
            """, on: pad, expect: "nothing")
    }
    @Test func click_heldDown_isNoLongPress() {
        check("down 1 at (50,50) at 0ms; button down at 50ms; button up at 650ms; up 1 at 700ms",
              on: pad, expect: "nothing")
    }
    @Test func hold_withoutTheButton_isALongPress() {
        check("down 1 at (50,50) at 0ms; up 1 at 700ms", on: pad,
              expect: "longPress began fingers=1 at=500ms; longPress ended fingers=1")
    }

    // MARK: quick taps (80 ms: 2 mm on a touchpad, 3 mm on a touchscreen; otherwise 1.3 / 2 mm)

    @Test func quickTap_reportedCase_50msSliding1_4mm_isATap() {
        check("down 1 at (50,35) at 0ms; move 1 to (51.4,35) by 40ms; up 1 at 50ms", on: pad,
              expect: "tap recognized fingers=1", bound: noDouble)
    }
    @Test func slowContact_170msMoving1_4mm_isNoTap() {
        check("down 1 at (50,35) at 0ms; move 1 to (51.4,35) by 160ms; up 1 at 170ms", on: pad,
              expect: "nothing", bound: noDouble)
    }
    @Test func quickTap_durationJustInside_isATap() {
        check("down 1 at (50,35) at 0ms; move 1 to (51.9,35) by 70ms; up 1 at 80ms", on: pad,
              expect: "tap recognized fingers=1", bound: noDouble)
    }
    @Test func quickTap_durationJustOutside_isNoTap() {
        check("down 1 at (50,35) at 0ms; move 1 to (51.9,35) by 70ms; up 1 at 81ms", on: pad,
              expect: "nothing", bound: noDouble)
    }
    @Test func quickTap_movementJustBelow_isATap() {
        check("down 1 at (50,35) at 0ms; move 1 to (51.95,35) by 40ms; up 1 at 60ms", on: pad,
              expect: "tap recognized fingers=1", bound: noDouble)
    }
    @Test func quickTap_movementJustAbove_isNoTap() {
        check("down 1 at (50,35) at 0ms; move 1 to (52.05,35) by 40ms; up 1 at 60ms", on: pad,
              expect: "nothing", bound: noDouble)
    }
    @Test func quickTap_touchscreen_edges() {
        check("down 1 at (100,100) at 0ms; move 1 to (102.95,100) by 40ms; up 1 at 60ms", on: screen,
              expect: "tap recognized fingers=1", bound: noDouble)
        check("down 1 at (100,100) at 0ms; move 1 to (103.05,100) by 40ms; up 1 at 60ms", on: screen,
              expect: "nothing", bound: noDouble)
    }

    // MARK: edge swipes only where bound (pad edge zone 5.6 mm)

    @Test func edge_startInsideTheZone_bound_isAnEdgeSwipe() {
        check("down 1 at (94.6,35) at 0ms; move 1 to (64.6,35) by 300ms; up 1 at 310ms", on: pad,
              expect: "edgeSwipe began left edge=right fingers=1; edgeSwipe ended left edge=right fingers=1")
    }
    @Test func edge_startJustOutsideTheZone_isASwipe() {
        check("down 1 at (94.2,35) at 0ms; move 1 to (64.2,35) by 300ms; up 1 at 310ms", on: pad,
              expect: "pan began left fingers=1; swipe recognized left fingers=1; pan ended left fingers=1")
    }
    @Test func edge_startInsideTheZone_unbound_isASwipe() {
        check("down 1 at (94.6,35) at 0ms; move 1 to (64.6,35) by 300ms; up 1 at 310ms", on: pad,
              expect: "pan began left fingers=1; swipe recognized left fingers=1; pan ended left fingers=1",
              bound: Set(GestureKind.all).subtracting([.edgeSwipe]))
    }
    @Test func edge_movingAlongTheEdge_isNoEdgeSwipe() {
        check("down 1 at (97,20) at 0ms; move 1 to (97,50) by 300ms; up 1 at 310ms", on: pad,
              expect: "pan began down fingers=1; swipe recognized down fingers=1; pan ended down fingers=1")
    }
}
