import GestureCore

/// A small scenario language for recognizer tests (keyd's `t/*.t` style): statements separated by
/// `;` or newlines, times in ms, positions in mm from the top-left.
///
///     down 1 at (10,10) at 0ms          touch 1 lands
///     down 1 at (10,10), 2 at (30,10) at 0ms
///     move 1 to (40,10) by 200ms        straight line from the previous statement's time,
///     move 1 to (40,10), 2 to (60,10) by 200ms    one frame every `every` ms (default 10)
///     move 1 to (40,10) from 50ms by 200ms
///     up 1 at 220ms                     (also `up 1, 2 at 220ms`)
///     count 3 at 5ms                    BTN_TOOL_* finger count from now on (`count auto` ends it)
///     every 5ms                         interpolation step
///     advance to 900ms                  the loop calls advance(to:)
///     resync at 300ms                   a .resynchronized frame (state unchanged)
///     removed at 300ms                  a .deviceRemoved frame (every touch cancelled)
///     cancel at 300ms                   arena.cancelAll(at:)
///     button down at 50ms               the pad's physical button (a click) is held from now on
///     button up at 150ms
///     major 1 20 at 0ms                 touch 1's ABS_MT_TOUCH_MAJOR is 20 mm from now on
///     pressure 1 200 at 0ms             touch 1's pressure is 200 (device units) from now on
///
/// Frames at the same time merge. After the last statement the runner advances 3 s further.
/// Pure: statements it cannot read are in `problems` (GestureCoreTests records them as issues).
public struct Scenario {
    public enum Op {
        case down(id: Int, x: Double, y: Double)
        case move(id: Int, x: Double, y: Double)
        case up(id: Int)
        case count(Int?)
        case advance
        case resync
        case removed
        case cancel
        case button(Bool)
        case major(id: Int, mm: Double)
        case pressure(id: Int, value: Int32)
    }
    public struct Step { public var time: Int64; public var op: Op; public var order: Int }

    public var steps: [Step] = []
    /// What could not be parsed, one message per statement (the tests record each as an issue).
    public private(set) var problems: [String] = []

    public init(parsing text: String) {
        var now: Int64 = 0
        var every: Int64 = 10
        var positions: [Int: (Double, Double)] = [:]
        var order = 0
        func add(_ t: Int64, _ op: Op) { steps.append(Step(time: t, op: op, order: order)); order += 1 }
        let statements = text.split(whereSeparator: { $0 == ";" || $0 == "\n" })
            .map { $0.trimmingCharacters() }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        for statement in statements {
            let words = statement.split(separator: " ").map(String.init)
            guard let verb = words.first else { continue }
            func time(after keyword: String) -> Int64? {
                guard let i = words.lastIndex(of: keyword), i + 1 < words.count else { return nil }
                return Int64(words[i + 1].replacingMs())
            }
            switch verb {
            case "down":
                guard let t = time(after: "at") else { problems.append("scenario: no time in '\(statement)'"); continue }
                for (id, x, y) in Self.targets(statement, keyword: "at") {
                    add(t, .down(id: id, x: x, y: y)); positions[id] = (x, y)
                }
                now = t
            case "move":
                guard let t = time(after: "by") else { problems.append("scenario: no 'by' in '\(statement)'"); continue }
                let start = time(after: "from") ?? now
                let targets = Self.targets(statement, keyword: "to")
                var s = start + every
                while true {
                    let at = Swift.min(s, t)
                    let f = t == start ? 1.0 : Double(at - start) / Double(t - start)
                    for (id, x, y) in targets {
                        guard let p = positions[id] else { problems.append("scenario: touch \(id) is not down"); continue }
                        add(at, .move(id: id, x: p.0 + (x - p.0) * f, y: p.1 + (y - p.1) * f))
                    }
                    if at == t { break }
                    s += every
                }
                for (id, x, y) in targets { positions[id] = (x, y) }
                now = t
            case "up":
                guard let t = time(after: "at") else { problems.append("scenario: no time in '\(statement)'"); continue }
                let ids = words.dropFirst().prefix { $0 != "at" }.compactMap { Int($0.filter(\.isNumber)) }
                for id in ids { add(t, .up(id: id)); positions[id] = nil }
                now = t
            case "count":
                guard let t = time(after: "at") else { problems.append("scenario: no time in '\(statement)'"); continue }
                add(t, .count(Int(words[1])))
                now = t
            case "every":
                every = Int64(words[1].replacingMs()) ?? 10
            case "advance":
                guard let t = time(after: "to") else { continue }
                add(t, .advance); now = t
            case "button":
                guard let t = time(after: "at"), words.count > 1 else { problems.append("scenario: bad '\(statement)'"); continue }
                add(t, .button(words[1] == "down")); now = t
            case "major", "pressure":
                guard let t = time(after: "at"), words.count > 2, let id = Int(words[1]), let v = Double(words[2])
                else { problems.append("scenario: bad '\(statement)'"); continue }
                add(t, verb == "major" ? .major(id: id, mm: v) : .pressure(id: id, value: Int32(v))); now = t
            case "resync", "removed", "cancel":
                guard let t = time(after: "at") else { continue }
                add(t, verb == "resync" ? .resync : verb == "removed" ? .removed : .cancel); now = t
            default:
                problems.append("scenario: unknown statement '\(statement)'")
            }
        }
        steps.sort { ($0.time, $0.order) < ($1.time, $1.order) }
    }

    /// `N at (x,y)` / `N to (x,y)` pairs of a statement.
    static func targets(_ statement: String, keyword: String) -> [(Int, Double, Double)] {
        var out: [(Int, Double, Double)] = []
        let body = statement.split(separator: " ", maxSplits: 1).dropFirst().joined()
        for part in body.split(separator: ")") {
            let pieces = part.split(separator: "(")
            guard pieces.count == 2 else { continue }
            let idWords = pieces[0].split(separator: " ").filter { Int($0.filter(\.isNumber)) != nil && !$0.contains("ms") }
            guard let idWord = idWords.last, let id = Int(idWord.filter(\.isNumber)) else { continue }
            let xy = pieces[1].split(separator: ",").compactMap { Double($0.trimmingCharacters()) }
            guard xy.count == 2 else { continue }
            out.append((id, xy[0], xy[1]))
        }
        return out
    }

    /// Feeds the scenario's frames to an arena and returns every event.
    public func run(_ arena: inout RecognizerArena, tail: Int64 = 3000) -> [GestureEvent] {
        var events: [GestureEvent] = []
        var touches: [(id: Int, x: Double, y: Double)] = []
        var countOverride: Int?
        var buttonDown = false
        var majors: [Int: Double] = [:]
        var pressures: [Int: Int32] = [:]
        var i = 0
        var last: Int64 = 0
        while i < steps.count {
            let t = steps[i].time
            var changed: [Int: TouchPhase] = [:]
            var flags: TouchFrame.Flags = []
            var frame = false, doAdvance = false, doCancel = false
            var ended: [(id: Int, x: Double, y: Double)] = []
            while i < steps.count && steps[i].time == t {
                switch steps[i].op {
                case .down(let id, let x, let y):
                    touches.append((id, x, y)); changed[id] = .began; frame = true
                case .move(let id, let x, let y):
                    if let k = touches.firstIndex(where: { $0.id == id }) {
                        touches[k].x = x; touches[k].y = y
                        if changed[id] == nil { changed[id] = .moved }
                    }
                    frame = true
                case .up(let id):
                    if let k = touches.firstIndex(where: { $0.id == id }) { ended.append(touches.remove(at: k)) }
                    frame = true
                case .count(let n): countOverride = n; frame = true
                case .advance: doAdvance = true
                case .resync: flags.insert(.resynchronized); frame = true
                case .removed: flags.insert(.deviceRemoved); frame = true
                case .cancel: doCancel = true
                case .button(let down): buttonDown = down; frame = true
                case .major(let id, let mm): majors[id] = mm; frame = true
                case .pressure(let id, let v): pressures[id] = v; frame = true
                }
                i += 1
            }
            let time = Instant.milliseconds(t)
            // The daemon's loop wakes at every deadline; so does the runner.
            events += arena.advance(to: time)
            _ = doAdvance
            if doCancel { events += arena.cancelAll(at: time) }
            if frame {
                let removed = flags.contains(.deviceRemoved)
                var list = touches.map { tt in
                    Touch(id: tt.id, slot: tt.id, phase: removed ? .cancelled : (changed[tt.id] ?? .stationary), x: tt.x, y: tt.y,
                          pressure: pressures[tt.id], majorAxis: majors[tt.id])
                }
                list += ended.map { Touch(id: $0.id, slot: $0.id, phase: .ended, x: $0.x, y: $0.y,
                                          pressure: pressures[$0.id], majorAxis: majors[$0.id]) }
                if removed { touches = [] }
                let count = touches.isEmpty && countOverride == nil ? 0 : (countOverride ?? touches.count)
                events += arena.process(TouchFrame(time: time, touches: list, fingerCount: count, flags: flags,
                                                   buttonDown: buttonDown))
            }
            last = t
        }
        events += arena.advance(to: .milliseconds(last + tail))
        return events
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters() -> String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return String(s)
    }
    fileprivate func replacingMs() -> String { String(self.filter { $0.isNumber || $0 == "-" }) }
}

/// One expected event: `kind phase [direction] [fingers=N] [edge=E] [at=Tms] [by=Tms]`.
public struct Expected: CustomStringConvertible {
    public var kind: String
    public var phase: String
    public var fields: [String: String] = [:]
    public var description: String {
        ([kind, phase] + fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
    }

    public static func parse(_ text: String) -> [Expected] {
        text.split(whereSeparator: { $0 == ";" || $0 == "\n" }).map { $0.trimmingCharacters() }
            .filter { !$0.isEmpty && $0 != "nothing" }.map { line in
                let w = line.split(separator: " ").map(String.init)
                var e = Expected(kind: w[0], phase: w.count > 1 ? w[1] : "recognized")
                for word in w.dropFirst(2) {
                    if let eq = word.firstIndex(of: "=") {
                        e.fields[String(word[..<eq])] = String(word[word.index(after: eq)...])
                    } else if GestureDirection.all.contains(GestureDirection(rawValue: word)) {
                        e.fields["direction"] = word
                    } else if word.hasSuffix("fingers") || Int(word) != nil {
                        e.fields["fingers"] = word.replacingMs()
                    } else {
                        e.fields["direction"] = word
                    }
                }
                return e
            }
    }

    public func matches(_ g: GestureEvent) -> Bool {
        guard g.kind.rawValue == kind, g.phase.rawValue == phase else { return false }
        for (k, v) in fields {
            switch k {
            case "fingers": if String(g.fingers) != v { return false }
            case "direction": if (g.direction?.rawValue ?? "none") != v { return false }
            case "edge": if (g.edge?.rawValue ?? "none") != v { return false }
            case "at": if g.time != .milliseconds(Int64(v.replacingMs()) ?? -1) { return false }
            case "by": if g.time > .milliseconds(Int64(v.replacingMs()) ?? -1) { return false }
            case "after": if g.time < .milliseconds(Int64(v.replacingMs()) ?? -1) { return false }
            default: return false
            }
        }
        return true
    }
}

/// One gesture event in the words of `Expected` (for failure messages).
public func describe(_ g: GestureEvent) -> String {
    var s = "\(g.kind) \(g.phase)"
    if let d = g.direction { s += " \(d)" }
    if let e = g.edge { s += " edge=\(e.rawValue)" }
    s += " fingers=\(g.fingers) at=\(g.time.microseconds / 1000)ms"
    if let sc = g.scale { s += " scale=\(sc)" }
    if let r = g.rotationDegrees { s += " rot=\(r)" }
    if let d = g.distanceMillimeters { s += " dist=\(d)" }
    return s
}
