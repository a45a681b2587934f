import GestureCore
import GestureTestSupport
import Testing

@Suite struct RecognizerPinchTests {
    let screen = ScenarioDevices.touchscreen()

    @Test func pinch_spreadTwoFingers_out() {
        let events = check("down 1 at (100,100), 2 at (140,100) at 0ms; move 1 to (80,100), 2 to (160,100) by 200ms; up 1, 2 at 210ms",
                           on: screen, expect: "pinch began fingers=2; pinch ended out fingers=2")
        #expect(abs((events.last?.scale ?? 0) - 2) < 1e-9)
    }
    @Test func pinch_fiveFingersTogether_in() {
        var downs: [String] = [], moves: [String] = []
        for i in 0..<5 {
            let a = Double(i) * 72 * Double.pi / 180
            // Points on a circle of radius 40 mm around (150,100) move to radius 20 mm.
            downs.append("\(i + 1) at (\(150 + 40 * cosine(a)),\(100 + 40 * sine(a)))")
            moves.append("\(i + 1) to (\(150 + 20 * cosine(a)),\(100 + 20 * sine(a)))")
        }
        let events = check("down \(downs.joined(separator: ", ")) at 0ms; move \(moves.joined(separator: ", ")) by 200ms; up 1, 2, 3, 4, 5 at 210ms",
                           on: screen, expect: "pinch began fingers=5; pinch ended in fingers=5")
        #expect(abs((events.last?.scale ?? 0) - 0.5) < 1e-6)
    }
    @Test func pinch_spanChangeJustBelowThreshold_nothing() {
        check("down 1 at (100,100), 2 at (140,100) at 0ms; move 1 to (100,100), 2 to (140,100) by 320ms; move 1 to (98.55,100), 2 to (141.45,100) by 370ms; up 1, 2 at 450ms",
              on: screen, expect: "nothing")
    }
    @Test func pinch_spanChangeJustAboveThreshold_beganWithoutDirection() {
        check("down 1 at (100,100), 2 at (140,100) at 0ms; move 1 to (100,100), 2 to (140,100) by 320ms; move 1 to (98.45,100), 2 to (141.55,100) by 370ms; up 1, 2 at 450ms",
              on: screen, expect: "pinch began fingers=2; pinch ended none fingers=2")
    }
    @Test func pinch_directionScaleDeltaEdges() {
        check("down 1 at (100,100), 2 at (140,100) at 0ms; move 1 to (100,100), 2 to (140,100) by 320ms; move 1 to (96.3,100), 2 to (143.7,100) by 420ms; up 1, 2 at 430ms",
              on: screen, expect: "pinch began fingers=2; pinch ended none fingers=2")   // scale 1.185
        check("down 1 at (100,100), 2 at (140,100) at 0ms; move 1 to (100,100), 2 to (140,100) by 320ms; move 1 to (95.7,100), 2 to (144.3,100) by 420ms; up 1, 2 at 430ms",
              on: screen, expect: "pinch began fingers=2; pinch ended out fingers=2")    // scale 1.215
    }
    @Test func pinch_semiMT_neverPinches() {
        let semi = ScenarioDevices.touchpad(semiMT: true, slots: 2)
        check("down 1 at (40,30), 2 at (60,40) at 0ms; move 1 to (30,25), 2 to (70,45) by 200ms; up 1, 2 at 210ms",
              on: semi, expect: "nothing", bound: [.pinch, .rotate])
    }
    @Test func pinch_oneFingerStillOtherMoves_isPinchNotPan() {
        check("down 1 at (100,100), 2 at (140,100) at 0ms; move 2 to (180,100) by 200ms; up 1, 2 at 210ms",
              on: screen, expect: "pinch began fingers=2; pinch ended out fingers=2")
    }
}

/// cos/sin for building test geometry (GestureCore and its tests use no libm).
func cosine(_ a: Double) -> Double { sine(a + Double.pi / 2) }
func sine(_ a: Double) -> Double {
    var x = a.truncatingRemainder(dividingBy: 2 * Double.pi)
    if x > Double.pi { x -= 2 * Double.pi }
    if x < -Double.pi { x += 2 * Double.pi }
    var term = x, sum = x
    for n in 1..<15 { term *= -x * x / Double((2 * n) * (2 * n + 1)); sum += term }
    return sum
}
