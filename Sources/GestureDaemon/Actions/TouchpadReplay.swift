import GestureConfig
import GestureCore
import GestureWire
import LinuxInput
import LinuxSystem

/// Plays `touchpad:` bindings (docs/ACTIONS.md, "Touchscreen gestures on a virtual touchpad"):
/// while a bound touchscreen swipe, pan or pinch of 2 to 5 fingers is in progress, the daemon's
/// `VirtualTouchpad` holds as many contacts and moves them with the fingers, so the compositor's
/// libinput reports a touchpad GESTURE_SWIPE or GESTURE_PINCH that follows the hand.
///
/// One replay at a time (one hand on the virtual touchpad):
///
/// ```
///          pan began, n fingers, a swipe binding     swipe recognized, bound
///   idle ──────────────────────────────────► primed ─────────────────────────► following
///    │     (contacts land, still; one 1-unit  │  (lead-in move)                  │ ▲ changed:
///    │      settle move on the next frame)    │                                  │ └ move
///    │                                        │ pan ends, swipe unbound          │
///    │  bound pan / pinch began               ▼                                  │ followed pan /
///    └─────────────────────────────────► (lands) following      lifting ◄───────┘ pinch ends,
///                                                                 │   device closed, reload
///   idle ◄────────────────────────────────────────────────────────┘  lift: at once, or at
///                                                                     landed + tapSafe
/// ```
///
/// A swipe is one event; its motion is its family's pan, which runs on the same touches and
/// begins earlier (at a few mm, the swipe at 15): the replay follows that pan. Why the contacts
/// land at the pan's begin and what the lead-in is: see `leadInMillimeters(fingers:)`. Writes are paced
/// at least `minimumFrameInterval` apart (see there).
final class TouchpadReplay {
    struct Replay {
        var deviceId: Int
        /// What the contacts replay: swipe, pan or pinch.
        var kind: GestureKind
        var fingers: Int
        /// The pan or pinch whose events move the contacts.
        var followed: UInt64
        /// Landed ahead of a swipe not recognized yet (`primed`); false once following.
        var primed: Bool
        /// The one-unit settle move was written (libinput's first delta of a touch is zero).
        var settled = false
        /// The followed gesture ended; the contacts wait for their tap-safe lift.
        var ending = false
        var scale = 1.0
        /// The fingers' totals when the replay started following: translation and span (mm).
        var baseDx = 0.0, baseDy = 0.0, baseSpan = 0.0
        /// A pinch's centroid then, mm on the touchscreen.
        var baseX = 0.0, baseY = 0.0
        /// The lead-in: a translation (swipe, pan) or a radius change (pinch), touchpad mm.
        var leadX = 0.0, leadY = 0.0, leadRadius = 0.0
        var landed: Instant
        /// Where the contacts landed and the farthest any has moved from there (touchpad mm).
        var landing: [(x: Double, y: Double)] = []
        var travelMillimeters = 0.0
        var lastEvent: Instant

        init(deviceId: Int, kind: GestureKind, fingers: Int, followed: UInt64, primed: Bool, landed: Instant) {
            self.deviceId = deviceId; self.kind = kind; self.fingers = fingers; self.followed = followed
            self.primed = primed; self.landed = landed; self.lastEvent = landed
        }
    }

    private(set) var bindings: [Binding] = []
    private var matcher = BindingMatcher(bindings: [])
    private(set) var pad: VirtualTouchpad?
    private(set) var replay: Replay?
    /// The pan in flight per touchscreen (device id → pan id), for a swipe to follow.
    private var pans: [Int: UInt64] = [:]
    // Writing: the last frame's time, a move waiting for `minimumFrameInterval`, a lift waiting.
    private var lastWrite: Instant?
    private var pendingMove: [(x: Double, y: Double)]?
    private var pendingLift = false
    /// Lift at this time (tap-safe lift, or the idle limit).
    private var liftDue: Instant?
    private let timer = DeadlineTimer()
    private let loop: EventLoop
    let log: Logger
    private var reportedFailure = false

    init(loop: EventLoop, log: Logger) {
        self.loop = loop
        self.log = log
        loop.add(timer.fd) { [unowned self] _ in self.timerFired() }
    }

    /// The config's `touchpad:` bindings; the virtual touchpad exists while there are any, made
    /// now so the compositor has opened it before the first gesture. Whatever is down is lifted.
    func configure(_ config: Config) {
        liftNow(reason: "reload")
        bindings = config.bindings.filter { $0.touchpad != nil && $0.app == nil }
        matcher = BindingMatcher(bindings: bindings)
        pans.removeAll()
        guard pad == nil, !bindings.isEmpty else { return }
        do {
            pad = try VirtualTouchpad()
            reportedFailure = false
            log.info("actions: virtual touchpad \(pad?.devnode ?? "?") (\"\(VirtualTouchpad.defaultName)\", "
                     + "\(Int(VirtualTouchpad.widthMillimeters))×\(Int(VirtualTouchpad.heightMillimeters)) mm) for "
                     + "\(bindings.count) touchpad: binding\(bindings.count == 1 ? "" : "s")")
        } catch {
            if !reportedFailure {
                log.error("actions: cannot create the virtual touchpad: \(error.description); touchpad: bindings do nothing "
                          + "until the daemon may write /dev/uinput (see README, \"Keys and clicks\")")
            }
            reportedFailure = true
        }
    }

    func deviceClosed(id: Int) {
        pans[id] = nil
        if replay?.deviceId == id { liftNow(reason: "device removed") }
    }

    /// Lifts what is down and removes the device.
    func stop() {
        liftNow(reason: "stopping")
        loop.remove(timer.fd)
        pad = nil
    }

    // MARK: gestures

    func receive(_ g: GestureEvent, from d: WireDevice) {
        guard pad != nil, d.kind == .touchscreen else { return }
        if g.kind == .pan {
            switch g.phase {
            case .began, .changed: pans[d.id] = g.id
            default: if pans[d.id] == g.id { pans[d.id] = nil }
            }
        }
        if let r = replay, r.deviceId == d.id, !r.ending {
            if g.id == r.followed { follow(g, device: d); return }
            if r.primed && g.kind == .swipe && g.phase == .recognized {
                if g.fingers == r.fingers, let b = boundBinding(g, d) { start(g, device: d, binding: b, landed: true) } else { finish(reason: "unbound swipe") }
                return
            }
        }
        guard replay == nil, (2...VirtualTouchpad.maximumContacts).contains(g.fingers),
              g.phase == .began || g.phase == .recognized || g.phase == .changed else { return }
        if let b = boundBinding(g, d) {
            start(g, device: d, binding: b, landed: false)
        } else if g.kind == .pan && g.phase == .began && swipeMayFollow(g, d) {
            prime(g, device: d)
        }
    }

    private func boundBinding(_ g: GestureEvent, _ d: WireDevice) -> Binding? {
        matcher.match(g, device: HookDevice(id: d.id, name: d.name, kind: d.kind, node: d.node)).first.map { bindings[$0] }
    }

    /// A swipe binding this pan's fingers and device could fire once the swipe is recognized.
    private func swipeMayFollow(_ g: GestureEvent, _ d: WireDevice) -> Bool {
        bindings.contains { b in
            b.gesture == .swipe && b.fingers.matches(g.fingers) && (b.device?.matches(kind: d.kind, name: d.name) ?? true)
        }
    }

    /// A pan that may become a bound swipe: the contacts land now, still, so that libinput has
    /// seen them for two frames when the swipe is recognized (see `leadInMillimeters(fingers:)`).
    private func prime(_ g: GestureEvent, device d: WireDevice) {
        let now = MonotonicClock.now()
        var r = Replay(deviceId: d.id, kind: .swipe, fingers: g.fingers, followed: g.id, primed: true, landed: now)
        r.landing = contacts(r, tx: 0, ty: 0, radiusChange: 0)
        replay = r
        land(r.landing, what: "ahead of a possible \(g.fingers)-finger swipe on \(d.node)")
        setLiftDue(now + Self.idleLimit)
    }

    /// The bound gesture `g` starts the replay: the contacts land now (unless primed) and the
    /// lead-in goes with the first move (with the recognition, when primed).
    private func start(_ g: GestureEvent, device d: WireDevice, binding b: Binding, landed: Bool) {
        let now = MonotonicClock.now()
        let followed = g.kind == .swipe ? (replay?.followed ?? pans[d.id]) : g.id
        guard let followed else {
            // A swipe with no pan in flight (its touches already ended): nothing to follow.
            log.debug("actions: touchpad: \(b.location): the \(g.fingers)-finger swipe has no motion left to replay")
            return
        }
        var r = replay ?? Replay(deviceId: d.id, kind: g.kind, fingers: g.fingers, followed: followed, primed: false, landed: now)
        r.kind = g.kind; r.followed = followed; r.primed = false; r.scale = b.touchpad?.scale ?? TouchpadAction.defaultScale
        r.baseDx = g.dxMillimeters ?? 0; r.baseDy = g.dyMillimeters ?? 0; r.baseSpan = g.distanceMillimeters ?? 0
        (r.baseX, r.baseY) = centroid(g, d)
        let k = Self.leadInMillimeters(fingers: g.fingers)
        if g.kind == .pinch {
            r.leadRadius = (g.scale ?? 1) < 1 ? -k : k
        } else {
            let (dx, dy) = (r.baseDx, r.baseDy)
            let length = (dx * dx + dy * dy).squareRoot()
            if length > 0 { r.leadX = dx / length * k; r.leadY = dy / length * k }
        }
        if !landed { r.landing = contacts(r, tx: 0, ty: 0, radiusChange: 0) }
        replay = r
        log.debug("actions: touchpad: \(b.location): replaying the \(g.fingers)-finger \(g.kind) of \(d.node) "
                  + "(scale \(r.scale))")
        if landed {
            move(contacts(r, tx: r.leadX, ty: r.leadY, radiusChange: r.leadRadius))
        } else {
            land(r.landing, what: "for the \(g.fingers)-finger \(g.kind) on \(d.node)")
        }
        setLiftDue(now + Self.idleLimit)
    }

    /// An event of the followed pan or pinch.
    private func follow(_ g: GestureEvent, device d: WireDevice) {
        guard var r = replay else { return }
        let now = MonotonicClock.now()
        r.lastEvent = now
        replay = r
        setLiftDue(now + Self.idleLimit)
        if g.phase == .ended || g.phase == .cancelled {
            finish(reason: "\(g.kind) \(g.phase.rawValue)")
            return
        }
        guard g.phase == .changed else { return }
        if r.primed {
            // The settle move: one device unit, once (libinput reports no motion for a touch's
            // first frame after it lands; this is that frame).
            guard !r.settled else { return }
            replay?.settled = true
            move(r.landing.map { ($0.x, $0.y + 1 / Double(VirtualTouchpad.unitsPerMillimeter)) })
            return
        }
        let dx: Double, dy: Double
        if r.kind == .pinch {
            let (cx, cy) = centroid(g, d)
            dx = cx - r.baseX; dy = cy - r.baseY
        } else {
            dx = (g.dxMillimeters ?? r.baseDx) - r.baseDx; dy = (g.dyMillimeters ?? r.baseDy) - r.baseDy
        }
        let span = r.kind == .pinch ? (g.distanceMillimeters ?? r.baseSpan) - r.baseSpan : 0
        move(contacts(r, tx: r.leadX + dx * r.scale, ty: r.leadY + dy * r.scale, radiusChange: r.leadRadius + span * r.scale / 2))
    }

    /// The pinch's centroid on the touchscreen, mm (its events carry it as a fraction of the surface).
    private func centroid(_ g: GestureEvent, _ d: WireDevice) -> (Double, Double) {
        ((g.x ?? 0.5) * d.widthMillimeters, (g.y ?? 0.5) * d.heightMillimeters)
    }

    // MARK: writing

    private func land(_ points: [(x: Double, y: Double)], what: String) {
        // A lift still waiting for its pacing is part of the landing frame's lift now.
        pendingMove = nil; pendingLift = false
        do {
            try pad?.land(points)
            lastWrite = MonotonicClock.now()
            log.debug("actions: touchpad: \(points.count) contacts down \(what)")
        } catch { log.warning("actions: touchpad: landing the contacts: \(error.description)") }
    }

    /// Moves the contacts now, or at `lastWrite + minimumFrameInterval` (the latest target wins).
    private func move(_ points: [(x: Double, y: Double)]) {
        if let r = replay {
            var travel = r.travelMillimeters
            for (p, l) in zip(points, r.landing) {
                travel = max(travel, ((p.x - l.x) * (p.x - l.x) + (p.y - l.y) * (p.y - l.y)).squareRoot())
            }
            replay?.travelMillimeters = travel
        }
        let now = MonotonicClock.now()
        if let last = lastWrite, now < last + Self.minimumFrameInterval {
            pendingMove = points
            armTimer()
            return
        }
        write(points, at: now)
    }

    private func write(_ points: [(x: Double, y: Double)], at now: Instant) {
        pendingMove = nil
        do { try pad?.move(points); lastWrite = now } catch {
            log.warning("actions: touchpad: moving the contacts: \(error.description)")
        }
    }

    /// Ends the replay: lifts now, or at `landed + tapSafe` when the contacts have not moved far
    /// enough for libinput to rule out a tap.
    private func finish(reason: String) {
        guard let r = replay else { return }
        let now = MonotonicClock.now()
        if r.travelMillimeters < Self.tapSafeTravelMillimeters && now < r.landed + Self.tapSafe {
            replay?.ending = true
            setLiftDue(r.landed + Self.tapSafe)
            log.debug("actions: touchpad: \(reason); lifting at \(Self.tapSafe) after landing (no tap)")
            return
        }
        lift(reason: reason)
    }

    /// Lifts after the pending move, keeping `minimumFrameInterval` after it.
    private func lift(reason: String) {
        let moved = Int((replay?.travelMillimeters ?? 0).rounded())
        replay = nil
        liftDue = nil
        if pendingMove != nil || lastWrite.map({ MonotonicClock.now() < $0 + Self.minimumFrameInterval }) == true {
            pendingLift = true
            armTimer()
        } else {
            writeLift()
        }
        log.debug("actions: touchpad: contacts lifted (\(reason); moved up to \(moved) mm)")
    }

    private func writeLift() {
        pendingLift = false
        do { try pad?.lift(); lastWrite = MonotonicClock.now() } catch {
            log.warning("actions: touchpad: lifting the contacts: \(error.description)")
        }
    }

    /// Everything down goes up now (reload, stop, the device gone): no pacing.
    private func liftNow(reason: String) {
        let had = replay != nil || pendingLift
        replay = nil; liftDue = nil; pendingMove = nil; pendingLift = false
        timer.arm(at: nil)
        do { try pad?.lift() } catch { log.warning("actions: touchpad: lifting the contacts: \(error.description)") }
        if had { log.debug("actions: touchpad: contacts lifted (\(reason))") }
    }

    private func setLiftDue(_ t: Instant) { liftDue = t; armTimer() }

    private func armTimer() {
        var next = liftDue
        if pendingMove != nil || pendingLift, let last = lastWrite {
            next = Instant.earliest(next, last + Self.minimumFrameInterval)
        }
        timer.arm(at: next)
    }

    private func timerFired() {
        timer.acknowledge()
        let now = MonotonicClock.now()
        if let last = lastWrite, now >= last + Self.minimumFrameInterval {
            if let p = pendingMove { write(p, at: now) } else if pendingLift { writeLift() }
        }
        if let due = liftDue, due <= now, let r = replay {
            if !r.ending {
                log.warning("actions: touchpad: the followed gesture sent nothing for \(Self.idleLimit); contacts lifted")
            }
            lift(reason: r.ending ? "tap-safe lift" : "idle")
        }
        armTimer()
    }
}
