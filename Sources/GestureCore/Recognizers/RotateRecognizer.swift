/// Rotate, 2–5 fingers, continuous (never on semi-MT devices). The angle is the fingers' mean turn
/// around their centroid, weighted by distance from it, accumulated frame by frame over the
/// fingers present in both frames; positive is clockwise on the surface (y grows downward).
/// `began` when the cumulative angle reaches `rotateMinimumAngle` degrees; `changed` on every
/// frame it turns; `ended` at lift; `cancelled` by the arena. Every event carries the cumulative
/// `rotationDegrees`. May run together with pinch (one family).
///
/// Direction: `began` and `changed` carry the way the fingers are turning now: the sign of the
/// angle that began the rotate, then the other way once the angle has come back
/// `rotateMinimumAngle` from its furthest point in the current direction (+101°, −97°, +93°
/// reports clockwise, counterclockwise, clockwise). `ended` and `cancelled` carry the net
/// direction, the sign of the cumulative angle.
///
/// ```
///             |angle| ≥ rotateMinimumAngle, arena allows
///   possible ─────────────────────────────────────────► began(cw|ccw) ──► changed* ──► ended (all up,
///    │  ▲                                                │    ▲     │                    net direction)
///    │  │                                                │    └─────┘ angle back ≥ rotateMinimumAngle
///    │  │                                                │            from its extreme: direction flips
///    │  └──── all up / arena reset                       └──► cancelled (arena)
///    └──► failed (another family committed, semi-MT) ── all up ──► possible
/// ```
struct RotateRecognizer: MotionRecognizer, ContinuousRecognizer {
    enum State { case possible, began, failed }
    private(set) var state = State.possible
    private var id: UInt64 = 0
    private var fingers = 0
    private var lastRotation = 0.0
    /// Turning clockwise now, and the angle furthest along that way so far (degrees).
    private var clockwise = true
    private var extremeDegrees = 0.0

    var inFlight: Bool { state == .began }
    mutating func reset() { state = .possible }
    mutating func fail() { if state == .possible { state = .failed } }

    mutating func update(_ m: MotionSample, allowed: Bool, _ t: Thresholds, sink: inout EventSink) -> Bool {
        switch state {
        case .possible:
            guard allowed, m.fingers >= 2, m.fingers <= 5, m.positioned >= 2,
                  abs(m.rotationDegrees) >= t.rotateMinimumAngle else { return false }
            state = .began
            id = sink.newID()
            fingers = m.fingers
            lastRotation = m.rotation
            clockwise = m.rotationDegrees >= 0
            extremeDegrees = m.rotationDegrees
            sink.events.append(event(.began, m, current: true, sink: sink))
            return true
        case .began:
            if m.fingers == 0 { finish(.ended, m, at: m.time, t, sink: &sink); return false }
            if m.rotation != lastRotation {
                lastRotation = m.rotation
                followDirection(m, t)
                sink.events.append(event(.changed, m, current: true, sink: sink))
            }
            return false
        case .failed:
            return false
        }
    }

    mutating func finish(_ phase: GesturePhase, _ m: MotionSample, at time: Instant, _ t: Thresholds, sink: inout EventSink) {
        guard state == .began else { return }
        var e = event(phase, m, current: false, sink: sink)
        e.time = time
        sink.events.append(e)
        state = phase == .ended ? .possible : .failed
    }

    /// Flips the direction when the angle has come back `rotateMinimumAngle` from its extreme.
    private mutating func followDirection(_ m: MotionSample, _ t: Thresholds) {
        let degrees = m.rotationDegrees
        if clockwise ? degrees > extremeDegrees : degrees < extremeDegrees { extremeDegrees = degrees; return }
        if abs(degrees - extremeDegrees) >= t.rotateMinimumAngle {
            clockwise.toggle()
            extremeDegrees = degrees
        }
    }

    /// `current`: the way the fingers turn now (began, changed); otherwise the net direction.
    private func event(_ phase: GesturePhase, _ m: MotionSample, current: Bool, sink: EventSink) -> GestureEvent {
        let degrees = m.rotationDegrees
        let cw = current ? clockwise : degrees >= 0
        return GestureEvent(kind: .rotate, phase: phase, id: id, fingers: fingers, time: m.time,
                            direction: cw ? .clockwise : .counterclockwise,
                            rotationDegrees: degrees,
                            x: sink.fractionX(m.centroidX), y: sink.fractionY(m.centroidY))
    }
}
