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
}

extension GestureSubscriber {
    public func receive(_ g: GestureEvent, from device: WireDevice) { receive(.gesture(g, device)) }
}

/// Fan-out of gestures to subscribers (the socket server, hooks, tests), in publish order.
public final class GestureBus {
    private var subscribers: [GestureSubscriber] = []

    public init() {}

    /// Attaches a subscriber for the bus's life.
    public func subscribe(_ s: GestureSubscriber) {
        subscribers.append(s)
    }

    public func publish(_ m: BusMessage) {
        if case .gesture(let g, let d) = m { publish(g, from: d); return }
        for s in subscribers { s.receive(m) }
    }

    /// The daemon's path for a gesture: no message built, nothing copied per subscriber.
    public func publish(_ g: GestureEvent, from device: WireDevice) {
        for s in subscribers { s.receive(g, from: device) }
    }
}
