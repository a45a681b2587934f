/// What an exclusive device's clone gets (docs/EXCLUSIVE.md): the real device's frames, except
/// the touch sequences that become a bound gesture. Pure: events in, actions out, time only from
/// events and `advance(to:)`. The daemon does the grabbing and the writing.
///
/// ```
///             all fingers up, grab taken            count becomes bound, or a first contact
///  ungrabbed ─────────────────────────────► passing ─────that may grow into one (landing)─────► holding
///     ▲          (.grab; grabbed())         │  ▲  ▲                                           │  │
///     │                                     │  │  └─ hold window over / unbound count / all up ┘  │
///     └── all up, queue empty, release ─────┘  │    (held frames go out `lag` late, spaced        │
///           asked (.release)                   │     as they came; lag = how long the hold was)   │
///                                              └──── all up (still contacts lifted) ◄─ claimed ◄──┘
///                                                                                   claim()
/// ```
/// passing also goes to claimed on a late `claim()` (a bound gesture recognized after its
/// contacts were forwarded). Entering claimed drops what is queued and ends every contact the
/// clone has without a click or a tap: `.palm` sets ABS_MT_TOOL_TYPE to MT_TOOL_PALM first
/// (libinput cancels the touch), `.lift(after:)` leaves them standing still and lifts them once
/// they are older than the tap window. While the clone and the real device may differ, frames
/// are written as state diffs (`EvdevState.diff`), never as the kernel's frame (whose unchanged
/// values the kernel left out). With `lag` 0 and the clone in step, a frame is written as the
/// kernel sent it, at once.
public struct ExclusiveGate: Sendable {
    public enum NeutralEnd: Hashable, Sendable {
        /// Touchscreens: MT_TOOL_PALM, then the lift.
        case palm
        /// Touchpads: still, then lifted when the contact is at least this old (past tap-to-click).
        case lift(after: Duration)
    }

    public struct Settings: Hashable, Sendable {
        /// Finger counts some binding for this device names.
        public var boundFingerCounts: Set<Int>
        /// How long a contact of a bound count is held back while recognition decides.
        public var hold: Duration
        /// How long a first contact is held back when a larger bound count may follow.
        public var landing: Duration
        public var neutralEnd: NeutralEnd
        /// The ABS_MT_* codes the clone has (what a diff may write).
        public var codes: Set<UInt16>
        public init(boundFingerCounts: Set<Int>, hold: Duration, landing: Duration = .milliseconds(60),
                    neutralEnd: NeutralEnd, codes: Set<UInt16>) {
            self.boundFingerCounts = boundFingerCounts; self.hold = hold; self.landing = min(landing, hold)
            self.neutralEnd = neutralEnd; self.codes = codes
        }
    }

    public enum Action: Hashable, Sendable {
        /// Events for the clone: whole frames, each ending in SYN_REPORT.
        case write([InputEvent])
        /// Take the grab now (no finger is down); answer `grabbed(at:)` or `grabFailed()`.
        case grab
        /// Release the grab and destroy the clone now (no finger is down).
        case release
    }

    public enum Mode: Hashable, Sendable { case ungrabbed, passing, holding, claimed }

    public private(set) var mode = Mode.ungrabbed
    public var settings: Settings
    /// The real device as its events say.
    public private(set) var real: EvdevState
    /// The clone as what was written to it says.
    public private(set) var clone: EvdevState
    /// The clone is known equal to the real device: frames go out as the kernel sent them.
    public private(set) var inSync = false
    public private(set) var wantsGrab = true
    public private(set) var releaseWhenIdle = false
    /// Sequences claimed so far, and how long the last claimed one was held back (nil: its
    /// contacts had been forwarded and were ended neutrally).
    public private(set) var claims = 0
    public private(set) var lastClaimHeld: Duration?

    private var frame: [InputEvent] = []
    private var resyncing = false
    /// Frames not yet written, oldest first: due at `time + lag`, or held (from `heldFrom` on).
    private var queue: [(events: [InputEvent], after: EvdevState, resync: Bool)] = []
    private var heldFrom: Int?
    /// How late this touch sequence's frames reach the clone (0 until a hold ends; back to 0
    /// once every finger is up and the queue is empty): their spacing is kept, so libinput's
    /// pointer acceleration and tap timing see the real rhythm.
    public private(set) var lag: Duration = .zero
    private var holdStart: Instant?
    private var holdDeadline: Instant?
    /// The hold is a landing window (no bound count reached yet).
    private var landing = false
    private var liftDeadline: Instant?
    /// When each clone slot's contact landed on the clone.
    private var downTime: [Int: Instant] = [:]

    public init(settings: Settings, real: EvdevState, clone: EvdevState) {
        self.settings = settings; self.real = real; self.clone = clone
    }

    /// When `advance(to:)` has work: the hold window's end, the next delayed frame, a neutral lift.
    public var nextDeadline: Instant? {
        var d = liftDeadline
        func take(_ x: Instant?) { if let x, d == nil || x < d! { d = x } }
        if heldFrom != nil { take(holdDeadline) }
        if let first = queue.first, heldFrom != 0 { take(first.events[first.events.count - 1].time + lag) }
        return d
    }

    /// Asks for the grab now if no finger is down (otherwise after the frame that lifts the last).
    public mutating func start(_ out: inout [Action]) {
        if mode == .ungrabbed && wantsGrab && real.fingerCount == 0 { out.append(.grab) }
    }

    /// The grab was taken: the clone is brought to the real device's state.
    public mutating func grabbed(at t: Instant, _ out: inout [Action]) {
        mode = .passing
        inSync = false
        write(clone.diff(to: real, codes: settings.codes, time: t), target: real, &out)
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
    public mutating func cancelRelease(_ out: inout [Action]) {
        releaseWhenIdle = false
        if mode == .ungrabbed { wantsGrab = true; start(&out) }
    }

    public mutating func feed(_ e: InputEvent, _ out: inout [Action]) {
        if e.type == EventType.syn && e.code == SynCode.dropped { resyncing = true; return }
        frame.append(e)
        guard e.isSynReport else { return }
        let f = frame
        frame.removeAll(keepingCapacity: true)
        let before = real.fingerCount
        for x in f { real.apply(x) }
        let resync = resyncing
        resyncing = false
        handle(f, before: before, after: real.fingerCount, resync: resync, &out)
    }

    private mutating func handle(_ f: [InputEvent], before: Int, after: Int, resync: Bool, _ out: inout [Action]) {
        let t = f[f.count - 1].time
        switch mode {
        case .ungrabbed:
            if wantsGrab && after == 0 { out.append(.grab) }
        case .passing, .holding:
            if heldFrom == nil && after > before && shouldHold(before: before, after: after) {
                heldFrom = queue.count
                holdStart = t
                landing = !settings.boundFingerCounts.contains(after)
                holdDeadline = t + (landing ? settings.landing : settings.hold)
            }
            if heldFrom == nil && queue.isEmpty && lag == .zero {
                forward(f, target: real, resync: resync, &out)
                releaseIfIdle(&out)
                return
            }
            queue.append((f, real, resync))
            if heldFrom != nil {
                if after == 0 { endHold(at: t) }
                else if after > before {
                    if settings.boundFingerCounts.contains(after) { holdDeadline = t + settings.hold; landing = false }
                    else if !settings.boundFingerCounts.contains(where: { $0 > after }) { endHold(at: t) }
                    else if landing { holdDeadline = t + settings.landing }   // each finger landing re-arms it
                }
            }
            mode = heldFrom == nil ? .passing : .holding
            writeDue(at: t, &out)
        case .claimed:
            guard after == 0 else { return }
            if liftDeadline != nil { liftNow(at: t, &out) }
            mode = .passing
            lag = .zero
            releaseIfIdle(&out)
        }
    }

    /// The hold ends at `t`: its frames go out from now on, as late as the hold lasted.
    private mutating func endHold(at t: Instant) {
        if let start = holdStart { lag = max(lag, t - start) }
        heldFrom = nil; holdStart = nil; holdDeadline = nil
        mode = .passing
    }

    /// Writes the queued frames due at `now` (not the held ones).
    private mutating func writeDue(at now: Instant, _ out: inout [Action]) {
        while let first = queue.first, heldFrom != 0, first.events[first.events.count - 1].time + lag <= now {
            queue.removeFirst()
            if let h = heldFrom { heldFrom = h - 1 }
            forward(first.events, target: first.after, resync: first.resync, &out)
        }
        if queue.isEmpty && heldFrom == nil && real.fingerCount == 0 { lag = .zero }
        releaseIfIdle(&out)
    }

    private func shouldHold(before: Int, after: Int) -> Bool {
        guard settings.hold > .zero else { return false }
        let bound = settings.boundFingerCounts
        return bound.contains(after) || (before == 0 && settings.landing > .zero && bound.contains { $0 > after })
    }

    /// A bound gesture was recognized on this device: its touch sequence is not the compositor's.
    /// What is queued is dropped; what the clone already has ends without a click or a tap.
    public mutating func claim(at t: Instant, _ out: inout [Action]) {
        guard mode == .holding || (mode == .passing && real.fingerCount > 0) else { return }
        lastClaimHeld = mode == .holding && clone.activeSlots.isEmpty ? holdStart.map { t - $0 } : nil
        queue.removeAll()
        heldFrom = nil; holdStart = nil; holdDeadline = nil
        mode = .claimed
        claims += 1
        endForwarded(at: t, &out)
    }

    /// Fires the hold window's end, delayed frames and neutral lifts due at or before `now`.
    public mutating func advance(to now: Instant, _ out: inout [Action]) {
        if heldFrom != nil, let d = holdDeadline, d <= now { endHold(at: d) }
        if mode == .passing || mode == .holding { writeDue(at: now, &out) }
        if let d = liftDeadline, d <= now { liftNow(at: d, &out) }
    }

    // MARK: - Writing

    private mutating func releaseIfIdle(_ out: inout [Action]) {
        guard releaseWhenIdle, mode == .passing, queue.isEmpty, real.fingerCount == 0, liftDeadline == nil else { return }
        out.append(.release)
        mode = .ungrabbed; wantsGrab = false; releaseWhenIdle = false; inSync = false; lag = .zero
    }

    /// One real frame for the clone, whose state after it must be `target`.
    private mutating func forward(_ f: [InputEvent], target: EvdevState, resync: Bool, _ out: inout [Action]) {
        if inSync && !resync {
            noteLandings(from: clone, to: target, at: f[f.count - 1].time)
            clone = target
            out.append(.write(f))
            return
        }
        var d = clone.diff(to: target, codes: settings.codes, time: f[f.count - 1].time)
        // What carries no state (MSC_TIMESTAMP, relative motion, key repeats) goes along as sent.
        let extra = f.filter { $0.type == EventType.msc || $0.type == EventType.rel || ($0.type == EventType.key && $0.value == 2) }
        d.insert(contentsOf: extra, at: d.count - 1)
        write(d, target: target, &out)
    }

    private mutating func write(_ events: [InputEvent], target: EvdevState, _ out: inout [Action]) {
        let after = clone.applying(events)
        if let t = events.last?.time { noteLandings(from: clone, to: after, at: t) }
        clone = after
        inSync = clone == target
        if events.count > 1 || events.first?.isSynReport == false { out.append(.write(events)) }
    }

    private mutating func noteLandings(from a: EvdevState, to b: EvdevState, at t: Instant) {
        guard case .lift = settings.neutralEnd else { return }
        for s in 0..<b.slotCount where b.value(slot: s, code: AbsCode.mtTrackingId) != a.value(slot: s, code: AbsCode.mtTrackingId) {
            downTime[s] = b.value(slot: s, code: AbsCode.mtTrackingId) >= 0 ? t : nil
        }
    }

    /// Ends every contact the clone has, without a click or a tap.
    private mutating func endForwarded(at t: Instant, _ out: inout [Action]) {
        let active = clone.activeSlots
        let touching = !active.isEmpty || clone.keys[KeyCode.btnTouch] != nil
        guard touching else { return }
        switch settings.neutralEnd {
        case .palm:
            var palm = clone
            for s in active { palm.set(slot: s, code: AbsCode.mtToolType, MTToolType.palm) }
            if palm != clone { write(clone.diff(to: palm, codes: settings.codes, time: t), target: real, &out) }
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
        if lifted != clone { write(clone.diff(to: lifted, codes: settings.codes, time: t), target: real, &out) }
        inSync = false
    }
}
