/// Tap, 1–5 fingers: every finger up within `tapTimeout` (+ `tapTimeoutPerExtraFinger` for each
/// finger beyond the first) of the last finger down, each back within `tapMaximumMovement` of
/// where it landed when it lifts (`tapQuickMaximumMovement` for a contact no longer than
/// `tapQuickDuration`: quick taps roll as they lift) and never further than `tapMaximumExcursion`
/// in between (real taps wobble; `tapQuickMaximumExcursion` while the contact is no longer than
/// `tapQuickDuration`: a quick tap's landing jitters out and back). Two to five fingers that
/// all go the pan's slop the same way (`MotionSample.sharedTravel`) are a pan under way, not a
/// tap's wobble: the tap fails there, so a multi-finger pan or swipe begins at its slop instead
/// of waiting for the excursion. A contact during which a
/// physical button went down (a clickpad pressed, a touchpad button) is a click, never a tap,
/// and a touch in which a contact turned out to be a palm is no tap either. On semi-MT pads with more than one
/// finger the motion is not checked: the bounding box jumps as fingers land and lift. The finger count is the most fingers down at
/// once during the sequence (staggered landings and lifts count; BTN_TOOL_* counts on semi-MT pads count).
///
/// ```
///            first finger down
///   idle ─────────────────────────► possible ──── finger down: restart timer, fingers = max
///    ▲                                 │  │
///    │ all up, back within             │  └─ strayed > tapMaximumExcursion (or, while down
///    │ tapMaximumMovement (completed:  │     ≤ tapQuickDuration, > tapQuickMaximumExcursion),
///    │ the arena emits a tap, or hands │     2+ fingers each gone panSlop(fingers) the same way,
///    │ it to doubleTap when bound)     │     timeout after the last down, > 5 fingers, a button
///    │                                 │     went down (a click), a palm, another gesture commits
///    │                                 ▼
///    │                              failed ◄── all up, but lifted > tapMaximumMovement away
///    │                                 │      (tapQuickMaximumMovement if down ≤ tapQuickDuration)
///    └────────────── all up ───────────┘
/// ```
/// The recognizer never emits itself: `update` returns the completed tap and the arena decides
/// whether it waits for a double tap (see `DoubleTapRecognizer`).
struct TapRecognizer {
    enum State { case idle, possible, failed }
    /// A tap that completed: where (mm), when (the lift), how many fingers.
    struct Completed: Hashable {
        var fingers: Int
        var time: Instant
        var x: Millimeters
        var y: Millimeters
    }

    private(set) var state = State.idle
    private var maxFingers = 0
    /// How far the fingers were from where they landed in the last frame with positions.
    private var lastTravel: Millimeters = 0
    private var lastDown = Instant.zero
    /// When the first finger landed: a contact shorter than `tapQuickDuration` may end further away.
    private var firstDown = Instant.zero

    /// The timeout includes its limit (a lift at `lastDown + timeout` is still a tap), so the
    /// tap fails at the instant after it. Firing fails the tap, which clears the deadline.
    var nextDeadline: Instant? {
        state == .possible ? (lastDown + timeout).successor : nil
    }
    /// The timeout for the most fingers seen so far.
    private var timeout: Duration = .zero

    mutating func fail() { if state == .possible { state = .failed } }
    mutating func reset() { state = .idle; maxFingers = 0; lastTravel = 0 }

    mutating func advance(to now: Instant) {
        if let d = nextDeadline, d <= now { state = .failed }
    }

    mutating func update(_ m: MotionSample, _ t: Thresholds) -> Completed? {
        switch state {
        case .idle: return handleIdle(m, t)
        case .possible: return handlePossible(m, t)
        case .failed:
            if m.fingers == 0 { reset() }
            return nil
        }
    }

    private mutating func handleIdle(_ m: MotionSample, _ t: Thresholds) -> Completed? {
        guard m.fingers > 0 else { return nil }
        state = .possible
        maxFingers = m.fingers
        lastDown = m.time
        firstDown = m.time
        return handlePossible(m, t)
    }

    private mutating func handlePossible(_ m: MotionSample, _ t: Thresholds) -> Completed? {
        if m.fingerLanded { lastDown = m.time }
        maxFingers = Swift.max(maxFingers, m.fingers)
        timeout = t.tapTimeout(fingers: maxFingers)
        // Semi-MT boxes jump when fingers land and lift (libinput skips the motion check there too).
        let ignoreMotion = m.semiMT && maxFingers > 1
        if m.positioned > 0 { lastTravel = m.touchTravel }
        // A physical click (the pad pressed down, or a button) is a click, not a tap. A contact
        // still within `tapQuickDuration` may stray further (a quick tap's landing jitter); once
        // it has lasted longer, the usual excursion holds for what it did before too.
        let excursion = t.tapMaximumExcursion(duration: m.time - firstDown)
        // A palm (a contact turning MT_TOOL_PALM or palm-sized while down) spoils the tap.
        if (!ignoreMotion && (m.maxTouchTravel > excursion || movedTogether(m, t))) || maxFingers > 5
            || m.time > lastDown + timeout
            || m.buttonDown || m.palmDetected {
            state = .failed
            if m.fingers == 0 { reset() }
            return nil
        }
        guard m.fingers == 0 else { return nil }
        if !ignoreMotion && lastTravel > t.tapMaximumMovement(duration: m.time - firstDown) {
            reset()
            return nil
        }
        let done = Completed(fingers: maxFingers, time: m.time, x: m.centroidX, y: m.centroidY)
        reset()
        return done
    }

    /// Two to five fingers, every one positioned, each gone the pan's slop the way they translate
    /// together (dominant, as a pan needs): a pan or swipe under way, not a tap. A real
    /// multi-finger tap's fingers wobble each their own way: the bcm5974 4-finger taps share
    /// 0.5 mm at most, against 2–3.5 mm of slop.
    private func movedTogether(_ m: MotionSample, _ t: Thresholds) -> Bool {
        guard m.positioned >= 2, m.positioned == m.fingers else { return false }
        let slop = t.panSlop(fingers: m.fingers)
        return m.sharedTravel >= slop && m.totalDistance >= slop && m.translationDominates
    }
}

extension EventSink {
    /// The event for a tap (or the double tap whose second tap is `c`).
    mutating func tapEvent(_ kind: GestureKind, _ c: TapRecognizer.Completed, at time: Instant) -> GestureEvent {
        GestureEvent(kind: kind, phase: .recognized, id: newID(), fingers: c.fingers, time: time,
                     x: fractionX(c.x), y: fractionY(c.y))
    }
}
