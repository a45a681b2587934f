/// Edge swipe, 1–5 fingers, continuous, from any of the four edges of a touchscreen or touchpad.
/// A candidate when a finger of those that land together lands within `edgeZone` mm of an edge
/// (zones come from the device size: touchpad min(8 mm, 8 % of the shorter side); touchscreen
/// 4 mm, or 2 % of the shorter side when the size is unknown). With two or more fingers the
/// finger nearest the edge decides, not their centroid: two fingers side by side swiping in from
/// the left edge have the trailing one in the zone and the leading one 15–20 mm further in. The
/// fingers that land together are those down when the sequence begins and those landing later
/// while the fingers have moved less than the pan slop, with contacts in the edge-palm zone
/// that landed within `edgeSwipeLandingGap` of the sequence's first finger (a finger 2 mm from
/// a touchpad's edge lands as an edge palm; a palm resting there longer is none of the swipe's
/// fingers; see `MotionTracker.landingExtent`). In a corner both edges are candidates,
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
///          a finger of those landing together lands in an edge zone
///   idle ──────────────────────────────────► possible(edges) ── inward ≥ commit, within angle ──► began
///    │ ▲                                      │  ▲                                                │
///    │ │ all up                               │  │ another lands in a zone before the             ▼
///    │ └──────────────────────────────────────┤  │ fingers moved the slop            changed* ─► ended
///    │ lands outside every zone               │  │                                  (cancelled by arena)
///    └──────────────────────────────────► outside ── all up ──► idle
///                                             │ moved ≥ slop off-angle / outward, another family committed
///                                             ▼
///                                          failed ── all up ──► idle
/// ```
struct EdgeSwipeRecognizer: MotionRecognizer, ContinuousRecognizer {
    enum State { case idle, possible, began, failed
        /// No finger landed in a zone yet; one landing there before the fingers move may make it possible.
        case outside
    }
    private(set) var state = State.idle
    private var edges: [Edge] = []
    private var edge = Edge.left
    private var id: UInt64 = 0
    private var fingers = 0

    init() { edges.reserveCapacity(4) }

    var inFlight: Bool { state == .began }
    var isPossible: Bool { state == .possible }
    mutating func reset() { state = .idle }
    mutating func fail() { if state == .possible || state == .idle || state == .outside { state = .failed } }

    /// Decides the candidate edges from where the sequence's fingers landed.
    mutating func sequenceBegan(_ extent: LandingExtent?, width: Millimeters, height: Millimeters, _ t: Thresholds) {
        decide(extent, width: width, height: height, t)
    }

    /// A finger (or an edge palm) landed while the fingers have moved less than the pan slop:
    /// the zones are judged afresh over every finger that landed together.
    mutating func fingerLanded(_ extent: LandingExtent?, width: Millimeters, height: Millimeters, _ t: Thresholds) {
        guard state == .possible || state == .outside else { return }
        decide(extent, width: width, height: height, t)
    }

    private mutating func decide(_ extent: LandingExtent?, width: Millimeters, height: Millimeters, _ t: Thresholds) {
        edges.removeAll(keepingCapacity: true)
        if let e = extent, width > 0 && height > 0 {
            if e.minX <= t.edgeZone { edges.append(.left) }
            if e.maxX >= width - t.edgeZone { edges.append(.right) }
            if e.minY <= t.edgeZone { edges.append(.top) }
            if e.maxY >= height - t.edgeZone { edges.append(.bottom) }
        }
        state = edges.isEmpty ? .outside : .possible
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
        case .idle, .failed, .outside:
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

/// Where the fingers that land together lie, mm: the extremes of where each landed.
struct LandingExtent {
    var minX: Millimeters, maxX: Millimeters, minY: Millimeters, maxY: Millimeters

    mutating func include(_ x: Millimeters, _ y: Millimeters) {
        minX = Swift.min(minX, x); maxX = Swift.max(maxX, x); minY = Swift.min(minY, y); maxY = Swift.max(maxY, y)
    }
}

extension MotionTracker {
    /// Where the counted contacts started (landed, or were released from the edge-palm zone,
    /// which keeps where they landed), with the contacts still in the edge-palm zone that landed
    /// within `gap` of `sequenceStart` (a finger landing 2 mm from a touchpad's edge is one);
    /// nil when none.
    func landingExtent(sequenceStart: Instant, gap: Duration) -> LandingExtent? {
        var e: LandingExtent?
        for r in touches where !r.excluded
            || (r.edgePalm && (r.landed < sequenceStart ? sequenceStart - r.landed : r.landed - sequenceStart) <= gap) {
            let x = r.excluded ? r.restX : r.startX, y = r.excluded ? r.restY : r.startY
            if e == nil { e = LandingExtent(minX: x, maxX: x, minY: y, maxY: y) } else { e!.include(x, y) }
        }
        return e
    }
}
