import GestureCore

/// The environment a hook runs with: the daemon's own (PATH, HOME…) without any GESTURE_*
/// variables it inherited, plus the gesture's. Values that do not apply are empty.
public enum HookEnvironment {
    public static func variables(event e: GestureEvent, device: HookDevice) -> [(String, String)] {
        [
            ("GESTURE_KIND", e.kind.rawValue),
            ("GESTURE_PHASE", e.phase.rawValue),
            ("GESTURE_FINGERS", String(e.fingers)),
            ("GESTURE_DIRECTION", e.direction?.rawValue ?? ""),
            ("GESTURE_EDGE", e.edge?.rawValue ?? ""),
            ("GESTURE_DX_MM", number(e.dxMillimeters, 2)),
            ("GESTURE_DY_MM", number(e.dyMillimeters, 2)),
            ("GESTURE_SCALE", number(e.scale, 3)),
            ("GESTURE_ROTATION_DEG", number(e.rotationDegrees, 2)),
            ("GESTURE_VELOCITY_MM_S", number(e.velocityMillimetersPerSecond, 1)),
            ("GESTURE_X", number(e.x, 3)),
            ("GESTURE_Y", number(e.y, 3)),
            ("GESTURE_DEVICE_NAME", device.name),
            ("GESTURE_DEVICE_KIND", device.kind.rawValue),
            ("GESTURE_DEVICE_NODE", device.node),
        ]
    }

    /// What a hook inherits of `environment` (NAME=value strings, the daemon's own): all but the
    /// GESTURE_* variables and the names in `dropping` (each "NAME=").
    static func inheritable(_ environment: [String], dropping: [String] = []) -> [String] {
        environment.filter { v in !v.utf8.starts(with: "GESTURE_".utf8) && !dropping.contains { v.utf8.starts(with: $0.utf8) } }
    }

    /// A hook's environment: `inherited` (already `inheritable`) and the gesture's variables.
    static func make(event: GestureEvent, device: HookDevice, inherited: [String]) -> [String] {
        inherited + variables(event: event, device: device).map { "\($0.0)=\(sanitize($0.1))" }
    }

    /// NUL cannot be in an environment string. Tested on the UTF-8: a Character search would
    /// break every value into grapheme clusters.
    static func sanitize(_ s: String) -> String { s.utf8.contains(0) ? s.replacingNUL : s }

    /// Fixed-point text with up to `decimals` digits ("12.5", "-3", "0.125"); empty for nil.
    public static func number(_ v: Double?, _ decimals: Int) -> String {
        guard let v, v.isFinite else { return "" }
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(v) * Double(scale)).rounded()
        guard scaled < 9e17 else { return String(v) }
        let n = Int64(scaled)
        var s = String(n / scale)
        var frac = String(n % scale)
        frac = String(repeating: "0", count: decimals - frac.count) + frac
        while frac.last == "0" { frac.removeLast() }
        if !frac.isEmpty { s += "." + frac }
        return (v < 0 && n != 0 ? "-" : "") + s
    }
}

extension String {
    fileprivate var replacingNUL: String { String(self.map { $0 == "\0" ? " " : $0 }) }
}
