/// Long press (hold), 1–5 fingers: `began` when `longPressDuration` has passed since the finger
/// count last changed with every finger still (moved less than `longPressMaximumMovement`) and
/// no physical button pressed (a held click is a click or a drag);
/// `changed` on each frame the fingers move after that; `ended` at lift, or when another gesture
/// takes the motion over (the arena: by default a pan, swipe, pinch, rotate or edge swipe that
/// begins after the hold; with `longPressDrag` only an edge swipe, or a pinch or rotate that is
/// not mostly translation, so the motion is this gesture's drag); `cancelled` when the
/// fingers move past `longPressMaximumMovement` after it began only if
/// `longPressCancelsOnMovement`, and (by the arena) when the finger count changes for longer than
/// the debounce, on SYN_DROPPED and on device removal.
///
/// ```
///                 fingers down                     timer (arena allows it)
///   idle ─────────────────────────► possible ───────────────────────────► began ──► changed*
///    ▲                              │  ▲  │                                 │  │
///    │                              │  └──┘ finger count changes:           │  └─ moved past slop and
///    │                              │       restart the timer               │     cancelsOnMovement
///    │   moved ≥ slop, button down, ▼                                       │     → cancelled ─► failed
///    │            > 5 fingers,   failed ◄── another gesture begins: ended ──┤
///    │            another commits   │       (taken over, see the arena)     │ all up
///    └──────────── all up ──────────┴──────────────────────────────────── ended
/// ```
struct LongPressRecognizer: ContinuousRecognizer {
    enum State { case idle, possible, began, failed }
    private(set) var state = State.idle
    private var since = Instant.zero
    private var fingers = 0
    private var duration: Duration = .zero
    private var id: UInt64 = 0
    private var baseX = 0.0, baseY = 0.0

    var nextDeadline: Instant? { state == .possible ? since + duration : nil }
    var inFlight: Bool { state == .began }

    mutating func reset() { state = .idle }
    mutating func fail() { if state == .possible { state = .failed } }

    /// Starts (or restarts, after a debounced finger-count change) the timer.
    mutating func restart(_ m: MotionSample, at time: Instant, _ t: Thresholds) {
        state = m.fingers > 0 ? .possible : .idle
        since = time; fingers = m.fingers; duration = t.longPressDuration
    }

    /// The timer ran out: begin (the arena decided it may) and return true, or fail.
    mutating func fire(at now: Instant, allowed: Bool, _ m: MotionSample, sink: inout EventSink) -> Bool {
        guard state == .possible else { return false }
        guard allowed, fingers >= 1, fingers <= 5 else { state = .failed; return false }
        state = .began
        id = sink.newID()
        baseX = m.totalX; baseY = m.totalY
        sink.events.append(GestureEvent(kind: .longPress, phase: .began, id: id, fingers: fingers, time: now,
                                        dxMillimeters: 0, dyMillimeters: 0,
                                        x: sink.fractionX(m.centroidX), y: sink.fractionY(m.centroidY)))
        return true
    }

    mutating func update(_ m: MotionSample, _ t: Thresholds, sink: inout EventSink) {
        switch state {
        case .idle:
            if m.fingers > 0 { restart(m, at: m.time, t) }
        case .possible:
            if m.fingers == 0 { state = .idle; return }
            if m.fingers != fingers { since = m.time; fingers = m.fingers }
            // A click held down is a click (or a drag), not a long press.
            if m.maxTouchTravel >= t.longPressMaximumMovement || m.fingers > 5 || m.buttonDown { state = .failed }
        case .began:
            if m.fingers == 0 { finish(.ended, m, at: m.time, t, sink: &sink); return }
            let dx = m.totalX - baseX, dy = m.totalY - baseY
            if t.longPressCancelsOnMovement && (dx * dx + dy * dy).squareRoot() > t.longPressMaximumMovement {
                finish(.cancelled, m, at: m.time, t, sink: &sink)
                state = .failed
                return
            }
            if m.stepX != 0 || m.stepY != 0 {
                sink.events.append(event(.changed, at: m.time, m, sink: sink))
            }
        case .failed:
            if m.fingers == 0 { state = .idle }
        }
    }

    /// Ends a long press in flight (`ended` at lift, `cancelled` by the arena).
    mutating func finish(_ phase: GesturePhase, _ m: MotionSample, at time: Instant, _ t: Thresholds, sink: inout EventSink) {
        guard state == .began else { return }
        sink.events.append(event(phase, at: time, m, sink: sink))
        state = phase == .ended ? .idle : .failed
    }

    /// Another gesture began from the hold's fingers: the long press `ended` (the hold
    /// happened) and stays failed until every finger lifts.
    mutating func takenOver(_ m: MotionSample, at time: Instant, sink: inout EventSink) {
        guard state == .began else { return }
        sink.events.append(event(.ended, at: time, m, sink: sink))
        state = .failed
    }

    private func event(_ phase: GesturePhase, at time: Instant, _ m: MotionSample, sink: EventSink) -> GestureEvent {
        GestureEvent(kind: .longPress, phase: phase, id: id, fingers: fingers, time: time,
                     dxMillimeters: m.totalX - baseX, dyMillimeters: m.totalY - baseY,
                     stepDxMillimeters: m.stepX, stepDyMillimeters: m.stepY,
                     x: sink.fractionX(m.centroidX), y: sink.fractionY(m.centroidY))
    }
}
