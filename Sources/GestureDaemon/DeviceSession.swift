import GestureConfig
import GestureCore
import GestureWire
import LinuxInput

/// One device in the daemon: its source and its `GesturePipeline` (decoder → arena, the same code
/// `gestured replay` runs), in the source's CLOCK_MONOTONIC time.
public final class DeviceSession {
    public typealias Output = GesturePipeline.Output

    public let id: Int
    public let source: DeviceSource
    /// The device as clients see it (its size and orientation follow the axes in force).
    public var wire: WireDevice { wireBox.device }
    /// `wire`, immutable in a box: each gesture is published with the device borrowed from it
    /// (`DeviceSessions.emit`), where reading a class's stored struct copies it, retaining each
    /// of its strings, and releases the copy after.
    private(set) var wireBox: WireBox
    private var pipeline: GesturePipeline
    /// What the binding plan asks of this device, in force now.
    public private(set) var plan: DevicePlan
    /// A plan handed over by a reload, waiting for the next moment no finger is down.
    public private(set) var pendingPlan: DevicePlan?
    /// Called when a waiting plan takes over, with the plan it replaced.
    var planTaken: ((DeviceSession, _ old: DevicePlan) -> Void)?
    /// The axes' transform in force (DeviceOrientation: udev, config, screen), from the device's
    /// axes to the picture's, applied to touches as the decoder makes them.
    public var transform: AxisTransform { pipeline.transform }
    /// Its parts, and one asked for that waits for the fingers to lift (DeviceSession+Orientation.swift).
    public internal(set) var orientation: DeviceOrientation
    var pendingOrientation: DeviceOrientation?
    /// Called when a pending orientation came into force.
    var onOrientationChanged: ((DeviceSession) -> Void)?
    public private(set) var resyncs = 0
    /// Whether reads hand on each frame (`.frame`): only while a client may take raw frames.
    public var emitsFrames: Bool {
        get { pipeline.emitsFrames }
        set { pipeline.emitsFrames = newValue }
    }
    /// The grab and clone of an `exclusive: true` device (Exclusive/ExclusiveDevice.swift).
    /// Once it is gone the reads leave out again what the decoder never reads.
    var exclusive: ExclusiveDevice? {
        didSet { if exclusive == nil && oldValue != nil { readOnlyWhatIsDecoded() } }
    }

    /// `orientation`: the device's axes at open (udev calibration, the plan's config transform,
    /// the screen); by default the plan's transform alone.
    public init(id: Int, source: DeviceSource, plan: DevicePlan, orientation: DeviceOrientation? = nil) {
        self.id = id
        self.source = source
        self.plan = plan
        let orientation = orientation ?? DeviceOrientation(config: plan.transform)
        self.orientation = orientation
        pipeline = GesturePipeline(device: source.description, transform: orientation.transform, thresholds: plan.thresholds,
                                   boundKinds: plan.recognizedKinds, doubleTapFingerCounts: plan.doubleTapFingerCounts,
                                   initialState: source.stateAtOpen)
        self.wireBox = WireBox(Self.wireDevice(id: id, node: source.node, pipeline.device, orientation))
    }

    /// A session with these recognition settings (tests).
    public convenience init(id: Int, source: DeviceSource, thresholds: Thresholds,
                            boundKinds: Set<GestureKind> = Set(GestureKind.all),
                            doubleTapFingerCounts: Set<Int> = Set(1...5), transform: AxisTransform = .identity) {
        self.init(id: id, source: source, plan: DevicePlan(settings: DeviceSettings(thresholds: thresholds), recognizedKinds: boundKinds,
                                                            doubleTapFingerCounts: doubleTapFingerCounts, transform: transform))
    }

    /// Hands the session a new plan. Its recognition settings (kinds, thresholds) and its axes
    /// (the config's part of the orientation) take over at once when nothing is on the device,
    /// else at the next moment no finger is down and nothing waits: a gesture in flight finishes
    /// under the plan it began with. Returns true when all of it is in force already.
    @discardableResult
    public func offer(_ new: DevicePlan) -> Bool {
        var inForce = true
        if new.transform != wantedOrientation.config {
            var o = wantedOrientation
            o.config = new.transform
            inForce = setOrientation(o)
        }
        if new.recognition == plan.recognition {
            plan = new
            pendingPlan = nil
            return inForce
        }
        pendingPlan = new
        takePendingPlanIfIdle()
        return inForce && pendingPlan == nil
    }

    private func takePendingPlanIfIdle() {
        guard let new = pendingPlan, Self.isIdle(&pipeline) else { return }
        let old = plan
        pipeline = pipeline.reconfigured(thresholds: new.thresholds, boundKinds: new.recognizedKinds,
                                         doubleTapFingerCounts: new.doubleTapFingerCounts)
        plan = new
        pendingPlan = nil
        planTaken?(self, old)
    }

    private static func isIdle(_ p: inout GesturePipeline) -> Bool { p.isIdle }

    /// Nothing on the device and nothing waiting (`GesturePipeline.isIdle`).
    var isIdle: Bool { Self.isIdle(&pipeline) }

    /// When the pipeline next needs `advance(to:)`: the arena's waits (tap vs double tap, long
    /// press, debounce), the decoder's stuck-touch watchdog and an exclusive device's waits.
    public var nextDeadline: Instant? {
        Instant.earliest(Self.deadline(of: &pipeline), exclusive?.nextDeadline)
    }

    /// The pipeline's deadline, read in place through `inout`: a plain read of a class's stored
    /// struct copies it first, and the pipeline (about 2 KB, with its arrays) is read on every
    /// wakeup.
    private static func deadline(of p: inout GesturePipeline) -> Instant? { p.nextDeadline }

    /// What a read of the source came to, for the caller to act on: how it ended, and how many
    /// SYN_DROPPED resyncs it met (its events went through the pipeline).
    public typealias ReadOutcome = (status: DeviceRead.Status, resyncs: Int)

    /// Reads what the source has and runs it through, every output to `emit`.
    public func readAvailable(_ emit: (Output) -> Void) -> ReadOutcome {
        readAvailable(gestures: { emit(.gesture($0)) }, emit)
    }

    /// Reads what the source has and runs it through, each gesture to `gestures` as the
    /// pipeline holds it (GesturePipeline.feed(contentsOf:gestures:_:)), the rest to `emit`.
    public func readAvailable(gestures: (GestureEvent) -> Void, _ emit: (Output) -> Void) -> ReadOutcome {
        let r = source.read()
        resyncs += r.resyncCount
        if let x = exclusive {
            // Each frame goes to the gate once decoded (its events and the device's state after
            // them) and before recognition runs on it: a frame it forwards reaches the clone
            // first, so the compositor's pointer waits for nothing but the read. A gesture
            // recognized on that frame then claims its sequence (held frames dropped, forwarded
            // contacts ended neutrally).
            pipeline.feed(contentsOf: r.events, frames: x.frame(_:after:resynchronized:),
                          gestures: { x.gesture($0); gestures($0) }, emit)
            if x.finished { exclusive = nil }
        } else {
            pipeline.feed(contentsOf: r.events, gestures: gestures, emit)
        }
        takeWhatWaits()
        return (r.status, r.resyncCount)
    }

    /// A pending orientation or plan, checked after each read and deadline: in place, since a
    /// plain `pendingPlan != nil` copies the plan (its thresholds, sets and bindings) to test it.
    private func takeWhatWaits() {
        if Self.holds(&pendingOrientation) { orientationMayHaveChanged() }
        if Self.holds(&pendingPlan) { takePendingPlanIfIdle() }
    }

    private static func holds<T>(_ v: inout T?) -> Bool { v != nil }

    /// The timer found a deadline due: first what the source already queued, since those events
    /// carry kernel timestamps that may precede the deadline (a second tap's touch-down just before
    /// the double-tap wait ends) and firing the deadline first would decide without them; then
    /// every deadline up to `now()`, read after the source (nothing queued is older than it).
    /// Returns the read's outcome, for the caller to act on its status.
    public func deadlineDue(now: () -> Instant, _ emit: (Output) -> Void) -> ReadOutcome {
        deadlineDue(now: now, gestures: { emit(.gesture($0)) }, emit)
    }

    public func deadlineDue(now: () -> Instant, gestures: (GestureEvent) -> Void, _ emit: (Output) -> Void) -> ReadOutcome {
        let r = readAvailable(gestures: gestures, emit)
        switch r.status {
        case .drained, .more: advance(to: now(), gestures: gestures, emit)
        case .ended, .deviceGone, .failed: break
        }
        return r
    }

    /// A shared device's reads leave out the events the decoder never reads (`ReadMask`): on
    /// the recordings 16–53 % of them, each a trip through the pipeline's event loop.
    func readOnlyWhatIsDecoded() {
        guard let evdev = source.realDevice, exclusive == nil else { return }
        evdev.readMask = ReadMask(evdev.description)
    }

    /// Every event again, for an exclusive device's clone, which gets them all: the axes the
    /// mask held back are first brought to the kernel's values now (their events were never
    /// read, and the clone starts from this state). Whatever is still queued is read whole.
    func readEverything() throws(InputError) {
        guard let evdev = source.realDevice, evdev.readMask.masksAnything else { return }
        let held = evdev.readMask.maskedAxes(of: evdev.description)
        evdev.readMask = .none
        pipeline.adoptAxes(held, from: try evdev.currentState())
    }

    /// The device's state now, as its pipeline's decoder holds it (read in place).
    var deviceState: EvdevState { Self.state(of: &pipeline) }
    private static func state(of p: inout GesturePipeline) -> EvdevState { p.state }

    /// Asks the pipeline for `t` (it waits for the fingers to lift); true when in force now.
    func setPipelineTransform(_ t: AxisTransform) -> Bool { pipeline.setTransform(t) }
    var pipelineTransformPending: Bool { pipeline.pendingTransform != nil }
    var pipelineDevice: DeviceDescription { pipeline.device }
    func setWire(_ w: WireDevice) { wireBox = WireBox(w) }

    /// Fires every deadline at or before `now`, every output to `emit`.
    public func advance(to now: Instant, _ emit: (Output) -> Void) {
        advance(to: now, gestures: { emit(.gesture($0)) }, emit)
    }

    /// Fires every deadline at or before `now`, each gesture to `gestures` (`readAvailable(gestures:_:)`).
    public func advance(to now: Instant, gestures: (GestureEvent) -> Void, _ emit: (Output) -> Void) {
        defer { takeWhatWaits() }
        guard let x = exclusive else { return pipeline.advance(to: now, gestures: gestures, emit) }
        pipeline.advance(to: now, gestures: { x.gesture($0); gestures($0) }, emit)
        x.advance(to: now)
        if x.finished { exclusive = nil }
    }

    /// A replay ended: let waiting gestures resolve as if time went on.
    public func finish(_ emit: (Output) -> Void) {
        pipeline.finish(emit)
    }

    /// The device went away (or the daemon stops): gestures in flight end `cancelled`.
    public func removed(at time: Instant, _ emit: (Output) -> Void) {
        pipeline.deviceRemoved(at: time, emit)
        exclusive?.close(reason: "device closed")
        exclusive = nil
    }
}

/// A wire device that never changes (`DeviceSession.wireBox`).
final class WireBox {
    let device: WireDevice
    init(_ device: WireDevice) { self.device = device }
}
