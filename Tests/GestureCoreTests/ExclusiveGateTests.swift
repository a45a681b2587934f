import GestureCore
import GestureTestSupport
import Testing

/// The gate as the daemon runs it: a real `SlotDecoder` (what `GesturePipeline` holds) decodes
/// each event into the device's `EvdevState` and hands every completed frame, with the state
/// after it, to the gate. Reads the gate's properties through.
@dynamicMemberLookup
struct TestGate {
    var gate: ExclusiveGate
    var decoder: SlotDecoder
    private var frame: [InputEvent] = []

    /// `real`: the device's state at the start (its slot count is the test device's).
    init(settings: ExclusiveGate.Settings, real: EvdevState, clone: EvdevState) {
        let device = TestDevices.slots("gate test", slots: Int32(real.slotCount), x: TestDevices.axis(0, 65535), y: TestDevices.axis(0, 65535))
        decoder = SlotDecoder(device: device, initialState: real)
        gate = ExclusiveGate(settings: settings, state: decoder.state, clone: clone)
    }

    subscript<T>(dynamicMember path: KeyPath<ExclusiveGate, T>) -> T { gate[keyPath: path] }
    subscript<T>(dynamicMember path: WritableKeyPath<ExclusiveGate, T>) -> T {
        get { gate[keyPath: path] }
        set { gate[keyPath: path] = newValue }
    }
    /// The real device's state (the decoder's).
    var real: EvdevState { decoder.state }

    mutating func feed(_ e: InputEvent, _ out: inout [ExclusiveGate.Action]) {
        if !(e.type == EventType.syn && e.code == SynCode.dropped) { frame.append(e) }
        guard let f = decoder.decode(e) else { return }
        gate.frame(frame, after: decoder.state, resynchronized: f.flags.contains(.resynchronized), &out)
        frame.removeAll()
    }
    mutating func start(_ out: inout [ExclusiveGate.Action]) { gate.start(state: decoder.state, &out) }
    mutating func grabbed(at t: Instant, _ out: inout [ExclusiveGate.Action]) { gate.grabbed(at: t, state: decoder.state, &out) }
    mutating func claim(at t: Instant, _ out: inout [ExclusiveGate.Action]) { gate.claim(at: t, &out) }
    mutating func advance(to t: Instant, _ out: inout [ExclusiveGate.Action]) { gate.advance(to: t, &out) }
    mutating func requestRelease(_ out: inout [ExclusiveGate.Action]) { gate.requestRelease(&out) }
    mutating func cancelRelease(_ out: inout [ExclusiveGate.Action]) { gate.cancelRelease(state: decoder.state, &out) }
}

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
              landing: Duration = .milliseconds(60), quickHold: Duration? = nil) -> TestGate {
        // 10 units a millimetre, a landing travel of 1 mm: 10 units.
        var g = TestGate(settings: .init(boundFingerCounts: bound, hold: hold, landing: landing, neutralEnd: end, codes: Self.codes,
                                              landingTravelMillimeters: 1, unitsPerMillimeter: (10, 10), quickHold: quickHold),
                              real: EvdevState(slotCount: 5), clone: EvdevState(slotCount: 5))
        var out: [ExclusiveGate.Action] = []
        g.start(&out)
        #expect(out == [.grab(g.real)])
        out.removeAll()
        g.grabbed(at: .zero, &out)
        #expect(out.isEmpty, "nothing to bring over on an idle device")
        return g
    }

    /// The distinct times at which something was written, in order.
    func times(_ w: [(at: Instant, events: [InputEvent])]) -> [Instant] {
        w.map(\.at).reduce(into: []) { if $0.last != $1 { $0.append($1) } }
    }

    /// Feeds events, firing the gate's deadlines as time passes; returns what was written.
    func run(_ g: inout TestGate, _ events: [InputEvent], claimAt: Instant? = nil, until end: Instant? = nil) -> [InputEvent] {
        timed(&g, events, claimAt: claimAt, until: end).flatMap(\.events)
    }

    /// The same, with the time each write happened (the event being fed, or the deadline fired).
    func timed(_ g: inout TestGate, _ events: [InputEvent], claimAt: Instant? = nil, until end: Instant? = nil)
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
        // A one-finger tap after it: held (3 may follow), lifted inside the landing window: both
        // frames go to the clone on the lift, down then up, as two frames.
        var f = Frames()
        f.touch(0, id: 7, x: 500, y: 500); f.key(KeyCode.btnTouch, 1); f.syn(1000)
        f.lift(0); f.key(KeyCode.btnTouch, 0); f.syn(1040)
        let tap = timed(&g, f.events, until: .milliseconds(1200))
        #expect(times(tap) == [.milliseconds(1040)], "write times \(tap.map(\.at))")
        let events = tap.flatMap(\.events)
        #expect(events.contains { $0.code == AbsCode.mtTrackingId && $0.value == 7 }, "the tap's touch never reached the clone")
        #expect(events.filter(\.isSynReport).count == 2, "down and up in frames of their own: \(events)")
        #expect(EvdevState(slotCount: 5).applying(events).activeSlots.isEmpty)
        #expect(g.clone.activeSlots.isEmpty && g.lastRelease?.why == .allUp)
    }

    /// One contact landing at 0, then moving `step` units a frame every 10 ms.
    func stroke(step: Int32, frames n: Int, liftAt: Int64? = nil) -> Frames {
        var f = Frames()
        f.touch(0, id: 1, x: 100, y: 100); f.key(KeyCode.btnTouch, 1); f.syn(0)
        for i in 1...n { f.touch(0, x: 100 + Int32(i) * step, y: 100); f.syn(Int64(i) * 10) }
        if let liftAt { f.lift(0); f.key(KeyCode.btnTouch, 0); f.syn(liftAt) }
        return f
    }

    @Test func movingContact_releasedOnTheFrameItPassesTheLandingTravel_thenLive() {
        // 4 units (0.4 mm) a frame: 1.2 mm at 30 ms is past 1 mm; 0.8 mm at 20 ms is not.
        var g = gate(bound: [3])
        let f = stroke(step: 4, frames: 10, liftAt: 120)
        let written = timed(&g, f.events, until: .milliseconds(300))
        #expect(written.first?.at == .milliseconds(30), "released at \(written.first?.at as Any)")
        #expect(g.lastRelease?.why == .moved && g.lastRelease?.held == .milliseconds(30))
        // Caught up in two frames (the landing, then one step to 30 ms's state), then frame for frame at once.
        let catchUp = written.filter { $0.at == .milliseconds(30) }.flatMap(\.events)
        #expect(catchUp.filter(\.isSynReport).count == 2, "\(catchUp)")
        #expect(EvdevState(slotCount: 5).applying(catchUp).value(slot: 0, code: AbsCode.mtPositionX) == 112)
        let live = written.filter { $0.at > .milliseconds(30) }
        #expect(live.count == 8 && live.allSatisfy { $0.at == $0.events.last!.time }, "\(live.map(\.at))")
        #expect(g.mode == .passing && g.clone == g.real)
    }

    @Test func landingTravel_exactlyOneMillimetre_staysHeld_untilTheWindow() {
        // 5 units a frame, then still: 10 units (1.0 mm, not past it) at 20 ms.
        var g = gate(bound: [3])
        var f = Frames()
        f.touch(0, id: 1, x: 100, y: 100); f.key(KeyCode.btnTouch, 1); f.syn(0)
        f.touch(0, x: 105, y: 100); f.syn(10); f.touch(0, x: 110, y: 100); f.syn(20)
        f.touch(0, x: 111, y: 100); f.syn(70)
        let written = timed(&g, f.events, until: .milliseconds(200))
        #expect(times(written) == [.milliseconds(60), .milliseconds(70)], "\(written.map(\.at))")
        #expect(g.lastRelease?.why == .window && g.lastRelease?.held == .milliseconds(60))
        // Landing plus one coalesced frame at 60 ms: the held 1 mm arrives as one step.
        #expect(written.filter { $0.at == .milliseconds(60) }.flatMap(\.events).filter(\.isSynReport).count == 2)
    }

    @Test func defaultLandingTravel_isThreeTenthsOfAMillimetre() {
        // 10 units a millimetre: 3 units (0.3 mm) is not past it, 4 units is.
        var g = TestGate(settings: .init(boundFingerCounts: [3], hold: .milliseconds(250), neutralEnd: .lift(after: .milliseconds(200)),
                                              codes: Self.codes, unitsPerMillimeter: (10, 10)),
                              real: EvdevState(slotCount: 2), clone: EvdevState(slotCount: 2))
        var out: [ExclusiveGate.Action] = []
        g.start(&out); g.grabbed(at: .zero, &out)
        var f = Frames()
        f.touch(0, id: 1, x: 100, y: 100); f.syn(0); f.touch(0, x: 103, y: 100); f.syn(10)
        #expect(timed(&g, f.events).isEmpty)
        f = Frames(); f.touch(0, x: 104, y: 100); f.syn(20)
        #expect(times(timed(&g, f.events)) == [.milliseconds(20)])
    }

    @Test func landingTravel_isMeasuredInMillimetres_perAxisResolution() {
        // 2 units a millimetre across, 20 down: 3 units across (1.5 mm) is past 1 mm, 15 down (0.75 mm) is not.
        var g = TestGate(settings: .init(boundFingerCounts: [3], hold: .milliseconds(250), neutralEnd: .palm, codes: Self.codes,
                                              landingTravelMillimeters: 1, unitsPerMillimeter: (2, 20)),
                              real: EvdevState(slotCount: 2), clone: EvdevState(slotCount: 2))
        var out: [ExclusiveGate.Action] = []
        g.start(&out); g.grabbed(at: .zero, &out)
        var f = Frames()
        f.touch(0, id: 1, x: 100, y: 100); f.syn(0); f.touch(0, x: 100, y: 115); f.syn(10)
        #expect(timed(&g, f.events).isEmpty)
        f = Frames(); f.touch(0, x: 103, y: 100); f.syn(20)
        #expect(times(timed(&g, f.events)) == [.milliseconds(20)])
    }

    @Test func buttonInALandingHold_releasesAtOnce_butNotInABoundHold() {
        var g = gate(bound: [3])
        var f = Frames()
        f.touch(0, id: 1, x: 100, y: 100); f.key(KeyCode.btnTouch, 1); f.syn(0)
        f.key(KeyCode.btnLeft, 1); f.syn(15)
        #expect(times(timed(&g, f.events)) == [.milliseconds(15)])
        #expect(g.lastRelease?.why == .button && g.clone.keys[KeyCode.btnLeft] == 1)
        var h = gate(bound: [1])
        f = Frames()
        f.touch(0, id: 1, x: 100, y: 100); f.key(KeyCode.btnTouch, 1); f.syn(0)
        f.key(KeyCode.btnLeft, 1); f.syn(15)
        #expect(timed(&h, f.events).isEmpty, "a bound count's hold waits for recognition")
    }

    @Test func secondLanding_besideAForwardedContact_isHeld_whileBothStayNearlyStill() {
        var g = gate(bound: [3], end: .lift(after: .milliseconds(200)))
        var f = Frames()
        f.touch(0, id: 1, x: 100, y: 100); f.syn(0)
        f.touch(0, x: 120, y: 100); f.syn(10)                          // moved 2 mm: released, live
        f.touch(1, id: 2, x: 300, y: 100); f.syn(20)                   // a second lands: 3 may follow
        f.touch(0, x: 130, y: 100); f.syn(30)                          // the first moves 1.0 mm since: held
        f.touch(2, id: 3, x: 400, y: 100); f.syn(40)                   // the third: a bound count
        f.touch(0, x: 140, y: 100); f.touch(1, x: 310, y: 100); f.touch(2, x: 410, y: 100); f.syn(50)
        let written = timed(&g, f.events, claimAt: .milliseconds(50), until: .milliseconds(400))
        #expect(times(written.filter { $0.at < .milliseconds(50) }) == [.milliseconds(10)], "\(written.map(\.at))")
        #expect(times(written.filter { $0.at >= .milliseconds(50) }) == [.milliseconds(210)], "lifted 200 ms after it reached the clone")
        let slotsSeen = Set(written.flatMap(\.events).filter { $0.code == AbsCode.mtTrackingId && $0.value >= 0 }.map(\.value))
        #expect(slotsSeen == [1], "only the first contact reached the clone: \(slotsSeen)")
        #expect(g.clone.value(slot: 0, code: AbsCode.mtPositionX) == 120 && g.clone.activeSlots.isEmpty)
        #expect(g.lastClaimHeld == nil, "a contact had reached the clone: a late claim")
        // Just above: the first moving 1.1 mm after the second landed releases both.
        var h = gate(bound: [3])
        var k = Frames()
        k.touch(0, id: 1, x: 100, y: 100); k.syn(0); k.touch(0, x: 120, y: 100); k.syn(10)
        k.touch(1, id: 2, x: 300, y: 100); k.syn(20); k.touch(0, x: 131, y: 100); k.syn(30)
        #expect(times(timed(&h, k.events)) == [.milliseconds(10), .milliseconds(30)])
        #expect(h.lastRelease?.why == .moved && h.clone == h.real)
    }

    @Test func boundCountNotClaimed_isCaughtUpAtTheHoldsEnd_thenLive() {
        var g = gate(bound: [3], hold: .milliseconds(200))
        let written = timed(&g, threeFingerSwipe(from: 0), until: .milliseconds(600))
        // Landing at 0, the bound count at 10: held until 210, then landings and one step, then live.
        #expect(written.first?.at == .milliseconds(210) && g.lastRelease?.why == .window)
        let catchUp = written.filter { $0.at == .milliseconds(210) }.flatMap(\.events)
        #expect(catchUp.filter(\.isSynReport).count == 4, "landing, second landing, one step, then the frame of 210 itself: \(catchUp)")
        #expect(written.filter { $0.at > .milliseconds(210) }.allSatisfy { $0.at == $0.events.last!.time })
        #expect(g.clone == g.real && g.clone.activeSlots.isEmpty)
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
        var g = TestGate(settings: .init(boundFingerCounts: [3], hold: .milliseconds(250), neutralEnd: .palm, codes: Self.codes),
                              real: real, clone: EvdevState(slotCount: 2))
        var out: [ExclusiveGate.Action] = []
        g.start(&out)
        #expect(out.isEmpty)
        var f = Frames(); f.touch(0, x: 10, y: 10); f.syn(5)
        for e in f.events { g.feed(e, &out) }
        #expect(out.isEmpty, "grabbed with a finger down")
        f = Frames(); f.lift(0); f.key(KeyCode.btnTouch, 0); f.syn(20)
        for e in f.events { g.feed(e, &out) }
        #expect(out == [.grab(g.real)], "the grab, with the device's state after the lift")
        #expect(g.real.activeSlots.isEmpty)
    }

    @Test func releaseRequestedMidTouch_waitsForTheLift() {
        var g = gate(bound: [3])
        var f = Frames()
        f.touch(0, id: 1, x: 100, y: 100); f.syn(0)                 // held: a landing
        var out: [ExclusiveGate.Action] = []
        for e in f.events { g.feed(e, &out) }
        g.requestRelease(&out)
        #expect(out.isEmpty, "released with a finger down")
        f = Frames(); f.lift(0); f.syn(40)
        for e in f.events { g.feed(e, &out) }
        // The held touch and its lift reach the clone first, then the grab goes.
        #expect(out.count == 3 && out.last == .release && g.mode == .ungrabbed, "\(out)")
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

    /// A claimed contact ends as a palm wherever libinput reads the tool type (touchscreens, built-in
    /// touchpads), else it stands still past the tap timeout: libinput's palm detection by
    /// ABS_MT_TOOL_TYPE is off on external (USB, Bluetooth) touchpads.
    @Test func neutralEnd_palmWhereLibinputHonoursTheToolType() {
        var pad = ScenarioDevices.touchpad(), screen = ScenarioDevices.touchscreen()
        for (bus, name) in [(UInt16(0x18), "I2C"), (0x11, "PS/2"), (0x1d, "RMI"), (0x06, "virtual")] {
            pad.bustype = bus
            #expect(ExclusiveGate.NeutralEnd.for(pad) == .palm, "\(name) touchpad")
        }
        for bus: UInt16 in [0x03, 0x05] {
            pad.bustype = bus
            #expect(ExclusiveGate.NeutralEnd.for(pad) == .lift(after: .milliseconds(200)), "bus \(bus) touchpad")
            screen.bustype = bus
            #expect(ExclusiveGate.NeutralEnd.for(screen) == .palm, "bus \(bus) touchscreen")
        }
    }
}
