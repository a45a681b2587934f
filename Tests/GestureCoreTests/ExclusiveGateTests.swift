import GestureCore
import Testing

/// The exclusive device's gate: what reaches the clone for held, claimed and unbound sequences.
@Suite struct ExclusiveGateTests {
    static let codes: Set<UInt16> = [AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtTrackingId, AbsCode.mtToolType]

    /// Builds kernel-like frames: `touch(slot:id:x:y:)`, `lift(slot:)`, keys, then `syn(ms)`.
    struct Frames {
        var events: [InputEvent] = []
        var pending: [(UInt16, UInt16, Int32)] = []
        var slot = 0
        mutating func touch(_ s: Int, id: Int32? = nil, x: Int32, y: Int32) {
            if s != slot { pending.append((EventType.abs, AbsCode.mtSlot, Int32(s))); slot = s }
            if let id { pending.append((EventType.abs, AbsCode.mtTrackingId, id)) }
            pending.append((EventType.abs, AbsCode.mtPositionX, x)); pending.append((EventType.abs, AbsCode.mtPositionY, y))
        }
        mutating func lift(_ s: Int) {
            if s != slot { pending.append((EventType.abs, AbsCode.mtSlot, Int32(s))); slot = s }
            pending.append((EventType.abs, AbsCode.mtTrackingId, -1))
        }
        mutating func key(_ code: UInt16, _ v: Int32) { pending.append((EventType.key, code, v)) }
        mutating func syn(_ ms: Int64) {
            let t = Instant.milliseconds(ms)
            for (type, code, v) in pending { events.append(InputEvent(time: t, type: type, code: code, value: v)) }
            events.append(InputEvent(time: t, type: EventType.syn, code: SynCode.report, value: 0))
            pending.removeAll()
        }
    }

    func gate(bound: Set<Int>, end: ExclusiveGate.NeutralEnd = .palm, hold: Duration = .milliseconds(250),
              landing: Duration = .milliseconds(60)) -> ExclusiveGate {
        var g = ExclusiveGate(settings: .init(boundFingerCounts: bound, hold: hold, landing: landing, neutralEnd: end, codes: Self.codes),
                              real: EvdevState(slotCount: 5), clone: EvdevState(slotCount: 5))
        var out: [ExclusiveGate.Action] = []
        g.start(&out)
        #expect(out == [.grab])
        out.removeAll()
        g.grabbed(at: .zero, &out)
        #expect(out.isEmpty, "nothing to bring over on an idle device")
        return g
    }

    /// Feeds events, firing the gate's deadlines as time passes; returns what was written.
    func run(_ g: inout ExclusiveGate, _ events: [InputEvent], claimAt: Instant? = nil, until end: Instant? = nil) -> [InputEvent] {
        timed(&g, events, claimAt: claimAt, until: end).flatMap(\.events)
    }

    /// The same, with the time each write happened (the event being fed, or the deadline fired).
    func timed(_ g: inout ExclusiveGate, _ events: [InputEvent], claimAt: Instant? = nil, until end: Instant? = nil)
        -> [(at: Instant, events: [InputEvent])] {
        var written: [(at: Instant, events: [InputEvent])] = []
        var out: [ExclusiveGate.Action] = []
        func collect(_ now: Instant) {
            for a in out { if case .write(let w) = a { written.append((now, w)) } }
            out.removeAll()
        }
        var claimed = false
        func catchUp(to t: Instant) {
            while let d = g.nextDeadline, d <= t { g.advance(to: d, &out); collect(d) }
        }
        for e in events {
            catchUp(to: e.time)
            if let c = claimAt, !claimed, e.time >= c { g.claim(at: e.time, &out); claimed = true; collect(e.time) }
            g.feed(e, &out); collect(e.time)
        }
        if let end { catchUp(to: end) }
        return written
    }

    func threeFingerSwipe(from ms: Int64) -> [InputEvent] {
        var f = Frames()
        f.touch(0, id: 1, x: 100, y: 100); f.key(KeyCode.btnTouch, 1); f.syn(ms)
        f.touch(1, id: 2, x: 200, y: 100); f.touch(2, id: 3, x: 300, y: 100); f.syn(ms + 10)
        for i in 1...20 { for s in 0..<3 { f.touch(s, x: Int32(100 * (s + 1) + i * 20), y: 100) }; f.syn(ms + 10 + Int64(i) * 10) }
        f.lift(0); f.lift(1); f.lift(2); f.key(KeyCode.btnTouch, 0); f.syn(ms + 230)
        return f.events
    }

    @Test func boundSequence_claimedWhileHeld_writesNothing_thenUnboundTapPassesVerbatim() {
        var g = gate(bound: [3])
        let written = run(&g, threeFingerSwipe(from: 0), claimAt: .milliseconds(120))
        #expect(written.isEmpty, "the claimed swipe reached the clone: \(written)")
        #expect(g.lastClaimHeld == .milliseconds(120) && g.claims == 1)
        // A one-finger tap after it: held for the landing window (3 may follow), lifted inside it:
        // forwarded from the lift on, with its 40 ms kept.
        var f = Frames()
        f.touch(0, id: 7, x: 500, y: 500); f.key(KeyCode.btnTouch, 1); f.syn(1000)
        f.lift(0); f.key(KeyCode.btnTouch, 0); f.syn(1040)
        let tap = timed(&g, f.events, until: .milliseconds(1200))
        #expect(tap.map(\.at) == [.milliseconds(1040), .milliseconds(1080)], "write times \(tap.map(\.at))")
        let events = tap.flatMap(\.events)
        #expect(events.contains { $0.code == AbsCode.mtTrackingId && $0.value == 7 }, "the tap's touch never reached the clone")
        #expect(events.filter(\.isSynReport).count == 2, "frame for frame: \(events)")
        #expect(EvdevState(slotCount: 5).applying(events).activeSlots.isEmpty)
        #expect(g.clone.activeSlots.isEmpty && g.lag == .zero)
    }

    @Test func unboundCount_afterLanding_isForwardedFrameForFrame_60msLate() {
        var g = gate(bound: [3])
        var f = Frames()
        f.touch(0, id: 1, x: 100, y: 100); f.key(KeyCode.btnTouch, 1); f.syn(0)
        for i in 1...30 { f.touch(0, x: 100 + Int32(i), y: 100); f.syn(Int64(i) * 10) }
        f.lift(0); f.key(KeyCode.btnTouch, 0); f.syn(320)
        let written = timed(&g, f.events, until: .milliseconds(500))
        #expect(written.flatMap(\.events) == f.events, "not the kernel's frames")
        #expect(written.allSatisfy { $0.at - $0.events.last!.time == .milliseconds(60) }, "\(written.map { $0.at - $0.events.last!.time })")
        #expect(g.mode == .passing && g.clone == g.real && g.lag == .zero)
    }

    @Test func noLargerBoundCount_noHold_noDelay() {
        var g = gate(bound: [1])
        var f = Frames()
        f.touch(0, id: 1, x: 100, y: 100); f.touch(1, id: 2, x: 300, y: 100); f.syn(0)
        f.touch(0, x: 120, y: 100); f.syn(10); f.lift(0); f.lift(1); f.syn(20)
        let written = timed(&g, f.events)
        #expect(written.count == 3 && written.allSatisfy { $0.at == $0.events.last!.time })
    }

    @Test func landingZero_unboundCountPassesAtOnce() {
        var g = gate(bound: [3], landing: .zero)
        var f = Frames()
        f.touch(0, id: 1, x: 100, y: 100); f.syn(0); f.touch(0, x: 120, y: 100); f.syn(10); f.lift(0); f.syn(20)
        let written = timed(&g, f.events)
        #expect(written.count == 3 && written.allSatisfy { $0.at == $0.events.last!.time })
    }

    @Test func fingersLandingOneByOne_eachReArmsTheLanding_thenTheSwipeIsClaimedWhileHeld() {
        var g = gate(bound: [3])
        var f = Frames()
        f.touch(0, id: 1, x: 100, y: 100); f.syn(0)
        f.touch(1, id: 2, x: 200, y: 100); f.syn(40)      // 60 ms after the first would have passed at 60…
        f.touch(2, id: 3, x: 300, y: 100); f.syn(90)      // …but each landing re-arms it
        for i in 1...10 { for s in 0..<3 { f.touch(s, x: Int32(100 * (s + 1) + i * 20), y: 100) }; f.syn(90 + Int64(i) * 10) }
        f.lift(0); f.lift(1); f.lift(2); f.syn(250)
        let written = run(&g, f.events, claimAt: .milliseconds(150), until: .milliseconds(600))
        #expect(written.isEmpty, "\(written)")
        #expect(g.lastClaimHeld == .milliseconds(150))
    }

    @Test func lateClaim_onTouchscreen_endsForwardedTouchesAsPalms() {
        var g = gate(bound: [3], hold: .milliseconds(50))
        let written = run(&g, threeFingerSwipe(from: 0), claimAt: .milliseconds(150))
        let palms = written.filter { $0.code == AbsCode.mtToolType && $0.value == MTToolType.palm }
        #expect(palms.count == 3, "each forwarded contact turns palm: \(written)")
        let firstPalm = written.firstIndex { $0.code == AbsCode.mtToolType }!
        let firstLift = written.firstIndex { $0.code == AbsCode.mtTrackingId && $0.value == -1 }!
        #expect(firstPalm < firstLift && written[firstPalm..<firstLift].contains(where: \.isSynReport),
                "palm must come in a frame before the lift")
        #expect(!written.contains { $0.time > .milliseconds(150) }, "frames after the claim were written")
        #expect(EvdevState(slotCount: 5).applying(written).activeSlots.isEmpty)
    }

    @Test func lateClaim_onTouchpad_liftsStillContactsAfterTheTapWindow() {
        var g = gate(bound: [3], end: .lift(after: .milliseconds(200)), hold: .milliseconds(50))
        let written = run(&g, threeFingerSwipe(from: 0), claimAt: .milliseconds(100), until: .milliseconds(400))
        let lifts = written.filter { $0.code == AbsCode.mtTrackingId && $0.value == -1 }
        #expect(lifts.count == 3)
        // Nothing moves between the claim and the lift; the lift comes 200 ms after the first landing.
        #expect(!written.contains { $0.time > .milliseconds(100) && $0.time < .milliseconds(200) })
        #expect(lifts.allSatisfy { $0.time >= .milliseconds(200) })
        #expect(!written.contains { $0.code == AbsCode.mtToolType })
    }

    @Test func grab_waitsUntilEveryFingerIsUp() {
        var real = EvdevState(slotCount: 2)
        real.set(slot: 0, code: AbsCode.mtTrackingId, 4); real.setKey(KeyCode.btnTouch, 1)
        var g = ExclusiveGate(settings: .init(boundFingerCounts: [3], hold: .milliseconds(250), neutralEnd: .palm, codes: Self.codes),
                              real: real, clone: EvdevState(slotCount: 2))
        var out: [ExclusiveGate.Action] = []
        g.start(&out)
        #expect(out.isEmpty)
        var f = Frames(); f.touch(0, x: 10, y: 10); f.syn(5)
        for e in f.events { g.feed(e, &out) }
        #expect(out.isEmpty, "grabbed with a finger down")
        f = Frames(); f.lift(0); f.key(KeyCode.btnTouch, 0); f.syn(20)
        for e in f.events { g.feed(e, &out) }
        #expect(out == [.grab])
    }

    @Test func releaseRequestedMidTouch_waitsForTheLift() {
        var g = gate(bound: [3])
        var f = Frames()
        f.touch(0, id: 1, x: 100, y: 100); f.syn(0); f.touch(0, x: 120, y: 100); f.syn(100)
        var out: [ExclusiveGate.Action] = []
        for e in f.events { g.feed(e, &out) }
        g.advance(to: .milliseconds(100), &out)
        out.removeAll()
        g.requestRelease(&out)
        #expect(!out.contains(.release))
        f = Frames(); f.lift(0); f.syn(150)
        for e in f.events { g.feed(e, &out) }
        #expect(!out.contains(.release), "released before the delayed lift reached the clone")
        g.advance(to: .milliseconds(300), &out)
        #expect(out.last == .release && g.mode == .ungrabbed)
        #expect(g.clone.activeSlots.isEmpty)
    }

    @Test func synDropped_resyncsTheCloneByDiff() {
        var g = gate(bound: [])
        var f = Frames()
        f.touch(0, id: 1, x: 100, y: 100); f.syn(0)
        var out: [ExclusiveGate.Action] = []
        for e in f.events { g.feed(e, &out) }
        // SYN_DROPPED, then libevdev's delta: the contact moved and a second one landed.
        out.removeAll()
        g.feed(InputEvent(time: .milliseconds(50), type: EventType.syn, code: SynCode.dropped, value: 0), &out)
        f = Frames(); f.slot = 0
        f.touch(0, x: 150, y: 100); f.touch(1, id: 2, x: 300, y: 300); f.syn(50)
        for e in f.events { g.feed(e, &out) }
        let written = out.flatMap { if case .write(let w) = $0 { w } else { [InputEvent]() } }
        #expect(!written.contains { $0.code == SynCode.dropped && $0.type == EventType.syn })
        #expect(g.clone == g.real && g.inSync)
    }

    @Test func diff_liftsAContactThatChangedIdentityInAFrameOfItsOwn() {
        var a = EvdevState(slotCount: 2), b = EvdevState(slotCount: 2)
        a.set(slot: 1, code: AbsCode.mtTrackingId, 5); a.set(slot: 1, code: AbsCode.mtPositionX, 10)
        b.set(slot: 1, code: AbsCode.mtTrackingId, 6); b.set(slot: 1, code: AbsCode.mtPositionX, 20)
        let d = a.diff(to: b, codes: Self.codes, time: .zero)
        let firstSyn = d.firstIndex(where: \.isSynReport)!
        #expect(d[..<firstSyn].contains { $0.code == AbsCode.mtTrackingId && $0.value == -1 })
        #expect(a.applying(d) == b)
    }
}
