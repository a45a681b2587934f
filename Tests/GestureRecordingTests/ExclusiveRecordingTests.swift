import GestureCore
import GestureRecording
import Testing

/// The exclusive gate (GestureCore/Exclusive) on the real 3- and 4-finger swipes in Tests/Fixtures,
/// fed as the daemon feeds it (the pipeline decodes each frame and hands it to the gate before
/// recognizing; its bound swipe claims), with 3- and
/// 4-finger swipes bound and the default hold, landing and landing travel. What the person did comes
/// from the recordings' names (Tests/Fixtures/RECORDINGS.md); what a compositor would see is what
/// the gate wrote to the clone before the claim.
@Suite struct ExclusiveRecordingTests {
    struct Seen {
        var claims = 0
        /// Per claim: the clone's contacts then, the largest count the clone had in that touch
        /// sequence, and the farthest any of them travelled on the clone (mm).
        var atClaim: [(contacts: Int, mostContacts: Int, travelMillimeters: Double)] = []
        /// Clone contacts lifted as fingers younger than this after they landed on the clone (a tap risk).
        var shortestCloneTouch: Duration?
        /// Clone contacts that ended as palms (MT_TOOL_PALM before the lift: neither a tap nor a hold).
        var palmEnds = 0
        /// Per clone contact that became a palm while its touch went on: how long after it landed on
        /// the clone (libinput begins its quick hold on a still contact 40 ms after it landed).
        var palmedAfter: [Duration] = []
    }

    func run(_ name: String, hold: Duration = .milliseconds(200)) throws -> Seen {
        let r = try Fixtures.load(name)
        let d = r.description
        let slots = Int((d.absInfo[AbsCode.mtSlot]?.maximum ?? 0) + 1)
        let codes = Set(d.codes[EventType.abs] ?? []).filter { EvdevState.slotCodes.contains($0) }.union([AbsCode.mtToolType])
        let end = ExclusiveGate.NeutralEnd.for(d)
        var pipeline = GesturePipeline(device: d)
        var gate = ExclusiveGate(settings: .init(boundFingerCounts: [3, 4], hold: hold, landing: .milliseconds(60),
                                                 neutralEnd: end, codes: codes, unitsPerMillimeter: d.unitsPerMillimeter,
                                                 quickHold: ExclusiveGate.quickHold(for: d)),
                                 state: pipeline.state, clone: EvdevState(slotCount: slots))
        var out: [ExclusiveGate.Action] = []
        gate.start(state: pipeline.state, &out); gate.grabbed(at: .zero, state: pipeline.state, &out); out.removeAll()
        let upm = d.unitsPerMillimeter
        var clone = EvdevState(slotCount: slots)
        var travel: [Int32: Double] = [:], landed: [Int32: Instant] = [:]
        var most = 0
        var seen = Seen()
        func collect(_ now: Instant) {
            for case .write(let events) in out {
                let before = clone
                clone = clone.applying(events)
                for s in 0..<slots {
                    let id = clone.value(slot: s, code: AbsCode.mtTrackingId), was = before.value(slot: s, code: AbsCode.mtTrackingId)
                    if was >= 0 && id != was, let t = landed[was] {
                        let age = now - t
                        if before.value(slot: s, code: AbsCode.mtToolType) == MTToolType.palm { seen.palmEnds += 1 }
                        else if seen.shortestCloneTouch.map({ age < $0 }) ?? true { seen.shortestCloneTouch = age }
                    }
                    guard id >= 0 else { continue }
                    if id != was { landed[id] = now; travel[id] = 0; continue }
                    if clone.value(slot: s, code: AbsCode.mtToolType) == MTToolType.palm,
                       before.value(slot: s, code: AbsCode.mtToolType) != MTToolType.palm, let t = landed[id] {
                        seen.palmedAfter.append(now - t)
                    }
                    let dx = Double(clone.value(slot: s, code: AbsCode.mtPositionX) - before.value(slot: s, code: AbsCode.mtPositionX)) / upm.x
                    let dy = Double(clone.value(slot: s, code: AbsCode.mtPositionY) - before.value(slot: s, code: AbsCode.mtPositionY)) / upm.y
                    travel[id, default: 0] += (dx * dx + dy * dy).squareRoot()
                }
                most = max(most, clone.activeSlots.count)
                if clone.activeSlots.isEmpty { most = 0 }
            }
            out.removeAll()
        }
        for e in r.events {
            while let t = gate.nextDeadline, t <= e.time { gate.advance(to: t, &out); collect(t) }
            pipeline.feed(e, frames: { events, after, resync in
                gate.frame(events, after: after, resynchronized: resync, &out)
                collect(e.time)
            }) { o in
                guard case .gesture(let g) = o, g.kind == .swipe, [3, 4].contains(g.fingers),
                      g.phase != .ended, g.phase != .cancelled else { return }
                let before = gate.claims
                let active = clone.activeSlots.map { clone.value(slot: $0, code: AbsCode.mtTrackingId) }
                gate.claim(at: g.time, &out)
                if gate.claims > before {
                    seen.claims += 1
                    seen.atClaim.append((active.count, most, active.map { travel[$0] ?? 0 }.max() ?? 0))
                }
                collect(g.time)
            }
        }
        let last = (r.events.last?.time ?? .zero) + .seconds(5)
        while let t = gate.nextDeadline, t <= last { gate.advance(to: t, &out); collect(t) }
        return seen
    }

    /// A Synaptics clickpad's three-finger swipe down: its first finger drifts 0.56 mm in the first
    /// 28 ms (past the landing travel), so it reaches the clone 28 ms after it landed; the second
    /// lands 29 ms later and is held (a bound count may follow), and the clone's contact, younger
    /// than libinput's 40 ms quick hold and now standing still there, becomes a palm at once (an
    /// I2C touchpad: built in, its libinput honours MT_TOOL_PALM), so no hold gesture begins; the
    /// claim lifts it: no tap. What the compositor sees is that one finger's drift before the
    /// second landed (libinput's pointer travel for it: Tests/VM/exclusive_lag.py), never a second
    /// finger (no scroll).
    @Test func touchpadThreeFingerSwipe_leaksOnlyTheFirstFingersDrift() throws {
        let seen = try run("touchpad-synaptics-dll0945-3finger-swipe-then-kernel-ghost-contacts__linux-input-list.evtest")
        try #require(seen.claims >= 1, "the 3-finger swipe was not claimed")
        let first = seen.atClaim[0]
        #expect(first.mostContacts <= 1, "the clone had \(first.mostContacts) contacts before the claim: a scroll could begin")
        #expect(first.travelMillimeters < 1.6, "the forwarded finger travelled \(first.travelMillimeters) mm before the claim")
        print("dll0945 3-finger swipe: at the claim the clone had \(first.contacts) contact(s), travelled \(first.travelMillimeters) mm")
        #expect(seen.palmEnds >= 1, "the forwarded finger did not end as a palm")
        #expect(seen.palmedAfter.count == 1 && seen.palmedAfter[0] < ExclusiveGate.libinputQuickHold,
                "the forwarded finger was not set aside as a palm before libinput's quick hold: \(seen.palmedAfter)")
        #expect((seen.shortestCloneTouch ?? .seconds(1)) >= .milliseconds(200), "a clone touch lifted after \(seen.shortestCloneTouch!): tap-to-click")
    }

    /// A touchscreen's 4-finger swipe up (all four land in one frame, a slow swipe recognized 519 ms
    /// later): with a hold that long nothing reaches the clone; with the default 200 ms its
    /// touches reach it and are cancelled as palms at the claim, never lifted as taps.
    @Test func touchscreenFourFingerSwipe_heldLongEnough_neverReachesTheClone() throws {
        let late = try run("touchscreen-ep0430m09-4finger-swipe-up__whot-evemu-devices.evemu")
        try #require(late.claims == 1, "claims: \(late.claims)")
        #expect(late.atClaim[0].contacts == 4)
        let seen = try run("touchscreen-ep0430m09-4finger-swipe-up__whot-evemu-devices.evemu", hold: .milliseconds(600))
        try #require(seen.claims == 1, "claims: \(seen.claims)")
        #expect(seen.atClaim[0].mostContacts == 0, "\(seen.atClaim[0])")
        #expect(seen.shortestCloneTouch == nil, "a touch reached the clone")
    }
}
