/// Edge swipe, 1–5 fingers, continuous, from any of the four edges of a touchscreen or touchpad.
/// A candidate when the first finger of a sequence lands within `edgeZone` mm of an edge (zones
/// come from the device size: touchpad min(8 mm, 8 % of the shorter side); touchscreen 4 mm, or
/// 2 % of the shorter side when the size is unknown). In a corner both edges are candidates,
/// and the motion must stay within half of `edgeSwipeMaximumAngle` of one edge's normal: a
/// diagonal from a corner is a diagonal swipe, not an edge swipe.
/// `began` when the mean translation has gone `edgeSwipeCommitDistance` inward, within
/// `edgeSwipeMaximumAngle` of the edge's inward normal; `changed` on motion with the inward
/// distance; `ended` at lift; `cancelled` by the arena. It fails as soon as the fingers have
/// moved past the pan slop in any other direction. While it is possible, pan and swipe wait for
/// it to fail (require-to-fail), so a swipe that starts in an edge zone is reported as an edge
/// swipe, not as a swipe.
///
/// ```
///          first finger lands in an edge zone
///   idle ──────────────────────────────────► possible(edges) ── inward ≥ commit, within angle ──► began
///    │ ▲                                      │                                                   │
///    │ │ all up                               │ moved ≥ slop off-angle / outward,                  ▼
///    │ └──────────────────────────────────────┤ another family committed              changed* ─► ended
///    │ lands outside every zone               ▼                                        (cancelled by arena)
///    └────────────────────────────────────► failed ── all up ──► idle
/// ```
struct EdgeSwipeRecognizer: MotionRecognizer, ContinuousRecognizer {
    enum State { case idle, possible, began, failed }
    private(set) var state = State.idle
    private var edges: [Edge] = []
    private var edge = Edge.left
    private var id: UInt64 = 0
    private var fingers = 0

    init() { edges.reserveCapacity(4) }

    var inFlight: Bool { state == .began }
    var isPossible: Bool { state == .possible }
    mutating func reset() { state = .idle }
    mutating func fail() { if state == .possible || state == .idle { state = .failed } }

    /// Decides the candidate edges from where the sequence's first finger landed.
    mutating func sequenceBegan(_ m: MotionSample, width: Millimeters, height: Millimeters, _ t: Thresholds) {
        edges.removeAll(keepingCapacity: true)
        if m.positioned > 0 && width > 0 && height > 0 {
            // A finger released from the edge-palm zone swiped in from where it landed.
            let (x, y) = m.releasedFromEdgeAt ?? (m.centroidX, m.centroidY)
            if x <= t.edgeZone { edges.append(.left) }
            if x >= width - t.edgeZone { edges.append(.right) }
            if y <= t.edgeZone { edges.append(.top) }
            if y >= height - t.edgeZone { edges.append(.bottom) }
        }
        state = edges.isEmpty ? .failed : .possible
    }

    /// Inward and tangential components of a translation for an edge.
    static func components(_ e: Edge, dx: Double, dy: Double) -> (inward: Double, along: Double) {
        switch e {
        case .left: return (dx, dy)
        case .right: return (-dx, dy)
        case .top: return (dy, dx)
        case .bottom: return (-dy, dx)
        }
    }

    static func inwardDirection(_ e: Edge) -> GestureDirection {
        switch e {
        case .left: return .right
        case .right: return .left
        case .top: return .down
        case .bottom: return .up
        }
    }

    private func withinAngle(_ c: (inward: Double, along: Double), _ t: Thresholds) -> Bool {
        let limit = edges.count > 1 ? t.edgeSwipeMaximumAngle / 2 : t.edgeSwipeMaximumAngle
        return c.inward > 0 && atan2(abs(c.along), c.inward) * degreesPerRadian <= limit
    }

    mutating func update(_ m: MotionSample, allowed: Bool, _ t: Thresholds, sink: inout EventSink) -> Bool {
        switch state {
        case .idle, .failed:
            if m.fingers == 0 { state = .idle }
            return false
        case .possible:
            if m.fingers == 0 { state = .idle; return false }
            guard m.fingers <= 5 else { state = .failed; return false }
            guard allowed else { return false }
            var best: Edge?, bestInward = 0.0
            for e in edges {
                let c = Self.components(e, dx: m.totalX, dy: m.totalY)
                if withinAngle(c, t) && c.inward > bestInward { best = e; bestInward = c.inward }
            }
            if let best, bestInward >= t.edgeSwipeCommitDistance {
                state = .began
                edge = best
                id = sink.newID()
                fingers = m.fingers
                sink.events.append(event(.began, m, sink: sink))
                return true
            }
            if best == nil && m.totalDistance >= t.panSlop(fingers: m.fingers) { state = .failed }
            return false
        case .began:
            if m.fingers == 0 { finish(.ended, m, at: m.time, t, sink: &sink); return false }
            if m.stepX != 0 || m.stepY != 0 { sink.events.append(event(.changed, m, sink: sink)) }
            return false
        }
    }

    mutating func finish(_ phase: GesturePhase, _ m: MotionSample, at time: Instant, _ t: Thresholds, sink: inout EventSink) {
        guard state == .began else { return }
        var e = event(phase, m, sink: sink)
        e.time = time
        sink.events.append(e)
        state = phase == .ended ? .idle : .failed
    }

    private func event(_ phase: GesturePhase, _ m: MotionSample, sink: EventSink) -> GestureEvent {
        let c = Self.components(edge, dx: m.totalX, dy: m.totalY)
        return GestureEvent(kind: .edgeSwipe, phase: phase, id: id, fingers: fingers, time: m.time,
                            direction: Self.inwardDirection(edge), edge: edge,
                            dxMillimeters: m.totalX, dyMillimeters: m.totalY,
                            stepDxMillimeters: m.stepX, stepDyMillimeters: m.stepY,
                            distanceMillimeters: c.inward, velocityMillimetersPerSecond: m.velocity,
                            x: sink.fractionX(m.centroidX), y: sink.fractionY(m.centroidY))
    }
}
