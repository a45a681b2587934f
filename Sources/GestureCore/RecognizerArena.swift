/// Runs every recognizer of one device over its frames and arbitrates between them.
/// PLACEHOLDER API (recognizers land in their own issue): the daemon and `gestured replay`
/// build against this surface.
public struct RecognizerArena: Sendable {
    public let device: DeviceDescription
    public let thresholds: Thresholds
    /// Gesture kinds something is bound to, per finger count; decides whether tap waits for doubleTap.
    public var boundKinds: Set<GestureKind>

    public init(device: DeviceDescription, thresholds: Thresholds, boundKinds: Set<GestureKind> = Set(GestureKind.all)) {
        self.device = device; self.thresholds = thresholds; self.boundKinds = boundKinds
    }

    /// Feeds one frame; overdue deadlines fire first.
    public mutating func process(_ frame: TouchFrame) -> [GestureEvent] { [] }
    /// The earliest time at which `advance(to:)` has something to do.
    public var nextDeadline: Instant? { nil }
    public mutating func advance(to now: Instant) -> [GestureEvent] { [] }
    /// Device removed or SYN_DROPPED: every gesture in flight ends `cancelled`.
    public mutating func cancelAll(at now: Instant) -> [GestureEvent] { [] }
}
