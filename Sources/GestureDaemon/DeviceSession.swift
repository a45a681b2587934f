import GestureCore
import GestureWire

/// One device in the daemon: its source and its `GesturePipeline` (axis transform → decoder →
/// arena, the same code `gestured replay` runs), in the source's CLOCK_MONOTONIC time.
public final class DeviceSession {
    public typealias Output = GesturePipeline.Output

    public let id: Int
    public let source: DeviceSource
    public private(set) var wire: WireDevice
    private var pipeline: GesturePipeline
    /// The axes' transform in force (DeviceOrientation: udev, config, screen), applied to raw
    /// events before decoding.
    public var transform: AxisTransform { pipeline.transform }
    /// Its parts, and one asked for that waits for the fingers to lift (DeviceSession+Orientation.swift).
    public internal(set) var orientation: DeviceOrientation
    var pendingOrientation: DeviceOrientation?
    /// Called when a pending orientation came into force.
    var onOrientationChanged: ((DeviceSession) -> Void)?
    public private(set) var resyncs = 0
    /// The grab and clone of an `exclusive: true` device (Exclusive/ExclusiveDevice.swift).
    var exclusive: ExclusiveDevice?

    public init(id: Int, source: DeviceSource, thresholds: Thresholds,
                boundKinds: Set<GestureKind> = Set(GestureKind.all),
                doubleTapFingerCounts: Set<Int> = Set(1...5), swipeDirections: Int = 4,
                transform: AxisTransform = .identity, orientation: DeviceOrientation? = nil) {
        self.id = id
        self.source = source
        let orientation = orientation ?? DeviceOrientation(config: transform)
        self.orientation = orientation
        let transform = orientation.transform
        pipeline = GesturePipeline(device: source.description, transform: transform, thresholds: thresholds,
                                   boundKinds: boundKinds, doubleTapFingerCounts: doubleTapFingerCounts,
                                   swipeDirections: swipeDirections, initialState: source.initialState)
        self.wire = Self.wireDevice(id: id, node: source.node, pipeline.device, orientation)
        updateDeadline()
    }

    /// When the pipeline next needs `advance(to:)`: the arena's waits (tap vs double tap, long
    /// press, debounce), the decoder's stuck-touch watchdog and an exclusive device's waits.
    public var nextDeadline: Instant? {
        guard let x = exclusive?.nextDeadline else { return pipelineDeadline }
        return pipelineDeadline.map { min($0, x) } ?? x
    }

    /// The pipeline's next deadline, kept up to date after each change: reading it off the stored
    /// pipeline made Swift copy the whole pipeline (and retain and release everything in it) on
    /// every wakeup, a tenth of a frame's instructions (callgrind).
    private var pipelineDeadline: Instant?

    private func updateDeadline() { pipelineDeadline = Self.deadline(of: &pipeline) }
    /// Through `inout`, the pipeline is read in place.
    private static func deadline(of p: inout GesturePipeline) -> Instant? { p.nextDeadline }

    /// Reads what the source has and runs it through. Returns the source's status.
    public func readAvailable(_ emit: (Output) -> Void) -> SourceRead {
        let r = source.read()
        resyncs += r.resyncCount
        if let x = exclusive {
            // Event by event: a gesture claims its sequence before the gate sees the frame that made it.
            for e in r.events {
                pipeline.feed(e) { o in if case .gesture(let g) = o { x.gesture(g) }; emit(o) }
                x.feed(e)
            }
            if x.finished { exclusive = nil }
        } else {
            pipeline.feed(contentsOf: r.events, emit)
        }
        if pendingOrientation != nil { orientationMayHaveChanged() }
        updateDeadline()
        return SourceRead(events: [], resyncCount: r.resyncCount, status: r.status)
    }

    /// The timer found a deadline due: first what the source already queued, since those events
    /// carry kernel timestamps that may precede the deadline (a second tap's touch-down just before
    /// the double-tap wait ends) and firing the deadline first would decide without them; then
    /// every deadline up to `now()`, read after the source (nothing queued is older than it).
    /// Returns the source's read, for the caller to act on its status.
    public func deadlineDue(now: () -> Instant, _ emit: (Output) -> Void) -> SourceRead {
        let r = readAvailable(emit)
        switch r.status {
        case .drained, .more: advance(to: now(), emit)
        case .ended, .gone, .failed: break
        }
        return r
    }

    /// Asks the pipeline for `t` (it waits for the fingers to lift); true when in force now.
    func setPipelineTransform(_ t: AxisTransform) -> Bool { pipeline.setTransform(t) }
    var pipelineTransformPending: Bool { pipeline.pendingTransform != nil }
    var pipelineDevice: DeviceDescription { pipeline.device }
    func setWire(_ w: WireDevice) { wire = w }

    /// Fires every deadline at or before `now`.
    public func advance(to now: Instant, _ emit: (Output) -> Void) {
        defer { updateDeadline(); if pendingOrientation != nil { orientationMayHaveChanged() } }
        guard let x = exclusive else { return pipeline.advance(to: now, emit) }
        pipeline.advance(to: now) { o in if case .gesture(let g) = o { x.gesture(g) }; emit(o) }
        x.advance(to: now)
        if x.finished { exclusive = nil }
    }

    /// A replay ended: let waiting gestures resolve as if time went on.
    public func finish(_ emit: (Output) -> Void) {
        pipeline.finish(emit)
        updateDeadline()
    }

    /// The device went away (or the daemon stops): gestures in flight end `cancelled`.
    public func removed(at time: Instant, _ emit: (Output) -> Void) {
        pipeline.deviceRemoved(at: time, emit)
        updateDeadline()
        exclusive?.close(reason: "device closed")
        exclusive = nil
    }
}
