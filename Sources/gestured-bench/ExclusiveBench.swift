// The exclusive device's gate (docs/EXCLUSIVE.md) over the real recordings in Tests/Fixtures, with
// 3- and 4-finger swipes bound (the usual desktop bindings), the default hold and landing:
//   exclusive_pass_delay_ms_p50/p99   delay added to frames forwarded to the clone (event clock)
//   exclusive_pass_delayed_percent    share of forwarded frames that were delayed at all
//   exclusive_claim_hold_ms_p50/p99   how long a claimed sequence's first contact was held back
//   exclusive_gate_ns_per_event       CPU of the gate per event (release build), on top of the pipeline
//   exclusive_hold_sweep.hold_N_ms    other holds over the recordings: delay p99, swipes claimed while held
// The delays are the design's, on the event clock; the write to uinput adds its own (one write(2)
// per frame), measured with the kernel in the VM suite, not here.
import GestureCore
import GestureConfig
import GestureRecording
import LinuxSystem

func benchExclusive(quick: Bool) {
    let dir = fixturesDirectory()
    var recordings: [Recording] = []
    for name in listDirectory(dir).sorted() where name.hasSuffix(".evemu") {
        if let r = try? RecordingLoader.load(path: dir + "/" + name), r.description.hasAxis(AbsCode.mtSlot) { recordings.append(r) }
    }
    guard !recordings.isEmpty else { unavailable("exclusive_pass_delay_ms_p50", "no protocol-B recording in \(dir)"); return }
    var real = ExclusiveTally(), synthetic = ExclusiveTally()
    for r in recordings { simulateExclusive(r.description, r.events, into: &real) }
    report("exclusive_pass_delay_ms_p50", percentile(real.delays, 50), "ms", digits: 1)
    report("exclusive_pass_delay_ms_p99", percentile(real.delays, 99), "ms", digits: 1)
    report("exclusive_pass_delayed_percent", Double(real.delays.filter { $0 > 0 }.count) * 100 / Double(max(1, real.delays.count)), "%", digits: 1)
    report("exclusive_claims.recordings", Double(real.claims), "sequences (\(real.late) late: forwarded, then ended neutrally; \(recordings.count) recordings)", digits: 0)
    // Synthetic 3- and 4-finger swipes (240 mm/s, all fingers in one frame): the claim hold.
    for g in syntheticGestures where g.name == "swipe_3f" || g.name == "swipe_4f" {
        simulateExclusive(syntheticDevice, syntheticEvents(g, seconds: quick ? 5 : 30), into: &synthetic)
    }
    report("exclusive_claims.synthetic", Double(synthetic.claims), "sequences (\(synthetic.late) late)", digits: 0)
    for (name, t) in [("recordings", real), ("synthetic", synthetic)] {
        if t.holds.isEmpty { unavailable("exclusive_claim_hold_ms_p50.\(name)", "no sequence was claimed while held"); continue }
        report("exclusive_claim_hold_ms_p50.\(name)", percentile(t.holds, 50), "ms", digits: 1)
        report("exclusive_claim_hold_ms_p99.\(name)", percentile(t.holds, 99), "ms", digits: 1)
    }
    let total = recordings.reduce(0) { $0 + $1.events.count }
    // The gate alone: each recording's frames as its pipeline hands them (events and the state
    // after them), decoded once before timing; the decoding is the pipeline's (the decode section).
    let framed = recordings.map { r in
        var decoder = SlotDecoder(device: r.description)
        var frames: [(events: [InputEvent], after: EvdevState, resync: Bool)] = []
        var pending: [InputEvent] = []
        for e in r.events {
            if !(e.type == EventType.syn && e.code == SynCode.dropped) { pending.append(e) }
            if let f = decoder.decode(e) { frames.append((pending, decoder.state, f.flags.contains(.resynchronized))); pending.removeAll() }
        }
        return (r.description, frames)
    }
    let (passes, seconds) = timeRepeated(minimumSeconds: quick ? 0.2 : 2) {
        for (d, frames) in framed {
            var gate = makeGate(d, state: EvdevState(slotCount: frames.first?.after.slotCount ?? 0))
            var out: [ExclusiveGate.Action] = []
            for f in frames {
                gate.frame(f.events, after: f.after, resynchronized: f.resync, &out)
                blackHole &+= out.count; out.removeAll(keepingCapacity: true)
            }
        }
    }
    report("exclusive_gate_ns_per_event", seconds * 1e9 / Double(passes * total), "ns", digits: 0)
    // What another exclusive_hold_ms would cost and catch on the same recordings.
    for ms in [100, 200, 300, 500, 600, 800] {
        var t = ExclusiveTally()
        for r in recordings { simulateExclusive(r.description, r.events, hold: .milliseconds(ms), into: &t) }
        report("exclusive_hold_sweep.hold_\(ms)_ms", percentile(t.delays, 99), "ms delay p99 (\(t.claims - t.late) of \(t.claims) real swipes claimed while held)", digits: 1)
    }
}

private let boundCounts: Set<Int> = [3, 4]

private func makeGate(_ d: DeviceDescription, state: EvdevState, hold: Duration = DeviceSettings.defaultExclusiveHold) -> ExclusiveGate {
    let slots = Int((d.absInfo[AbsCode.mtSlot]?.maximum ?? 0) + 1)
    let codes = Set(d.codes[EventType.abs] ?? []).filter { EvdevState.slotCodes.contains($0) }.union([AbsCode.mtToolType])
    let end = ExclusiveGate.NeutralEnd.for(d)
    var gate = ExclusiveGate(settings: .init(boundFingerCounts: boundCounts, hold: hold,
                                                            landing: DeviceSettings.defaultExclusiveLanding, neutralEnd: end, codes: codes,
                                             unitsPerMillimeter: d.unitsPerMillimeter, quickHold: ExclusiveGate.quickHold(for: d)),
                             state: state, clone: EvdevState(slotCount: slots))
    var out: [ExclusiveGate.Action] = []
    gate.start(state: state, &out)
    gate.grabbed(at: .zero, state: state, &out)
    return gate
}

private struct ExclusiveTally { var delays: [Double] = [], holds: [Double] = [], claims = 0, late = 0 }

/// The daemon's order: the pipeline decodes each frame and hands it to the gate (a frame it
/// forwards is written before recognition runs), then recognizes; a swipe claims the sequence.
private func simulateExclusive(_ device: DeviceDescription, _ events: [InputEvent], hold: Duration = DeviceSettings.defaultExclusiveHold,
                               into tally: inout ExclusiveTally) {
    var pipeline = GesturePipeline(device: device)
    var gate = makeGate(device, state: pipeline.state, hold: hold)
    var out: [ExclusiveGate.Action] = []
    func collect(at now: Instant) {
        for case .write(let events) in out {
            for e in events where e.isSynReport { tally.delays.append(Double((now - e.time).totalMicroseconds) / 1000) }
        }
        out.removeAll()
    }
    for e in events {
        _ = Instant.fireDeadlines(upTo: e.time, next: { gate.nextDeadline }) { d in gate.advance(to: d, &out); collect(at: d) }
        pipeline.feed(e, frames: { events, after, resync in
            gate.frame(events, after: after, resynchronized: resync, &out)
            collect(at: e.time)
        }) { o in
            guard case .gesture(let g) = o, g.kind == .swipe, boundCounts.contains(g.fingers) else { return }
            let before = gate.claims
            gate.claim(at: g.time, &out)
            if gate.claims > before {
                tally.claims += 1
                if let h = gate.lastClaimHeld { tally.holds.append(Double(h.totalMicroseconds) / 1000) } else { tally.late += 1 }
            }
        }
        collect(at: e.time)
    }
    let end = (events.last?.time ?? .zero) + .seconds(5)
    _ = Instant.fireDeadlines(upTo: end, next: { gate.nextDeadline }) { d in gate.advance(to: d, &out); collect(at: d) }
}

private func listDirectory(_ path: String) -> [String] {
    FileContents.names(inDirectory: path) ?? []
}
