/// Double tap, 1–5 fingers: two taps with the same finger count, the second landing within the
/// gap after the first lifted (touchpad ≤ 180 ms + 20 ms per extra finger; touchscreen 40–300 ms)
/// and within `doubleTapMaximumDistance` of it. It only runs for finger counts that have a
/// doubleTap binding: then a single tap is held back until the gap has passed (the latency cost,
/// docs/GESTURES.md "Latency"), otherwise taps are reported at once.
///
/// ```
///          tap (n fingers, doubleTap bound for n)
///   idle ──────────────────────────────────────► waiting(first)
///    ▲ ▲                                           │      │
///    │ │ gap deadline passes: first → tap          │      │ next sequence lands ≥ min gap,
///    │ └───────────────────────────────────────────┘      │ within max distance
///    │        lands too early / too far: first → tap      ▼
///    │ ◄─────────────────────────────────────────── secondDown(first)
///    │   second tap with n fingers → doubleTap            │
///    │   second tap with m ≠ n fingers → first → tap,     │ second sequence is not a tap
///    │        the second is handled as a fresh tap        │ (moved, timed out, another gesture)
///    └──────────────────────────────────────────────────┘ first → tap
/// ```
struct DoubleTapRecognizer {
    enum State: Equatable {
        case idle
        case waiting(first: TapRecognizer.Completed)
        case secondDown(first: TapRecognizer.Completed)
    }
    private(set) var state = State.idle

    /// The gap includes its limit (a second touch landing exactly `gap` after the first lift
    /// still counts), so the wait runs out at the instant after it. Firing reports the first tap
    /// and returns to idle, which clears the deadline.
    var nextDeadline: Instant? { nextDeadline(gap: gap) }
    private var gap: Duration = .zero
    private func nextDeadline(gap: Duration) -> Instant? {
        if case .waiting(let first) = state { return (first.time + gap).successor }
        return nil
    }

    mutating func reset() { state = .idle }

    /// Starts waiting for the second tap.
    mutating func wait(for first: TapRecognizer.Completed, _ t: Thresholds) {
        if state != .idle {
            // The arena flushes a pending first tap before waiting for a new one.
            reset()
        }
        gap = t.doubleTapMaximumGap(fingers: first.fingers)
        state = .waiting(first: first)
    }

    /// The gap passed without a second touch: returns the first tap to report.
    mutating func advance(to now: Instant) -> TapRecognizer.Completed? {
        guard let d = nextDeadline, d <= now, case .waiting(let first) = state else { return nil }
        state = .idle
        return first
    }

    /// A new touch sequence landed. Returns the pending first tap when this cannot be its second.
    mutating func sequenceBegan(_ m: MotionSample, _ t: Thresholds) -> TapRecognizer.Completed? {
        switch state {
        case .idle: return nil
        case .secondDown(let first):
            // A second sequence cannot begin while one is down.
            state = .idle
            return first
        case .waiting(let first):
            let dx = m.centroidX - first.x, dy = m.centroidY - first.y
            let far = m.positioned > 0
                && (dx * dx + dy * dy).squareRoot() > t.doubleTapMaximumDistance
            if m.time - first.time < t.doubleTapMinimumGap || far {
                state = .idle
                return first
            }
            state = .secondDown(first: first)
            return nil
        }
    }

    /// The second sequence failed to be a tap: returns the first tap to report.
    mutating func secondFailed() -> TapRecognizer.Completed? {
        guard case .secondDown(let first) = state else { return nil }
        state = .idle
        return first
    }
}
