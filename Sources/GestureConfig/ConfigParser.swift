import GestureCore
import YAML

extension Config {
    /// Parses config text. `file` names it in diagnostics. An empty document is the default
    /// config. Throws every problem found (unknown keys with a did-you-mean hint, wrong types,
    /// impossible values, duplicate keys, YAML syntax errors), each with its line and column.
    /// `purpose`: the daemon's config rejects what only `gestured listen` can do (`app:`).
    public static func parse(_ text: String, file: String, purpose: ConfigPurpose = .daemon) throws(ConfigError) -> Config {
        let root: Node?
        do {
            root = try parseYAML(text)
        } catch {
            throw ConfigError([ConfigDiagnostic(file: file, line: error.mark.line, column: error.mark.column,
                                                message: "YAML syntax: \(error.message)",
                                                hint: "check the indentation and quoting near here")])
        }
        var config = Config()
        config.file = file
        guard let root else { return config }
        if case .scalar(let s, _, _) = root, s.isEmpty || s == "~" || s == "null" { return config }
        var r = Reader(file: file, purpose: purpose)
        r.readConfig(root, into: &config)
        if !r.diagnostics.isEmpty {
            throw ConfigError(r.diagnostics.sorted { ($0.line, $0.column) < ($1.line, $1.column) })
        }
        return config
    }
}

/// Walks the YAML tree, filling a Config and collecting diagnostics.
struct Reader {
    let file: String
    var purpose: ConfigPurpose = .daemon
    var diagnostics: [ConfigDiagnostic] = []

    mutating func error(_ mark: Mark, _ message: String, hint: String? = nil) {
        diagnostics.append(ConfigDiagnostic(file: file, line: mark.line, column: mark.column,
                                            message: message, hint: hint))
    }

    func location(_ mark: Mark) -> SourceLocation { SourceLocation(file: file, line: mark.line, column: mark.column) }

    // MARK: generic shapes

    /// The pairs of a mapping with string keys, after reporting unknown and duplicate keys
    /// (those pairs are left out). nil (and an error) when the node is not a mapping.
    mutating func mapping(_ node: Node, _ what: String, keys allowed: [String]) -> [(key: String, mark: Mark, value: Node)]? {
        guard case .mapping(let pairs, _) = node else {
            if node.isNull { return [] } // `section:` with nothing under it
            error(node.mark, "\(what) must be a mapping, not \(node.kindName)",
                  hint: "write `key: value` lines indented under it")
            return nil
        }
        var seen: [String: Mark] = [:]
        var out: [(key: String, mark: Mark, value: Node)] = []
        for (k, v) in pairs {
            guard case .scalar(let key, _, let m) = k else {
                error(k.mark, "keys in \(what) must be plain words, not \(k.kindName)")
                continue
            }
            if let first = seen[key] {
                error(m, "duplicate key '\(key)' in \(what)", hint: "first given at \(first)")
                continue
            }
            seen[key] = m
            guard allowed.contains(key) else {
                error(m, "unknown key '\(key)' in \(what)", hint: Suggest.hint(for: key, among: allowed))
                continue
            }
            out.append((key, m, v))
        }
        return out
    }

    mutating func scalar(_ node: Node, _ what: String, expected: String) -> (String, Bool)? {
        guard case .scalar(let s, let quoted, _) = node else {
            error(node.mark, "\(what) must be \(expected), not \(node.kindName)")
            return nil
        }
        return (s, quoted)
    }

    mutating func string(_ node: Node, _ what: String) -> String? {
        guard let (s, _) = scalar(node, what, expected: "a string") else { return nil }
        return s
    }

    mutating func bool(_ node: Node, _ what: String) -> Bool? {
        guard let (s, quoted) = scalar(node, what, expected: "true or false") else { return nil }
        if !quoted {
            switch s {
            case "true", "True", "TRUE": return true
            case "false", "False", "FALSE": return false
            default: break
            }
        }
        error(node.mark, "\(what) must be true or false, not '\(s)'",
              hint: quoted ? "remove the quotes" : "write true or false")
        return nil
    }

    mutating func number(_ node: Node, _ what: String) -> Double? {
        guard let (s, quoted) = scalar(node, what, expected: "a number") else { return nil }
        if !quoted, let v = Double(s), v.isFinite { return v }
        error(node.mark, "\(what) must be a number, not '\(s)'",
              hint: quoted ? "remove the quotes" : "the unit is in the key's name; write only the number")
        return nil
    }

    mutating func integer(_ node: Node, _ what: String, in range: ClosedRange<Int>, hint: String? = nil) -> Int? {
        guard let (s, quoted) = scalar(node, what, expected: "a whole number") else { return nil }
        guard !quoted, let v = Int(s) else {
            error(node.mark, "\(what) must be a whole number, not '\(s)'", hint: quoted ? "remove the quotes" : hint)
            return nil
        }
        guard range.contains(v) else {
            error(node.mark, "\(what) must be between \(range.lowerBound) and \(range.upperBound), not \(v)", hint: hint)
            return nil
        }
        return v
    }

    mutating func milliseconds(_ node: Node, _ what: String, allowZero: Bool = true) -> Duration? {
        guard let v = number(node, what) else { return nil }
        if v < 0 || (!allowZero && v == 0) || v > 86_400_000 {
            error(node.mark, "\(what) must be \(allowZero ? "0" : "more than 0") to 86400000 milliseconds, not \(format(v))",
                  hint: v < 0 ? "a duration cannot be negative" : nil)
            return nil
        }
        return .microseconds(Int64((v * 1000).rounded()))
    }

    /// A word from a fixed vocabulary, compared ignoring case, `_` and `-`.
    mutating func word<T>(_ node: Node, _ what: String, _ choices: [(String, T)]) -> T? {
        guard let (s, _) = scalar(node, what, expected: "one of: " + choices.map(\.0).joined(separator: ", ")) else { return nil }
        let n = normalize(s)
        if let hit = choices.first(where: { normalize($0.0) == n }) { return hit.1 }
        error(node.mark, "unknown \(what) '\(s)'", hint: Suggest.hint(for: s, among: choices.map(\.0)))
        return nil
    }

    /// One item or a list of items.
    mutating func oneOrList<T>(_ node: Node, _ what: String, allowEmpty: Bool = false,
                               _ item: (inout Reader, Node) -> T?) -> [T]? {
        switch node {
        case .sequence(let items, _):
            if items.isEmpty && !allowEmpty { error(node.mark, "\(what) must not be an empty list", hint: "leave the key out to accept any"); return nil }
            var out: [T] = []
            var ok = true
            for i in items { if let v = item(&self, i) { out.append(v) } else { ok = false } }
            return ok ? out : nil
        default:
            return item(&self, node).map { [$0] }
        }
    }

    // MARK: sections

    static let topKeys = ["thresholds", "devices", "bindings", "socket", "hooks", "log", "actions"]

    mutating func readConfig(_ root: Node, into config: inout Config) {
        guard let pairs = mapping(root, "the config file", keys: Reader.topKeys) else { return }
        for (key, _, value) in pairs {
            switch key {
            case "thresholds": readGlobalThresholds(value, into: &config)
            case "devices": readDevices(value, into: &config)
            case "bindings": readBindings(value, into: &config)
            case "socket": readSocket(value, into: &config.socket)
            case "hooks": readHooks(value, into: &config.hooks)
            case "log": readLog(value, into: &config.log)
            case "actions": readActions(value, into: &config.actions)
            default: break
            }
        }
    }

    mutating func readGlobalThresholds(_ node: Node, into config: inout Config) {
        guard let pairs = mapping(node, "thresholds", keys: ["touchpad", "touchscreen"]) else { return }
        for (key, _, value) in pairs {
            let kind = key == "touchpad" ? DeviceKind.touchpad : DeviceKind.touchscreen
            config.thresholds[kind] = readThresholds(value, "thresholds.\(key)")
        }
    }

    mutating func readThresholds(_ node: Node, _ what: String) -> ThresholdOverrides {
        var o = ThresholdOverrides()
        guard let pairs = mapping(node, what, keys: ThresholdKey.all.map(\.name)) else { return o }
        for (key, _, value) in pairs {
            guard let k = ThresholdKey.named(key) else { continue }
            let name = "\(what).\(key)"
            switch k.unit {
            case .boolean:
                if let b = bool(value, name) { o.values.append((k, b ? 1 : 0)) }
            case .milliseconds:
                if let d = milliseconds(value, name) { o.values.append((k, Double(d.totalMicroseconds) / 1000)) }
            case .millimeters, .degrees, .ratio, .percent:
                guard let v = number(value, name) else { continue }
                let limit: Double = k.unit == .degrees ? 180 : k.unit == .ratio ? 10 : k.unit == .percent ? 100 : 1000
                if v < 0 || v > limit {
                    error(value.mark, "\(name) must be between 0 and \(format(limit)), not \(format(v))",
                          hint: v < 0 ? "a distance or angle cannot be negative" : nil)
                    continue
                }
                o.values.append((k, v))
            }
        }
        return o
    }

    static let deviceKinds: [(String, DeviceKind)] = [("touchpad", .touchpad), ("touchscreen", .touchscreen)]

    mutating func readDevices(_ node: Node, into config: inout Config) {
        guard case .sequence(let items, _) = node else {
            if node.isNull { return }
            error(node.mark, "devices must be a list, not \(node.kindName)", hint: "start each device rule with '- match:'")
            return
        }
        for item in items {
            var rule = DeviceRule()
            rule.mark = location(item.mark)
            guard let pairs = mapping(item, "a device rule",
                                      keys: ["match", "ignore", "thresholds", "rotation", "invert_x", "invert_y",
                                             "exclusive", "exclusive_hold_ms", "exclusive_landing_ms"]) else { continue }
            var hasMatch = false
            for (key, _, value) in pairs {
                switch key {
                case "match":
                    hasMatch = true
                    if let m = readMatch(value, "match", allowID: true) { rule.match = m }
                case "ignore": rule.ignore = bool(value, "ignore")
                case "thresholds": rule.thresholds = readThresholds(value, "thresholds")
                case "rotation":
                    if let (s, q) = scalar(value, "rotation", expected: "0, 90, 180 or 270") {
                        if !q, let v = Int(s), [0, 90, 180, 270].contains(v) { rule.rotation = v }
                        else { error(value.mark, "rotation must be 0, 90, 180 or 270, not '\(s)'", hint: "degrees clockwise") }
                    }
                case "invert_x": rule.invertX = bool(value, "invert_x")
                case "invert_y": rule.invertY = bool(value, "invert_y")
                case "exclusive": rule.exclusive = bool(value, "exclusive")
                case "exclusive_hold_ms", "exclusive_landing_ms":
                    if let d = milliseconds(value, key) {
                        if d > .seconds(2) {
                            error(value.mark, "\(key) must be at most 2000",
                                  hint: "it is how long a new touch may wait before the compositor gets it; \((key == "exclusive_hold_ms" ? DeviceSettings.defaultExclusiveHold : DeviceSettings.defaultExclusiveLanding).totalMicroseconds / 1000) is the default")
                        } else if key == "exclusive_hold_ms" { rule.exclusiveHold = d } else { rule.exclusiveLanding = d }
                    }
                default: break
                }
            }
            if !hasMatch {
                error(item.mark, "a device rule needs a 'match:'",
                      hint: "e.g. match: {kind: touchscreen, name: \"ELAN*\"}; an empty match: {} matches every device")
            }
            config.devices.append(rule)
        }
    }

    mutating func readMatch(_ node: Node, _ what: String, allowID: Bool) -> DeviceMatch? {
        let keys = allowID ? ["kind", "name", "id"] : ["kind", "name"]
        guard let pairs = mapping(node, what, keys: keys) else { return nil }
        var m = DeviceMatch()
        for (key, _, value) in pairs {
            switch key {
            case "kind": m.kind = word(value, "device kind", Reader.deviceKinds)
            case "name": m.name = string(value, "\(what).name")
            case "id":
                guard let s = string(value, "\(what).id") else { continue }
                let parts = s.split(separator: ":", omittingEmptySubsequences: false)
                if parts.count == 2, let v = UInt16(parts[0], radix: 16), let p = UInt16(parts[1], radix: 16) {
                    m.vendor = v; m.product = p
                } else {
                    error(value.mark, "\(what).id must be \"VENDOR:PRODUCT\" in hex, not '\(s)'",
                          hint: "e.g. \"04f3:2b7c\", as `gestured devices` or lsusb print it")
                }
            default: break
            }
        }
        return m
    }

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
        } else if find("keys") == nil && find("button") == nil {
            error(item.mark, "a binding needs a 'command:', 'keys:' or 'button:'",
                  hint: "command: a shell command line, run by /bin/sh -c; keys: \"ctrl+alt+Right\"; button: right")
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

    mutating func readSocket(_ node: Node, into s: inout SocketConfig) {
        guard let pairs = mapping(node, "socket", keys: ["path", "mode", "group", "allowed_uids", "allowed_gids",
                                                        "queue_limit", "raw_frames"]) else { return }
        for (key, _, value) in pairs {
            switch key {
            case "path":
                if let p = string(value, "socket.path") {
                    if p.hasPrefix("/") { s.path = p }
                    else { error(value.mark, "socket.path must be absolute, not '\(p)'", hint: "e.g. /run/gestured/gestured.sock") }
                }
            case "mode":
                if let (m, _) = scalar(value, "socket.mode", expected: "an octal mode like \"0660\"") {
                    if let v = UInt32(m, radix: 8), v <= 0o777 { s.mode = v }
                    else { error(value.mark, "socket.mode must be an octal mode like \"0660\", not '\(m)'") }
                }
            case "group":
                s.group = string(value, "socket.group")
                s.groupLine = value.mark.line; s.groupColumn = value.mark.column
            case "allowed_uids", "allowed_gids":
                if let list = oneOrList(value, "socket.\(key)", allowEmpty: true, { r, n in
                    r.integer(n, "socket.\(key)", in: 0...Int(UInt32.max - 1)).map { UInt32($0) } }) {
                    if key == "allowed_uids" { s.allowedUIDs = list } else { s.allowedGIDs = list }
                }
            case "queue_limit": if let v = integer(value, "socket.queue_limit", in: 1...1_000_000) { s.queueLimit = v }
            case "raw_frames": if let v = bool(value, "socket.raw_frames") { s.rawFrames = v }
            default: break
            }
        }
    }

    mutating func readHooks(_ node: Node, into h: inout HookLimits) {
        guard let pairs = mapping(node, "hooks", keys: ["max_concurrent", "timeout_ms", "kill_after_ms",
                                                       "output_lines_per_minute"]) else { return }
        for (key, _, value) in pairs {
            switch key {
            case "max_concurrent": if let v = integer(value, "hooks.max_concurrent", in: 1...1024) { h.maxConcurrent = v }
            case "timeout_ms": if let v = milliseconds(value, "hooks.timeout_ms", allowZero: false) { h.timeout = v }
            case "kill_after_ms": if let v = milliseconds(value, "hooks.kill_after_ms", allowZero: false) { h.killAfter = v }
            case "output_lines_per_minute":
                if let v = integer(value, "hooks.output_lines_per_minute", in: 0...100_000, hint: "0 logs no hook output") {
                    h.outputLinesPerMinute = v
                }
            default: break
            }
        }
    }

    mutating func readLog(_ node: Node, into l: inout LogConfig) {
        guard let pairs = mapping(node, "log", keys: ["level"]) else { return }
        for (key, _, value) in pairs where key == "level" {
            let choices = LogLevel.allCases.map { ($0.name, $0) } + [("err", LogLevel.error), ("warn", LogLevel.warning)]
            if let v = word(value, "log level", choices) { l.level = v }
        }
    }
}

func normalize(_ s: String) -> String {
    String(s.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " })
}

func format(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\n" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\n" { s.removeLast() }
        return String(s)
    }
}

extension Node {
    /// An empty value (`key:` with nothing after it, `~`, `null`).
    var isNull: Bool {
        if case .scalar(let s, false, _) = self { return s.isEmpty || s == "~" || s == "null" }
        return false
    }
}
