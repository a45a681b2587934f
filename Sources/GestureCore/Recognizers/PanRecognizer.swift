/// Pan, 1–5 fingers, continuous: `began` when the fingers' mean translation passes the slop
/// (`panSlop` + `panSlopPerExtraFinger` per finger beyond the first) and, with two or more
/// fingers, the translation is at least twice the span change and the rotation arc (fingers
/// moving the same way, not apart or around); `changed` on every frame that moves, with the step and the
/// total Δ since the fingers landed (the slop included, so nothing is lost) and the smoothed
/// velocity; `ended` at lift; `cancelled` by the arena (finger-count change past the debounce,
/// SYN_DROPPED, device removal, or a turn of twice `rotateMinimumAngle` taking the fingers over).
///
/// Pan and swipe are one family: they see the same translation and run together. Pan reports
/// the motion continuously; swipe fires once, when the distance threshold is crossed.
///
/// ```
///              translation ≥ slop, dominant, arena allows
///   possible ────────────────────────────────────────────► began ──► changed* ──► ended (all up)
///    │  ▲                                                   │
///    │  └── all up / arena reset                            └──► cancelled (arena)
///    └──► failed (another family committed) ── all up ──► possible
/// ```
struct PanRecognizer: MotionRecognizer, ContinuousRecognizer {
    enum State { case possible, began, failed }
    private(set) var state = State.possible
    private var id: UInt64 = 0
    private var fingers = 0
    var directions = 4

    var inFlight: Bool { state == .began }
    mutating func reset() { state = .possible }
    mutating func fail() { if state == .possible { state = .failed } }

    /// Returns true when the pan began in this frame (the arena records the commit).
    mutating func update(_ m: MotionSample, allowed: Bool, _ t: Thresholds, sink: inout EventSink) -> Bool {
        switch state {
        case .possible:
            guard allowed, m.fingers >= 1, m.fingers <= 5, m.totalDistance >= t.panSlop(fingers: m.fingers),
                  m.translationDominates else { return false }
            state = .began
            id = sink.newID()
            fingers = m.fingers
            sink.events.append(event(.began, m, stepX: m.totalX, stepY: m.totalY, sink: sink))
            return true
        case .began:
            if m.fingers == 0 { finish(.ended, m, at: m.time, t, sink: &sink); return false }
            if m.stepX != 0 || m.stepY != 0 {
                sink.events.append(event(.changed, m, stepX: m.stepX, stepY: m.stepY, sink: sink))
            }
            return false
        case .failed:
            return false
        }
    }

    mutating func finish(_ phase: GesturePhase, _ m: MotionSample, at time: Instant, _ t: Thresholds, sink: inout EventSink) {
        guard state == .began else { return }
        var e = event(phase, m, stepX: 0, stepY: 0, sink: sink)
        e.time = time
        sink.events.append(e)
        state = phase == .ended ? .possible : .failed
    }

    private func event(_ phase: GesturePhase, _ m: MotionSample, stepX: Double, stepY: Double,
                       sink: EventSink) -> GestureEvent {
        GestureEvent(kind: .pan, phase: phase, id: id, fingers: fingers, time: m.time,
                     direction: GestureDirection.quantize(dx: m.totalX, dy: m.totalY, directions: directions),
                     dxMillimeters: m.totalX, dyMillimeters: m.totalY,
                     stepDxMillimeters: stepX, stepDyMillimeters: stepY,
                     distanceMillimeters: m.totalDistance, velocityMillimetersPerSecond: m.velocity,
                     x: sink.fractionX(m.centroidX), y: sink.fractionY(m.centroidY))
    }
}
