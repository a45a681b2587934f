/// Rotate, 2–5 fingers, continuous (never on semi-MT devices). The angle is the fingers' mean turn
/// around their centroid, weighted by distance from it, accumulated frame by frame over the
/// fingers present in both frames; positive is clockwise on the surface (y grows downward).
/// `began` when the cumulative angle reaches `rotateMinimumAngle` degrees; `changed` on every
/// frame it turns; `ended` at lift; `cancelled` by the arena. Every event carries
/// `rotationDegrees` and the direction (clockwise / counterclockwise) of the cumulative angle.
/// May run together with pinch (one family).
///
/// ```
///             |angle| ≥ rotateMinimumAngle, arena allows
///   possible ─────────────────────────────────────────► began ──► changed* ──► ended (all up)
///    │  ▲                                                │
///    │  └──── all up / arena reset                       └──► cancelled (arena)
///    └──► failed (another family committed, semi-MT) ── all up ──► possible
/// ```
struct RotateRecognizer: MotionRecognizer, ContinuousRecognizer {
    enum State { case possible, began, failed }
    private(set) var state = State.possible
    private var id: UInt64 = 0
    private var fingers = 0
    private var lastRotation = 0.0

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
            sink.events.append(event(.began, m, sink: sink))
            return true
        case .began:
            if m.fingers == 0 { finish(.ended, m, at: m.time, t, sink: &sink); return false }
            if m.rotation != lastRotation {
                lastRotation = m.rotation
                sink.events.append(event(.changed, m, sink: sink))
            }
            return false
        case .failed:
            return false
        }
    }

    mutating func finish(_ phase: GesturePhase, _ m: MotionSample, at time: Instant, _ t: Thresholds, sink: inout EventSink) {
        guard state == .began else { return }
        var e = event(phase, m, sink: sink)
        e.time = time
        sink.events.append(e)
        state = phase == .ended ? .possible : .failed
    }

    private func event(_ phase: GesturePhase, _ m: MotionSample, sink: EventSink) -> GestureEvent {
        let degrees = m.rotationDegrees
        return GestureEvent(kind: .rotate, phase: phase, id: id, fingers: fingers, time: m.time,
                            direction: degrees >= 0 ? .clockwise : .counterclockwise,
                            rotationDegrees: degrees,
                            x: sink.fractionX(m.centroidX), y: sink.fractionY(m.centroidY))
    }
}
