import GestureCore

/// The replay pipeline, reusable by `gestured replay`, the daemon's tests and the benchmark:
/// events → `SlotDecoder` → frames → `RecognizerArena` → gesture events, in virtual time.
/// Deadlines that pass before a frame fire (at their own time) before that frame is processed;
/// `finish()` advances past the last event so pending taps and long presses resolve.
public struct Replayer: Sendable {
    public enum Output: Sendable {
        case frame(TouchFrame)
        case gesture(GestureEvent)
        /// A "kernel bug:" / "gestured bug:" line from the decoder or the arena.
        case diagnostic(String)
    }

    public private(set) var decoder: SlotDecoder
    public private(set) var arena: RecognizerArena
    /// Time of the last event seen.
    public private(set) var lastTime: Instant?
    private var reportedBackwardTime = false
    /// How far past the last event `finish()` advances.
    public var tail: Duration = .seconds(3)

    public init(device: DeviceDescription, thresholds: Thresholds? = nil,
                boundKinds: Set<GestureKind> = Set(GestureKind.all),
                doubleTapFingerCounts: Set<Int> = Set(1...5), swipeDirections: Int = 4,
                initialState: SlotDecoder.InitialState = .empty) {
        decoder = SlotDecoder(device: device, initialState: initialState)
        arena = RecognizerArena(device: device, thresholds: thresholds ?? .defaults(for: device),
                                boundKinds: boundKinds, doubleTapFingerCounts: doubleTapFingerCounts,
                                swipeDirections: swipeDirections)
    }

    /// Feeds one event; calls `emit` for every frame, gesture and diagnostic it produces, in order.
    public mutating func feed(_ event: InputEvent, _ emit: (Output) -> Void) {
        var event = event
        if let last = lastTime, event.time < last {
            // The kernel's clock only moves forward; a recording (or source) whose time goes back
            // is broken. Its events keep their order at the last time, said once.
            if !reportedBackwardTime {
                reportedBackwardTime = true
                emit(.diagnostic("kernel bug: \(TextEscaping.escaped(decoder.device.name)): event time went back \(last.microseconds - event.time.microseconds) µs; such events are taken at the previous time (said once)"))
            }
            event.time = last
        }
        lastTime = event.time
        if let stuck = decoder.checkStuckTouches(at: event.time) { deliver(stuck, emit) }
        guard let frame = decoder.decode(event) else { return }
        advanceDeadlines(before: frame.time, emit)
        emit(.frame(frame))
        for g in arena.process(frame) { emit(.gesture(g)) }
        drain(emit)
    }

    /// Lets the stuck-touch watchdog look at `time` (the daemon's timer, or the end of a replay).
    public mutating func checkStuckTouches(at time: Instant, _ emit: (Output) -> Void) {
        if let stuck = decoder.checkStuckTouches(at: time) { deliver(stuck, emit) }
    }

    private mutating func deliver(_ frame: TouchFrame, _ emit: (Output) -> Void) {
        advanceDeadlines(before: frame.time, emit)
        emit(.frame(frame))
        for g in arena.process(frame) { emit(.gesture(g)) }
        drain(emit)
    }

    /// Fires every deadline strictly before `time`, each at its own instant.
    public mutating func advanceDeadlines(before time: Instant, _ emit: (Output) -> Void) {
        var guardCount = 0
        while let d = arena.nextDeadline, d < time, guardCount < 1000 {
            for g in arena.advance(to: d) { emit(.gesture(g)) }
            guardCount += 1
        }
    }

    /// The recording ended: advance `tail` past the last event so waiting gestures resolve.
    public mutating func finish(_ emit: (Output) -> Void) {
        guard let last = lastTime else { return }
        let end = last + tail
        checkStuckTouches(at: end, emit)
        advanceDeadlines(before: end, emit)
        for g in arena.advance(to: end) { emit(.gesture(g)) }
        drain(emit)
    }

    /// The device went away: cancels its touches and gestures.
    public mutating func deviceRemoved(at time: Instant, _ emit: (Output) -> Void) {
        advanceDeadlines(before: time, emit)
        if let frame = decoder.deviceRemoved(at: time) {
            emit(.frame(frame))
            for g in arena.process(frame) { emit(.gesture(g)) }
        } else {
            for g in arena.cancelAll(at: time) { emit(.gesture(g)) }
        }
        drain(emit)
    }

    private mutating func drain(_ emit: (Output) -> Void) {
        for d in decoder.drainDiagnostics() { emit(.diagnostic(d)) }
        for d in arena.drainDiagnostics() { emit(.diagnostic(d)) }
    }

    /// Replays a whole recording.
    public static func run(_ recording: Recording, thresholds: Thresholds? = nil,
                           _ emit: (Output) -> Void) {
        var r = Replayer(device: recording.description, thresholds: thresholds)
        for e in recording.events { r.feed(e, emit) }
        r.finish(emit)
    }
}
