import GestureConfig
import GestureCore
import LinuxInput
import LinuxSystem

/// An exclusive device (`exclusive: true`, docs/EXCLUSIVE.md): the real device grabbed, its uinput
/// clone fed by an `ExclusiveGate` with everything but the touch sequences that become a bound
/// gesture. Lives inside its `DeviceSession`, on the loop's thread; the session's pipeline hands
/// it every frame once decoded (its events and the device's state after them), before
/// recognition runs on it, and every gesture the pipeline emits.
final class ExclusiveDevice {
    let evdev: EvdevDevice
    private(set) var clone: CloneDevice?
    private(set) var gate: ExclusiveGate
    private var claims: ClaimRule
    private let log: Logger
    /// Grab released and clone destroyed (refused, released on reload, or closed).
    private(set) var finished = false
    private(set) var grabbed = false
    private var actions: [ExclusiveGate.Action] = []

    /// Makes the clone; the grab follows as soon as no finger is down. `state`: the device's
    /// state now, its session's pipeline's.
    init(evdev: EvdevDevice, state real: EvdevState, hold: Duration, landing: Duration, claims plan: DevicePlan, log: Logger) throws(DaemonError) {
        let d = evdev.description
        guard d.contactProtocol == .slots, real.slotCount > 0 else {
            throw DaemonError("exclusive needs a multi-touch device with slots (protocol B); \(evdev.path) has none, it stays shared")
        }
        let c: CloneDevice
        let end = ExclusiveGate.NeutralEnd.for(d)
        do { c = try CloneDevice(of: d, addPalmTool: end == .palm) } catch {
            throw DaemonError("cannot make its clone: \(error.description); it stays shared")
        }
        self.evdev = evdev
        self.log = log
        clone = c
        claims = ClaimRule(plan)
        let codes = Set(c.description.codes[EventType.abs] ?? []).filter { EvdevState.slotCodes.contains($0) }
        gate = ExclusiveGate(settings: .init(boundFingerCounts: claims.fingerCounts, hold: hold, landing: landing, neutralEnd: end, codes: codes,
                                             unitsPerMillimeter: d.unitsPerMillimeter, quickHold: ExclusiveGate.quickHold(for: d)),
                             state: real, clone: c.initialState(slotCount: real.slotCount))
        log.info("devices: \(evdev.path): exclusive: clone \(c.devnode ?? "?") (phys \(VirtualDeviceMark.physPrefix)/\(CloneDevice.role)); bound finger counts \(claims.fingerCounts.sorted()), held back up to \(hold.totalMicroseconds / 1000) ms (landing \(gate.settings.landing.totalMicroseconds / 1000) ms)")
        gate.start(state: real, &actions)
        perform(at: nil)
    }

    var nextDeadline: Instant? { finished ? nil : gate.nextDeadline }

    /// A frame of the real device, decoded by its pipeline: its events and the state after them.
    func frame(_ events: [InputEvent], after state: EvdevState, resynchronized: Bool) {
        guard !finished else { return }
        gate.frame(events, after: state, resynchronized: resynchronized, &actions)
        if !actions.isEmpty { perform(at: events.last?.time) }
    }

    /// A gesture from this device's pipeline: a bound one claims its touch sequence.
    func gesture(_ g: GestureEvent) {
        guard !finished, claims.claims(g) else { return }
        let before = gate.claims
        gate.claim(at: g.time, &actions)
        if gate.claims > before {
            let held = gate.lastClaimHeld.map { "held back \($0.totalMicroseconds / 1000) ms" } ?? "its forwarded touches ended without a click"
            log.debug("devices: \(evdev.path): exclusive: \(g.fingers)-finger \(g.kind) consumed (\(held))")
        }
        perform(at: g.time)
    }

    func advance(to now: Instant) {
        guard !finished else { return }
        gate.advance(to: now, &actions)
        perform(at: now)
    }

    /// A reload changed the config: new bindings and hold; `exclusive` off releases once all up.
    /// `state`: the device's state now (a grab asked for brings the clone to it).
    func reconfigure(exclusive: Bool, hold: Duration, landing: Duration, claims plan: DevicePlan, state: EvdevState) {
        guard !finished else { return }
        claims = ClaimRule(plan)
        gate.settings = .init(boundFingerCounts: claims.fingerCounts, hold: hold, landing: landing, neutralEnd: gate.settings.neutralEnd,
                              codes: gate.settings.codes, unitsPerMillimeter: evdev.description.unitsPerMillimeter,
                              quickHold: gate.settings.quickHold)
        if exclusive { gate.cancelRelease(state: state, &actions) } else {
            log.info("devices: \(evdev.path): exclusive: off by the config; the grab goes once no finger is down")
            gate.requestRelease(&actions)
        }
        perform(at: nil)
    }

    /// Now, whatever is down (daemon stopping, device gone): grab released, clone destroyed.
    func close(reason: String) {
        guard !finished else { return }
        finish("exclusive: grab released and clone removed (\(reason))")
    }

    private func finish(_ message: String) {
        if grabbed { evdev.ungrab(); grabbed = false }
        clone = nil
        finished = true
        log.info("devices: \(evdev.path): \(message)")
    }

    private func perform(at time: Instant?) {
        while !actions.isEmpty {
            let a = actions.removeFirst()
            switch a {
            case .write(let events):
                do { try clone?.device.write(frames: events) } catch {
                    log.warning("devices: \(evdev.path): exclusive: writing to the clone: \(error.description)")
                }
            case .grab(let state):
                do {
                    try evdev.grab()
                    grabbed = true
                    gate.grabbed(at: time ?? MonotonicClock.now(), state: state, &actions)
                    log.info("devices: \(evdev.path): exclusive: grabbed; the compositor now reads \(clone?.devnode ?? "the clone")")
                } catch {
                    gate.grabFailed()
                    let busy = error.error == .busy
                    actions.removeAll()
                    finish(busy ? "exclusive: cannot grab it: another process holds it (EVIOCGRAB: \(error.description)); `fuser -v \(evdev.path)` names it. The device stays as it was: gestured reads it beside that process, no clone"
                                : "exclusive: cannot grab it: \(error.description); it stays shared, no clone")
                    log.error("devices: \(evdev.path): exclusive failed (see above)")
                    return
                }
            case .release:
                actions.removeAll()
                finish("exclusive: grab released and clone removed (config)")
                return
            }
        }
    }
}

/// Which gestures of one device are "bound" for `exclusive`: those whose kind, finger count,
/// direction and edge one of the plan's `claimBindings` names (phase aside: the first event of a
/// gesture claims it).
struct ClaimRule {
    let bindings: [Binding]
    let fingerCounts: Set<Int>
    private let matcher = BindingMatcher(bindings: [])

    init(_ plan: DevicePlan) {
        bindings = plan.claimBindings
        fingerCounts = plan.claimFingerCounts
    }

    func claims(_ g: GestureEvent) -> Bool {
        guard g.phase != .ended && g.phase != .cancelled else { return false }
        return bindings.contains { b in
            guard b.gesture == g.kind, b.fingers.matches(g.fingers) else { return false }
            if let want = b.directions {
                guard let d = matcher.direction(of: g, for: b), want.contains(d) else { return false }
            }
            if let edges = b.edges {
                guard let e = g.edge, edges.contains(e) else { return false }
            }
            return true
        }
    }
}
