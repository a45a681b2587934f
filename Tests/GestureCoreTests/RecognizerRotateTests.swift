import GestureCore
import GestureTestSupport
import Testing

/// Move statements turning fingers on a circle around (cx, cy), one frame per 10 ms.
func turn(fingers: Int, cx: Double, cy: Double, radius: Double, from a0: Double, to a1: Double,
          stepDegrees: Double = 2, startMs: Int = 0, spread: Double = 0,
          holdUntilMs: Int? = nil) -> (downs: String, moves: String, endMs: Int) {
    func point(_ i: Int, _ deg: Double) -> String {
        let a = (deg + Double(i) * 360 / Double(fingers)) * Double.pi / 180
        let r = radius + spread * (deg - a0) / Swift.max(1, abs(a1 - a0))
        return "(\(cx + r * cosine(a)),\(cy + r * sine(a)))"
    }
    let downs = "down " + (0..<fingers).map { "\($0 + 1) at \(point($0, a0))" }.joined(separator: ", ") + " at \(startMs)ms"
    var moves: [String] = []
    var t = startMs, deg = a0
    if let hold = holdUntilMs {
        // Still until the tap window has passed.
        moves.append("move " + (0..<fingers).map { "\($0 + 1) to \(point($0, a0))" }.joined(separator: ", ") + " by \(hold)ms")
        t = hold
    }
    let sign: Double = a1 >= a0 ? 1 : -1
    while (a1 - deg) * sign > 1e-9 {
        deg = sign > 0 ? Swift.min(a1, deg + stepDegrees) : Swift.max(a1, deg - stepDegrees)
        t += 10
        moves.append("move " + (0..<fingers).map { "\($0 + 1) to \(point($0, deg))" }.joined(separator: ", ") + " by \(t)ms")
    }
    return (downs, moves.joined(separator: "; "), t)
}

@Suite struct RecognizerRotateTests {
    let screen = ScenarioDevices.touchscreen()
    let pad = ScenarioDevices.touchpad()

    func ups(_ n: Int, _ t: Int) -> String { "up " + (1...n).map(String.init).joined(separator: ", ") + " at \(t)ms" }

    @Test func rotate_twoFingersClockwise() {
        let r = turn(fingers: 2, cx: 150, cy: 100, radius: 20, from: 0, to: 40)
        let events = check("\(r.downs); \(r.moves); \(ups(2, r.endMs + 10))", on: screen,
                           expect: "rotate began clockwise fingers=2; rotate ended clockwise fingers=2")
        #expect(abs((events.last?.rotationDegrees ?? 0) - 40) < 0.01)
    }
    @Test func rotate_threeFingersCounterclockwise_touchpad() {
        let r = turn(fingers: 3, cx: 50, cy: 35, radius: 15, from: 0, to: -30)
        check("\(r.downs); \(r.moves); \(ups(3, r.endMs + 10))", on: pad,
              expect: "rotate began counterclockwise fingers=3; rotate ended counterclockwise fingers=3")
    }
    @Test func rotate_angleJustBelowThreshold_nothing() {
        let r = turn(fingers: 2, cx: 150, cy: 100, radius: 20, from: 0, to: 14.8, stepDegrees: 1, holdUntilMs: 320)
        check("\(r.downs); \(r.moves); \(ups(2, r.endMs + 10))", on: screen, expect: "nothing")
    }
    @Test func rotate_angleJustAboveThreshold_began() {
        let r = turn(fingers: 2, cx: 150, cy: 100, radius: 20, from: 0, to: 15.2, stepDegrees: 1, holdUntilMs: 320)
        check("\(r.downs); \(r.moves); \(ups(2, r.endMs + 10))", on: screen,
              expect: "rotate began clockwise fingers=2; rotate ended clockwise fingers=2")
    }
    @Test func rotate_withPinch_runTogether() {
        // Turning 60° while the span grows from 40 to 60 mm.
        let r = turn(fingers: 2, cx: 150, cy: 100, radius: 20, from: 0, to: 60, spread: 10)
        let events = check("\(r.downs); \(r.moves); \(ups(2, r.endMs + 10))", on: screen,
                           expect: "pinch began fingers=2; rotate began clockwise fingers=2; pinch ended out fingers=2; rotate ended clockwise fingers=2")
        #expect(abs((events.last(where: { $0.kind == .pinch })?.scale ?? 0) - 1.5) < 0.01)
    }
    @Test func rotate_takesOverAPanThatTurnsEarly() {
        // Two fingers 10 mm apart translate first, then turn 40° within 30 mm of path.
        var text = "down 1 at (145,100), 2 at (155,100) at 0ms; move 1 to (165,100), 2 to (175,100) by 100ms"
        let r = turn(fingers: 2, cx: 170, cy: 100, radius: 5, from: 180, to: 220, stepDegrees: 4, startMs: 100)
        text += "; " + r.moves + "; up 1, 2 at \(r.endMs + 10)ms"
        check(text, on: screen, expect: """
            pan began right fingers=2; swipe recognized right fingers=2; pan cancelled fingers=2
            rotate began clockwise fingers=2; rotate ended clockwise fingers=2
            """)
    }
    @Test func rotate_aLongPanThatDriftsRound_staysAPan() {
        // 60 mm of path first: a later 40° turn is the hand drifting, not a rotate.
        var text = "down 1 at (95,100), 2 at (105,100) at 0ms; move 1 to (155,100), 2 to (165,100) by 300ms"
        let r = turn(fingers: 2, cx: 160, cy: 100, radius: 5, from: 180, to: 220, stepDegrees: 4, startMs: 300)
        text += "; " + r.moves + "; up 1, 2 at \(r.endMs + 10)ms"
        check(text, on: screen, expect: "pan began right fingers=2; swipe recognized right fingers=2; pan ended right fingers=2")
    }
    @Test func rotate_afterALongPress_takesItOver() {
        let r = turn(fingers: 2, cx: 150, cy: 100, radius: 20, from: 0, to: 40, startMs: 0, holdUntilMs: 600)
        check("\(r.downs); \(r.moves); up 1, 2 at \(r.endMs + 10)ms", on: screen, expect: """
            longPress began fingers=2 at=500ms; longPress ended fingers=2
            rotate began clockwise fingers=2; rotate ended clockwise fingers=2
            """)
    }
    @Test func rotate_twoFingerCirclePan_isPanNotRotateOrPinch() {
        // Both fingers travel together around a 30 mm circle: the pair keeps its orientation.
        var text = "down 1 at (160,100), 2 at (180,100) at 0ms"
        for k in 1...72 {
            let a = Double(k) * 5 * Double.pi / 180
            let x = 150 + 30 * cosine(a), y = 100 + 30 * sine(a)
            text += "; move 1 to (\(x),\(y)), 2 to (\(x + 20),\(y)) by \(k * 10)ms"
        }
        text += "; up 1, 2 at 730ms"
        var arena = RecognizerArena(device: screen, thresholds: .defaults(for: screen))
        let events = Scenario(text).run(&arena)
        #expect(events.contains { $0.kind == .pan && $0.phase == .began && $0.fingers == 2 })
        #expect(!events.contains { $0.kind == .pinch || $0.kind == .rotate }, "\(events.map(describe))")
    }
}
