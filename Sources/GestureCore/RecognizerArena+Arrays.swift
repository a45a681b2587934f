/// The arena's calls returning their events as an array, for tests, the benchmark and the fuzz
/// targets. The pipeline uses the forms taking an `emit` closure, which allocate nothing per
/// frame.
extension RecognizerArena {
    /// Feeds one frame; overdue deadlines fire first.
    public mutating func process(_ frame: TouchFrame) -> [GestureEvent] {
        collect { $0.process(frame, $1) }
    }

    /// Fires every deadline at or before `now`.
    public mutating func advance(to now: Instant) -> [GestureEvent] {
        collect { $0.advance(to: now, $1) }
    }

    /// See `cancelAll(at:_:)`.
    public mutating func cancelAll(at now: Instant) -> [GestureEvent] {
        collect { $0.cancelAll(at: now, $1) }
    }

    private mutating func collect(_ run: (inout RecognizerArena, (GestureEvent) -> Void) -> Void) -> [GestureEvent] {
        var out: [GestureEvent] = []
        run(&self) { out.append($0) }
        return out
    }
}
