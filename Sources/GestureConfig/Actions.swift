/// What a binding does besides (or instead of) running a command: key chords and pointer button
/// clicks, sent by the daemon through its own uinput devices. Keys are keycodes, not characters:
/// `ctrl+z` presses the physical key that sits where Z is on a US layout, on every layout.

/// One chord: modifiers pressed in order, the key tapped, modifiers released in reverse.
public struct KeyChord: Hashable, Sendable, CustomStringConvertible {
    /// EV_KEY codes held down around the key, in press order.
    public var modifiers: [UInt16]
    /// The EV_KEY code tapped.
    public var key: UInt16
    /// The chord as written in the config.
    public var text: String

    public init(modifiers: [UInt16], key: UInt16, text: String = "") {
        self.modifiers = modifiers; self.key = key; self.text = text
    }

    /// Every code the chord touches.
    public var codes: [UInt16] { modifiers + [key] }

    /// The key events of the chord, in order: (code, 1) for each modifier, the key down and up,
    /// then (code, 0) for each modifier in reverse. A modifier named twice is pressed once.
    public var events: [(code: UInt16, value: Int32)] {
        var held: [UInt16] = []
        for m in modifiers where !held.contains(m) && m != key { held.append(m) }
        return held.map { ($0, 1) } + [(key, 1), (key, 0)] + held.reversed().map { ($0, 0) }
    }

    public var description: String { text }

    public static func == (a: KeyChord, b: KeyChord) -> Bool { a.modifiers == b.modifiers && a.key == b.key }
    public func hash(into h: inout Hasher) { h.combine(modifiers); h.combine(key) }
}

/// A pointer button a binding may click.
public enum PointerButton: String, Hashable, Sendable, CaseIterable {
    case left, right, middle, back, forward

    /// The kernel's BTN_* code (back and forward are BTN_SIDE and BTN_EXTRA, as libinput maps
    /// them to buttons 8 and 9).
    public var code: UInt16 {
        switch self {
        case .left: return 0x110
        case .right: return 0x111
        case .middle: return 0x112
        case .back: return 0x113
        case .forward: return 0x114
        }
    }
}

/// `button:` (and `at:`) of a binding.
public struct ButtonAction: Hashable, Sendable {
    public var button: PointerButton
    /// `at: touch`: click where the gesture happened, through a virtual absolute pointer that
    /// mirrors the touchscreen's axes. Otherwise the click lands wherever the cursor is.
    public var atTouch: Bool
    public init(button: PointerButton, atTouch: Bool = false) { self.button = button; self.atTouch = atTouch }
}

/// `touchpad:` of a binding: while the bound touchscreen swipe, pan or pinch is in progress, the
/// daemon's virtual touchpad replays it with as many contacts, so the compositor's libinput reports
/// a touchpad GESTURE_SWIPE or GESTURE_PINCH that follows the fingers (docs/ACTIONS.md).
public struct TouchpadAction: Hashable, Sendable {
    /// Millimetres the virtual contacts move per millimetre the fingers move on the touchscreen.
    public var scale: Double
    public static let defaultScale = 1.0
    /// The range `scale` accepts: below it the motion vanishes, above it the contacts reach the
    /// virtual touchpad's edge after a few millimetres.
    public static let scaleRange: ClosedRange<Double> = 0.05...10
    public init(scale: Double = TouchpadAction.defaultScale) { self.scale = scale }
}

/// Kernel key names (KEY_* without the prefix, any case) and the usual aliases.
public enum KeyNames {
    /// Aliases people write for modifiers and a few keys, lower-cased.
    static let aliases: [(name: String, code: UInt16)] = [
        ("ctrl", 29), ("control", 29), ("lctrl", 29), ("rctrl", 97), ("leftcontrol", 29), ("rightcontrol", 97),
        ("alt", 56), ("lalt", 56), ("ralt", 100), ("altgr", 100),
        ("shift", 42), ("lshift", 42), ("rshift", 54),
        ("super", 125), ("logo", 125), ("meta", 125), ("win", 125),
        ("lsuper", 125), ("rsuper", 126), ("leftsuper", 125), ("rightsuper", 126),
        ("leftlogo", 125), ("rightlogo", 126), ("lmeta", 125), ("rmeta", 126),
        ("return", 28), ("escape", 1), ("del", 111), ("pageup", 104), ("pagedown", 109),
    ]

    private static let table: [String: UInt16] = {
        var t: [String: UInt16] = [:]
        for (n, c) in kernel { t[n] = c }
        for (n, c) in aliases where t[n] == nil { t[n] = c }
        return t
    }()

    /// The EV_KEY code of a key name, ignoring case (`Right`, `KEY_RIGHT`, `ctrl`); nil if unknown.
    public static func code(for name: String) -> UInt16? {
        var n = name.lowercased()
        if n.hasPrefix("key_") { n.removeFirst(4) }
        return table[n]
    }

    /// Every name accepted (for did-you-mean hints).
    public static var allNames: [String] { kernel.map(\.name) + aliases.map(\.name) }

    /// The kernel names (lower-cased, without KEY_) and their codes, as generated from libevdev.
    public static var kernelTable: [(name: String, code: UInt16)] { kernel }

    /// Parses "ctrl+alt+Right": `+`-separated names, the last one the key tapped.
    public static func chord(_ text: String) -> Result<KeyChord, ChordError> {
        let raw = text.split(separator: "+", omittingEmptySubsequences: false)
        let parts = raw.map { String($0).trimmingSpaces }
        if parts.allSatisfy(\.isEmpty) { return .failure(.empty) }
        var codes: [UInt16] = []
        var offset = 0
        for (p, r) in zip(parts, raw) {
            if p.isEmpty { return .failure(.emptyName) }
            guard let c = code(for: p) else {
                let leading = r.prefix { $0 == " " || $0 == "\t" }.count
                return .failure(.unknown(p, suggestion: suggestion(for: p), offset: offset + leading))
            }
            codes.append(c)
            offset += r.count + 1
        }
        return .success(KeyChord(modifiers: Array(codes.dropLast()), key: codes.last!, text: text))
    }

    static func suggestion(for name: String) -> String? {
        var n = name.lowercased()
        if n.hasPrefix("key_") { n.removeFirst(4) }
        return Suggest.closest(n, allNames)
    }

    public enum ChordError: Error, Hashable, Sendable {
        case empty
        case emptyName
        /// `offset`: characters from the start of the text to the name.
        case unknown(String, suggestion: String?, offset: Int)
    }
}

/// The `actions:` section: who may ask the daemon (the socket's `emit` request, used by
/// `gestured listen`) to send keys and clicks. Root may always; see `EmitPolicy` in the daemon.
public struct ActionsConfig: Hashable, Sendable {
    /// false: the daemon refuses every `emit` request.
    public var emit = true
    /// The user of the seat's active session (logind) may emit: the person at the keyboard can do
    /// what they could type.
    public var activeSessionUser = true
    /// Further users and groups (by number) allowed to emit.
    public var allowedUIDs: [UInt32] = []
    public var allowedGIDs: [UInt32] = []
    public init() {}
}
