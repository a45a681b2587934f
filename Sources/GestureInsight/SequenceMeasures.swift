import GestureCore

/// What a touch sequence did, measured from its frames the way the recognizers see motion
/// (Recognizers/Motion.swift): translation is the sum of per-frame mean steps of the contacts
/// present in both frames, scale and rotation accumulate the same way around their centroid, so
/// fingers landing or lifting never make them jump. Resting contacts, thumbs and palms are not
/// taken out here (the arena does that), so with such a contact the figures are the whole hand's.
public struct SequenceMeasures: Sendable {
    /// One frame's accumulated motion since the sequence began.
    public struct Sample: Sendable {
        public var time: Instant
        public var fingers: Int
        public var totalX: Millimeters
        public var totalY: Millimeters
        /// Span of the active contacts minus that span divided by the accumulated scale, mm.
        public var spanChange: Millimeters
        public var scale: Double
        /// Accumulated turn, degrees, positive clockwise (y down).
        public var rotation: Degrees
        /// The arc the turn covers at the contacts' mean radius, mm.
        public var rotationArc: Millimeters
        /// The furthest any active contact is from where it landed, mm.
        public var maxTravel: Millimeters
        /// As `MotionSample.sharedTravel`: the least any active contact has gone from where it
        /// landed the way (totalX, totalY) points, mm.
        public var sharedTravel: Millimeters = 0
        public var distance: Millimeters { GestureInsight.distance(totalX, totalY) }
        /// As `MotionSample.translationDominates`: one contact, or the translation at least twice
        /// the span change and the rotation arc.
        public var translationDominates: Bool {
            fingers < 2 || (distance >= 2 * abs(spanChange) && distance >= 2 * rotationArc)
        }
    }

    public let sequence: TouchSequence
    public private(set) var samples: [Sample] = []

    public init(_ sequence: TouchSequence) {
        self.sequence = sequence
        var tx = 0.0, ty = 0.0, scale = 1.0, rotation = 0.0
        var landing: [Int: (Double, Double)] = [:]
        var prev: SequenceFrame?
        for f in sequence.frames {
            for i in f.ids.indices where landing[f.ids[i]] == nil { landing[f.ids[i]] = (f.xs[i], f.ys[i]) }
            if let p = prev {
                // Contacts present in both frames.
                var px: [Double] = [], py: [Double] = [], cx: [Double] = [], cy: [Double] = []
                for i in f.ids.indices {
                    if let j = p.ids.firstIndex(of: f.ids[i]) { px.append(p.xs[j]); py.append(p.ys[j]); cx.append(f.xs[i]); cy.append(f.ys[i]) }
                }
                if !px.isEmpty {
                    let n = Double(px.count)
                    let pcx = px.reduce(0, +) / n, pcy = py.reduce(0, +) / n
                    let ccx = cx.reduce(0, +) / n, ccy = cy.reduce(0, +) / n
                    tx += ccx - pcx; ty += ccy - pcy
                    if px.count >= 2 {
                        var ps = 0.0, cs = 0.0, turn = 0.0, weight = 0.0
                        for k in px.indices {
                            let pr = GestureInsight.distance(px[k] - pcx, py[k] - pcy)
                            let cr = GestureInsight.distance(cx[k] - ccx, cy[k] - ccy)
                            ps += pr; cs += cr
                            guard pr > 0, cr > 0 else { continue }
                            var d = atan2(cy[k] - ccy, cx[k] - ccx) - atan2(py[k] - pcy, px[k] - pcx)
                            if d > .pi { d -= 2 * .pi } else if d < -.pi { d += 2 * .pi }
                            turn += d * cr; weight += cr
                        }
                        if ps > 0 && cs > 0 { scale *= cs / ps }
                        if weight > 0 { rotation += turn / weight }
                    }
                }
            }
            var span = 0.0, travel = 0.0, shared = Double.infinity
            let length = GestureInsight.distance(tx, ty)
            if !f.ids.isEmpty {
                let n = Double(f.ids.count)
                let mx = f.xs.reduce(0, +) / n, my = f.ys.reduce(0, +) / n
                for i in f.ids.indices {
                    span += GestureInsight.distance(f.xs[i] - mx, f.ys[i] - my)
                    if let (lx, ly) = landing[f.ids[i]] {
                        travel = Swift.max(travel, GestureInsight.distance(f.xs[i] - lx, f.ys[i] - ly))
                        if length > 0 { shared = Swift.min(shared, ((f.xs[i] - lx) * tx + (f.ys[i] - ly) * ty) / length) }
                    }
                }
                span = 2 * span / n
            }
            samples.append(Sample(time: f.time, fingers: f.fingers, totalX: tx, totalY: ty,
                                  spanChange: scale > 0 ? span - span / scale : 0, scale: scale,
                                  rotation: rotation * 180 / .pi, rotationArc: abs(rotation) * span / 2,
                                  maxTravel: travel,
                                  sharedTravel: f.ids.count >= 2 && shared.isFinite ? Swift.max(0, shared) : 0))
            prev = f
        }
    }

    public var fingers: Int { sequence.maxFingers }
    /// The finger count held longest.
    public var mainFingers: Int {
        var held: [Int: Int64] = [:]
        for i in samples.indices.dropLast() where samples[i].fingers > 0 {
            held[samples[i].fingers, default: 0] += samples[i + 1].time.microseconds - samples[i].time.microseconds
        }
        return held.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key ?? fingers
    }
    /// When the last finger landed (the finger count last rose).
    public var lastLanding: Instant {
        var t = sequence.start, n = 0
        for s in samples { if s.fingers > n { t = s.time }; n = s.fingers }
        return t
    }
    /// From the first finger landing to the last one.
    public var landingSpread: Duration { lastLanding - sequence.start }
    /// From the last finger landing to the lift of all of them (what a tap's timeout measures).
    public var liftAfterLastLanding: Duration { sequence.end - lastLanding }
    public var excursion: Millimeters { sequence.contacts.reduce(0) { Swift.max($0, $1.excursion) } }
    public var displacement: Millimeters { sequence.contacts.reduce(0) { Swift.max($0, $1.displacement) } }
    public var buttonDown: Bool { sequence.frames.contains { $0.buttonDown } }
    public var final: Sample { samples.last ?? Sample(time: .zero, fingers: 0, totalX: 0, totalY: 0, spanChange: 0, scale: 1, rotation: 0, rotationArc: 0, maxTravel: 0) }
    public var maxDistance: Millimeters { samples.reduce(0) { Swift.max($0, $1.distance) } }
    public var maxSpanChange: Millimeters { samples.reduce(0) { Swift.max($0, abs($1.spanChange)) } }
    public var maxRotation: Degrees { samples.reduce(0) { Swift.max($0, abs($1.rotation)) } }

    /// The first frame whose translation reached `mm` (and dominated, when asked).
    public func firstReaching(_ mm: Millimeters, dominating: Bool = false) -> Sample? {
        samples.first { $0.distance >= mm && (!dominating || $0.translationDominates) }
    }

    /// How long the fingers stayed still (every contact within `maxMovement` of where it landed)
    /// with one finger count: the longest such stretch before a contact moved that far, and
    /// whether it ended by moving (else by a lift or a finger-count change).
    public func stillHold(maxMovement: Millimeters) -> (hold: Duration, fingers: Int, moved: Bool) {
        guard let first = samples.first else { return (.zero, 0, false) }
        var since = first.time, count = first.fingers
        var best = Duration.zero, bestFingers = count
        for s in samples {
            let moved = s.maxTravel >= maxMovement
            if moved || s.fingers != count || s.fingers == 0 {
                if s.time - since > best { best = s.time - since; bestFingers = count }
                if moved { return (best, bestFingers, true) }
                since = s.time; count = s.fingers
            }
        }
        return (best, bestFingers, false)
    }

    /// Where the first contact landed.
    public var landing: (x: Millimeters, y: Millimeters)? {
        guard let f = sequence.frames.first(where: { !$0.ids.isEmpty }) else { return nil }
        let n = Double(f.ids.count)
        return (f.xs.reduce(0, +) / n, f.ys.reduce(0, +) / n)
    }
}

/// atan2 without libm (this module imports nothing but the core): octant reduction and a
/// minimax polynomial, accurate to about 1e-5 rad (the recognizers' own is the same).
func atan2(_ y: Double, _ x: Double) -> Double {
    if x == 0 && y == 0 { return 0 }
    let ax = abs(x), ay = abs(y)
    let swap = ay > ax
    let z = swap ? ax / ay : ay / ax
    let z2 = z * z
    var a = z * (0.99997726 + z2 * (-0.33262347 + z2 * (0.19354346 + z2 * (-0.11643287
              + z2 * (0.05265332 + z2 * -0.01172120)))))
    if swap { a = Double.pi / 2 - a }
    if x < 0 { a = Double.pi - a }
    return y < 0 ? -a : a
}
