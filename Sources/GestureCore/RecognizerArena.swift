/// Runs every recognizer of one device over its frames and arbitrates between them.
///
/// Arbitration is data, not callbacks:
/// - **Families, exclusive by default.** The recognizers form families — translation (pan + swipe),
///   transform (pinch + rotate), long press, edge swipe — and the first family to commit in a touch
///   sequence fails the others. Within a family both members run together: pinch with rotate,
///   pan with swipe (pan reports the motion continuously, swipe fires once at its threshold).
///   Any commit fails the tap.
/// - **Require-to-fail.** Pan and swipe wait for an edge swipe to fail when the sequence started in
///   an edge zone (and edgeSwipe is bound). A tap waits for a double tap only for the finger counts
///   in `doubleTapFingerCounts` when doubleTap is bound: then it is reported when the double-tap
///   gap has passed (touchpad 180 ms + 20 ms per extra finger, touchscreen 300 ms after the lift).
/// - **Finger-count changes.** While nothing has committed, recognizers simply follow the count.
///   Once something has, a count that stays different for `fingerCountDebounce` (100 ms) cancels
///   the continuous gestures in flight and starts the recognizers afresh for the new count;
///   a count back to the original within the debounce changes nothing; all fingers up ends them.
/// - **More than five fingers** cancel everything in flight; nothing more is recognized until
///   every finger has lifted.
/// - **Take-overs.** Motion after a hold ends the long press (`ended`) and begins a pan, swipe,
///   pinch, rotate or edge swipe; with `longPressDrag` the motion is the long press's `changed`
///   and only an edge swipe, or a pinch or rotate that is not mostly translation, takes it over.
///   A rotate may take over a pan that turns 2 × `rotateMinimumAngle` within
///   its first 2 × `swipeMinimumDistance` of path.
/// - **Tap first.** Motion gestures wait until the tap has failed (a finger strayed
///   `tapMaximumExcursion`, two or more fingers all went the pan slop the same way, or the tap
///   timeout passed); the pan that then begins carries all the motion so far.
/// - **Resting contacts, thumbs, palms** are dropped by the motion tracker (RestingContacts.swift);
///   motion gestures wait while a still contact may yet turn out to rest, and a finger lifting
///   before anything committed restarts the translation of the fingers left.
/// - **SYN_DROPPED / removal.** A `.resynchronized` or `.deviceRemoved` frame, or `cancelAll(at:)`,
///   cancels everything in flight, drops a tap waiting for its double tap, and ignores the touches
///   still down until every finger has lifted.
///
/// Kinds that are not bound still take part in arbitration (an unbound pan still keeps a
/// two-finger scroll from becoming a pinch) but emit nothing; only edgeSwipe and doubleTap,
/// whose waits cost latency, are switched off entirely when unbound.
///
/// Time comes only from frames and `advance(to:)`: overdue deadlines fire before a later frame.
public struct RecognizerArena: Sendable {
    public let device: DeviceDescription
    public let thresholds: Thresholds
    /// Gesture kinds something is bound to; decides what is emitted and which waits happen.
    public var boundKinds: Set<GestureKind> {
        didSet { unboundKinds = Self.unbound(boundKinds) }
    }
    /// The kinds not in `boundKinds` (usually just doubleTap): checked per event instead of
    /// hashing the kind's name into the set.
    private var unboundKinds: [GestureKind]
    /// Finger counts with a doubleTap binding: only these taps wait for a possible second tap.
    public var doubleTapFingerCounts: Set<Int>
    /// Swipe (and pan) directions: 4 (90° sectors) or 8 (45° sectors). Events always carry dx/dy,
    /// so a binding can re-quantize with `GestureDirection.quantize(dx:dy:directions:)`.
    public var swipeDirections: Int {
        get { swipe.directions }
        set { swipe.directions = newValue == 8 ? 8 : 4; pan.directions = swipe.directions }
    }

    private enum Family { case translation, transform, longPress, edge }

    private var tracker = MotionTracker()
    var tap = TapRecognizer()
    var doubleTap = DoubleTapRecognizer()
    private var longPress = LongPressRecognizer()
    private var pan = PanRecognizer()
    private var swipe = SwipeRecognizer()
    private var pinch = PinchRecognizer()
    private var rotate = RotateRecognizer()
    private var edge = EdgeSwipeRecognizer()
    var sink = EventSink()
    private var inSequence = false
    /// Touches that were down at a resync/cancel: ignored until every finger lifts.
    private var ignoringUntilLift = false
    private var committed: Family?
    /// The finger count the committed gestures run with.
    private var sequenceFingers = 0
    private var countChangeSince: Instant?
    /// When the touch sequence's first finger landed.
    private var sequenceStart = Instant.zero
    private var lastTime: Instant?
    private let semiMT: Bool
    /// BTN_TOOL_* counts beyond the positioned touches are real (see `MotionTracker.update`).
    private let trustToolCount: Bool
    private var frameIsSemiMT = false
    /// More than five fingers were down in this touch: nothing more until all lift.
    private var tooManyFingers = false

    public init(device: DeviceDescription, thresholds: Thresholds,
                boundKinds: Set<GestureKind> = Set(GestureKind.all),
                doubleTapFingerCounts: Set<Int> = Set(1...5), swipeDirections: Int = 4) {
        self.device = device; self.thresholds = thresholds; self.boundKinds = boundKinds
        unboundKinds = Self.unbound(boundKinds)
        self.doubleTapFingerCounts = doubleTapFingerCounts
        self.semiMT = device.isSemiMT
        self.trustToolCount = device.isSemiMT || device.contactProtocol == .singleTouch
            || (device.contactProtocol == .slots && device.slotCount < device.maximumFingerCount)
        let size = device.size
        sink.width = size.width; sink.height = size.height
        sink.events.reserveCapacity(8)
        tracker.rules = ContactRules(device: device, thresholds)
        self.swipeDirections = swipeDirections
    }

    /// There are "gestured bug:" lines to drain.
    public var hasDiagnostics: Bool { @inline(__always) get { !sink.diagnostics.isEmpty } }

    /// "gestured bug:" lines collected since the last call (at most 100 are kept between calls).
    public mutating func drainDiagnostics() -> [String] {
        defer { sink.diagnostics.removeAll() }
        return sink.diagnostics
    }

    /// Nothing in flight: no touch sequence, no touches ignored until a lift, nothing waiting
    /// (a tap for its double tap, a long press, a debounce). Another arena can take over here.
    public var isIdle: Bool { !inSequence && !ignoringUntilLift && nextDeadline == nil }

    /// The id the next gesture gets: an arena that takes over from another continues its
    /// numbering, so (device, gesture id) stays unique for the device's life.
    public var nextGestureID: UInt64 {
        get { sink.nextID }
        set { sink.nextID = newValue }
    }

    // MARK: - Time

    /// The earliest time at which `advance(to:)` has something to do. Inlined, so the arena is
    /// read in place: a called getter is handed a copy of the whole arena.
    public var nextDeadline: Instant? {
        @inline(__always) get {
            let debounce = countChangeSince.map { $0 + thresholds.fingerCountDebounce }
            return Instant.earliest(Instant.earliest(tap.nextDeadline, doubleTap.nextDeadline),
                                    Instant.earliest(longPress.nextDeadline, debounce))
        }
    }

    /// Fires every deadline at or before `now`, handing each event to `emit`.
    public mutating func advance(to now: Instant, _ emit: (GestureEvent) -> Void) {
        fireDeadlines(upTo: now)
        takeEvents(emit)
    }

    /// Fires what is due at `d`, the arena's `nextDeadline`: one pass of a caller's firing loop
    /// (`GesturePipeline.advance`, which interleaves the arena's deadlines with the decoder's).
    public mutating func fireDeadline(at d: Instant, _ emit: (GestureEvent) -> Void) {
        fire(at: d)
        takeEvents(emit)
    }

    private mutating func fireDeadlines(upTo now: Instant) {
        _ = Instant.fireDeadlines(upTo: now, next: { nextDeadline }) { fire(at: $0) }
    }

    /// Fires every wait due at `d` (the earliest). Afterwards none is due at or before `d`, the
    /// firing loop's invariant (`Instant.fireDeadlines`): a tap that timed out failed, a first tap
    /// whose gap passed was reported, a long press began or failed, a debounce that ran out is
    /// cleared; the only wait armed here is the long press the debounce restarts at `d`, which is
    /// strictly later unless `longPressDuration` is 0, and then fires here too.
    private mutating func fire(at d: Instant) {
        if let td = tap.nextDeadline, td <= d {
            tap.advance(to: d)
            if tap.state == .failed, let first = doubleTap.secondFailed() { emitTap(first, at: d) }
        }
        if let first = doubleTap.advance(to: d) { emitTap(first, at: d) }
        fireLongPress(at: d)
        if let since = countChangeSince, since + thresholds.fingerCountDebounce <= d {
            countChangeSince = nil
            restartAfterCountChange(at: d)
            fireLongPress(at: d)
        }
        precondition(nextDeadline.map { $0 > d } ?? true,
                     "gestured bug: arena: a deadline at \(d) fired and is still due")
    }

    private mutating func fireLongPress(at d: Instant) {
        guard let ld = longPress.nextDeadline, ld <= d else { return }
        let m = tracker.sample
        if longPress.fire(at: d, allowed: allows(.longPress) && m.fingers > 0, m, sink: &sink) {
            commit(.longPress)
        }
    }

    // MARK: - Frames

    /// Feeds one frame; overdue deadlines fire first. Each event goes to `emit`.
    public mutating func process(_ frame: TouchFrame, _ emit: (GestureEvent) -> Void) {
        update(frame)
        takeEvents(emit)
    }

    private mutating func update(_ frame: TouchFrame) {
        fireDeadlines(upTo: frame.time)
        if let last = lastTime, frame.time < last {
            sink.bug("arena: frame time \(frame.time) before the previous frame's \(last)")
        }
        lastTime = frame.time
        if !frame.flags.isDisjoint(with: [.resynchronized, .deviceRemoved]) {
            cancelInFlight(at: frame.time)
            ignoringUntilLift = !frame.flags.contains(.deviceRemoved) && hasFingers(frame)
            return
        }
        if ignoringUntilLift || tooManyFingers {
            if !hasFingers(frame) { ignoringUntilLift = false; tooManyFingers = false; tracker.clear() }
            return
        }
        frameIsSemiMT = semiMT || frame.flags.contains(.semiMT)
        // The sample (160 bytes) is read from the tracker once, after any rebase, not taken as
        // `update`'s result and again after the rebase.
        tracker.update(frame, semiMT: frameIsSemiMT, trustToolCount: trustToolCount)
        let fingersNow = tracker.sample.fingers
        if inSequence && committed == nil && fingersNow > 0 && fingersNow < sequenceFingers && !tracker.sample.contactDropped {
            // A finger lifted before anything began: the fingers left start from here (a resting
            // thumb left behind by a short stroke must not pan by half the stroke).
            tracker.rebaseTranslation()
        }
        if tap.state == .possible { tracker.measureSharedTravel() }
        let m = tracker.sample
        if !inSequence {
            guard m.fingers > 0 else { return }
            beginSequence(m)
        }
        if m.fingers > 5 && !tooManyFingers {
            // More than five fingers make no gesture, and what they did spoils the rest of the
            // touch (the 3M recording's 10-finger pinch lifting finger by finger): everything in
            // flight is cancelled and nothing is recognized until every finger has lifted.
            if let first = doubleTap.secondFailed() { emitTap(first, at: m.time) }
            cancelInFlight(at: m.time)
            tooManyFingers = true
            return
        }
        trackFingerCount(m)
        feed(m)
        if m.fingers == 0 { endSequence(m) }
    }

    /// Device removed or SYN_DROPPED: overdue deadlines fire, then every gesture in flight ends
    /// `cancelled`, a tap waiting for its double tap is dropped, and touches still down are ignored
    /// until every finger has lifted.
    public mutating func cancelAll(at now: Instant, _ emit: (GestureEvent) -> Void) {
        fireDeadlines(upTo: now)
        let wasDown = inSequence
        cancelInFlight(at: now)
        ignoringUntilLift = ignoringUntilLift || wasDown
        takeEvents(emit)
    }

    // MARK: - Internals

    private func hasFingers(_ frame: TouchFrame) -> Bool {
        frame.fingerCount > 0 || frame.touches.contains { $0.phase.isActive }
    }

    /// Hands the events of the bound kinds to `emit` and empties the list, keeping its buffer.
    private mutating func takeEvents(_ emit: (GestureEvent) -> Void) {
        if sink.events.isEmpty { return }
        // By index: iterating the array would copy it, and each event out of it.
        for i in sink.events.indices where !unboundKinds.contains(sink.events[i].kind) { emit(sink.events[i]) }
        sink.events.removeAllKeepingBuffer()
    }

    private static func unbound(_ kinds: Set<GestureKind>) -> [GestureKind] {
        GestureKind.all.filter { !kinds.contains($0) }
    }

    func bound(_ kind: GestureKind) -> Bool { boundKinds.contains(kind) }

    private func allows(_ family: Family) -> Bool { committed == nil || committed == family }

    private mutating func commit(_ family: Family) {
        guard committed == nil else { return }
        committed = family
        sequenceFingers = tracker.sample.fingers
        countChangeSince = nil
        tap.fail()
        if family != .translation { pan.fail(); swipe.fail() }
        if family != .transform { pinch.fail(); rotate.fail() }
        if family != .longPress { longPress.fail() }
        // A long press leaves the edge swipe possible: it may still take over (see `feed`).
        if family != .edge && family != .longPress { edge.fail() }
    }

    private mutating func beginSequence(_ m: MotionSample) {
        inSequence = true
        sequenceStart = m.time
        committed = nil
        countChangeSince = nil
        sequenceFingers = m.fingers
        if tap.state != .idle || pan.inFlight || pinch.inFlight || rotate.inFlight || edge.inFlight
            || longPress.inFlight {
            sink.bug("arena: a touch sequence began while recognizers were still active; resetting them")
        }
        resetMotionRecognizers(m, at: m.time)
        tap.reset()
        if bound(.edgeSwipe) {
            edge.sequenceBegan(tracker.landingExtent(sequenceStart: m.time, gap: thresholds.edgeSwipeLandingGap),
                               width: sink.width, height: sink.height, thresholds)
        } else {
            edge.fail()
        }
        if let first = doubleTap.sequenceBegan(m, thresholds) { emitTap(first, at: m.time) }
    }

    private mutating func resetMotionRecognizers(_ m: MotionSample, at time: Instant) {
        pan.reset(); swipe.reset(); pinch.reset(); rotate.reset()
        longPress.restart(m, at: time, thresholds)
    }

    private mutating func trackFingerCount(_ m: MotionSample) {
        guard m.fingers > 0 else { countChangeSince = nil; return }
        if committed == nil {
            sequenceFingers = m.fingers
            countChangeSince = nil
        } else if m.fingers != sequenceFingers {
            if countChangeSince == nil { countChangeSince = m.time }
        } else {
            countChangeSince = nil
        }
    }

    /// The count stayed changed past the debounce: cancel what is in flight, start afresh.
    private mutating func restartAfterCountChange(at time: Instant) {
        let m = tracker.sample
        cancelContinuous(m, at: time)
        tracker.rebase()
        committed = nil
        sequenceFingers = m.fingers
        resetMotionRecognizers(tracker.sample, at: time)
        edge.fail()
    }

    private mutating func feed(_ m: MotionSample) {
        let t = thresholds
        if (m.fingerLanded || m.edgePalmLanded) && committed == nil && m.fingers <= 5
            && m.totalDistance < t.panSlop(fingers: m.fingers) {
            // Fingers landing together decide the edge zone together (EdgeSwipeRecognizer).
            edge.fingerLanded(tracker.landingExtent(sequenceStart: sequenceStart, gap: t.edgeSwipeLandingGap),
                              width: sink.width, height: sink.height, t)
        }
        let completed = tap.update(m, t)
        flushFirstTapIfSecondFailed(completed, at: m.time)

        // Motion gestures wait for the tap to fail (its wobble must not start a pan; fingers that
        // all moved the pan slop together fail it in this frame, see TapRecognizer), and once
        // something has committed they only run with the finger count they committed with.
        // They also wait while a still contact may yet turn out to rest (RestingContacts.swift).
        let motionAllowed = tap.state != .possible && (committed == nil || m.fingers == sequenceFingers)
            && !m.restingUndecided
        // Motion after a hold ends it and is a gesture of its own (libinput ends a hold when the
        // fingers move and starts the scroll or swipe): fingers that rest and then scroll or zoom
        // make a pan or a pinch. With `longPressDrag` the motion is the long press's own
        // `changed` (a drag, UIKit's arbitration), and only an edge swipe, a pinch or a rotate
        // may take it over.
        let holding = committed == .longPress
        let holdGivesWay = holding && !t.longPressDrag
        if holding {
            pinch.reset(); rotate.reset()
            if holdGivesWay { pan.reset(); swipe.reset() }
        }
        // An edge swipe may take over a long press in both modes (a pause before the swipe from
        // the edge).
        let edgeAllowed = motionAllowed && (allows(.edge) || holding)
        if edge.update(m, allowed: edgeAllowed, t, sink: &sink) {
            takeOverLongPress(m)
            commit(.edge)
        }
        longPress.update(m, t, sink: &sink)
        let translationAllowed = motionAllowed && (allows(.translation) || holdGivesWay) && !edge.isPossible
        if pan.update(m, allowed: translationAllowed, t, sink: &sink) { takeOverLongPress(m); commit(.translation) }
        if swipe.update(m, allowed: translationAllowed, t, sink: &sink) { takeOverLongPress(m); commit(.translation) }
        // A pan whose fingers turn twice the rotate threshold within its first stretch (twice the
        // swipe distance of path) becomes a rotate: two fingers close together can translate
        // before they turn (the 3M recording's 2-finger turns), while a hand drifting round
        // during a long pan stays a pan (the bcm5974 recording's 2-finger circles).
        if committed == .translation && pan.inFlight && motionAllowed && !frameIsSemiMT
            && m.pathLength <= 2 * t.swipeMinimumDistance
            && abs(m.rotationDegrees) >= 2 * t.rotateMinimumAngle {
            pan.finish(.cancelled, m, at: m.time, t, sink: &sink)
            pinch.reset(); rotate.reset()
            committed = nil
        }
        // With `longPressDrag`, fingers sliding on after a hold, spreading or swinging a little,
        // are its drag (the Nexio recording); a pinch or rotate whose motion is not mostly
        // translation takes it over (the 3M recording's 5 fingers resting before they pinch).
        let takesOverHold = committed == .longPress && (!t.longPressDrag || !m.translationDominates)
        let transformAllowed = motionAllowed && (allows(.transform) || takesOverHold) && !frameIsSemiMT
        if pinch.update(m, allowed: transformAllowed, t, sink: &sink) { takeOverLongPress(m); commit(.transform) }
        if rotate.update(m, allowed: transformAllowed, t, sink: &sink) { takeOverLongPress(m); commit(.transform) }

        flushFirstTapIfSecondFailed(completed, at: m.time)
        if let completed {
            if committed != nil {
                sink.bug("arena: a tap completed after another gesture committed; dropped")
            } else {
                handleTap(completed)
            }
        }
    }

    /// A gesture that just began (its event is the last one) takes over a long press in flight:
    /// the long press `ended` first, in the same frame (the hold happened; the motion is new).
    private mutating func takeOverLongPress(_ m: MotionSample) {
        guard committed == .longPress else { return }
        let began = sink.events.removeLast()
        longPress.takenOver(m, at: m.time, sink: &sink)
        sink.events.append(began)
        committed = nil
    }

    private mutating func endSequence(_ m: MotionSample) {
        // Continuous recognizers saw fingers == 0 in `feed` and ended themselves.
        inSequence = false
        committed = nil
        countChangeSince = nil
        longPress.reset(); pan.reset(); swipe.reset(); pinch.reset(); rotate.reset(); edge.reset()
        if tap.state != .idle { tap.reset() }
        tracker.endSequence()
    }

    private mutating func cancelInFlight(at time: Instant) {
        cancelContinuous(tracker.sample, at: time)
        resetAll()
    }

    /// Every continuous gesture in flight ends `cancelled` (pan, pinch, rotate, edge swipe, long press).
    private mutating func cancelContinuous(_ m: MotionSample, at time: Instant) {
        pan.finish(.cancelled, m, at: time, thresholds, sink: &sink)
        pinch.finish(.cancelled, m, at: time, thresholds, sink: &sink)
        rotate.finish(.cancelled, m, at: time, thresholds, sink: &sink)
        edge.finish(.cancelled, m, at: time, thresholds, sink: &sink)
        longPress.finish(.cancelled, m, at: time, thresholds, sink: &sink)
    }

    private mutating func resetAll() {
        tap.reset(); doubleTap.reset(); longPress.reset(); pan.reset(); swipe.reset()
        pinch.reset(); rotate.reset(); edge.reset()
        tracker.clear()
        inSequence = false
        committed = nil
        countChangeSince = nil
    }
}
