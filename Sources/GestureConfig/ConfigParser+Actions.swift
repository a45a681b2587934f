import YAML

/// Parsing of a binding's `keys:`, `key_delay_ms:`, `button:`, `at:` and `when_locked:`, and of
/// the `actions:` section. Key names are checked against the kernel's (KeyNames).
extension Reader {
    static let actionKeys = ["keys", "key_delay_ms", "key_hold_ms", "button", "at", "when_locked"]
    static let buttons: [(String, PointerButton)] = PointerButton.allCases.map { ($0.rawValue, $0) }

    mutating func readActions(_ find: (String) -> (mark: Mark, value: Node)?, into b: inout Binding) {
        if let (_, v) = find("keys") {
            b.keys = oneOrList(v, "keys", { r, n in r.chord(n) }) ?? []
        }
        for (key, what) in [("key_delay_ms", "the pause between two chords"), ("key_hold_ms", "how long a chord stays down")] {
            guard let (_, v) = find(key) else { continue }
            if find("keys") == nil { error(v.mark, "\(key) only applies with keys:") }
            let d = milliseconds(v, key) ?? .zero
            if d > .seconds(10) { error(v.mark, "\(key) must be at most 10000", hint: "it is \(what)") }
            if key == "key_delay_ms" { b.keyDelay = d } else { b.keyHold = d }
        }
        if let (_, v) = find("button") {
            if let button = word(v, "button", Reader.buttons) { b.button = ButtonAction(button: button) }
        }
        if let (_, v) = find("at") {
            if let (s, _) = scalar(v, "at", expected: "touch or cursor") {
                switch s.lowercased() {
                case "touch":
                    if find("button") == nil {
                        error(v.mark, "at: touch only applies with button:", hint: "e.g. button: right")
                    } else if b.device?.kind == .touchpad {
                        error(v.mark, "at: touch needs a touchscreen", hint: "a touchpad has no place on the screen; remove at:")
                    }
                    b.button?.atTouch = true
                case "cursor": b.button?.atTouch = false
                default:
                    error(v.mark, "unknown at '\(s)'", hint: Suggest.hint(for: s, among: ["touch", "cursor"]))
                }
            }
        }
        if let (_, v) = find("when_locked") {
            // `gestured listen` pauses its commands too while its session is locked; the daemon's
            // commands run as its own user, outside any session, and are never paused.
            if find("keys") == nil && find("button") == nil && purpose != .listen {
                error(v.mark, "when_locked only applies with keys: or button: in the daemon's config",
                      hint: "the daemon runs its commands whether the screen is locked or not; in a `gestured listen` "
                          + "config (check it with `gestured check --listen`) when_locked: true lets a command run while locked")
            }
            b.whenLocked = bool(v, "when_locked") ?? false
        }
    }

    /// One chord; an unknown name is reported at its own column when the scalar is on one line.
    mutating func chord(_ node: Node) -> KeyChord? {
        guard case .scalar(let text, let quoted, let mark) = node else {
            error(node.mark, "keys must be a chord like \"ctrl+alt+Right\" or a list of them, not \(node.kindName)")
            return nil
        }
        switch KeyNames.chord(text) {
        case .success(let c): return c
        case .failure(.empty):
            error(mark, "keys: empty chord", hint: "e.g. \"ctrl+alt+Right\"")
        case .failure(.emptyName):
            error(mark, "keys: '\(text)' has an empty key name", hint: "names are joined by +, e.g. \"ctrl+c\"")
        case .failure(.unknown(let name, let suggestion, let offset)):
            var at = mark
            if !text.contains("\n") { at.column += offset + (quoted ? 1 : 0) }
            error(at, "unknown key '\(name)' in '\(text)'",
                  hint: suggestion.map { "did you mean '\($0)'?" }
                      ?? "kernel key names without KEY_ (as `libinput debug-events` or evtest print them), or ctrl, alt, shift, super")
        }
        return nil
    }

    mutating func readActions(_ node: Node, into a: inout ActionsConfig) {
        guard let pairs = mapping(node, "actions", keys: ["emit", "active_session", "allowed_uids", "allowed_gids"]) else { return }
        for (key, _, value) in pairs {
            switch key {
            case "emit": if let v = bool(value, "actions.emit") { a.emit = v }
            case "active_session": if let v = bool(value, "actions.active_session") { a.activeSessionUser = v }
            case "allowed_uids", "allowed_gids":
                if let list = oneOrList(value, "actions.\(key)", allowEmpty: true, { r, n in
                    r.integer(n, "actions.\(key)", in: 0...Int(UInt32.max - 1)).map { UInt32($0) } }) {
                    if key == "allowed_uids" { a.allowedUIDs = list } else { a.allowedGIDs = list }
                }
            default: break
            }
        }
    }
}
