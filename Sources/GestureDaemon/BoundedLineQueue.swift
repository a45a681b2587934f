import GestureWire

/// A bounded FIFO of lines for one client: at most `limit` lines and `byteLimit` bytes. When a
/// line does not fit, the oldest lines are dropped (and their storage released at once) and
/// counted; the count is handed out (once) before the next line so the client learns what it
/// missed. So a client that never reads holds at most `byteLimit` bytes of lines here.
public struct BoundedLineQueue: Sendable {
    public let limit: Int
    public let byteLimit: Int
    /// `lines[head...]` are queued; entries before `head` are empty (released).
    private var lines: [[UInt8]] = []
    private var head = 0
    /// Bytes of the queued lines.
    public private(set) var bytes = 0
    /// Lines dropped since the last `dropped` notice was taken.
    public private(set) var droppedSinceNotice = 0
    public private(set) var droppedTotal = 0

    public init(limit: Int, byteLimit: Int = 64 * 1024) {
        self.limit = max(1, limit); self.byteLimit = max(1, byteLimit)
    }

    public var count: Int { lines.count - head }
    public var isEmpty: Bool { count == 0 && droppedSinceNotice == 0 }

    public mutating func push(_ line: [UInt8]) {
        while count > 0 && (count >= limit || bytes + line.count > byteLimit) {
            bytes -= lines[head].count
            lines[head] = []
            head += 1
            droppedSinceNotice += 1; droppedTotal += 1
        }
        if line.count > byteLimit {           // a single line larger than the whole budget
            droppedSinceNotice += 1; droppedTotal += 1
            return
        }
        if head > 0 && head * 2 >= lines.count { lines.removeFirst(head); head = 0 }
        lines.append(line)
        bytes += line.count
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
        lines[head] = []
        head += 1
        bytes -= l.count
        if head == lines.count { lines.removeAll(keepingCapacity: lines.capacity <= 64); head = 0 }
        return l
    }
}
