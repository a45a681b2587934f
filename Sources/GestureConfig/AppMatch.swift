/// Which application a `gestured listen` binding is for: `app: "firefox"`, `app: ["foot", "kitty"]`
/// or `app: none` (no window has the focus).
public struct AppMatch: Hashable, Sendable {
    /// Shell-style globs, compared ignoring case with every id the focused window has.
    public var patterns: [String]
    /// `none` was given: matches when no window has the focus.
    public var matchesNothingFocused: Bool

    public init(patterns: [String], matchesNothingFocused: Bool = false) {
        self.patterns = patterns
        self.matchesNothingFocused = matchesNothingFocused
    }

    public func matches(_ focus: AppFocus) -> Bool {
        switch focus {
        case .unknown: return false
        case .nothing: return matchesNothingFocused
        case .app(let ids):
            return ids.contains { id in
                let lower = id.lowercased()
                return patterns.contains { Glob.matches($0.lowercased(), lower) }
            }
        }
    }
}

/// What `gestured listen` knows about the focused window when a gesture arrives.
public enum AppFocus: Hashable, Sendable {
    /// No focus backend works (or none has answered yet): only bindings without `app:` run.
    case unknown
    /// The desktop says no window has the focus (`app: none`).
    case nothing
    /// The focused window's ids: the Wayland app_id, or the X11 WM_CLASS class and instance.
    /// An empty list is a window without any id: only global bindings match it.
    case app(ids: [String])
}

/// Which program reads a config: the system daemon (`gestured run`) or `gestured listen` in the
/// user's session. Only the latter knows the focused window, so only it accepts `app:`.
public enum ConfigPurpose: Hashable, Sendable {
    case daemon
    case listen
}
