import GestureCore

/// An expected-gesture file (`Tests/Fixtures/<recording>.expected`), written from what the person
/// did (Tests/Fixtures/RECORDINGS.md), never from program output. One directive per line:
///
///     # comment
///     bound all                     kinds the arena is told are bound (default all);
///     bound all-but doubleTap       `bound tap swipe` lists them
///     directions 8                  swipe directions (default 4)
///     expect SPEC                   in this order among the non-`changed` events (a subsequence)
///     some SPEC                     at least one, anywhere
///     exactly N SPEC                exactly N
///     forbid SPEC                   none
///     only KIND KIND…               no event of any other kind
///     allow SPEC                    a continuous gesture that may end `cancelled` because the
///                                  person did that (the comment says what); every other
///                                  `cancelled` is a false positive — its `began` hook ran
///                                  for a gesture nobody made — and fails the file
///     known DIRECTIVE              a directive the recognizers are known to miss (the comment on
///                                  that line says why); the test records it as a known issue and
///                                  fails if it starts passing
///
/// SPEC is `kind[|kind…] [phase] [fingers=N|>N] [direction=d[|d…]] [edge=e] [at=A-B]`; the phase
/// defaults to `recognized` for discrete kinds and `began` for continuous ones. `at=A-B` keeps
/// only events between A and B seconds after the recording's first event (inclusive), to say what
/// happens during one thing the person did in a long recording.
public struct ReplayExpectation {
    public struct Spec: CustomStringConvertible {
        public var kinds: [String]
        public var phase: String?
        public var fingers: String?
        public var directions: [String]?
        public var edge: String?
        /// Seconds after the recording's first event, inclusive.
        public var window: ClosedRange<Double>?
        public var text: String
        public var description: String { text }

        public func matches(_ g: GestureEvent, origin: Instant = .zero) -> Bool {
            guard kinds.contains(g.kind.rawValue) else { return false }
            if let w = window, !w.contains(Double(g.time.microseconds - origin.microseconds) / 1_000_000) { return false }
            let wantPhase = phase ?? (g.kind.isDiscrete ? "recognized" : "began")
            guard g.phase.rawValue == wantPhase else { return false }
            if let f = fingers {
                if f.hasPrefix(">") { if g.fingers <= Int(f.dropFirst()) ?? 99 { return false } }
                else if String(g.fingers) != f { return false }
            }
            if let d = directions, !d.contains(g.direction?.rawValue ?? "none") { return false }
            if let e = edge, e != (g.edge?.rawValue ?? "none") { return false }
            return true
        }
    }
    public enum Directive {
        case expect(Spec), some(Spec), exactly(Int, Spec), forbid(Spec), only([String]), allow(Spec)
    }

    public var bound: Set<GestureKind> = Set(GestureKind.all)
    public var directions = 4
    public var directives: [(line: Int, directive: Directive, known: Bool)] = []

    /// Parses the file's text; errors name `file:line` and what was expected.
    public static func parse(_ text: String, file: String) throws(ExpectationError) -> ReplayExpectation {
        var e = ReplayExpectation()
        let kinds = Set(GestureKind.all.map(\.rawValue))
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = i + 1
            let content = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            var w = content.split(separator: " ").map(String.init)
            let known = w.first == "known"
            if known { w.removeFirst() }
            guard let verb = w.first else { continue }
            func fail(_ what: String) -> ExpectationError { ExpectationError(message: "\(file):\(line): \(what)") }
            func spec(_ words: ArraySlice<String>) throws(ExpectationError) -> Spec {
                guard let first = words.first else { throw fail("expected a gesture kind after '\(verb)'") }
                let ks = first.split(separator: "|").map(String.init)
                for k in ks where !kinds.contains(k) { throw fail("unknown gesture kind '\(k)'") }
                var s = Spec(kinds: ks, text: words.joined(separator: " "))
                for word in words.dropFirst() {
                    if GesturePhase(rawValue: word) != nil { s.phase = word; continue }
                    let kv = word.split(separator: "=", maxSplits: 1).map(String.init)
                    guard kv.count == 2 else { throw fail("expected key=value or a phase, found '\(word)'") }
                    switch kv[0] {
                    case "fingers": s.fingers = kv[1]
                    case "direction": s.directions = kv[1].split(separator: "|").map(String.init)
                    case "edge": s.edge = kv[1]
                    case "at":
                        let ab = kv[1].split(separator: "-", maxSplits: 1).compactMap { Double($0) }
                        guard ab.count == 2, ab[0] <= ab[1] else { throw fail("expected at=A-B (seconds, A <= B), found '\(word)'") }
                        s.window = ab[0]...ab[1]
                    default: throw fail("unknown key '\(kv[0])' (expected fingers, direction, edge or at)")
                    }
                }
                return s
            }
            switch verb {
            case "bound":
                if w.dropFirst().first == "all" { e.bound = Set(GestureKind.all) }
                else if w.dropFirst().first == "all-but" {
                    e.bound = Set(GestureKind.all).subtracting(w.dropFirst(2).map { GestureKind(rawValue: $0) })
                } else {
                    for k in w.dropFirst() where !kinds.contains(k) { throw fail("unknown gesture kind '\(k)'") }
                    e.bound = Set(w.dropFirst().map { GestureKind(rawValue: $0) })
                }
            case "directions":
                guard let n = Int(w.count > 1 ? w[1] : ""), n == 4 || n == 8 else { throw fail("expected 4 or 8") }
                e.directions = n
            case "expect": e.directives.append((line, .expect(try spec(w.dropFirst())), known))
            case "some": e.directives.append((line, .some(try spec(w.dropFirst())), known))
            case "forbid": e.directives.append((line, .forbid(try spec(w.dropFirst())), known))
            case "allow": e.directives.append((line, .allow(try spec(w.dropFirst())), known))
            case "exactly":
                guard w.count > 2, let n = Int(w[1]) else { throw fail("expected 'exactly N kind …'") }
                e.directives.append((line, .exactly(n, try spec(w.dropFirst(2))), known))
            case "only":
                for k in w.dropFirst() where !kinds.contains(k) { throw fail("unknown gesture kind '\(k)'") }
                e.directives.append((line, .only(Array(w.dropFirst())), known))
            default:
                throw fail("unknown directive '\(verb)' (expected bound, directions, expect, some, exactly, forbid, only, allow)")
            }
        }
        return e
    }

    /// Every way the events contradict the file, as `file:line: …` messages; `known` selects
    /// the directives marked `known` instead of the others. `origin` is the recording's first
    /// event time (what `at=` windows count from).
    public func violations(_ events: [GestureEvent], file: String, known: Bool = false, origin: Instant = .zero) -> [String] {
        let decisive = events.filter { $0.phase != .changed }
        func hit(_ s: Spec) -> (GestureEvent) -> Bool { { s.matches($0, origin: origin) } }
        var out: [String] = []
        var cursor = 0
        for (line, d, isKnown) in directives {
            if isKnown != known {
                // Keep the order cursor moving past known-missing expectations.
                continue
            }
            switch d {
            case .expect(let s):
                if let k = decisive[cursor...].firstIndex(where: hit(s)) { cursor = k + 1 }
                else { out.append("\(file):\(line): expected '\(s)' (in order) — not found") }
            case .some(let s):
                if !decisive.contains(where: hit(s)) { out.append("\(file):\(line): expected some '\(s)' — none") }
            case .exactly(let n, let s):
                let c = decisive.filter(hit(s)).count
                if c != n { out.append("\(file):\(line): expected exactly \(n) '\(s)', got \(c)") }
            case .forbid(let s):
                let bad = decisive.filter(hit(s))
                if !bad.isEmpty { out.append("\(file):\(line): forbidden '\(s)' occurred \(bad.count)×") }
            case .only(let kinds):
                let bad = events.filter { !kinds.contains($0.kind.rawValue) }
                if !bad.isEmpty { out.append("\(file):\(line): only \(kinds) allowed, got \(Set(bad.map(\.kind.rawValue)).sorted())") }
            case .allow(let s):
                // Known: the cancellation is a known false positive; it is a violation while it happens.
                if known, decisive.contains(where: hit(s)) { out.append("\(file):\(line): known false positive '\(s)' happened") }
            }
        }
        if !known { out += falsePositives(decisive, file: file, origin: origin) }
        return out
    }

    /// Continuous gestures that began and were cancelled without an `allow` (known or not) saying
    /// the person did that.
    public func falsePositives(_ decisive: [GestureEvent], file: String, origin: Instant = .zero) -> [String] {
        let allowed: [Spec] = directives.compactMap { if case .allow(let s) = $0.directive { s } else { nil } }
        return decisive.filter { g in g.phase == .cancelled && !allowed.contains { $0.matches(g, origin: origin) } }.map { g in
            "\(file): \(g.kind) fingers=\(g.fingers) began and was cancelled at \(g.time): a false positive (its began hook ran); if the person did that, say so with 'allow \(g.kind) cancelled fingers=\(g.fingers)'"
        }
    }
}

public struct ExpectationError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
