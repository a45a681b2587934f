import GestureCore
import GestureTestSupport
import Testing

/// The direction of a pinch or rotate as it happens: each reversal is reported.
@Suite struct ReversalTests {
    let pad = ScenarioDevices.touchpad()
    let screen = ScenarioDevices.touchscreen()

    /// The directions the `began` and `changed` events of `kind` carry, repeats collapsed.
    func directions(_ events: [GestureEvent], _ kind: GestureKind) -> [String] {
        var out: [String] = []
        for e in events where e.kind == kind && (e.phase == .began || e.phase == .changed) {
            let d = e.direction?.rawValue ?? "none"
            if out.last != d { out.append(d) }
        }
        return out
    }

    @Test func pinch_inOutInOut_reportsEachDirectionAsItHappens() {
        // Two fingers 30 mm apart on a pad close to 20, open to 34, close to 20, open to 34.
        let events = check("""
            down 1 at (30,35), 2 at (60,35) at 0ms
            move 1 to (35,35), 2 to (55,35) by 100ms; move 1 to (28,35), 2 to (62,35) by 200ms
            move 1 to (35,35), 2 to (55,35) by 300ms; move 1 to (28,35), 2 to (62,35) by 400ms; up 1, 2 at 410ms
            """, on: pad, expect: "pinch began in fingers=2; pinch ended fingers=2", bound: [.pinch])
        #expect(directions(events, .pinch) == ["in", "out", "in", "out"])
    }
    @Test func pinch_firstClearMovementOut_beganOut() {
        check("down 1 at (30,35), 2 at (60,35) at 0ms; move 1 to (20,35), 2 to (70,35) by 200ms; up 1, 2 at 210ms",
              on: pad, expect: "pinch began out fingers=2; pinch ended out fingers=2", bound: [.pinch])
    }
    @Test func pinch_reversal_justBelowAndAbovePinchMinimumSpanChange() {
        // Closed from 30 to 20 mm, then opened 2.9 mm (no reversal) or 3.1 mm (a reversal).
        let below = check("""
            down 1 at (30,35), 2 at (60,35) at 0ms; move 1 to (35,35), 2 to (55,35) by 100ms
            move 1 to (33.55,35), 2 to (56.45,35) by 200ms; up 1, 2 at 210ms
            """, on: pad, expect: "pinch began in fingers=2; pinch ended in fingers=2", bound: [.pinch])
        #expect(directions(below, .pinch) == ["in"])
        let above = check("""
            down 1 at (30,35), 2 at (60,35) at 0ms; move 1 to (35,35), 2 to (55,35) by 100ms
            move 1 to (33.45,35), 2 to (56.55,35) by 200ms; up 1, 2 at 210ms
            """, on: pad, expect: "pinch began in fingers=2; pinch ended in fingers=2", bound: [.pinch])
        #expect(directions(above, .pinch) == ["in", "out"])
    }
    @Test func rotate_forwardBackForward_reportsEachDirectionAsItHappens() {
        // +101°, back −97°, forward +93°: the net angle is +97° (clockwise).
        let a = turn(fingers: 2, cx: 150, cy: 100, radius: 20, from: 0, to: 101, stepDegrees: 3, holdUntilMs: 320)
        let b = turn(fingers: 2, cx: 150, cy: 100, radius: 20, from: 101, to: 4, stepDegrees: 3, startMs: a.endMs)
        let c = turn(fingers: 2, cx: 150, cy: 100, radius: 20, from: 4, to: 97, stepDegrees: 3, startMs: b.endMs)
        let events = check("\(a.downs); \(a.moves); \(b.moves); \(c.moves); up 1, 2 at \(c.endMs + 10)ms", on: screen,
                           expect: "rotate began clockwise fingers=2; rotate ended clockwise fingers=2", bound: [.rotate])
        #expect(directions(events, .rotate) == ["clockwise", "counterclockwise", "clockwise"])
    }
    @Test func rotate_reversal_justBelowAndAboveRotateMinimumAngle() {
        let a = turn(fingers: 2, cx: 150, cy: 100, radius: 20, from: 0, to: 40, stepDegrees: 2, holdUntilMs: 320)
        let back14 = turn(fingers: 2, cx: 150, cy: 100, radius: 20, from: 40, to: 26, stepDegrees: 2, startMs: a.endMs)
        let below = check("\(a.downs); \(a.moves); \(back14.moves); up 1, 2 at \(back14.endMs + 10)ms", on: screen,
                          expect: "rotate began clockwise fingers=2; rotate ended clockwise fingers=2", bound: [.rotate])
        #expect(directions(below, .rotate) == ["clockwise"])
        let back16 = turn(fingers: 2, cx: 150, cy: 100, radius: 20, from: 40, to: 24, stepDegrees: 2, startMs: a.endMs)
        let above = check("\(a.downs); \(a.moves); \(back16.moves); up 1, 2 at \(back16.endMs + 10)ms", on: screen,
                          expect: "rotate began clockwise fingers=2; rotate ended clockwise fingers=2", bound: [.rotate])
        #expect(directions(above, .rotate) == ["clockwise", "counterclockwise"])
    }
}
