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
