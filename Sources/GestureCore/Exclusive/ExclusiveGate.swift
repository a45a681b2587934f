/// What an exclusive device's clone gets (docs/EXCLUSIVE.md): the real device's frames, except
/// the touch sequences that become a bound gesture. Pure: frames in, actions out, time only from
/// events and `advance(to:)`. The daemon does the grabbing and the writing. It decodes nothing:
/// the device's `GesturePipeline` hands it each frame as read (its events up to SYN_REPORT) with
/// the device's state after it (the decoder's `EvdevState`, the one model of the device), before
/// recognition runs on that frame (`frame(_:after:resynchronized:_:)`).
///
/// ```
///             all fingers up, grab taken        count becomes bound (hold), or a landing that a
///  ungrabbed ─────────────────────────────► passing ───larger bound count may follow (landing)───► holding
///     ▲          (.grab; grabbed())         │  ▲  ▲                                               │  │
///     │                                     │  │  └─ released: caught up at once, then live ◄─────┘  │
///     └── all up, release asked ────────────┘  │     (window over, unbound count, all up; a landing   │
///           (.release)                         │      also ends when a contact moves or a button)    │
///                                              └──── all up (still contacts lifted) ◄─ claimed ◄──────┘
///                                                                                     claim()
/// ```
/// passing also goes to claimed on a late `claim()` (a bound gesture recognized after its
/// contacts were forwarded). Entering holding beside contacts that reached the clone less than
/// `quickHold` ago makes them palms there until the hold ends (libinput's quick hold). Entering
/// claimed drops what is queued and ends every contact the clone has without a click or a tap:
/// `.palm` sets ABS_MT_TOOL_TYPE to MT_TOOL_PALM first (libinput cancels the touch),
/// `.lift(after:)` leaves them standing still and lifts them once they are older than the tap
/// window. A released hold is written at once, coalesced
/// (`coalesced`): a landing, a lift or a button change keeps a frame of its own, and the frames
/// between two of them become one frame with the state after the last, so libinput sees the held
/// motion as one step after the landing, not as a burst of steps the kernel stamps within
/// microseconds of each other (no sane velocity for pointer acceleration; in the kernel suite
/// libinput reported only some frames of such bursts). While the clone and the real device
/// may differ, frames are written as state diffs (`EvdevState.diff`), never as the kernel's frame
/// (whose unchanged values the kernel left out). With the clone in step and nothing held, a frame
/// is written as the kernel sent it, at once.
public struct ExclusiveGate: Sendable {
    public enum NeutralEnd: Hashable, Sendable {
        /// Touchscreens: MT_TOOL_PALM, then the lift.
        case palm
        /// Touchpads: still, then lifted when the contact is at least this old (past tap-to-click).
        case lift(after: Duration)

        /// How a claimed sequence's forwarded contacts end on `d`'s clone. As a palm wherever the
        /// compositor's libinput honours ABS_MT_TOOL_TYPE: touchscreens, and touchpads it counts
        /// as built in (every bus but USB and Bluetooth), whose palm detection reads the tool type;
        /// a palm is neither a tap nor a hold gesture. libinput ignores the tool type on external
        /// touchpads, so theirs stand still and lift once past its tap timeout (180 ms): no tap,
        /// though libinput may begin its hold gesture meanwhile.
        public static func `for`(_ d: DeviceDescription) -> NeutralEnd {
            let usb: UInt16 = 0x03, bluetooth: UInt16 = 0x05
            if d.kind == .touchscreen || (d.bustype != usb && d.bustype != bluetooth) { return .palm }
            return .lift(after: .milliseconds(200))
        }
    }

    /// How far a held contact may move from where it was when the landing hold began (or where it
    /// landed) and still count as waiting for the other fingers of a bound gesture; past it the
    /// contact is moving, and the sequence goes to the clone. Chosen from Tests/Fixtures
    /// (docs/EXCLUSIVE.md, "What is held"): resting first fingers of the real 3-finger touches
    /// drift up to 0.29 mm before the others land, while real one-finger strokes (x220, t440s,
    /// goodix) pass 0.3 mm in their first frames that move, so no frame with motion waits at p95.
    public static let defaultLandingTravelMillimeters = 0.3

    /// libinput's quick hold (evdev-mt-touchpad-gestures.c, QUICK_GESTURE_HOLD_TIMEOUT): on a
    /// touchpad it begins a hold gesture on one or two fingers that have not moved the pointer
    /// within 40 ms of landing. A contact forwarded to the clone and then frozen there by a hold
    /// (a finger landed beside it) is such a finger: the compositor would see a hold begin.
    public static let libinputQuickHold: Duration = .milliseconds(40)

    /// The quick-hold window for `d`'s clone: where libinput has hold gestures (touchpads) and
    /// honours the palm tool type (`NeutralEnd.palm`), so a young contact can be set aside as a
    /// palm while a hold lasts and taken back after; nil elsewhere.
    public static func quickHold(for d: DeviceDescription) -> Duration? {
        d.kind == .touchpad && NeutralEnd.for(d) == .palm ? libinputQuickHold : nil
    }

    public struct Settings: Hashable, Sendable {
        /// Finger counts some binding for this device names.
        public var boundFingerCounts: Set<Int>
        /// How long a contact of a bound count is held back while recognition decides.
        public var hold: Duration
        /// How long a landing is held back when a larger bound count may follow (from each landing).
        public var landing: Duration
        public var neutralEnd: NeutralEnd
        /// The ABS_MT_* codes the clone has (what a diff may write).
        public var codes: Set<UInt16>
        /// A landing hold ends once a contact moves farther than this from its anchor.
        public var landingTravelMillimeters: Double
        /// The device's position resolution (DeviceDescription.unitsPerMillimeter).
        public var xUnitsPerMillimeter: Double, yUnitsPerMillimeter: Double
        /// When a hold begins, the clone's contacts that landed less than this long ago become
        /// palms until the hold ends (`ExclusiveGate.quickHold(for:)`); nil: they stay as they are.
        public var quickHold: Duration?
        public init(boundFingerCounts: Set<Int>, hold: Duration, landing: Duration = .milliseconds(60),
                    neutralEnd: NeutralEnd, codes: Set<UInt16>,
                    landingTravelMillimeters: Double = ExclusiveGate.defaultLandingTravelMillimeters,
                    unitsPerMillimeter: (x: Double, y: Double) = (1, 1), quickHold: Duration? = nil) {
            self.boundFingerCounts = boundFingerCounts; self.hold = hold; self.landing = min(landing, hold)
            self.neutralEnd = neutralEnd; self.codes = codes; self.quickHold = quickHold
            self.landingTravelMillimeters = landingTravelMillimeters
            xUnitsPerMillimeter = max(unitsPerMillimeter.x, 1e-9); yUnitsPerMillimeter = max(unitsPerMillimeter.y, 1e-9)
        }
    }

    public enum Action: Hashable, Sendable {
        /// Events for the clone: whole frames, each ending in SYN_REPORT.
        case write([InputEvent])
        /// Take the grab now (no finger is down) and bring the clone to this state, the device's
        /// now; answer `grabbed(at:state:)` or `grabFailed()`.
        case grab(EvdevState)
        /// Release the grab and destroy the clone now (no finger is down).
        case release
    }

    public enum Mode: Hashable, Sendable { case ungrabbed, passing, holding, claimed }

    /// Why the last hold ended without a claim.
    public enum Release: Hashable, Sendable { case window, moved, button, unboundCount, allUp }

    public private(set) var mode = Mode.ungrabbed
    public var settings: Settings
    /// Fingers on the real device after the last frame handed in (`EvdevState.fingerCount`).
    public private(set) var fingers: Int
    /// The clone as what was written to it says.
    public private(set) var clone: EvdevState
    /// The clone is known equal to the real device: frames go out as the kernel sent them.
    public private(set) var inSync = false
    public private(set) var wantsGrab = true
    public private(set) var releaseWhenIdle = false
    /// Sequences claimed so far, and how long the last claimed one was held back (nil: some of
    /// its contacts had reached the clone and were ended neutrally).
    public private(set) var claims = 0
    public private(set) var lastClaimHeld: Duration?
    /// How the last unclaimed hold ended, and how long it lasted.
    public private(set) var lastRelease: (why: Release, held: Duration)?

    /// Held frames, oldest first, each with the real state after it.
    private var queue: [(events: [InputEvent], after: EvdevState, resync: Bool)] = []
    private var holdStart: Instant?
    private var holdDeadline: Instant?
    /// The hold is a landing window (no bound count reached yet).
    private var landing = false
    /// Per slot, the contact (tracking id) and where it was when the landing hold began or it landed.
    private var anchors: [Int: (id: Int32, x: Int32, y: Int32)] = [:]
    private var liftDeadline: Instant?
    /// When each clone slot's contact landed on the clone.
    private var downTime: [Int: Instant] = [:]

    /// `state`: the real device's state now (its pipeline's); `clone`: the clone's.
    public init(settings: Settings, state: EvdevState, clone: EvdevState) {
        self.settings = settings; fingers = state.fingerCount; self.clone = clone
    }

    /// When `advance(to:)` has work: the hold window's end, a neutral lift.
    public var nextDeadline: Instant? {
        Instant.earliest(liftDeadline, mode == .holding ? holdDeadline : nil)
    }

    /// Asks for the grab now if no finger is down (otherwise after the frame that lifts the last).
    /// `state`: the device's state now.
    public mutating func start(state: EvdevState, _ out: inout [Action]) {
        if mode == .ungrabbed && wantsGrab && fingers == 0 { out.append(.grab(state)) }
    }

    /// The grab was taken: the clone is brought to the real device's state (`state`, its
    /// pipeline's now).
    public mutating func grabbed(at t: Instant, state: EvdevState, _ out: inout [Action]) {
        mode = .passing
        inSync = false
        fingers = state.fingerCount
        write(clone.diff(to: state, codes: settings.codes, time: t), target: state, &out)
    }

    /// The grab was refused: stay a reader.
    public mutating func grabFailed() { wantsGrab = false; mode = .ungrabbed }

    /// Release the grab once every finger is up (a reload dropped `exclusive`).
    public mutating func requestRelease(_ out: inout [Action]) {
        releaseWhenIdle = true
        if mode == .ungrabbed { wantsGrab = false; return }
        releaseIfIdle(&out)
    }

    /// A reload kept (or brought back) `exclusive`.
    public mutating func cancelRelease(state: EvdevState, _ out: inout [Action]) {
        releaseWhenIdle = false
        if mode == .ungrabbed { wantsGrab = true; start(state: state, &out) }
    }

    /// One frame of the real device: its events as read (SYN_DROPPED left out, SYN_REPORT last)
    /// and the device's state after them; `resynchronized` after a SYN_DROPPED (the events are
    /// the resync's, the clone is brought over by a state diff).
    public mutating func frame(_ f: [InputEvent], after real: EvdevState, resynchronized resync: Bool, _ out: inout [Action]) {
        guard !f.isEmpty else { return }
        let before = fingers
        fingers = real.fingerCount
        handle(f, real, before: before, after: fingers, resync: resync, &out)
    }

    private mutating func handle(_ f: [InputEvent], _ real: EvdevState, before: Int, after: Int, resync: Bool, _ out: inout [Action]) {
        let t = f[f.count - 1].time
        let bound = settings.boundFingerCounts
        switch mode {
        case .ungrabbed:
            if wantsGrab && after == 0 { out.append(.grab(real)) }
        case .passing:
            guard after > before, settings.hold > .zero,
                  bound.contains(after) || (settings.landing > .zero && bound.contains { $0 > after }) else {
                forward(f, target: real, resync: resync, at: t, &out)
                releaseIfIdle(&out)
                return
            }
            mode = .holding
            holdStart = t
            landing = !bound.contains(after)
            holdDeadline = t + (landing ? settings.landing : settings.hold)
            anchors = [:]
            queue.append((f, real, resync))
            noteAnchors(real)
            setAsideYoungContacts(at: t, &out)
            if landing && pressesButton(f) { release(.button, at: t, &out) }
        case .holding:
            queue.append((f, real, resync))
            noteAnchors(real)
            if after == 0 { release(.allUp, at: t, &out); return }
            if after > before {
                if bound.contains(after) { holdDeadline = t + settings.hold; landing = false }
                else if !bound.contains(where: { $0 > after }) { release(.unboundCount, at: t, &out); return }
                else if landing { holdDeadline = t + settings.landing }   // each finger landing re-arms it
            }
            guard landing else { return }
            if pressesButton(f) { release(.button, at: t, &out) }
            else if moved(real) { release(.moved, at: t, &out) }
        case .claimed:
            guard after == 0 else { return }
            if liftDeadline != nil { liftNow(at: t, &out) }
            mode = .passing
            releaseIfIdle(&out)
        }
    }

    /// Remembers where each contact was when the hold began, and where a new one landed.
    private mutating func noteAnchors(_ real: EvdevState) {
        for s in real.activeSlots {
            let id = real.value(slot: s, code: AbsCode.mtTrackingId)
            if anchors[s]?.id != id {
                anchors[s] = (id, real.value(slot: s, code: AbsCode.mtPositionX), real.value(slot: s, code: AbsCode.mtPositionY))
            }
        }
    }

    /// A hold begins beside contacts already on the clone, which stand still there while it lasts.
    /// One that landed less than `quickHold` ago has not yet moved libinput's pointer and would
    /// become its hold gesture (docs/EXCLUSIVE.md): it becomes a palm now, which libinput leaves
    /// out of gestures, taps and motion; a release turns it back (the catch-up's diff writes the
    /// real tool type), a claim lifts it.
    private mutating func setAsideYoungContacts(at t: Instant, _ out: inout [Action]) {
        guard let window = settings.quickHold else { return }
        var palm = clone
        for s in clone.activeSlots where downTime[s].map({ t - $0 < window }) == true {
            palm.set(slot: s, code: AbsCode.mtToolType, MTToolType.palm)
        }
        if palm != clone { write(clone.diff(to: palm, codes: settings.codes, time: t), target: nil, at: t, &out) }
    }

    /// Some contact is farther than `landingTravelMillimeters` from its anchor.
    private func moved(_ real: EvdevState) -> Bool {
        let r = settings.landingTravelMillimeters
        for s in real.activeSlots {
            guard let a = anchors[s] else { continue }
            let dx = Double(real.value(slot: s, code: AbsCode.mtPositionX) - a.x) / settings.xUnitsPerMillimeter
            let dy = Double(real.value(slot: s, code: AbsCode.mtPositionY) - a.y) / settings.yUnitsPerMillimeter
            if dx * dx + dy * dy > r * r { return true }
        }
        return false
    }

    /// The frame changes a button (BTN_LEFT of a clickpad …): not how a multi-finger gesture begins.
    private func pressesButton(_ f: [InputEvent]) -> Bool {
        f.contains { e in
            e.type == EventType.key && e.value != 2 && e.code != KeyCode.btnTouch
                && !KeyCode.fingerCountTools.contains { $0.code == e.code }
        }
    }

    /// The hold ends without a claim at `t`: the clone is brought up to date now (coalesced), and
    /// the sequence goes on live.
    private mutating func release(_ why: Release, at t: Instant, _ out: inout [Action]) {
        if let start = holdStart { lastRelease = (why, t - start) }
        let held = queue
        queue.removeAll()
        holdStart = nil; holdDeadline = nil; anchors = [:]
        mode = .passing
        for part in ExclusiveGate.coalesced(held) { forward(part.events, target: part.after, resync: part.resync, at: t, &out) }
        releaseIfIdle(&out)
    }

    /// Held frames as few as keep what libinput computes: a frame that lands or lifts a contact,
    /// changes a key or follows a SYN_DROPPED stays a frame of its own; the frames after it up to
    /// the next such frame become one, with the state after the last of them and its MSC events
    /// (marked `resync`: it must be written as a state diff, not as the last frame's events).
    static func coalesced(_ held: [(events: [InputEvent], after: EvdevState, resync: Bool)])
        -> [(events: [InputEvent], after: EvdevState, resync: Bool)] {
        var out: [(events: [InputEvent], after: EvdevState, resync: Bool)] = []
        var pending: (events: [InputEvent], after: EvdevState, resync: Bool)?
        var previous: EvdevState?
        for q in held {
            let boundary = q.resync || previous.map { changesContactsOrKeys(from: $0, to: q.after) } ?? true
            if boundary {
                if let p = pending { out.append(p); pending = nil }
                out.append(q)
            } else {
                pending = (q.events, q.after, true)   // its state diff carries the motion of the frames it replaces
            }
            previous = q.after
        }
        if let p = pending { out.append(p) }
        return out
    }

    private static func changesContactsOrKeys(from a: EvdevState, to b: EvdevState) -> Bool {
        if a.downKeys != b.downKeys { return true }
        for s in 0..<min(a.slotCount, b.slotCount)
        where a.value(slot: s, code: AbsCode.mtTrackingId) != b.value(slot: s, code: AbsCode.mtTrackingId) { return true }
        return false
    }

    /// A bound gesture was recognized on this device: its touch sequence is not the compositor's.
    /// What is held is dropped; what the clone already has ends without a click or a tap.
    public mutating func claim(at t: Instant, _ out: inout [Action]) {
        guard mode == .holding || (mode == .passing && fingers > 0) else { return }
        lastClaimHeld = mode == .holding && clone.activeSlots.isEmpty ? holdStart.map { t - $0 } : nil
        queue.removeAll()
        holdStart = nil; holdDeadline = nil; anchors = [:]
        mode = .claimed
        claims += 1
        endForwarded(at: t, &out)
    }

    /// Fires the hold window's end and neutral lifts due at or before `now`.
    public mutating func advance(to now: Instant, _ out: inout [Action]) {
        if mode == .holding, let d = holdDeadline, d <= now { release(.window, at: d, &out) }
        if let d = liftDeadline, d <= now { liftNow(at: d, &out) }
    }

    // MARK: - Writing

    private mutating func releaseIfIdle(_ out: inout [Action]) {
        guard releaseWhenIdle, mode == .passing, queue.isEmpty, fingers == 0, liftDeadline == nil else { return }
        out.append(.release)
        mode = .ungrabbed; wantsGrab = false; releaseWhenIdle = false; inSync = false
    }

    /// One real frame for the clone, written at `now`, whose state after it must be `target`. The
    /// events keep the real frame's time (a kernel that takes uinput timestamps passes it on).
    private mutating func forward(_ f: [InputEvent], target: EvdevState, resync: Bool, at now: Instant, _ out: inout [Action]) {
        if inSync && !resync {
            noteLandings(from: clone, to: target, at: now)
            clone = target
            out.append(.write(f))
            return
        }
        var d = clone.diff(to: target, codes: settings.codes, time: f[f.count - 1].time)
        // What carries no state (MSC_TIMESTAMP, relative motion, key repeats) goes along as sent.
        let extra = f.filter { $0.type == EventType.msc || $0.type == EventType.rel || ($0.type == EventType.key && $0.value == 2) }
        d.insert(contentsOf: extra, at: d.count - 1)
        write(d, target: target, at: now, &out)
    }

    /// `target`: the real device's state the write brings the clone to (nil: a neutral end,
    /// which leaves the clone apart from it).
    private mutating func write(_ events: [InputEvent], target: EvdevState?, at now: Instant? = nil, _ out: inout [Action]) {
        let after = clone.applying(events)
        if let t = now ?? events.last?.time { noteLandings(from: clone, to: after, at: t) }
        clone = after
        inSync = target.map { clone == $0 } ?? false
        if events.count > 1 || events.first?.isSynReport == false { out.append(.write(events)) }
    }

    /// Records when each clone slot's contact landed, where a neutral lift or the quick hold needs it.
    private mutating func noteLandings(from a: EvdevState, to b: EvdevState, at t: Instant) {
        if case .palm = settings.neutralEnd, settings.quickHold == nil { return }
        for s in 0..<b.slotCount where b.value(slot: s, code: AbsCode.mtTrackingId) != a.value(slot: s, code: AbsCode.mtTrackingId) {
            downTime[s] = b.value(slot: s, code: AbsCode.mtTrackingId) >= 0 ? t : nil
        }
    }

    /// Ends every contact the clone has, without a click or a tap.
    private mutating func endForwarded(at t: Instant, _ out: inout [Action]) {
        let active = clone.activeSlots
        let touching = !active.isEmpty || clone.isDown(KeyCode.btnTouch)
        guard touching else { return }
        switch settings.neutralEnd {
        case .palm:
            var palm = clone
            for s in active { palm.set(slot: s, code: AbsCode.mtToolType, MTToolType.palm) }
            if palm != clone { write(clone.diff(to: palm, codes: settings.codes, time: t), target: nil, &out) }
            liftNow(at: t, &out)
        case .lift(let after):
            let oldest = active.compactMap { downTime[$0] }.max() ?? t
            liftDeadline = max(t, oldest + after)
            inSync = false
        }
    }

    private mutating func liftNow(at t: Instant, _ out: inout [Action]) {
        liftDeadline = nil
        var lifted = clone
        for s in lifted.activeSlots { lifted.set(slot: s, code: AbsCode.mtTrackingId, -1) }
        lifted.setKey(KeyCode.btnTouch, 0)
        for (code, _) in KeyCode.fingerCountTools { lifted.setKey(code, 0) }
        if lifted != clone { write(clone.diff(to: lifted, codes: settings.codes, time: t), target: nil, &out) }
        inSync = false
    }
}
