import GestureCore
import GestureWire

/// What the bus carries.
public enum BusMessage: Sendable {
    case gesture(GestureEvent, WireDevice)
    case frame(TouchFrame, WireDevice)
    case deviceAdded(WireDevice)
    /// An open device's orientation (and with it its size) changed.
    case deviceChanged(WireDevice)
    case deviceRemoved(WireDevice)
}

/// Something that receives every message. `receive` must not block: a subscriber that cannot keep
/// up queues (bounded) or drops, it never slows the daemon or the other subscribers.
public protocol GestureSubscriber: AnyObject {
    func receive(_ message: BusMessage)
    /// A gesture: the same as `receive(.gesture(g, device))` (the default), for a subscriber
    /// that looks at gestures without copying them out of a message (a copy retains every
    /// string of the event and of the device).
    func receive(_ g: GestureEvent, from device: WireDevice)
    /// The kinds of gesture it takes now (all, by default): the bus hands it gestures of these
    /// kinds only, and a gesture to no one when no subscriber takes its kind. A change is told
    /// through `interestChanged`.
    var wantedKinds: GestureKindSet { get }
    /// Set by the bus at `subscribe`: a subscriber whose `wantedKinds` changed calls it.
    var interestChanged: (() -> Void)? { get set }
}

extension GestureSubscriber {
    public func receive(_ g: GestureEvent, from device: WireDevice) { receive(.gesture(g, device)) }
    /// Every kind, for good: the bus need not be told anything.
    public var wantedKinds: GestureKindSet { .all }
    public var interestChanged: (() -> Void)? { get { nil } set {} }
}

/// Fan-out of gestures to subscribers (the socket server, hooks, tests), in publish order. A
/// gesture goes only to the subscribers whose `wantedKinds` hold its kind: a pan's `changed`
/// each frame reaches the socket's clients, not hooks bound to swipes.
public final class GestureBus {
    private struct Route {
        let subscriber: GestureSubscriber
        var kinds: GestureKindSet
    }
    /// The subscribers with their kinds as of the last `interestChanged()`.
    private var routes: [Route] = []
    /// The union of the subscribers' `wantedKinds`, as of the last `interestChanged()`.
    public private(set) var wantedKinds = GestureKindSet.none

    public init() {}

    /// Attaches a subscriber for the bus's life.
    public func subscribe(_ s: GestureSubscriber) {
        routes.append(Route(subscriber: s, kinds: .none))
        var s = s
        s.interestChanged = { [unowned self] in self.interestChanged() }
        interestChanged()
    }

    /// A subscriber's `wantedKinds` changed (a client connected, subscribed or left; a reload).
    public func interestChanged() {
        var kinds = GestureKindSet.none
        for i in routes.indices {
            routes[i].kinds = routes[i].subscriber.wantedKinds
            kinds.formUnion(routes[i].kinds)
        }
        wantedKinds = kinds
    }

    /// Whether some subscriber takes gestures of this kind: a device's session asks before it
    /// hands a gesture over, so a gesture nobody takes (a pan's `changed` every frame, with no
    /// client and no binding for pans) costs no call, retain or copy.
    @inline(__always)
    public func wants(_ kind: GestureKind) -> Bool { wantedKinds.contains(kind) }

    /// Every other message goes to every subscriber.
    public func publish(_ m: BusMessage) {
        if case .gesture(let g, let d) = m { publish(g, from: d); return }
        for r in routes { r.subscriber.receive(m) }
    }

    /// The daemon's path for a gesture: no message built, nothing copied per subscriber, and
    /// no call to a subscriber that does not take its kind.
    @inline(__always)
    public func publish(_ g: GestureEvent, from device: WireDevice) {
        guard wants(g.kind) else { return }
        // By index: a subscriber is loaded (and retained) only when it takes the kind.
        for i in routes.indices where routes[i].kinds.contains(g.kind) { routes[i].subscriber.receive(g, from: device) }
    }
}
