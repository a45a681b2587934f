/// One device's whole recognition path:
///
///     raw events ─▶ SlotDecoder ─▶ TouchFrame ─▶ RecognizerArena ─▶ GestureEvent
///                   (EvdevState, raw units; AxisScale: AxisTransform, mm)
///                        └─▶ frame sink (an exclusive device's gate: raw events + EvdevState)
///
/// The decoder holds the device's one `EvdevState` in its own units (`state`) and measures
/// touches in the picture's axes. With a frame sink (`feed(contentsOf:frames:_:)`), each frame's
/// raw events and the state after them go to it after decoding and before recognition.
///
/// Used alike by the daemon's device session, `gestured replay`, the kernel-suite helper, the
/// benchmark, the fuzz targets and the tests; the benchmark's `decode` section also puts a
/// `SlotDecoder` and a `RecognizerArena` together by hand, to time each stage apart. Time comes
/// only from events and `advance(to:)`.
///
/// Deadlines: `nextDeadline` is the earliest of the decoder's stuck-touch watchdog and the
/// arena's waits (tap vs double tap, long press, finger-count debounce). One rule for all of
/// them: a deadline at `d` fires, at its own time `d`, as soon as time reaches `d` — before any
/// event stamped `d` or later is decoded, and in time order (the arena's first on a tie, as a
/// frame at `d` would also see them fired first).
public struct GesturePipeline: Sendable {
    public enum Output: Sendable {
        case frame(TouchFrame)
        case gesture(GestureEvent)
        /// A "kernel bug:" / "gestured bug:" line from the decoder or the arena.
        case diagnostic(String)
    }

    /// The device as the events arrive (its own axes, what `state` is in).
    public let original: DeviceDescription
    /// The device in the picture's axes (after the transform): what frames and gestures refer to.
    public internal(set) var device: DeviceDescription
    public internal(set) var transform: AxisTransform
    /// A transform asked for while a finger was down or a gesture waited: it takes over at the
    /// next moment nothing is (GesturePipeline+Orientation.swift).
    public internal(set) var pendingTransform: AxisTransform?
    /// What the arena was made with, to make it again for another transform.
    let givenThresholds: Thresholds?
    public internal(set) var decoder: SlotDecoder
    public internal(set) var arena: RecognizerArena
    /// Whether `emit` gets each frame (`.frame`): the daemon turns it off while nothing takes
    /// raw frames, and a frame then costs no output made and matched only to be dropped.
    public var emitsFrames = true
    /// The events of the frame being read, for a frame sink (only filled while one is given).
    private var rawFrame: [InputEvent] = []
    /// Time of the last event fed.
    public var lastTime: Instant? { fedAny ? Instant(microseconds: lastMicroseconds) : nil }
    /// `lastTime` as two plain fields: Int64.min before the first event, so the per-event "time
    /// went back" test is one comparison, with no optional to unwrap.
    private var lastMicroseconds = Int64.min
    private var fedAny = false
    private var reportedBackwardTime = false
    /// The last event fed completed a frame (or none was fed): the decoder holds no half frame.
    private var betweenFrames = true
    /// `nextDeadline`, kept up to date after every change that can move it, so an event before
    /// it costs one comparison instead of asking the decoder and every waiting recognizer.
    private var deadline: Instant? { didSet { dueMicroseconds = deadline?.microseconds ?? Int64.max } }
    /// `deadline` for the per-event test: Int64.max when there is none (an event at Int64.max then
    /// calls `advance(to:)`, which finds nothing due), so the test is one comparison, no unwrap.
    private var dueMicroseconds = Int64.max

    /// - Parameters:
    ///   - device: the device as it sends events (`transform` turns its touches into the picture's axes).
    ///   - initialState: the device's state at open, in its own units.
    public init(device: DeviceDescription, transform: AxisTransform = .identity,
                thresholds: Thresholds? = nil,
                boundKinds: Set<GestureKind> = Set(GestureKind.all),
                doubleTapFingerCounts: Set<Int> = Set(1...5), swipeDirections: Int = 4,
                initialState: EvdevState? = nil) {
        original = device
        givenThresholds = thresholds
        self.transform = transform
        let decoded = transform.apply(to: device)
        self.device = decoded
        decoder = SlotDecoder(device: device, transform: transform, initialState: initialState)
        arena = RecognizerArena(device: decoded, thresholds: thresholds ?? .defaults(for: decoded),
                                boundKinds: boundKinds, doubleTapFingerCounts: doubleTapFingerCounts,
                                swipeDirections: swipeDirections)
        deadline = earliestDeadline
        dueMicroseconds = deadline?.microseconds ?? Int64.max   // no didSet in an initializer
    }

    /// The device's state after the events fed so far, in its own units (the decoder's).
    public var state: EvdevState { decoder.state }
    /// `SlotDecoder.adoptAxes`: the axes a read mask held back, at the kernel's values.
    public mutating func adoptAxes(_ codes: [UInt16], from other: EvdevState) { decoder.adoptAxes(codes, from: other) }

    /// When `advance(to:)` next has work: the decoder's watchdog or the arena's earliest wait.
    public var nextDeadline: Instant? { deadline }

    /// Inlined, so the decoder and arena are read in place: a called getter is handed a copy of
    /// the whole pipeline (about 2 KB).
    private var earliestDeadline: Instant? {
        @inline(__always) get { Instant.earliest(decoder.nextDeadline, arena.nextDeadline) }
    }

    /// Feeds one event: deadlines up to its time fire first, then it is decoded; a completed frame
    /// goes to the arena. `emit` gets every frame, gesture and diagnostic, in order.
    public mutating func feed(_ event: InputEvent, _ emit: (Output) -> Void) {
        feedOne(event, emit, { emit(.gesture($0)) }, collecting: false) { _, _, _ in }
        fedAny = true
    }

    /// Feeds a read's events in order, exactly as `feed(_:_:)` one at a time would. The daemon's
    /// entry: one call a read instead of one an event, whose large stack frame and saved
    /// registers are set up once.
    public mutating func feed(contentsOf events: [InputEvent], _ emit: (Output) -> Void) {
        feed(contentsOf: events, gestures: { emit(.gesture($0)) }, emit)
    }

    /// Feeds a read's events as `feed(contentsOf:_:)` does, each gesture handed to `gestures` as
    /// the arena holds it instead of in an `Output` made for it (a copy of the event in, another
    /// out where it is matched): the daemon's path. `emit` gets the frames and diagnostics.
    public mutating func feed(contentsOf events: [InputEvent], gestures: (GestureEvent) -> Void,
                              _ emit: (Output) -> Void) {
        for i in events.indices { feedOne(events[i], emit, gestures, collecting: false) { _, _, _ in } }
        // Once a read rather than once an event (nothing in between reads `lastTime`).
        if !events.isEmpty { fedAny = true }
    }

    /// What a frame sink is handed per SYN_REPORT: the frame's events as read (SYN_DROPPED left
    /// out, SYN_REPORT last), the device's state after them, and whether the frame follows a
    /// SYN_DROPPED (its events are the resync's).
    public typealias FrameSink = (_ events: [InputEvent], _ after: EvdevState, _ resynchronized: Bool) -> Void

    /// Feeds a read's events as `feed(contentsOf:_:)` does, handing each completed frame to
    /// `frames` after decoding and before recognition: the daemon's path for an exclusive device,
    /// whose gate writes a forwarded frame to the clone before the arena works on it. A frame may
    /// span reads: its events are kept until its SYN_REPORT.
    public mutating func feed(contentsOf events: [InputEvent], frames: FrameSink, _ emit: (Output) -> Void) {
        feed(contentsOf: events, frames: frames, gestures: { emit(.gesture($0)) }, emit)
    }

    /// `feed(contentsOf:frames:_:)` with gestures handed to `gestures` as they are
    /// (`feed(contentsOf:gestures:_:)`).
    public mutating func feed(contentsOf events: [InputEvent], frames: FrameSink, gestures: (GestureEvent) -> Void,
                              _ emit: (Output) -> Void) {
        for i in events.indices { feedOne(events[i], emit, gestures, collecting: true, frames) }
        if !events.isEmpty { fedAny = true }
    }

    /// One event with a frame sink (`feed(contentsOf:frames:_:)`).
    public mutating func feed(_ event: InputEvent, frames: FrameSink, _ emit: (Output) -> Void) {
        feedOne(event, emit, { emit(.gesture($0)) }, collecting: true, frames)
        fedAny = true
    }

    @inline(__always)
    private mutating func feedOne(_ event: InputEvent, _ emit: (Output) -> Void, _ gestures: (GestureEvent) -> Void,
                                  collecting: Bool, _ frames: FrameSink) {
        if collecting && !(event.type == EventType.syn && event.code == SynCode.dropped) { rawFrame.append(event) }
        var event = event
        if event.time.microseconds < lastMicroseconds {
            let last = Instant(microseconds: lastMicroseconds)
            timeWentBack(from: last, to: event.time, emit)
            event.time = last
        }
        lastMicroseconds = event.time.microseconds
        if dueMicroseconds <= event.time.microseconds { advance(to: event.time, gestures: gestures, emit) }
        if let frame = decoder.decode(event) {
            betweenFrames = true
            if collecting {
                frames(rawFrame, decoder.state, frame.flags.contains(.resynchronized))
                rawFrame.removeAll(keepingCapacity: true)
            }
            deliver(frame, emit, gestures)
            deadline = earliestDeadline
            return
        }
        betweenFrames = false
        if event.type == EventType.key {
            // BTN_TOUCH arms or clears the watchdog. Other events only fill in the frame being
            // assembled: neither the watchdog nor the arena (frames, time) can have moved.
            deadline = earliestDeadline
        }
    }

    /// The kernel's clock only moves forward; a recording (or source) whose time goes back is
    /// broken. Its events keep their order at the last time, said once. Kept out of line: the
    /// message made the per-event path's stack frame large.
    @inline(never)
    private mutating func timeWentBack(from last: Instant, to time: Instant, _ emit: (Output) -> Void) {
        if reportedBackwardTime { return }
        reportedBackwardTime = true
        emit(.diagnostic("kernel bug: \(TextEscaping.escaped(original.name)): event time went back \(last.microseconds - time.microseconds) µs; such events are taken at the previous time (said once)"))
    }

    /// Between frames, nothing on the device and nothing waiting: the moment another pipeline
    /// (new thresholds, kinds or axes) can take over without changing any gesture in flight.
    public var isIdle: Bool { betweenFrames && earliestDeadline == nil && decoder.isIdle && arena.isIdle }

    /// A pipeline for the same device with other recognition settings that continues from this
    /// one, in the same axes: the device's state (the kernel sends only values that change), a
    /// transform still waiting (`setTransform`), the time of the last event and the
    /// gesture numbering carry over. Meant for an idle pipeline (`isIdle`).
    public func reconfigured(thresholds: Thresholds?, boundKinds: Set<GestureKind>,
                             doubleTapFingerCounts: Set<Int>, swipeDirections: Int = 4) -> GesturePipeline {
        var p = GesturePipeline(device: original, transform: transform, thresholds: thresholds, boundKinds: boundKinds,
                                doubleTapFingerCounts: doubleTapFingerCounts, swipeDirections: swipeDirections,
                                initialState: decoder.state)
        p.pendingTransform = pendingTransform
        p.lastMicroseconds = lastMicroseconds
        p.fedAny = fedAny
        p.reportedBackwardTime = reportedBackwardTime
        p.emitsFrames = emitsFrames
        p.arena.nextGestureID = arena.nextGestureID
        return p
    }

    /// Fires every deadline at or before `now`, each at its own instant, in time order: the one
    /// firing loop (`Instant.fireDeadlines`) over the arena's waits and the decoder's watchdog,
    /// the arena's first on a tie. Each pass leaves the deadline it fired cleared or later: the
    /// arena checks its own (`RecognizerArena.fireDeadline`), and the watchdog looks once per
    /// quiet spell. A stuck-touch frame may arm an arena wait at `due` (a 0 ms threshold), which
    /// the next pass fires.
    public mutating func advance(to now: Instant, _ emit: (Output) -> Void) {
        advance(to: now, gestures: { emit(.gesture($0)) }, emit)
    }

    /// `advance(to:_:)` with gestures handed to `gestures` as they are (`feed(contentsOf:gestures:_:)`).
    public mutating func advance(to now: Instant, gestures: (GestureEvent) -> Void, _ emit: (Output) -> Void) {
        defer { deadline = earliestDeadline }
        let fired = Instant.fireDeadlines(upTo: now, next: { earliestDeadline }) { due in
            if let a = arena.nextDeadline, a <= due {
                arena.fireDeadline(at: a, gestures)
                return
            }
            let stuck = decoder.checkStuckTouches(at: due)
            precondition(decoder.nextDeadline == nil, "gestured bug: pipeline: the stuck-touch watchdog at \(due) is still due")
            if let stuck { deliver(stuck, emit, gestures) }
        }
        // Diagnostics of events not yet completed into a frame wait for that frame.
        if fired { drain(emit) }
        if pendingTransform != nil { takePendingTransformIfIdle() }
    }

    /// The stream ended (a replay's last event): time runs on `tail` past the last event so
    /// waiting taps and long presses resolve and the watchdog gets its look.
    public mutating func finish(tail: Duration = .seconds(3), _ emit: (Output) -> Void) {
        guard let last = lastTime else { return }
        advance(to: last + tail, emit)
    }

    /// The device went away: its touches and gestures in flight end `cancelled`.
    public mutating func deviceRemoved(at time: Instant, _ emit: (Output) -> Void) {
        advance(to: time, emit)
        defer { deadline = earliestDeadline }
        if let frame = decoder.deviceRemoved(at: time) {
            deliver(frame, emit, { emit(.gesture($0)) })
        } else {
            arena.cancelAll(at: time) { emit(.gesture($0)) }
            drain(emit)
        }
    }

    private mutating func deliver(_ frame: TouchFrame, _ emit: (Output) -> Void, _ gestures: (GestureEvent) -> Void) {
        if emitsFrames { emit(.frame(frame)) }
        arena.process(frame, gestures)
        drain(emit)
        if pendingTransform != nil { takePendingTransformIfIdle() }
    }

    /// Asks first: draining swaps a fresh array in and releases the old one, even an empty one,
    /// and this runs twice a frame.
    private mutating func drain(_ emit: (Output) -> Void) {
        if decoder.hasDiagnostics { for d in decoder.drainDiagnostics() { emit(.diagnostic(d)) } }
        if arena.hasDiagnostics { for d in arena.drainDiagnostics() { emit(.diagnostic(d)) } }
    }

    /// Runs a whole event stream (a recording) through a fresh pipeline, then `finish`.
    public static func run(device: DeviceDescription, events: some Sequence<InputEvent>,
                           thresholds: Thresholds? = nil, _ emit: (Output) -> Void) {
        var p = GesturePipeline(device: device, thresholds: thresholds)
        for e in events { p.feed(e, emit) }
        p.finish(emit)
    }
}
