import GestureCore

/// Numbers and directions as `explain` and `tune` write them.
public enum Words {
    /// `v` with at most `decimals` decimals, trailing zeros dropped: 2, 1.3, 14.2.
    public static func num(_ v: Double, _ decimals: Int = 2) -> String {
        guard v.isFinite else { return "\(v)" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let r = (abs(v) * scale).rounded()
        let whole = Int64(r / scale), frac = Int64(r) - whole * Int64(scale)
        var s = (v < 0 && r > 0 ? "-" : "") + String(whole)
        if frac > 0 {
            var f = String(frac)
            f = String(repeating: "0", count: decimals - f.count) + f
            while f.hasSuffix("0") { f.removeLast() }
            s += "." + f
        }
        return s
    }
    public static func mm(_ v: Double) -> String { num(v, 1) }
    public static func ms(_ d: Duration) -> String { num(d.doubleMilliseconds, 0) }
    public static func seconds(_ d: Duration) -> String {
        let us = d.totalMicroseconds
        let a = us.magnitude, frac = String(a % 1_000_000 / 1000)
        return "\(us < 0 ? "-" : "")\(a / 1_000_000).\(String(repeating: "0", count: 3 - frac.count))\(frac)"
    }
    public static func fingers(_ n: Int) -> String { "\(n) finger\(n == 1 ? "" : "s")" }
    /// A direction word for a displacement (y grows downward): 4 directions, as the recognizers
    /// report them by default, or 8.
    public static func heading(_ dx: Double, _ dy: Double, directions: Int = 4) -> String {
        GestureDirection.quantize(dx: dx, dy: dy, directions: directions)?.rawValue ?? "nowhere"
    }
}

extension SequenceExplanation {
    /// The explanation as text lines; times in seconds since `origin`.
    public func text(origin: Instant) -> String {
        let m = measures
        var s = "sequence \(sequence.number) at \(Words.seconds(sequence.start - origin))–\(Words.seconds(sequence.end - origin)) s: "
        s += "\(Words.fingers(m.fingers)), \(Words.ms(sequence.duration)) ms"
        let f = m.final
        if f.distance > 0 { s += ", moved \(Words.mm(f.distance)) mm \(Words.heading(f.totalX, f.totalY, directions: 8))" }
        s += "\n"
        if let note { s += "  note: \(note)\n" }
        if gestures.isEmpty {
            s += "  recognized: nothing\n"
        } else {
            s += "  recognized: " + gestures.map { "\($0.summary) at \(Words.seconds($0.start - origin)) s" }.joined(separator: "; ") + "\n"
        }
        for v in verdicts {
            s += "  \(v.kind.rawValue)\(v.recognized ? " (recognized)" : ""): \(v.text)\n"
        }
        return s
    }
}
