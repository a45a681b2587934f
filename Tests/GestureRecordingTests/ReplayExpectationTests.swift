import GestureCore
import GestureTestSupport
import Testing

/// The expectation checker itself must be able to fail.
@Suite struct ReplayExpectationTests {
    func event(_ kind: GestureKind, _ phase: GesturePhase, fingers: Int, direction: GestureDirection? = nil,
               ms: Int64 = 0) -> GestureEvent {
        GestureEvent(kind: kind, phase: phase, id: 1, fingers: fingers, time: .milliseconds(ms), direction: direction)
    }

    @Test func expectation_orderedSubsequence_passesAndFails() throws {
        let e = try ReplayExpectation.parse("expect swipe fingers=2 direction=left\nexpect tap fingers=4", file: "x")
        let good = [event(.pan, .began, fingers: 2), event(.swipe, .recognized, fingers: 2, direction: .left),
                    event(.tap, .recognized, fingers: 4)]
        #expect(e.violations(good, file: "x").isEmpty)
        #expect(e.violations(good.reversed(), file: "x").count == 1)
        #expect(e.violations([event(.swipe, .recognized, fingers: 2, direction: .right)], file: "x").count == 2)
    }
    @Test func expectation_exactlyForbidOnly() throws {
        let e = try ReplayExpectation.parse("exactly 2 tap fingers=1\nforbid pinch|rotate\nonly tap", file: "x")
        let taps = [event(.tap, .recognized, fingers: 1), event(.tap, .recognized, fingers: 1)]
        #expect(e.violations(taps, file: "x").isEmpty)
        #expect(e.violations(taps + [event(.tap, .recognized, fingers: 1)], file: "x") == ["x:1: expected exactly 2 'tap fingers=1', got 3"])
        #expect(e.violations(taps + [event(.rotate, .began, fingers: 2)], file: "x").count == 2)
    }
    @Test func expectation_knownDirectives_areSeparate() throws {
        let e = try ReplayExpectation.parse("known expect swipe direction=left\nexpect tap", file: "x")
        let events = [event(.tap, .recognized, fingers: 1)]
        #expect(e.violations(events, file: "x").isEmpty)
        #expect(e.violations(events, file: "x", known: true).count == 1)
    }
    @Test func expectation_beganThenCancelled_isAFalsePositiveUnlessAllowed() throws {
        let events = [event(.rotate, .began, fingers: 2), event(.rotate, .cancelled, fingers: 2, ms: 40)]
        let plain = try ReplayExpectation.parse("forbid tap", file: "x")
        #expect(plain.violations(events, file: "x").count == 1)
        #expect(plain.violations(Array(events.prefix(1)), file: "x").isEmpty)
        let allowed = try ReplayExpectation.parse("allow rotate cancelled fingers=2", file: "x")
        #expect(allowed.violations(events, file: "x").isEmpty)
        let otherFingers = try ReplayExpectation.parse("allow rotate cancelled fingers=3", file: "x")
        #expect(otherFingers.violations(events, file: "x").count == 1)
        let known = try ReplayExpectation.parse("known allow rotate cancelled", file: "x")
        #expect(known.violations(events, file: "x").isEmpty)
        #expect(known.violations(events, file: "x", known: true).count == 1)
        #expect(known.violations(Array(events.prefix(1)), file: "x", known: true).isEmpty)
    }
    @Test func expectation_timeWindow_countsFromTheFirstEvent() throws {
        let e = try ReplayExpectation.parse("forbid tap at=1-2\nexactly 1 tap at=0-0.5", file: "x")
        let origin = Instant.milliseconds(10_000)
        let early = event(.tap, .recognized, fingers: 1, ms: 10_200), inside = event(.tap, .recognized, fingers: 1, ms: 11_500)
        #expect(e.violations([early], file: "x", origin: origin).isEmpty)
        #expect(e.violations([early, inside], file: "x", origin: origin) == ["x:1: forbidden 'tap at=1-2' occurred 1×"])
        #expect(e.violations([early], file: "x") == ["x:2: expected exactly 1 'tap at=0-0.5', got 0"])   // no origin: 10.2 s is in no window
        #expect(throws: ExpectationError.self) { try ReplayExpectation.parse("forbid tap at=2-1", file: "x") }
    }
    @Test func expectation_badFile_namesFileAndLine() {
        #expect(throws: ExpectationError.self) { try ReplayExpectation.parse("# ok\nexpect swpie", file: "f.expected") }
        do { _ = try ReplayExpectation.parse("# ok\nexpect swpie", file: "f.expected") } catch {
            #expect(error.message == "f.expected:2: unknown gesture kind 'swpie'")
        }
        do { _ = try ReplayExpectation.parse("frobnicate", file: "f.expected") } catch {
            #expect(error.message.hasPrefix("f.expected:1: unknown directive 'frobnicate'"))
        }
    }
}
