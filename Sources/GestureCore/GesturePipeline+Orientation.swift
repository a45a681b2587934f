/// Turning a running pipeline: the screen's orientation changed (the session rotated its output)
/// or the device's settings did. A new transform never applies under a finger: a gesture keeps
/// the axes it began in, and the new ones take over at the next moment nothing is down and no
/// gesture waits (a tap waiting to become a double tap).
///
///     in force ── transform(t) while idle ─────────────────────────────▶ t in force
///         └────── transform(t) while touching/waiting ─▶ pending ── idle ─▶ t in force
///
/// The arena is made again for the turned description (its axes may swap), and the decoder for
/// the new transform, starting from the device's state the old one held (in the device's own
/// units, which no transform changes), since the kernel sends only values that change.
extension GesturePipeline {
    /// Asks for `t`. Returns true when it is in force at once, false when it waits for the
    /// fingers to lift (`pendingTransform`). Asking for the transform in force drops a pending one.
    @discardableResult
    public mutating func setTransform(_ t: AxisTransform) -> Bool {
        pendingTransform = t == transform ? nil : t
        if pendingTransform == nil { return true }
        takePendingTransformIfIdle()
        return pendingTransform == nil
    }

    mutating func takePendingTransformIfIdle() {
        guard let t = pendingTransform, isIdle else { return }
        pendingTransform = nil
        let decoded = t.apply(to: original)
        var arena = RecognizerArena(device: decoded, thresholds: givenThresholds ?? .defaults(for: decoded),
                                    boundKinds: self.arena.boundKinds,
                                    doubleTapFingerCounts: self.arena.doubleTapFingerCounts,
                                    swipeDirections: self.arena.swipeDirections)
        arena.nextGestureID = self.arena.nextGestureID
        self.arena = arena
        decoder = SlotDecoder(device: original, transform: t, initialState: decoder.state)
        device = decoded
        transform = t
    }
}
