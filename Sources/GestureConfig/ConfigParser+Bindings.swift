import GestureCore
import YAML

/// The `bindings:` list: gesture, fingers, direction, phase, `every:`, device, command, app
/// (the action keys are in ConfigParser+Actions.swift).
extension Reader {
    static let bindingKeys = ["gesture", "fingers", "direction", "directions", "edge", "phase", "every",
                              "device", "command", "cooldown_ms", "timeout_ms", "app"] + Reader.actionKeys

    static let gestures: [(String, GestureKind)] = GestureKind.all.map { ($0.rawValue, $0) }
    static let phases: [(String, GesturePhase)] = GesturePhase.allCases.map { ($0.rawValue, $0) }
    static let directions: [(String, GestureDirection)] = GestureDirection.all.map { ($0.rawValue, $0) }
    static let edges: [(String, Edge)] = Edge.allCases.map { ($0.rawValue, $0) }

    /// Directions each kind can report (nil: the kind has none).
    static func validDirections(for kind: GestureKind) -> [GestureDirection]? {
        switch kind {
        case .swipe, .pan: return [.up, .down, .left, .right, .upLeft, .upRight, .downLeft, .downRight]
        case .edgeSwipe: return [.up, .down, .left, .right]
        case .pinch: return [.in, .out]
        case .rotate: return [.clockwise, .counterclockwise]
        default: return nil
        }
    }

    mutating func readBindings(_ node: Node, into config: inout Config) {
        guard case .sequence(let items, _) = node else {
            if node.isNull { return }
            error(node.mark, "bindings must be a list, not \(node.kindName)", hint: "start each binding with '- gesture:'")
            return
        }
        for item in items {
            if let b = readBinding(item) { config.bindings.append(b) }
        }
    }

    mutating func readBinding(_ item: Node) -> Binding? {
        guard let pairs = mapping(item, "a binding", keys: Reader.bindingKeys) else { return nil }
        let before = diagnostics.count
        func find(_ k: String) -> (mark: Mark, value: Node)? {
            pairs.first { $0.key == k }.map { ($0.mark, $0.value) }
        }
        guard let (_, gNode) = find("gesture") else {
            error(item.mark, "a binding needs a 'gesture:'", hint: "one of: " + Reader.gestures.map(\.0).joined(separator: ", "))
            return nil
        }
        guard let kind = word(gNode, "gesture", Reader.gestures) else { return nil }
        var command = ""
        if let (_, c) = find("command") {
            command = string(c, "command") ?? ""
            if command.trimmingSpaces.isEmpty, case .scalar = c {
                error(c.mark, "command must not be empty", hint: "a shell command line, run by /bin/sh -c")
            }
        } else if find("keys") == nil && find("button") == nil && find("touchpad") == nil {
            error(item.mark, "a binding needs a 'command:', 'keys:', 'button:' or 'touchpad:'",
                  hint: "command: a shell command line, run by /bin/sh -c; keys: \"ctrl+alt+Right\"; button: right; touchpad: {scale: 1}")
        }
        var b = Binding(gesture: kind, command: command)
        b.location = location(item.mark)

        if let (_, v) = find("fingers") {
            if case .scalar(let s, false, _) = v, s == "any" {
                b.fingers = .any
            } else if let list = oneOrList(v, "fingers", { r, n in
                r.integer(n, "fingers", in: 1...5, hint: "1 to 5 fingers, a list like [3, 4], or any") }) {
                b.fingers = .counts(Set(list))
            }
        }
        if let (_, v) = find("phase") {
            if let p = word(v, "phase", Reader.phases) {
                if kind.isDiscrete && p != .recognized {
                    error(v.mark, "phase '\(p.rawValue)' is not valid for \(kind.rawValue)",
                          hint: "\(kind.rawValue) is one event: use phase: recognized (the default)")
                } else if !kind.isDiscrete && p == .recognized {
                    error(v.mark, "phase 'recognized' is not valid for \(kind.rawValue)",
                          hint: "\(kind.rawValue) goes began, changed, ended or cancelled")
                } else {
                    b.phase = p
                }
            }
        }
        if let (_, v) = find("directions") {
            b.directionCount = integer(v, "directions", in: 4...8, hint: "4 or 8")
            if let n = b.directionCount, n != 4 && n != 8 {
                error(v.mark, "directions must be 4 or 8, not \(n)", hint: "4: up/down/left/right; 8: also the diagonals")
                b.directionCount = nil
            } else if b.directionCount != nil && kind != .swipe && kind != .pan {
                error(v.mark, "directions only applies to swipe and pan, not \(kind.rawValue)")
            }
        }
        if let (_, v) = find("direction") {
            if let valid = Reader.validDirections(for: kind) {
                if let list = oneOrList(v, "direction", { r, n in r.word(n, "direction", Reader.directions) }) {
                    var ok = true
                    for (d, n) in zip(list, v.sequenceValue ?? [v]) where !valid.contains(d) {
                        error(n.mark, "direction '\(d.rawValue)' is not valid for \(kind.rawValue)",
                              hint: "one of: " + valid.map(\.rawValue).joined(separator: ", "))
                        ok = false
                    }
                    if ok {
                        b.directions = Set(list)
                        let diagonals = list.filter { [.upLeft, .upRight, .downLeft, .downRight].contains($0) }
                        if b.directionCount == 4, let d = diagonals.first {
                            error(v.mark, "direction '\(d.rawValue)' needs directions: 8", hint: "or remove directions: 4")
                        }
                    }
                }
            } else {
                error(v.mark, "\(kind.rawValue) has no direction", hint: "remove direction, or bind a swipe, pan, pinch, rotate or edgeSwipe")
            }
        }
        if let (_, v) = find("edge") {
            if kind != .edgeSwipe {
                error(v.mark, "edge only applies to edgeSwipe, not \(kind.rawValue)")
            } else if let list = oneOrList(v, "edge", { r, n in r.word(n, "edge", Reader.edges) }) {
                b.edges = Set(list)
            }
        }
        if let (_, v) = find("every") {
            if let e = readEvery(v, kind: kind) {
                if b.phase != .changed {
                    error(v.mark, "every only applies with phase: changed",
                          hint: "add phase: changed to repeat the command while the gesture moves")
                } else {
                    b.every = e
                }
            }
        }
        if let (_, v) = find("device") {
            b.device = readMatch(v, "device", allowID: false)
        }
        if let (k, v) = find("app") {
            b.app = readApp(v, key: k)
        }
        if let (_, v) = find("cooldown_ms") {
            b.cooldown = milliseconds(v, "cooldown_ms") ?? .zero
        }
        if let (_, v) = find("timeout_ms") {
            b.timeout = milliseconds(v, "timeout_ms", allowZero: false)
        }
        readActions(find, into: &b)
        return diagnostics.count == before ? b : nil
    }

    mutating func readEvery(_ node: Node, kind: GestureKind) -> Every? {
        guard let (raw, _) = scalar(node, "every", expected: "an amount like \"10mm\", \"15deg\" or \"0.1scale\"") else { return nil }
        let s = raw.trimmingSpaces
        let units: [(String, (Double) -> Every)] = [("mm", Every.millimeters), ("deg", Every.degrees), ("scale", Every.scale)]
        guard let (unit, make) = units.first(where: { s.hasSuffix($0.0) }),
              let v = Double(String(s.dropLast(unit.count)).trimmingSpaces), v.isFinite else {
            error(node.mark, "every must be an amount with a unit, not '\(raw)'",
                  hint: "e.g. \"10mm\" (pan, swipe, edgeSwipe), \"15deg\" (rotate), \"0.1scale\" (pinch)")
            return nil
        }
        guard v > 0 else {
            error(node.mark, "every must be more than 0, not '\(raw)'")
            return nil
        }
        let expected: String
        switch kind {
        case .rotate: expected = "deg"
        case .pinch: expected = "scale"
        case .pan, .swipe, .edgeSwipe, .longPress: expected = "mm"
        default:
            error(node.mark, "every does not apply to \(kind.rawValue)", hint: "\(kind.rawValue) has no changed events")
            return nil
        }
        guard unit == expected else {
            error(node.mark, "every for \(kind.rawValue) is in \(expected), not \(unit)",
                  hint: "e.g. \"\(kind == .rotate ? "15deg" : kind == .pinch ? "0.1scale" : "10mm")\"")
            return nil
        }
        return make(v)
    }
}
