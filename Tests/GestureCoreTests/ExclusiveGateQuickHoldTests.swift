import GestureCore
import Testing

/// libinput's quick hold on the clone (docs/EXCLUSIVE.md, "What is held"): a contact that reached
/// the clone and then stands still there because a hold began beside it is set aside as a palm
/// while it is younger than the quick hold (40 ms), and taken back when the hold ends unclaimed.
extension ExclusiveGateTests {
    /// The first finger moves 2 mm (released, on the clone at 10 ms); a second lands at `secondAt`.
    func forwardedThenSecondLanding(secondAt ms: Int64) -> Frames {
        var f = Frames()
        f.touch(0, id: 1, x: 100, y: 100); f.syn(0)
        f.touch(0, x: 120, y: 100); f.syn(10)
        f.touch(1, id: 2, x: 300, y: 100); f.syn(ms)
        return f
    }

    func palms(_ events: [InputEvent]) -> [InputEvent] {
        events.filter { $0.code == AbsCode.mtToolType && $0.type == EventType.abs && $0.value == MTToolType.palm }
    }

    @Test func youngForwardedContact_becomesAPalmWhenAHoldBegins_andIsLiftedAtTheClaim() {
        var g = gate(bound: [3], quickHold: .milliseconds(40))
        var f = forwardedThenSecondLanding(secondAt: 20)
        f.touch(2, id: 3, x: 400, y: 100); f.syn(30)                   // a bound count: held on
        f.touch(0, x: 140, y: 100); f.touch(1, x: 320, y: 100); f.touch(2, x: 420, y: 100); f.syn(40)
        let written = timed(&g, f.events, claimAt: .milliseconds(40))
        #expect(times(written) == [.milliseconds(10), .milliseconds(20), .milliseconds(40)], "\(written.map(\.at))")
        let atLanding = written.filter { $0.at == .milliseconds(20) }.flatMap(\.events)
        #expect(palms(atLanding).count == 1, "the clone's contact (on it 10 ms) turns palm as the hold begins: \(atLanding)")
        #expect(!atLanding.contains { $0.code == AbsCode.mtTrackingId }, "the second finger is held: \(atLanding)")
        let atClaim = written.filter { $0.at == .milliseconds(40) }.flatMap(\.events)
        #expect(atClaim.contains { $0.code == AbsCode.mtTrackingId && $0.value == -1 } && palms(atClaim).isEmpty,
                "the claim lifts the palm as it is: \(atClaim)")
        #expect(!written.flatMap(\.events).contains { $0.code == AbsCode.mtToolType && $0.value != MTToolType.palm },
                "never turned back to a finger")
        #expect(g.clone.activeSlots.isEmpty)
    }

    @Test func quickHold_onlyForContactsYoungerThanIt() {
        // On the clone from 10 ms: a hold beginning at 49 ms sets it aside, one at 50 ms (40 ms old) does not.
        for (second, aside) in [(Int64(49), true), (50, false)] {
            var g = gate(bound: [3], quickHold: .milliseconds(40))
            let written = run(&g, forwardedThenSecondLanding(secondAt: second).events)
            #expect(palms(written).isEmpty != aside, "second finger at \(second) ms: \(written)")
        }
        // Without the setting (touchscreens, external touchpads) nothing is set aside.
        var g = gate(bound: [3])
        #expect(palms(run(&g, forwardedThenSecondLanding(secondAt: 20).events)).isEmpty)
    }

    @Test func setAsideContact_isTakenBackWhenTheHoldEndsUnclaimed() {
        // A 2-finger scroll with only 3 fingers bound: the landing window ends at 80 ms.
        var g = gate(bound: [3], quickHold: .milliseconds(40))
        var f = forwardedThenSecondLanding(secondAt: 20)
        f.touch(0, x: 122, y: 100); f.touch(1, x: 302, y: 100); f.syn(30)
        f.touch(0, x: 124, y: 100); f.touch(1, x: 304, y: 100); f.syn(90)
        let written = timed(&g, f.events, until: .milliseconds(200))
        let catchUp = written.filter { $0.at == .milliseconds(80) }.flatMap(\.events)
        #expect(g.lastRelease?.why == .window)
        #expect(catchUp.contains { $0.code == AbsCode.mtToolType && $0.value == MTToolType.finger },
                "the catch-up turns the palm back into a finger: \(catchUp)")
        let turnedBack = catchUp.firstIndex { $0.code == AbsCode.mtToolType }!
        let secondLands = catchUp.firstIndex { $0.code == AbsCode.mtTrackingId && $0.value == 2 }!
        let framesBefore = catchUp[..<min(turnedBack, secondLands)].filter(\.isSynReport).count
        #expect(framesBefore == 0,
                "the finger comes back in the frame the second one lands in")
        #expect(g.clone == g.real, "live after the catch-up")
    }

    @Test func setAsideContact_liftingDuringTheHold_leavesTheCloneEmpty() {
        // The first finger (set aside at 20 ms) and the second both lift at 30 ms: every finger up
        // ends the hold, and the catch-up lifts the palm; nothing is left on the clone.
        var g = gate(bound: [3], quickHold: .milliseconds(40))
        var f = forwardedThenSecondLanding(secondAt: 20)
        f.lift(0); f.lift(1); f.syn(30)
        let written = timed(&g, f.events, until: .milliseconds(200))
        #expect(g.lastRelease?.why == .allUp)
        #expect(g.clone.activeSlots.isEmpty && g.clone == g.real, "\(written)")
        #expect(palms(written.filter { $0.at == .milliseconds(20) }.flatMap(\.events)).count == 1)
    }
}
