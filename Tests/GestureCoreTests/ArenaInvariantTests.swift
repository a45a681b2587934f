import GestureCore
import GestureTestSupport
import Testing

/// Random touch input (deterministic): whatever the fingers do, the arena's output keeps its
/// contracts — every continuous gesture is began → changed* → ended|cancelled under one id and
/// is closed once the fingers are up, discrete ones are single `recognized` events, fingers are
/// 1–5, positions 0…1, times never go backwards, and no "gestured bug:" is logged.
@Suite struct ArenaInvariantTests {
    struct SplitMix64 {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func double(_ lo: Double, _ hi: Double) -> Double {
            lo + (hi - lo) * Double(next() >> 11) / Double(1 << 53)
        }
    }

    func randomRun(device: DeviceDescription, seed: UInt64) -> (events: [GestureEvent], diagnostics: [String], openAtEnd: Set<UInt64>) {
        var rng = SplitMix64(state: seed)
        let size = device.size
        var arena = RecognizerArena(device: device, thresholds: .defaults(for: device),
                                    swipeDirections: rng.int(2) == 0 ? 4 : 8)
        var events: [GestureEvent] = []
        var t: Int64 = 0
        var nextID = 1
        var touches: [(id: Int, x: Double, y: Double, vx: Double, vy: Double)] = []
        for _ in 0..<400 {
            t += Int64(4_000 + rng.int(30_000))
            var frameTouches: [Touch] = []
            var flags: TouchFrame.Flags = []
            let action = rng.int(100)
            if action < 8 && touches.count < 7 {
                touches.append((nextID, rng.double(0, size.width), rng.double(0, size.height),
                                rng.double(-0.5, 0.5), rng.double(-0.5, 0.5)))
                frameTouches.append(Touch(id: nextID, slot: nextID % 16, phase: .began, x: touches.last!.x, y: touches.last!.y))
                nextID += 1
            } else if action < 16 && !touches.isEmpty {
                let k = rng.int(touches.count)
                let gone = touches.remove(at: k)
                frameTouches.append(Touch(id: gone.id, slot: gone.id % 16, phase: rng.int(10) == 0 ? .cancelled : .ended, x: gone.x, y: gone.y))
            } else if action == 16 {
                flags.insert(.resynchronized)
            } else if action == 17 {
                events += arena.cancelAll(at: Instant(microseconds: t))
            } else if action < 30 {
                events += arena.advance(to: Instant(microseconds: t))
                continue
            }
            for i in touches.indices {
                if rng.int(3) == 0 { touches[i].vx = rng.double(-1, 1); touches[i].vy = rng.double(-1, 1) }
                touches[i].x = Swift.min(size.width, Swift.max(0, touches[i].x + touches[i].vx * 3))
                touches[i].y = Swift.min(size.height, Swift.max(0, touches[i].y + touches[i].vy * 3))
                if !frameTouches.contains(where: { $0.id == touches[i].id }) {
                    frameTouches.append(Touch(id: touches[i].id, slot: touches[i].id % 16, phase: .moved, x: touches[i].x, y: touches[i].y))
                }
            }
            let count = touches.count + (device.isSemiMT && touches.count == 2 ? rng.int(2) : 0)
            events += arena.process(TouchFrame(time: Instant(microseconds: t), touches: frameTouches, fingerCount: count, flags: flags))
        }
        // Lift everything and let every deadline pass.
        t += 10_000
        let lift = touches.map { Touch(id: $0.id, slot: $0.id % 16, phase: .ended, x: $0.x, y: $0.y) }
        events += arena.process(TouchFrame(time: Instant(microseconds: t), touches: lift, fingerCount: 0))
        events += arena.advance(to: Instant(microseconds: t + 5_000_000))
        var open = Set<UInt64>()
        for e in events where !e.kind.isDiscrete {
            if e.phase == .began { open.insert(e.id) }
            if e.phase == .ended || e.phase == .cancelled { open.remove(e.id) }
        }
        return (events, arena.drainDiagnostics(), open)
    }

    func checkContracts(_ r: (events: [GestureEvent], diagnostics: [String], openAtEnd: Set<UInt64>), seed: UInt64) {
        #expect(r.diagnostics.isEmpty, "seed \(seed): \(r.diagnostics)")
        #expect(r.openAtEnd.isEmpty, "seed \(seed): gestures never closed: \(r.openAtEnd)")
        var phaseByID: [UInt64: (GestureKind, GesturePhase)] = [:]
        var lastTime = Instant(microseconds: .min)
        for e in r.events {
            #expect(e.fingers >= 1 && e.fingers <= 5, "seed \(seed): \(e)")
            #expect(e.time >= lastTime, "seed \(seed): time went backwards at \(e)")
            lastTime = e.time
            if let x = e.x, let y = e.y { #expect(x >= 0 && x <= 1 && y >= 0 && y <= 1, "seed \(seed): \(e)") }
            if e.kind.isDiscrete {
                #expect(e.phase == .recognized && phaseByID[e.id] == nil, "seed \(seed): \(e)")
                phaseByID[e.id] = (e.kind, .recognized)
                continue
            }
            let previous = phaseByID[e.id]
            switch e.phase {
            case .began: #expect(previous == nil, "seed \(seed): id reused by \(e)")
            case .changed, .ended, .cancelled:
                #expect(previous?.0 == e.kind && (previous?.1 == .began || previous?.1 == .changed),
                        "seed \(seed): \(e.phase) after \(String(describing: previous)) for \(e.kind) \(e.id)")
            case .recognized: Issue.record("seed \(seed): continuous \(e.kind) recognized")
            }
            phaseByID[e.id] = (e.kind, e.phase)
        }
    }

    /// The random input is not vacuous: it makes gestures of many kinds and cancellations.
    @Test func randomInput_exercisesManyKinds() {
        var kinds = Set<GestureKind>(), phases = Set<GesturePhase>()
        for seed in 0..<40 {
            for e in randomRun(device: ScenarioDevices.touchscreen(), seed: UInt64(seed) &* 7919).events {
                kinds.insert(e.kind); phases.insert(e.phase)
            }
        }
        #expect(kinds.count >= 5, "\(kinds)")
        #expect(phases == Set(GesturePhase.allCases), "\(phases)")
    }

    @Test(arguments: 0..<40)
    func randomInput_keepsEventContracts_touchscreen(seed: Int) {
        let s = UInt64(seed) &* 7919
        checkContracts(randomRun(device: ScenarioDevices.touchscreen(), seed: s), seed: s)
    }
    @Test(arguments: 0..<40)
    func randomInput_keepsEventContracts_touchpads(seed: Int) {
        let s = UInt64(seed) &* 104_729
        let device = seed % 2 == 0 ? ScenarioDevices.touchpad() : ScenarioDevices.touchpad(semiMT: true, slots: 2)
        checkContracts(randomRun(device: device, seed: s), seed: s)
    }
}
