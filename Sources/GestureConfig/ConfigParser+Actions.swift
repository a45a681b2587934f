import YAML

/// Parsing of a binding's `keys:`, `key_delay_ms:`, `button:`, `at:`, `when_locked:` and
/// `touchpad:`, and of the `actions:` section. Key names are checked against the kernel's (KeyNames).
extension Reader {
    static let actionKeys = ["keys", "key_delay_ms", "key_hold_ms", "button", "at", "when_locked", "touchpad"]
    static let touchpadKeys = ["scale"]
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
        if let (k, v) = find("touchpad") { b.touchpad = readTouchpad(v, key: k, binding: b) }
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

    /// `touchpad: {scale: 1}` (or `touchpad: {}` / `touchpad: true` for the default scale): only on
    /// touchscreen swipes, pans and pinches of 2 to 5 fingers, in the daemon's config.
    mutating func readTouchpad(_ v: Node, key: Mark, binding b: Binding) -> TouchpadAction? {
        var action = TouchpadAction()
        if case .scalar = v {
            guard let on = bool(v, "touchpad") else { return nil }
            if !on { return nil }
        } else {
            guard let pairs = mapping(v, "touchpad", keys: Reader.touchpadKeys) else { return nil }
            for (k, _, value) in pairs where k == "scale" {
                guard let s = number(value, "touchpad.scale") else { continue }
                let r = TouchpadAction.scaleRange
                guard r.contains(s) else {
                    error(value.mark, "touchpad.scale must be between \(format(r.lowerBound)) and \(format(r.upperBound)), not \(format(s))",
                          hint: "millimetres the virtual touchpad's contacts move per millimetre the fingers move; 1 is the default")
                    continue
                }
                action.scale = s
            }
        }
        let before = diagnostics.count
        if purpose == .listen {
            error(key, "touchpad: is the daemon's action, not `gestured listen`'s",
                  hint: "move the binding to the daemon's config (/etc/gestured/config.yaml); the daemon owns the virtual touchpad")
        }
        if ![.swipe, .pan, .pinch].contains(b.gesture) {
            error(key, "touchpad: replays a swipe, pan or pinch, not a \(b.gesture.rawValue)",
                  hint: "a touchpad reports only swipes and pinches as gestures; bind gesture: swipe, pan or pinch")
        }
        switch b.fingers {
        case .any:
            error(key, "touchpad: needs fingers: 2 to 5", hint: "e.g. fingers: 3 (one finger on a touchpad moves the pointer, it is no gesture)")
        case .counts(let c) where c.contains(1):
            error(key, "touchpad: needs fingers: 2 to 5, not 1", hint: "one finger on a touchpad moves the pointer, it is no gesture")
        default: break
        }
        if let k = b.device?.kind, k != .touchscreen {
            error(key, "touchpad: replays a touchscreen's gestures, not a \(k)'s",
                  hint: "use device: {kind: touchscreen}; a touchpad's own gestures already reach the compositor")
        }
        return diagnostics.count == before ? action : nil
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
