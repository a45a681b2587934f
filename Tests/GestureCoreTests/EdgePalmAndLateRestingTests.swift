import GestureCore
import GestureTestSupport
import Testing

/// Edge palms and contacts that rest whenever they landed (RestingContacts.swift). Pad: 100 × 70
/// mm, so the edge-palm zones are x ≤ 8 mm and x ≥ 92 mm (min(8 mm, 8 % of the width)); the
/// edge-swipe zones are 5.6 mm.
@Suite struct EdgePalmTests {
    let pad = ScenarioDevices.touchpad()

    // MARK: a still contact landing in the zone is a palm

    @Test func edgePalmZone_left_justInside_isNoTap() {
        check("down 1 at (7.9,35) at 0ms; up 1 at 100ms", on: pad, expect: "nothing")
    }
    @Test func edgePalmZone_left_justOutside_isATap() {
        check("down 1 at (8.1,35) at 0ms; up 1 at 100ms", on: pad, expect: "tap recognized fingers=1")
    }
    @Test func edgePalmZone_right_justInside_isNoTap() {
        check("down 1 at (92.1,35) at 0ms; up 1 at 100ms", on: pad, expect: "nothing")
    }
    @Test func edgePalmZone_right_justOutside_isATap() {
        check("down 1 at (91.9,35) at 0ms; up 1 at 100ms", on: pad, expect: "tap recognized fingers=1")
    }
    @Test func edgePalm_heldStill_isNoLongPress() {
        check("down 1 at (0,25) at 0ms; up 1 at 2000ms", on: pad, expect: "nothing")
    }
    @Test func edgePalm_landingDuringATap_leavesAOneFingerTap() {
        // The DELL0A78 recording: the phantom at x = 0 lands while a finger taps.
        check("down 2 at (50,30) at 0ms; down 1 at (0,10) at 30ms; up 2 at 90ms; up 1 at 300ms", on: pad,
              expect: "tap recognized fingers=1")
    }
    @Test func sameContact_outsideTheZone_makesATwoFingerTap() {
        check("down 2 at (50,30) at 0ms; down 1 at (8.2,10) at 30ms; up 2 at 90ms; up 1 at 120ms", on: pad,
              expect: "tap recognized fingers=2")
    }
    @Test func edgePalm_besideAMovingFinger_isNoFinger() {
        check("down 1 at (0,10) at 0ms; down 2 at (50,30) at 100ms; move 2 to (80,30) by 400ms; up 2 at 410ms; up 1 at 600ms",
              on: pad, expect: "pan began right fingers=1; swipe recognized right fingers=1; pan ended right fingers=1")
    }
    @Test func edgePalm_landingDuringATwoFingerScroll_isNoThirdFinger() {
        check("down 1 at (40,20), 2 at (60,20) at 0ms; move 1 to (40,30), 2 to (60,30) by 200ms; down 3 at (0,10) at 200ms; move 1 to (40,50), 2 to (60,50) by 400ms; up 1, 2 at 410ms; up 3 at 500ms",
              on: pad, expect: "pan began down fingers=2; swipe recognized down fingers=2; pan ended down fingers=2")
    }

    // MARK: a contact that moves is released: a finger from where it landed

    @Test func releaseTravel_justBelow_staysAPalm() {
        // Still a palm: the other finger's tap is a one-finger tap.
        check("down 1 at (2,30) at 0ms; move 1 to (2,32.9) by 300ms; down 2 at (50,30) at 300ms; up 2 at 380ms; up 1 at 800ms",
              on: pad, expect: "tap recognized fingers=1")
    }
    @Test func releaseTravel_justAbove_isAFinger() {
        // A finger: the other one's touch is no one-finger tap.
        check("down 1 at (2,30) at 0ms; move 1 to (2,33.1) by 300ms; down 2 at (50,30) at 300ms; up 2 at 380ms; up 1 at 800ms",
              on: pad, expect: "nothing")
    }
    @Test func releasedAfterAPause_swipesInFromTheEdge() {
        // The Intuos5 recording: the finger rests 280 ms at x = 0, then swipes in.
        check("down 1 at (0,35) at 0ms; move 1 to (30,35) from 300ms by 600ms; up 1 at 610ms", on: pad,
              expect: "edgeSwipe began right edge=left fingers=1; edgeSwipe ended right edge=left fingers=1")
    }
    @Test func releasedAlongTheEdge_scrolls() {
        // The hp8470p recording: a finger scrolling along the right edge.
        check("down 1 at (97,10) at 0ms; move 1 to (97,40) by 300ms; up 1 at 310ms", on: pad,
              expect: "pan began down fingers=1; swipe recognized down fingers=1; pan ended down fingers=1")
    }
    @Test func movingIntoTheZone_isAFinger() {
        check("down 1 at (40,35) at 0ms; move 1 to (2,35) by 300ms; up 1 at 310ms", on: pad,
              expect: "pan began left fingers=1; swipe recognized left fingers=1; pan ended left fingers=1")
    }
    @Test func touchscreen_hasNoEdgePalms() {
        check("down 1 at (1,35) at 0ms; up 1 at 100ms", on: ScenarioDevices.touchscreen(), expect: "tap recognized fingers=1")
    }
    @Test func semiMT_hasNoEdgePalms() {
        check("down 1 at (2,35) at 0ms; up 1 at 100ms", on: ScenarioDevices.touchpad(semiMT: true), expect: "tap recognized fingers=1")
    }
}

/// A contact still beside one that moves rests whenever it landed: before the motion, during
/// it, or long before, having moved then (the DLL0945 recording's kernel ghosts).
@Suite struct LateRestingContactTests {
    let pad = ScenarioDevices.touchpad()
    let onePan = "pan began right fingers=1; swipe recognized right fingers=1; pan ended right fingers=1"

    /// The motion gestures after `ms` milliseconds, as `describe` prints them.
    func after(_ ms: Int64, _ text: String) -> [String] {
        var arena = RecognizerArena(device: pad, thresholds: .defaults(for: pad))
        let motion: Set<GestureKind> = [.pan, .swipe, .pinch, .rotate]
        return Scenario(text).run(&arena)
            .filter { $0.time > .milliseconds(ms) && $0.phase != .changed && motion.contains($0.kind) }.map(describe)
    }

    /// Fingers 1 and 2 swipe down together; finger 2 lifts, finger 1 stays where it stopped (a
    /// ghost, or a finger left on the pad); finger 3 lands 1 s later and moves right 30 mm;
    /// once it has moved 5 mm, finger 1 slides by `ghostMoves`.
    func ghostScenario(ghostMoves: Double) -> String {
        "down 1 at (30,10), 2 at (50,10) at 0ms; move 1 to (30,40), 2 to (50,40) by 300ms; up 2 at 310ms; "
            + "down 3 at (50,20) at 1300ms; move 3 to (55,20) by 1400ms; "
            + "move 1 to (\(30 + ghostMoves),40), 3 to (57,20) by 1440ms; move 3 to (80,20) by 1800ms; "
            + "up 3 at 1810ms; up 1 at 2500ms"
    }

    @Test func ghostLeftBehind_stillWithin_isNoFingerOfTheNextStroke() {
        let events = after(1300, ghostScenario(ghostMoves: 1.4)).map { $0.split(separator: " ").prefix(4).joined(separator: " ") }
        #expect(events == ["pan began right fingers=1", "swipe recognized right fingers=1", "pan ended right fingers=1"],
                "\(events)")
    }
    @Test func ghostLeftBehind_movingJustAbove_countsAsAFinger() {
        let events = after(1300, ghostScenario(ghostMoves: 1.6))
        #expect(!events.contains { $0.contains("fingers=1") }, "\(events)")
        #expect(events.contains { $0.contains("fingers=2") }, "\(events)")
    }
    @Test func landingWhileTheOtherMoves_andStayingStill_rests() {
        // Finger 1 is moving when finger 2 lands 200 ms later; finger 2 stays, finger 1 goes on.
        check("down 1 at (20,40) at 0ms; move 1 to (30,40) by 200ms; down 2 at (50,20) at 200ms; move 1 to (80,40) by 800ms; up 1 at 810ms; up 2 at 1000ms",
              on: pad, expect: onePan)
    }
    @Test func landingGap_againstTheMover_justBelow_isAPivotPinch() {
        // Finger 2 lands 140 ms after finger 1, which starts moving only then: a pivot, landed
        // together.
        let events = after(0, "down 1 at (20,40) at 0ms; down 2 at (50,20) at 140ms; move 1 to (80,40) by 800ms; up 1, 2 at 810ms")
        #expect(events.contains { $0.hasPrefix("pinch began") && $0.contains("fingers=2") }, "\(events)")
    }
    @Test func landingGap_againstTheMover_justAbove_rests() {
        check("down 1 at (20,40) at 0ms; down 2 at (50,20) at 160ms; move 1 to (80,40) by 800ms; up 1 at 810ms; up 2 at 1000ms",
              on: pad, expect: onePan)
    }
    @Test func twoStillContacts_landedTogether_bothRestBesideALaterMover() {
        // Two ghosts landed together; a finger lands later and moves: both rest (the landing gap
        // counts only against contacts that moved).
        check("down 1 at (20,50), 2 at (30,52) at 0ms; down 3 at (50,20) at 300ms; move 3 to (80,20) by 700ms; up 3 at 710ms; up 1, 2 at 1000ms",
              on: pad, expect: onePan)
    }
}
