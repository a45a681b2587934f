import GestureCore
import GestureRecording
import GestureWire

/// One device's pipeline: source → SlotDecoder → RecognizerArena, through `Replayer` (the same
/// code `gestured replay` runs), in the source's CLOCK_MONOTONIC time.
public final class DeviceSession {
    public enum Output: Sendable {
        case frame(TouchFrame)
        case gesture(GestureEvent)
        case diagnostic(String)
    }

    public let id: Int
    public let source: DeviceSource
    public let wire: WireDevice
    private var pipeline: Replayer
    /// Rotation/inversion from the config (`devices:`), applied to raw events before decoding.
    public let transform: AxisTransform
    public private(set) var resyncs = 0

    public init(id: Int, source: DeviceSource, thresholds: Thresholds,
                boundKinds: Set<GestureKind> = Set(GestureKind.all),
                doubleTapFingerCounts: Set<Int> = Set(1...5), swipeDirections: Int = 4,
                transform: AxisTransform = .identity) {
        self.id = id
        self.source = source
        self.transform = transform
        let device = transform.apply(to: source.description)
        self.wire = WireDevice(id: id, node: source.node, description: device)
        pipeline = Replayer(device: device, thresholds: thresholds, boundKinds: boundKinds,
                            doubleTapFingerCounts: doubleTapFingerCounts, swipeDirections: swipeDirections,
                            initialState: source.initialState)
    }

    /// When the arena next needs `advance(to:)` (tap vs double tap, long press, debounce).
    public var nextDeadline: Instant? { pipeline.arena.nextDeadline }

    /// Reads what the source has and runs it through. Returns the source's status.
    public func readAvailable(_ emit: (Output) -> Void) -> SourceRead {
        let r = source.read()
        resyncs += r.resyncCount
        if transform.isIdentity {
            for e in r.events { pipeline.feed(e) { emit(Self.map($0)) } }
        } else {
            let original = source.description
            for e in r.events { pipeline.feed(transform.apply(e, device: original)) { emit(Self.map($0)) } }
        }
        return SourceRead(events: [], resyncCount: r.resyncCount, status: r.status)
    }

    /// Fires every deadline at or before `now`.
    public func advance(to now: Instant, _ emit: (Output) -> Void) {
        pipeline.advanceDeadlines(before: now + .microseconds(1)) { emit(Self.map($0)) }
    }

    /// A replay ended: let waiting gestures resolve as if time went on.
    public func finish(_ emit: (Output) -> Void) {
        pipeline.finish { emit(Self.map($0)) }
    }

    /// The device went away (or the daemon stops): gestures in flight end `cancelled`.
    public func removed(at time: Instant, _ emit: (Output) -> Void) {
        pipeline.deviceRemoved(at: time) { emit(Self.map($0)) }
    }

    private static func map(_ o: Replayer.Output) -> Output {
        switch o {
        case .frame(let f): .frame(f)
        case .gesture(let g): .gesture(g)
        case .diagnostic(let d): .diagnostic(d)
        }
    }
}
