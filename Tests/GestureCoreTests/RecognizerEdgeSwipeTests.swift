import GestureCore
import GestureTestSupport
import Testing

@Suite struct RecognizerEdgeSwipeTests {
    /// 100 × 70 mm: edge zone min(8 mm, 8 % of 70 mm) = 5.6 mm.
    let pad = ScenarioDevices.touchpad()
    /// 300 × 200 mm: edge zone 4 mm, commit at 15 mm.
    let screen = ScenarioDevices.touchscreen()

    @Test func edgeSwipe_fromLeftEdge_touchpad() {
        let events = check("down 1 at (3,35) at 0ms; move 1 to (24,35) by 100ms; up 1 at 110ms", on: pad,
                           expect: "edgeSwipe began right edge=left fingers=1 at=50ms; edgeSwipe ended right edge=left fingers=1")
        #expect(abs((events.last?.distanceMillimeters ?? 0) - 21) < 1e-9)
    }
    @Test func edgeSwipe_zoneEdges_touchpad() {
        check("down 1 at (5.5,35) at 0ms; move 1 to (25.5,35) by 100ms; up 1 at 110ms", on: pad,
              expect: "edgeSwipe began right edge=left fingers=1; edgeSwipe ended right edge=left fingers=1")
        check("down 1 at (5.7,35) at 0ms; move 1 to (25.7,35) by 100ms; up 1 at 110ms", on: pad,
              expect: "pan began right fingers=1; swipe recognized right fingers=1; pan ended right fingers=1")
    }
    @Test func edgeSwipe_commitDistanceEdges() {
        check("down 1 at (97,35) at 0ms; move 1 to (87.1,35) by 100ms; up 1 at 110ms", on: pad, expect: "nothing")
        check("down 1 at (97,35) at 0ms; move 1 to (86.9,35) by 100ms; up 1 at 110ms", on: pad,
              expect: "edgeSwipe began left edge=right fingers=1 at=100ms; edgeSwipe ended left edge=right fingers=1")
    }
    @Test func edgeSwipe_angleEdges() {
        // 44° off the inward normal still counts; 46° fails and becomes a swipe.
        check("down 1 at (150,2) at 0ms; move 1 to (169.3,22) by 100ms; up 1 at 110ms", on: screen,
              expect: "edgeSwipe began down edge=top fingers=1; edgeSwipe ended down edge=top fingers=1")
        check("down 1 at (150,2) at 0ms; move 1 to (170.7,22) by 100ms; up 1 at 110ms", on: screen,
              expect: "pan began right fingers=1; swipe recognized right fingers=1; pan ended right fingers=1")
    }
    @Test func edgeSwipe_fromCorner_needsHalfTheAngle() {
        // Top-left corner of the pad: 20° off the left edge's normal is an edge swipe, 30° is a
        // diagonal swipe.
        check("down 1 at (2,2) at 0ms; move 1 to (20.8,8.84) by 100ms; up 1 at 110ms", on: pad,
              expect: "edgeSwipe began right edge=left fingers=1; edgeSwipe ended right edge=left fingers=1")
        check("down 1 at (2,2) at 0ms; move 1 to (19.3,12) by 100ms; up 1 at 110ms", on: pad,
              expect: "swipe recognized downRight fingers=1", bound: [.swipe, .edgeSwipe], directions: 8)
    }
    @Test func edgeSwipe_afterAPauseAtTheEdge_takesOverTheLongPress() {
        // Two fingers rest at the left edge of a screen for 0.5 s, then swipe in.
        check("down 1 at (2,20), 2 at (2,34) at 0ms; move 1 to (22,20), 2 to (22,34) from 600ms by 800ms; up 1, 2 at 810ms",
              on: screen, expect: """
                longPress began fingers=2 at=500ms; longPress ended fingers=2
                edgeSwipe began right edge=left fingers=2; edgeSwipe ended right edge=left fingers=2
                """)
    }
    @Test func edgeSwipe_afterAPauseAtTheEdgeOfAPad_isNoLongPress() {
        // The Bamboo recording: on a touchpad, fingers resting in the edge-palm zone are palms
        // until they move (RestingContacts.swift): no long press, then the edge swipe from where
        // they landed.
        check("down 1 at (2,20), 2 at (2,34) at 0ms; move 1 to (22,20), 2 to (22,34) from 600ms by 800ms; up 1, 2 at 810ms",
              on: pad, expect: "edgeSwipe began right edge=left fingers=2; edgeSwipe ended right edge=left fingers=2")
    }
    @Test func edgeSwipe_alongTheEdge_isAPanDown() {
        check("down 1 at (98,10) at 0ms; move 1 to (98,40) by 300ms; up 1 at 310ms", on: pad,
              expect: "pan began down fingers=1; swipe recognized down fingers=1; pan ended down fingers=1")
    }
    @Test func edgeSwipe_bottomEdge_twoFingers_touchscreen() {
        check("down 1 at (140,198), 2 at (160,198) at 0ms; move 1 to (140,170), 2 to (160,170) by 100ms; up 1, 2 at 110ms",
              on: screen, expect: "edgeSwipe began up edge=bottom fingers=2; edgeSwipe ended up edge=bottom fingers=2")
    }
    @Test func edgeSwipe_unbound_isASwipe() {
        check("down 1 at (3,35) at 0ms; move 1 to (23,35) by 100ms; up 1 at 110ms", on: pad,
              expect: "swipe recognized right fingers=1", bound: [.swipe])
    }
    @Test func edgeSwipe_unknownSize_zoneIsTwoPercent() {
        // No resolution: nominal 100 mm on the shorter axis, zone 2 mm.
        let unknown = ScenarioDevices.touchscreen(width: 400, height: 300, resolution: 0)
        #expect(!unknown.sizeKnown)
        check("down 1 at (1.5,50) at 0ms; move 1 to (25,50) by 100ms; up 1 at 110ms", on: unknown,
              expect: "edgeSwipe began right edge=left fingers=1; edgeSwipe ended right edge=left fingers=1")
        check("down 1 at (2.5,50) at 0ms; move 1 to (25,50) by 100ms; up 1 at 110ms", on: unknown,
              expect: "pan began right fingers=1; swipe recognized right fingers=1; pan ended right fingers=1")
    }
}

/// Two-finger edge swipes: the finger nearest the edge decides whether the swipe starts in the
/// edge zone, counting every finger that lands before the fingers move (edge palms among them).
@Suite struct TwoFingerEdgeZoneTests {
    /// A touch tablet's size: 125 × 85 mm, so the edge zone is min(8, 8 % of 85) = 6.8 mm and the
    /// edge-palm zone min(8, 8 % of 125) = 8 mm.
    let tablet = ScenarioDevices.touchpad(width: 125, height: 85)

    func sideBySide(trailingX x: Double, secondAt ms: Int = 0) -> String {
        """
        down 2 at (\(x + 17.5),40) at 0ms; down 1 at (\(x),40) at \(ms)ms
        move 1 to (\(x + 95),41), 2 to (\(x + 112.5),41) from \(ms)ms by \(ms + 500)ms; up 1, 2 at \(ms + 510)ms
        """
    }
    @Test func fingersSideBySide_trailingOneAtTheEdge_isAnEdgeSwipe() {
        // The trailing finger 2.5 mm from the left edge, the leading one 17.5 mm further in;
        // they cross the tablet's width.
        check(sideBySide(trailingX: 2.5), on: tablet,
              expect: "edgeSwipe began right edge=left fingers=2; edgeSwipe ended right edge=left fingers=2")
    }
    @Test func trailingFingerLandingJustAfter_stillCounts() {
        check(sideBySide(trailingX: 2.5, secondAt: 30), on: tablet,
              expect: "edgeSwipe began right edge=left fingers=2; edgeSwipe ended right edge=left fingers=2")
    }
    @Test func trailingFinger_justInsideAndOutsideTheEdgeZone() {
        check(sideBySide(trailingX: 6.7), on: tablet,
              expect: "edgeSwipe began right edge=left fingers=2; edgeSwipe ended right edge=left fingers=2")
        check(sideBySide(trailingX: 6.9), on: tablet,
              expect: "pan began right fingers=2; swipe recognized right fingers=2; pan ended right fingers=2")
    }
    @Test func trailingFinger_landingJustWithinAndPastTheLandingGap() {
        // The trailing finger lands in the edge-palm zone 79 ms (together) or 81 ms (apart)
        // after the leading one (edgeSwipeLandingGap: 80 ms).
        check(sideBySide(trailingX: 2.5, secondAt: 79), on: tablet,
              expect: "edgeSwipe began right edge=left fingers=2; edgeSwipe ended right edge=left fingers=2")
        check(sideBySide(trailingX: 2.5, secondAt: 81), on: tablet,
              expect: "pan began right; swipe recognized right; pan ended right fingers=2")
    }
    @Test func palmRestingLongBeforeAtTheEdge_makesNoEdgeSwipe() {
        // A contact rests at the left edge for 500 ms before a finger lands in the middle and
        // swipes right: the finger's swipe, not an edge swipe.
        check("down 1 at (3,60) at 0ms; down 2 at (40,40) at 500ms; move 2 to (80,40) from 500ms by 800ms; up 2 at 810ms; up 1 at 900ms",
              on: tablet, expect: "pan began right fingers=1; swipe recognized right fingers=1; pan ended right fingers=1")
    }
}
