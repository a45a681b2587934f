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
    /// string of the event and of the device; issue 13).
    func receive(_ g: GestureEvent, from device: WireDevice)
}

extension GestureSubscriber {
    public func receive(_ g: GestureEvent, from device: WireDevice) { receive(.gesture(g, device)) }
}

/// Fan-out of gestures to subscribers (the socket server, hooks, tests), in publish order.
public final class GestureBus {
    private var subscribers: [(id: Int, sub: GestureSubscriber)] = []
    private var nextId = 0

    public init() {}

    /// Attaches a subscriber; the returned token detaches it (`cancel`).
    @discardableResult
    public func subscribe(_ s: GestureSubscriber) -> Int {
        nextId += 1
        subscribers.append((nextId, s))
        return nextId
    }

    public func cancel(_ token: Int) { subscribers.removeAll { $0.id == token } }

    public func publish(_ m: BusMessage) {
        if case .gesture(let g, let d) = m { publish(g, from: d); return }
        for s in subscribers { s.sub.receive(m) }
    }

    /// The daemon's path for a gesture: no message built, nothing copied per subscriber.
    public func publish(_ g: GestureEvent, from device: WireDevice) {
        for s in subscribers { s.sub.receive(g, from: device) }
    }
}

/// A bounded FIFO of lines for one client: when full, the oldest line is dropped and counted, and
/// the count is handed out (once) before the next line so the client learns what it missed.
public struct BoundedLineQueue: Sendable {
    public let limit: Int
    private var lines: [[UInt8]] = []
    private var head = 0
    /// Lines dropped since the last `dropped` notice was taken.
    public private(set) var droppedSinceNotice = 0
    public private(set) var droppedTotal = 0

    public init(limit: Int) { self.limit = max(1, limit) }

    public var count: Int { lines.count - head }
    public var isEmpty: Bool { count == 0 && droppedSinceNotice == 0 }

    public mutating func push(_ line: [UInt8]) {
        if count >= limit {
            head += 1
            droppedSinceNotice += 1; droppedTotal += 1
        }
        lines.append(line)
        if head > 1024 && head * 2 > lines.count { lines.removeFirst(head); head = 0 }
    }

    /// The next thing to send: a `dropped` notice if lines were dropped, else the oldest line.
    public mutating func pop() -> [UInt8]? {
        if droppedSinceNotice > 0 {
            let n = droppedSinceNotice
            droppedSinceNotice = 0
            return Array((WireEncoder.dropped(count: n) + "\n").utf8)
        }
        guard head < lines.count else { return nil }
        let l = lines[head]
        head += 1
        if head == lines.count { lines.removeAll(keepingCapacity: true); head = 0 }
        return l
    }
}
