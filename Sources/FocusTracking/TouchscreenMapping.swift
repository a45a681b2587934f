import GestureWire

/// What the session's compositor says about which output each touchscreen is mapped to, where
/// it exposes that (TouchscreenMappingTracker.swift has the sources). The first rule that fits a
/// device names its output.
public struct TouchscreenMapping: Hashable, Sendable {
    public struct Rule: Hashable, Sendable {
        /// The touchscreens it is for: by vendor:product (`04f3:2234`) and by event node's name
        /// (`event5`); nil fits any.
        public var inputID: String?
        public var node: String?
        /// The output's connector name (`eDP-1`), as the screen backends name outputs.
        public var output: String
        /// Where it came from, for the log and `--print-screen`.
        public var origin: String

        public init(inputID: String? = nil, node: String? = nil, output: String, origin: String) {
            self.inputID = inputID; self.node = node; self.output = output; self.origin = origin
        }

        func fits(_ d: WireDevice) -> Bool {
            if let id = inputID, id != d.inputID { return false }
            if let n = node, !(d.node == "/dev/input/" + n) { return false }
            return true
        }
    }

    public var rules: [Rule]
    /// What the compositor says that names no output (a setting for a monitor that is not
    /// connected), for the log.
    public var notes: [String]

    public init(rules: [Rule] = [], notes: [String] = []) { self.rules = rules; self.notes = notes }

    public func rule(for d: WireDevice) -> Rule? { rules.first { $0.fits(d) } }

    /// One line for `--print-screen`: `04f3:2234 → Meta-1 (GNOME setting …)`, or `none`.
    public var summary: String {
        rules.isEmpty ? "none" : rules.map { r in
            let who = [r.inputID, r.node].compactMap { $0 }.joined(separator: " ")
            return "\(who.isEmpty ? "every touchscreen" : who) → \(r.output) (\(r.origin))"
        }.joined(separator: "; ")
    }
}
