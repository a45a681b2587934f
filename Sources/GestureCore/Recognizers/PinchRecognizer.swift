/// Pinch, 2–5 fingers, continuous (never on semi-MT devices: their positions are a bounding box).
/// The span is twice the fingers' mean distance from their centroid (for two fingers, the
/// distance between them); `scale = d / d0` accumulates frame by frame over the fingers present
/// in both frames, so a finger landing or lifting does not make it jump.
/// `began` when the span has changed by `pinchMinimumSpanChange` mm through scaling; `changed`
/// on every frame the scale changes; `ended` at lift; `cancelled` by the arena. May run together
/// with rotate (one family).
///
/// Direction: `began` and `changed` carry the direction the fingers are moving now: `in` or
/// `out` from the first clear movement (the span change that began the pinch), then the other
/// one once the span has come back `pinchMinimumSpanChange` from its furthest point in the
/// current direction (a pinch in, out, in, out reports each in turn). `ended` carries the net
/// direction: `in` (scale ≤ 1 − delta) or `out` (scale ≥ 1 + delta), none in between
/// (`pinchDirectionScaleDelta`).
///
/// ```
///             |span change| ≥ pinchMinimumSpanChange, arena allows
///   possible ───────────────────────────────────────────────────► began(in|out) ──► changed* ──► ended
///    │  ▲                                                          │    ▲     │               (net direction)
///    │  │                                                          │    └─────┘ span back ≥ pinchMinimumSpanChange
///    │  │                                                          │            from its extreme: direction flips
///    │  └──── all up / arena reset                                 └──► cancelled (arena)
///    └──► failed (another family committed, semi-MT) ── all up ──► possible
/// ```
struct PinchRecognizer: MotionRecognizer, ContinuousRecognizer {
    enum State { case possible, began, failed }
    private(set) var state = State.possible
    private var id: UInt64 = 0
    private var fingers = 0
    private var lastScale = 1.0
    /// The direction of the current movement, and the scale furthest along it so far.
    private var direction = GestureDirection.in
    private var extremeScale = 1.0

    var inFlight: Bool { state == .began }
    mutating func reset() { state = .possible }
    mutating func fail() { if state == .possible { state = .failed } }

    mutating func update(_ m: MotionSample, allowed: Bool, _ t: Thresholds, sink: inout EventSink) -> Bool {
        switch state {
        case .possible:
            guard allowed, m.fingers >= 2, m.fingers <= 5, m.positioned >= 2,
                  abs(m.spanChange) >= t.pinchMinimumSpanChange else { return false }
            state = .began
            id = sink.newID()
            fingers = m.fingers
            lastScale = m.scale
            direction = m.spanChange < 0 ? .in : .out
            extremeScale = m.scale
            sink.events.append(event(.began, m, direction: direction, sink: sink))
            return true
        case .began:
            if m.fingers == 0 { finish(.ended, m, at: m.time, t, sink: &sink); return false }
            if m.scale != lastScale {
                lastScale = m.scale
                followDirection(m, t)
                sink.events.append(event(.changed, m, direction: direction, sink: sink))
            }
            return false
        case .failed:
            return false
        }
    }

    /// Flips the direction when the span has come back `pinchMinimumSpanChange` from its extreme.
    private mutating func followDirection(_ m: MotionSample, _ t: Thresholds) {
        let closing = direction == .in
        if closing ? m.scale < extremeScale : m.scale > extremeScale { extremeScale = m.scale; return }
        // The span the scale is measured from: the back-off in millimetres at today's fingers.
        let startSpan = m.scale > 0 ? m.span / m.scale : 0
        if abs(m.scale - extremeScale) * startSpan >= t.pinchMinimumSpanChange {
            direction = closing ? .out : .in
            extremeScale = m.scale
        }
    }

    mutating func finish(_ phase: GesturePhase, _ m: MotionSample, at time: Instant, _ t: Thresholds, sink: inout EventSink) {
        guard state == .began else { return }
        var direction: GestureDirection?
        if phase == .ended {
            if m.scale <= 1 - t.pinchDirectionScaleDelta { direction = .in }
            if m.scale >= 1 + t.pinchDirectionScaleDelta { direction = .out }
        }
        var e = event(phase, m, direction: direction, sink: sink)
        e.time = time
        sink.events.append(e)
        state = phase == .ended ? .possible : .failed
    }

    private func event(_ phase: GesturePhase, _ m: MotionSample, direction: GestureDirection?,
                       sink: EventSink) -> GestureEvent {
        GestureEvent(kind: .pinch, phase: phase, id: id, fingers: fingers, time: m.time, direction: direction,
                     distanceMillimeters: m.span, scale: m.scale,
                     x: sink.fractionX(m.centroidX), y: sink.fractionY(m.centroidY))
    }
}
