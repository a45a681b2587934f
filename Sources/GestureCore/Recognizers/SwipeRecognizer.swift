/// Swipe, 1–5 fingers, discrete: one `recognized` event the moment the fingers' mean translation
/// reaches `swipeMinimumDistance` (translation dominant, as for pan) — not at lift, so hooks fire
/// early. The direction is locked then: 4 directions (90° sectors) or 8 (45° sectors, ±22.5°);
/// the event carries the total dx/dy so a binding can re-quantize 4 vs 8, the distance and the
/// smoothed velocity. At most one swipe per touch sequence (a debounced finger-count change
/// starts a new one).
///
/// ```
///              translation ≥ swipeMinimumDistance, dominant, arena allows
///   possible ─────────────────────────────────────────────────────────► recognized (spent)
///    │  ▲                                                                 │
///    │  └──────────────── all up / arena reset ───────────────────────────┘
///    └──► failed (another family committed) ── all up / reset ──► possible
/// ```
struct SwipeRecognizer: MotionRecognizer {
    enum State { case possible, recognized, failed }
    private(set) var state = State.possible
    var directions = 4

    mutating func reset() { state = .possible }
    mutating func fail() { if state == .possible { state = .failed } }

    /// Returns true when the swipe was recognized in this frame.
    mutating func update(_ m: MotionSample, allowed: Bool, _ t: Thresholds, sink: inout EventSink) -> Bool {
        guard state == .possible, allowed, m.fingers >= 1, m.fingers <= 5,
              m.totalDistance >= t.swipeMinimumDistance, m.translationDominates,
              let direction = GestureDirection.quantize(dx: m.totalX, dy: m.totalY, directions: directions)
        else { return false }
        state = .recognized
        sink.events.append(GestureEvent(kind: .swipe, phase: .recognized, id: sink.newID(), fingers: m.fingers,
                                        time: m.time, direction: direction,
                                        dxMillimeters: m.totalX, dyMillimeters: m.totalY,
                                        distanceMillimeters: m.totalDistance,
                                        velocityMillimetersPerSecond: m.velocity,
                                        x: sink.fractionX(m.centroidX), y: sink.fractionY(m.centroidY)))
        return true
    }
}
