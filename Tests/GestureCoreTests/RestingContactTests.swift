import GestureCore
import GestureTestSupport
import Testing

/// Resting contacts, thumbs and palms (RestingContacts.swift): a contact still while another
/// moves is no finger of the mover's gesture; real pinches and rotates still work. Pad: 100 × 70
/// mm, thumb zone from y = 55 mm, edge zone 5.6 mm.
@Suite struct RestingContactTests {
    let pad = ScenarioDevices.touchpad()
    let onePan = "pan began right fingers=1; swipe recognized right fingers=1; pan ended right fingers=1"

    func kinds(_ events: [GestureEvent], fingers: Int) -> Set<GestureKind> {
        Set(events.filter { $0.phase != .changed && $0.fingers == fingers }.map(\.kind))
    }

    /// Runs `text` and expects a two-finger gesture (`kind` when given) and no one-finger one:
    /// the still contact counted as a finger.
    func expectTwoFingers(_ text: String, on device: DeviceDescription? = nil, kind: GestureKind? = .pinch,
                          sourceLocation: SourceLocation = #_sourceLocation) {
        let device = device ?? pad
        var arena = RecognizerArena(device: device, thresholds: .defaults(for: device))
        let events = Scenario(text, sourceLocation: sourceLocation).run(&arena)
        let two = kinds(events, fingers: 2)
        #expect(kind.map { two.contains($0) } ?? !two.isEmpty, "\(events.map(describe))", sourceLocation: sourceLocation)
        #expect(kinds(events, fingers: 1).isEmpty, "\(events.map(describe))", sourceLocation: sourceLocation)
    }

    // MARK: the reported cases: a finger or thumb resting while another moves

    @Test func restingFinger_slowStroke_isAOneFingerPan() {
        check("down 1 at (30,40) at 0ms; down 2 at (50,30) at 400ms; move 2 to (80,30) by 1400ms; up 2 at 1410ms; up 1 at 1600ms",
              on: pad, expect: onePan)
    }
    @Test func restingFinger_flick_isAOneFingerPan() {
        check("down 1 at (30,40) at 0ms; down 2 at (50,30) at 400ms; move 2 to (80,30) by 460ms; up 2 at 470ms; up 1 at 900ms",
              on: pad, expect: onePan)
    }
    @Test func restingFinger_fatMovingFinger_isAOneFingerPan() {
        let pad = ScenarioDevices.touchpad(touchMajor: true)
        check("down 1 at (30,40) at 0ms; major 2 13 at 400ms; down 2 at (50,30) at 400ms; move 2 to (80,30) by 900ms; up 2 at 910ms; up 1 at 1200ms",
              on: pad, expect: onePan)
    }
    @Test func fingerMovingFirst_thenARestingOne_staysOnePan() {
        // The resting finger landed first and stays through the stroke and after it.
        check("down 1 at (70,20) at 0ms; down 2 at (20,30) at 300ms; move 2 to (60,30) by 1000ms; up 2 at 1010ms; up 1 at 2000ms",
              on: pad, expect: onePan)
    }
    @Test func restingContact_afterTheStroke_makesNoTapOrHold() {
        // The thumb stays 1.5 s after the finger lifted: it is still no finger of anything.
        check("down 1 at (30,40) at 0ms; down 2 at (50,30) at 400ms; move 2 to (80,30) by 700ms; up 2 at 710ms; up 1 at 2200ms",
              on: pad, expect: onePan)
    }

    // MARK: just below / just above each threshold

    @Test func restingTravel_justBelow_rests() {
        // Contact 1 slides 1.4 mm after contact 2 started moving (its rest position is where it
        // was then).
        check("down 1 at (30,40) at 0ms; down 2 at (60,30) at 400ms; move 2 to (62,30) by 420ms; move 1 to (31.4,40), 2 to (66,30) by 460ms; move 2 to (90,30) by 1000ms; up 2 at 1010ms; up 1 at 1300ms",
              on: pad, expect: onePan)
    }
    @Test func restingTravel_justAbove_countsAsAFinger() {
        expectTwoFingers("down 1 at (30,40) at 0ms; down 2 at (60,30) at 400ms; move 2 to (62,30) by 420ms; move 1 to (31.6,40), 2 to (66,30) by 460ms; move 2 to (90,30) by 1000ms; up 2 at 1010ms; up 1 at 1300ms", kind: nil)
    }
    @Test func settlingAsItLands_whileTheOtherIsStill_stillRests() {
        // The ActionStar recording: a finger slides 3 mm as it lands beside a still one; then the
        // first finger moves and the settled one stays: it rests.
        check("down 1 at (60,30) at 0ms; down 2 at (30,40) at 300ms; move 2 to (33,40) by 450ms; move 1 to (90,30) by 1100ms; up 1 at 1110ms; up 2 at 1500ms",
              on: pad, expect: onePan)
    }
    @Test func decisionTravel_justBelow_nothingYet() {
        check("down 1 at (30,40) at 0ms; down 2 at (60,30) at 400ms; move 2 to (67.8,30) by 500ms; up 2 at 700ms; up 1 at 1000ms",
              on: pad, expect: "nothing")
    }
    @Test func decisionTravel_justAbove_aOneFingerPan() {
        check("down 1 at (30,40) at 0ms; down 2 at (60,30) at 400ms; move 2 to (68.2,30) by 500ms; up 2 at 700ms; up 1 at 1000ms",
              on: pad, expect: onePan)
    }
    @Test func landingGap_justBelow_isAPivotPinch() {
        expectTwoFingers("down 1 at (30,40) at 0ms; down 2 at (60,30) at 140ms; move 2 to (90,30) by 800ms; up 1, 2 at 810ms")
    }
    @Test func landingGap_justAbove_rests() {
        check("down 1 at (30,40) at 0ms; down 2 at (60,30) at 160ms; move 2 to (90,30) by 800ms; up 2 at 810ms; up 1 at 1000ms",
              on: pad, expect: onePan)
    }
    @Test func thumbZone_justAbove_landedTogether_isAPivotPinch() {
        expectTwoFingers("down 1 at (40,54.8), 2 at (60,30) at 0ms; move 2 to (90,30) by 600ms; up 1, 2 at 610ms")
    }
    @Test func thumbZone_justInside_landedTogether_rests() {
        check("down 1 at (40,55.2), 2 at (60,30) at 0ms; move 2 to (90,30) by 600ms; up 2 at 610ms; up 1 at 900ms",
              on: pad, expect: onePan)
    }
    @Test func thumbMajor_justBelow_isAPivotPinch() {
        expectTwoFingers("major 1 14.8 at 0ms; down 1 at (40,40), 2 at (60,30) at 0ms; move 2 to (90,30) by 600ms; up 1, 2 at 610ms", on: ScenarioDevices.touchpad(touchMajor: true))
    }
    @Test func thumbMajor_justAbove_rests() {
        check("major 1 15.2 at 0ms; down 1 at (40,40), 2 at (60,30) at 0ms; move 2 to (90,30) by 600ms; up 2 at 610ms; up 1 at 900ms",
              on: ScenarioDevices.touchpad(touchMajor: true), expect: onePan)
    }
    @Test func thumbPressure_justBelow_isAPivotPinch() {
        // 75 % of 0…255 is 191.25: 191 is below, 192 above.
        expectTwoFingers("pressure 1 191 at 0ms; down 1 at (40,40), 2 at (60,30) at 0ms; move 2 to (90,30) by 600ms; up 1, 2 at 610ms", on: ScenarioDevices.touchpad(pressureMaximum: 255))
    }
    @Test func thumbPressure_justAbove_rests() {
        check("pressure 1 192 at 0ms; down 1 at (40,40), 2 at (60,30) at 0ms; move 2 to (90,30) by 600ms; up 2 at 610ms; up 1 at 900ms",
              on: ScenarioDevices.touchpad(pressureMaximum: 255), expect: onePan)
    }
    @Test func sizeRules_needARealSize() {
        // Without a resolution the touch major is in nominal millimetres: it judges nothing.
        let pad = ScenarioDevices.touchpad(resolution: 0, touchMajor: true)
        var arena = RecognizerArena(device: pad, thresholds: .defaults(for: pad))
        let events = Scenario("major 1 30 at 0ms; down 1 at (40,20) at 0ms; move 1 to (60,20) by 400ms; up 1 at 410ms").run(&arena)
        #expect(events.contains { $0.kind == .pan && $0.phase == .began }, "\(events.map(describe))")
    }

    // MARK: palms

    @Test func palmMajor_justBelow_pans() {
        check("major 1 24.8 at 0ms; down 1 at (40,20) at 0ms; move 1 to (70,20) by 400ms; up 1 at 410ms",
              on: ScenarioDevices.touchpad(touchMajor: true), expect: onePan)
    }
    @Test func palmMajor_justAbove_makesNothing() {
        check("major 1 25.2 at 0ms; down 1 at (40,20) at 0ms; move 1 to (70,20) by 400ms; up 1 at 410ms",
              on: ScenarioDevices.touchpad(touchMajor: true), expect: "nothing")
    }
    @Test func palm_besideAMovingFinger_isNoFinger() {
        check("major 1 30 at 0ms; down 1 at (20,50), 2 at (60,20) at 0ms; move 2 to (90,20) by 400ms; up 1, 2 at 410ms",
              on: ScenarioDevices.touchpad(touchMajor: true), expect: onePan)
    }

    // MARK: real pinches and rotates still work

    @Test func pinch_bothFingersMoving_landedApart() {
        check("down 1 at (40,35) at 0ms; down 2 at (60,35) at 300ms; move 1 to (20,35), 2 to (80,35) by 800ms; up 1, 2 at 810ms",
              on: pad, expect: "pinch began fingers=2; pinch ended out fingers=2")
    }
    @Test func pinch_secondFingerStartingLate_isAPinch() {
        // The Sharp recording: fingers landed seconds apart start a pinch about 20 ms apart; the
        // first has moved 6 mm (under the decision travel) before the second moves.
        check("down 1 at (40,35) at 0ms; down 2 at (60,35) at 300ms; move 2 to (66,35) by 330ms; move 1 to (30,35), 2 to (80,35) by 700ms; up 1, 2 at 710ms",
              on: pad, expect: "pinch began fingers=2; pinch ended out fingers=2")
    }
    @Test func pinch_onePivoting_landedTogether() {
        check("down 1 at (40,35), 2 at (50,35) at 0ms; move 2 to (80,35) by 600ms; up 1, 2 at 610ms",
              on: pad, expect: "pinch began fingers=2; pinch ended out fingers=2")
    }
    @Test func rotate_onePivoting_landedTogether() {
        var text = "down 1 at (50,35), 2 at (75,35) at 0ms"
        for k in 1...20 {
            let a = Double(k) * 2.5 * Double.pi / 180
            text += "; move 2 to (\(50 + 25 * cosine(a)),\(35 + 25 * sine(a))) by \(200 + k * 10)ms"
        }
        text += "; up 1, 2 at 420ms"
        check(text, on: pad, expect: "rotate began clockwise fingers=2; rotate ended clockwise fingers=2")
    }
    @Test func twoFingerSwipe_landedApart_staysTwoFingers() {
        check("down 1 at (40,30) at 0ms; down 2 at (60,30) at 300ms; move 1 to (40,60), 2 to (60,60) by 700ms; up 1, 2 at 710ms",
              on: pad, expect: "pan began down fingers=2; swipe recognized down fingers=2; pan ended down fingers=2")
    }
    @Test func touchscreen_fingerJoiningAMovingOne_isAFinger() {
        // The Dell Canvas recording: fingers join a stroke in flight and move with it.
        let screen = ScenarioDevices.touchscreen()
        var arena = RecognizerArena(device: screen, thresholds: .defaults(for: screen))
        let events = Scenario("down 1 at (100,100) at 0ms; move 1 to (100,60) by 300ms; down 2 at (130,60) at 300ms; move 1 to (100,20), 2 to (130,20) by 600ms; up 1, 2 at 610ms").run(&arena)
        #expect(events.contains { $0.kind == .pan && $0.phase == .began && $0.fingers == 2 }, "\(events.map(describe))")
    }
}
