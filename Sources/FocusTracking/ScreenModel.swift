import GestureWire

/// One output of the session as its compositor shows it: how far it turns its picture
/// clockwise (sway's and wlroots' `transform`), and whether it mirrors it first.
public struct ScreenOutput: Hashable, Sendable {
    public var name: String
    /// 0, 90, 180 or 270, clockwise.
    public var rotation: Int
    public var flipped: Bool
    public var active: Bool

    public init(name: String, rotation: Int, flipped: Bool = false, active: Bool = true) {
        self.name = name; self.rotation = rotation; self.flipped = flipped; self.active = active
    }

    /// A Wayland/sway transform name: `normal`, `90`, `180`, `270`, `flipped`, `flipped-90`…
    /// nil for anything else.
    public static func transform(_ text: String) -> (rotation: Int, flipped: Bool)? {
        var t = Substring(text), flipped = false
        if t.hasPrefix("flipped") { flipped = true; t = t.dropFirst("flipped".count); if t.hasPrefix("-") { t = t.dropFirst() } }
        switch t {
        case "", "normal", "0": return (t == "normal" && flipped) ? nil : (0, flipped)
        case "90", "180", "270": return (Int(t)!, flipped)
        default: return nil
        }
    }

    /// `normal`, `90`, `flipped-270`…, as sway writes it.
    public var transformName: String {
        switch (rotation, flipped) {
        case (0, false): "normal"
        case (0, true): "flipped"
        case (let r, false): "\(r)"
        case (let r, true): "flipped-\(r)"
        }
    }

    /// Built into the device: eDP, LVDS and DSI connectors (a laptop's or tablet's own panel).
    public var isBuiltIn: Bool {
        ["eDP", "LVDS", "DSI"].contains { name.hasPrefix($0) }
    }
}

/// Which output a touchscreen shows on: the one the compositor maps it to (`mapping`, where
/// the compositor exposes it: TouchscreenMapping.swift), it being the compositor that turns the
/// touch input with that output; else the one udev names (`WL_OUTPUT`, on the device line);
/// else the built-in panel (eDP, LVDS, DSI) when there is exactly one; else the only active
/// output. nil when none of these says (the device keeps the orientation it has).
public enum ScreenChoice {
    public static func output(for device: WireDevice, among outputs: [ScreenOutput],
                              mapping: TouchscreenMapping? = nil) -> (ScreenOutput, why: String)? {
        let active = outputs.filter(\.active)
        if let rule = mapping?.rule(for: device), let o = active.first(where: { $0.name == rule.output }) {
            return (o, rule.origin)
        }
        if let named = device.output {
            return active.first { $0.name == named }.map { ($0, "udev WL_OUTPUT") }
        }
        let builtIn = active.filter(\.isBuiltIn)
        if builtIn.count == 1 { return (builtIn[0], "the built-in panel") }
        if active.count == 1 { return (active[0], "the only output") }
        return nil
    }
}
