import GestureCore
import GestureTestSupport
import Testing

/// The deadline helpers every owner of several deadlines uses: `Instant.earliest` and the one
/// firing loop, `Instant.fireDeadlines`, with the invariant it relies on.
@Suite struct DeadlineTests {
    @Test func earliest_ofTwo_takesTheEarlierAndIgnoresNil() {
        let a = Instant.milliseconds(10), b = Instant.milliseconds(20)
        #expect(Instant.earliest(a, b) == a)
        #expect(Instant.earliest(b, a) == a)
        #expect(Instant.earliest(nil, b) == b)
        #expect(Instant.earliest(a, nil) == a)
        #expect(Instant.earliest(nil, nil) == nil)
    }

    @Test func earliest_ofASequence_foldsEveryOne() {
        let ds: [Instant?] = [nil, .milliseconds(30), .milliseconds(-5), nil, .milliseconds(7)]
        #expect(Instant.earliest(ds) == .milliseconds(-5))
        #expect(Instant.earliest([Instant?]()) == nil)
        #expect(Instant.earliest([nil, nil] as [Instant?]) == nil)
    }

    @Test func successor_isOneMicrosecondLater() {
        #expect(Instant.milliseconds(180).successor == Instant(microseconds: 180_001))
        #expect(Instant.milliseconds(180) < Instant.milliseconds(180).successor)
    }

    @Test func fireDeadlines_firesEachDueOneAtItsOwnInstant_inTimeOrder() {
        var pending: [Instant] = [.milliseconds(30), .milliseconds(10), .milliseconds(50), .milliseconds(20)]
        var fired: [Instant] = []
        let any = Instant.fireDeadlines(upTo: .milliseconds(40), next: { pending.min() }) { d in
            fired.append(d)
            pending.removeAll { $0 == d }
        }
        #expect(any)
        #expect(fired == [.milliseconds(10), .milliseconds(20), .milliseconds(30)])
        #expect(pending == [.milliseconds(50)])
        let none = Instant.fireDeadlines(upTo: .milliseconds(49), next: { pending.min() }) { _ in
            Issue.record("nothing is due before 50 ms")
        }
        #expect(!none)
        // A deadline exactly at `now` is due.
        #expect(Instant.fireDeadlines(upTo: .milliseconds(50), next: { pending.min() }) { d in pending.removeAll { $0 == d } })
        #expect(pending.isEmpty)
    }

    /// A 0 ms threshold: firing one deadline arms another at the same instant, which fires next.
    @Test func fireDeadlines_aDeadlineArmedAtTheInstantThatFired_firesInTheNextPass() {
        var first: Instant? = .milliseconds(10)
        var second: Instant?
        var fired: [String] = []
        _ = Instant.fireDeadlines(upTo: .milliseconds(100), next: { Instant.earliest(first, second) }) { d in
            if first == d { first = nil; second = d; fired.append("first") } else { second = nil; fired.append("second") }
        }
        #expect(fired == ["first", "second"])
    }

    /// Time going back inside the loop is a gestured bug: the process stops, loudly, instead of
    /// firing in the wrong order or being capped.
    @Test func fireDeadlines_aDeadlineArmedBeforeOneThatFired_stopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            var next: Instant? = .milliseconds(10)
            _ = Instant.fireDeadlines(upTo: .milliseconds(100), next: { next }) { d in
                next = d == .milliseconds(10) ? .milliseconds(5) : nil
            }
        }
    }

    /// A firing that leaves its own deadline due is a gestured bug too: the arena says so after
    /// each pass. Here a hand-built arena is driven normally, so the precondition must hold.
    @Test func arena_afterEveryPass_nothingIsDueAtOrBeforeIt() {
        let pad = ScenarioDevices.touchpad()
        var t = Thresholds.defaults(for: pad)
        t.longPressDuration = .zero
        t.fingerCountDebounce = .zero
        var arena = RecognizerArena(device: pad, thresholds: t)
        _ = arena.process(TouchFrame(time: .milliseconds(0), touches: [Touch(id: 1, slot: 0, phase: .began, x: 40, y: 35)], fingerCount: 1))
        #expect(arena.nextDeadline == .milliseconds(0), "a 0 ms long press is due at the landing")
        var events = arena.advance(to: .milliseconds(0))
        #expect(arena.nextDeadline.map { $0 > .milliseconds(0) } ?? true)
        events += arena.process(TouchFrame(time: .milliseconds(100), touches: [
            Touch(id: 1, slot: 0, phase: .stationary, x: 40, y: 35), Touch(id: 2, slot: 1, phase: .began, x: 55, y: 35)],
            fingerCount: 2))
        #expect(arena.nextDeadline == .milliseconds(100), "a 0 ms debounce is due at the second landing")
        events += arena.advance(to: .milliseconds(100))
        #expect(arena.nextDeadline.map { $0 > .milliseconds(100) } ?? true)
        #expect(events.map(describe) == [
            "longPress began fingers=1 at=0ms", "longPress cancelled fingers=1 at=100ms", "longPress began fingers=2 at=100ms",
        ])
    }

    /// The same through the scenario language: with a 0 ms long press and a 0 ms debounce, the
    /// second finger's landing cancels the hold and a 2-finger hold begins at that instant.
    @Test func zeroThresholds_debounceRestartsTheHold_whichBeginsAtOnce() {
        check("down 1 at (40,35) at 0ms; down 2 at (55,35) at 100ms; up 1, 2 at 300ms", on: ScenarioDevices.touchpad(),
              expect: """
                longPress began fingers=1 at=0ms; longPress cancelled fingers=1 at=100ms
                longPress began fingers=2 at=100ms; longPress ended fingers=2 at=300ms
                """, tweak: { $0.longPressDuration = .zero; $0.fingerCountDebounce = .zero })
    }
}
