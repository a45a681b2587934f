import GestureCore

/// `gestured tune`: thresholds fitted to one person's hands. Each sample is a touch sequence
/// the person says is one gesture of a kind; the tuner measures them all (`SequenceMeasures`)
/// and, for each threshold one of them fails, proposes the value that lets every one of them
/// through with a margin. Thresholds no sample fails are left as they are, so what the
/// defaults (or the config) already keep apart stays apart; a proposal that would let one kind
/// of the person's gestures pass for another is reported as a conflict.
public enum Tuner {
    public struct Sample: Sendable {
        public var kind: GestureKind
        public var measures: SequenceMeasures
        /// The gap since the previous sample of the same recording lifted (double taps).
        public var gapBefore: Duration?
        public init(kind: GestureKind, measures: SequenceMeasures, gapBefore: Duration? = nil) {
            self.kind = kind; self.measures = measures; self.gapBefore = gapBefore
        }
    }
    public struct Proposal: Sendable {
        public var key: String
        public var value: Double
        public var was: Double
        public var why: String
    }

    /// Room left beyond the person's extremes.
    static let margin = 1.25

    public static func propose(_ samples: [Sample], _ t: Thresholds) -> (proposals: [Proposal], conflicts: [String]) {
        var out: [Proposal] = []
        func of(_ k: GestureKind) -> [SequenceMeasures] { samples.filter { $0.kind == k }.map(\.measures) }
        func up(_ key: String, _ needed: Double, _ was: Double, step: Double, _ why: String) {
            guard needed > was else { return }
            out.append(Proposal(key: key, value: (needed * margin / step).rounded(.up) * step, was: was, why: why))
        }
        func down(_ key: String, _ least: Double, _ was: Double, step: Double, _ why: String) {
            guard least < was else { return }
            out.append(Proposal(key: key, value: Swift.max(step, (least / margin / step).rounded(.down) * step), was: was, why: why))
        }
        let taps = of(.tap) + of(.doubleTap)
        if !taps.isEmpty {
            let perExtra = t.tapTimeoutPerExtraFinger.doubleMilliseconds
            let life = taps.map { $0.liftAfterLastLanding.doubleMilliseconds - perExtra * Double(Swift.max(0, $0.fingers - 1)) }.max()!
            up("tap_timeout_ms", life, t.tapTimeout.doubleMilliseconds, step: 10,
               "your taps lasted up to \(Words.num(life, 0)) ms after the last finger landed")
            let moved = taps.map(\.displacement).max()!
            up("tap_maximum_movement_mm", moved, t.tapMaximumMovement, step: 0.1, "your taps lifted up to \(Words.mm(moved)) mm from where they landed")
            let strayed = taps.map(\.excursion).max()!
            up("tap_maximum_excursion_mm", strayed, t.tapMaximumExcursion, step: 0.1, "your taps strayed up to \(Words.mm(strayed)) mm")
        }
        let gaps = samples.filter { $0.kind == .doubleTap }.compactMap(\.gapBefore).map(\.doubleMilliseconds)
        if let g = gaps.max() {
            up("double_tap_maximum_gap_ms", g, t.doubleTapMaximumGap.doubleMilliseconds, step: 10, "your second taps landed up to \(Words.num(g, 0)) ms after the first lifted")
        }
        let holds = of(.longPress)
        if !holds.isEmpty {
            // How far the fingers moved while holding: over the hold's first long_press_duration_ms.
            let travel = holds.map { m in m.samples.filter { $0.time - m.lastLanding <= t.longPressDuration }.reduce(0) { Swift.max($0, $1.maxTravel) } }.max()!
            up("long_press_maximum_movement_mm", travel, t.longPressMaximumMovement, step: 0.1, "your fingers moved up to \(Words.mm(travel)) mm while holding")
            let shortest = holds.map(\.liftAfterLastLanding.doubleMilliseconds).min()!
            down("long_press_duration_ms", shortest, t.longPressDuration.doubleMilliseconds, step: 10, "your shortest hold lasted \(Words.num(shortest, 0)) ms")
        }
        func travelled(_ k: GestureKind) -> Double? {
            of(k).map { m in m.samples.filter { $0.translationDominates && $0.fingers <= 5 }.reduce(0) { Swift.max($0, $1.distance) } }.min()
        }
        if let d = travelled(.swipe) {
            down("swipe_minimum_distance_mm", d, t.swipeMinimumDistance, step: 0.5, "your shortest swipe moved \(Words.mm(d)) mm")
        }
        if let d = travelled(.pan) {
            down("pan_slop_mm", d, t.panSlop, step: 0.1, "your shortest pan moved \(Words.mm(d)) mm")
        }
        if let s = of(.pinch).map({ m in m.samples.filter { $0.fingers <= 5 }.reduce(0) { Swift.max($0, abs($1.spanChange)) } }).min() {
            down("pinch_minimum_span_change_mm", s, t.pinchMinimumSpanChange, step: 0.5, "your smallest pinch changed the span \(Words.mm(s)) mm")
        }
        if let a = of(.rotate).map({ m in m.samples.filter { $0.fingers <= 5 }.reduce(0) { Swift.max($0, abs($1.rotation)) } }).min() {
            down("rotate_minimum_angle_deg", a, t.rotateMinimumAngle, step: 1, "your smallest turn was \(Words.num(a, 1))°")
        }
        return (out, conflicts(samples, out, t))
    }

    /// Where the proposed values let one kind of the person's own gestures pass for another.
    static func conflicts(_ samples: [Sample], _ proposals: [Proposal], _ base: Thresholds) -> [String] {
        func value(_ key: String, _ was: Double) -> Double { proposals.first { $0.key == key }?.value ?? was }
        var out: [String] = []
        let tapTimeout = value("tap_timeout_ms", base.tapTimeout.doubleMilliseconds)
        let hold = value("long_press_duration_ms", base.longPressDuration.doubleMilliseconds)
        if hold <= tapTimeout {
            out.append("long_press_duration_ms \(Words.num(hold)) is not above tap_timeout_ms \(Words.num(tapTimeout)): a slow tap would also be a hold")
        }
        let swipe = value("swipe_minimum_distance_mm", base.swipeMinimumDistance)
        let tapMove = value("tap_maximum_excursion_mm", base.tapMaximumExcursion)
        if samples.contains(where: { $0.kind == .tap }) && swipe <= tapMove {
            out.append("swipe_minimum_distance_mm \(Words.num(swipe)) is not above tap_maximum_excursion_mm \(Words.num(tapMove)): a tap that wobbles could swipe")
        }
        return out
    }

    /// The proposals as a config snippet `gestured check` accepts: one device rule matching
    /// the device by its name.
    public static func snippet(device: DeviceDescription, counts: [(GestureKind, Int)], proposals: [Proposal], conflicts: [String]) -> String {
        var s = "# gestured tune: " + counts.map { "\($0.0.rawValue) × \($0.1)" }.joined(separator: ", ")
        s += " measured on \(yamlString(device.name))\n"
        for c in conflicts { s += "# conflict: \(c)\n" }
        if proposals.isEmpty { s += "# the thresholds in force already recognize all of them: nothing to change\n" }
        s += "devices:\n  - match: {name: \(yamlString(globEscaped(device.name)))}\n"
        if !proposals.isEmpty {
            s += "    thresholds:\n"
            for p in proposals { s += "      \(p.key): \(Words.num(p.value))   # \(p.why) (was \(Words.num(p.was)))\n" }
        }
        return s
    }

    /// A device name as a glob matching only itself.
    static func globEscaped(_ s: String) -> String {
        var out = ""
        for c in s { if "*?[]\\".contains(c) { out.append("\\") }; out.append(c) }
        return out
    }

    /// A YAML double-quoted scalar.
    static func yamlString(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if u.value < 0x20 || u.value == 0x7f { out += "\\x" + (u.value < 0x10 ? "0" : "") + String(u.value, radix: 16) }
                else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }
}
