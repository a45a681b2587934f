import GestureCore

/// One gesture as a span of time: all events sharing an id, from `recognized` or `began` to
/// `ended` or `cancelled`.
public struct GestureSpan: Sendable {
    public var id: UInt64
    public var kind: GestureKind
    public var fingers: Int
    /// The direction of the last event that had one (a pinch's is known only at `ended`).
    public var direction: GestureDirection?
    public var edge: Edge?
    public var start: Instant
    public var end: Instant
    /// Every event's phase and time, in order.
    public var marks: [(phase: GesturePhase, time: Instant)]
    /// The last phase: recognized, ended, or cancelled (began/changed when the recording ended).
    public var outcome: GesturePhase { marks.last?.phase ?? .recognized }

    /// Spans from gesture events, in the order each gesture began.
    public static func collect(_ events: [GestureEvent]) -> [GestureSpan] {
        var spans: [GestureSpan] = []
        var index: [UInt64: Int] = [:]
        for e in events {
            if let i = index[e.id] {
                spans[i].end = e.time
                spans[i].marks.append((e.phase, e.time))
                if let d = e.direction { spans[i].direction = d }
                if let edge = e.edge { spans[i].edge = edge }
            } else {
                index[e.id] = spans.count
                spans.append(GestureSpan(id: e.id, kind: e.kind, fingers: e.fingers, direction: e.direction,
                                         edge: e.edge, start: e.time, end: e.time, marks: [(e.phase, e.time)]))
            }
        }
        return spans
    }

    /// "pan 2 fingers right (cancelled)".
    public var summary: String {
        var s = "\(kind.rawValue) \(fingers) finger\(fingers == 1 ? "" : "s")"
        if let edge { s += " from the \(edge.rawValue) edge" } else if let direction { s += " \(direction.rawValue)" }
        if outcome == .cancelled { s += " (cancelled)" }
        return s
    }
}
