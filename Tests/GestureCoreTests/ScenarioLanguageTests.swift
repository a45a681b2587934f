import GestureCore
import GestureTestSupport
import Testing

/// The scenario language itself (GestureTestSupport): what it builds, and that a statement it
/// cannot read is reported instead of silently dropped.
@Suite struct ScenarioLanguageTests {
    @Test func test_scenario_interpolatesMoves_andOrdersStepsByTime() {
        let s = Scenario(parsing: "every 50ms; down 1 at (10,10) at 0ms; move 1 to (30,10) by 100ms; up 1 at 120ms")
        #expect(s.problems.isEmpty)
        let moves = s.steps.compactMap { step -> (Int64, Double)? in
            if case .move(_, let x, _) = step.op { (step.time, x) } else { nil }
        }
        #expect(moves.map(\.0) == [50, 100])
        #expect(moves.map(\.1) == [20, 30])
        #expect(s.steps.map(\.time) == [0, 50, 100, 120])
    }

    @Test func test_scenario_unreadableStatements_areProblems() {
        let s = Scenario(parsing: "down 1 at (10,10) at 0ms; up 1; move 2 to (5,5) by 10ms; frobnicate 3")
        #expect(s.problems == ["scenario: no time in 'up 1'", "scenario: touch 2 is not down",
                               "scenario: unknown statement 'frobnicate 3'"])
    }

    @Test func test_expected_parsesKindPhaseAndFields_andMatches() {
        let e = Expected.parse("swipe recognized left 3fingers; tap recognized fingers=2 at=120ms; nothing")
        #expect(e.map(\.description) == ["swipe recognized direction=left fingers=3", "tap recognized at=120ms fingers=2"])
        let tap = GestureEvent(kind: .tap, phase: .recognized, id: 1, fingers: 2, time: .milliseconds(120))
        #expect(e[1].matches(tap))
        #expect(!e[0].matches(tap))
        #expect(!e[1].matches(GestureEvent(kind: .tap, phase: .recognized, id: 1, fingers: 2, time: .milliseconds(121))))
    }
}
