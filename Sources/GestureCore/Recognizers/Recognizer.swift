/// What the arena asks of recognizers. Every recognizer reads the frame's `MotionSample` and the
/// device's `Thresholds`, emits through the `EventSink`, and shares nothing else: thresholds
/// derived for several of them (`Thresholds.panSlop(fingers:)`, `tapTimeout(fingers:)`,
/// `doubleTapMaximumGap(fingers:)`) and the motion measures (`MotionSample.translationDominates`,
/// `rotationDegrees`) live with the thresholds and the sample, not in another recognizer.

/// A recognizer the arena feeds motion frames: `update` returns true in the frame where it
/// commits (a continuous gesture began, a swipe was recognized); `allowed` is the arena's say.
protocol MotionRecognizer {
    mutating func update(_ m: MotionSample, allowed: Bool, _ t: Thresholds, sink: inout EventSink) -> Bool
    /// Back to the start state (a new touch sequence, or a new finger count).
    mutating func reset()
    /// Another family committed: a recognizer that has not begun fails until all fingers lift.
    mutating func fail()
}

/// The one lifecycle of the continuous gestures (pan, pinch, rotate, edge swipe, long press):
/// `began` → `changed`* → `ended` at lift, or `cancelled` by the arena (finger-count change past
/// the debounce, a take-over, SYN_DROPPED, removal).
protocol ContinuousRecognizer {
    /// `began` was emitted and neither `ended` nor `cancelled` yet.
    var inFlight: Bool { get }
    mutating func reset()
    mutating func fail()
    /// Ends the gesture in flight with one `phase` event (`ended` or `cancelled`) at `time`;
    /// nothing when none is in flight.
    mutating func finish(_ phase: GesturePhase, _ m: MotionSample, at time: Instant, _ t: Thresholds,
                         sink: inout EventSink)
}
