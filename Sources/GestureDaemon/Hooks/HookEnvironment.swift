import GestureCore
import LinuxSystem

/// The environment a hook runs with: the daemon's own (PATH, HOME…) without any GESTURE_*
/// variables it inherited, plus the gesture's. Values that do not apply are empty. Written as
/// bytes into the C strings posix_spawn takes: it is remade for every hook run.
public enum HookEnvironment {
    /// What a hook inherits of `environment` (NAME=value strings, the daemon's own): all but the
    /// GESTURE_* variables and the names in `dropping` (each "NAME=").
    static func inheritable(_ environment: [String], dropping: [String] = []) -> CStringList {
        CStringList(environment.filter { v in
            !v.utf8.starts(with: "GESTURE_".utf8) && !dropping.contains { v.utf8.starts(with: $0.utf8) }
        })
    }

    /// `inherited`, then the gesture's variables, then the hook's marker (HookTree: its prefix
    /// and the hook's id) when given.
    static func make(event e: GestureEvent, device: HookDevice, inherited: CStringList,
                     marker: (prefix: String, id: Int)? = nil) -> CStringList {
        var out = inherited
        variable("GESTURE_KIND=", &out) { $0.add(e.kind.rawValue) }
        variable("GESTURE_PHASE=", &out) { $0.add(e.phase.rawValue) }
        variable("GESTURE_FINGERS=", &out) { digits(of: e.fingers, &$0) }
        variable("GESTURE_DIRECTION=", &out) { if let d = e.direction { $0.add(d.rawValue) } }
        variable("GESTURE_EDGE=", &out) { if let edge = e.edge { $0.add(edge.rawValue) } }
        variable("GESTURE_DX_MM=", &out) { number(e.dxMillimeters, 2, &$0) }
        variable("GESTURE_DY_MM=", &out) { number(e.dyMillimeters, 2, &$0) }
        variable("GESTURE_SCALE=", &out) { number(e.scale, 3, &$0) }
        variable("GESTURE_ROTATION_DEG=", &out) { number(e.rotationDegrees, 2, &$0) }
        variable("GESTURE_VELOCITY_MM_S=", &out) { number(e.velocityMillimetersPerSecond, 1, &$0) }
        variable("GESTURE_X=", &out) { number(e.x, 3, &$0) }
        variable("GESTURE_Y=", &out) { number(e.y, 3, &$0) }
        variable("GESTURE_DEVICE_NAME=", &out) { $0.add(device.name) }
        variable("GESTURE_DEVICE_KIND=", &out) { $0.add(device.kind.rawValue) }
        variable("GESTURE_DEVICE_NODE=", &out) { $0.add(device.node) }
        if let marker {
            out.begin(); out.add(marker.prefix); digits(of: marker.id, &out); out.end()
        }
        return out
    }

    /// `NAME=value`, a NUL in the value (which cannot be in an environment string) made a space.
    private static func variable(_ name: StaticString, _ out: inout CStringList, _ value: (inout CStringList) -> Void) {
        out.begin()
        out.add(name)
        let from = out.bytes.count
        value(&out)
        if out.bytes[from...].contains(0) { out.replaceNULs(from: from) }
        out.end()
    }

    /// Fixed-point text with up to `decimals` digits ("12.5", "-3", "0.125"); empty for nil.
    public static func number(_ v: Double?, _ decimals: Int) -> String {
        var out = CStringList()
        out.begin(); number(v, decimals, &out); out.end()
        return out.strings[0]
    }

    static func number(_ v: Double?, _ decimals: Int, _ out: inout CStringList) {
        guard let v, v.isFinite else { return }
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let magnitude = abs(v) * Double(scale)
        guard magnitude < 9e17 else { return out.add(String(v)) }
        // Rounded half away from zero without libm (DecimalText.roundedHalfAway, below 2^53);
        // from 2^53 on every Double is a whole number.
        let n = magnitude < 9_007_199_254_740_992 ? DecimalText.roundedHalfAway(magnitude) : Int64(magnitude)
        if v < 0 && n != 0 { out.add(byte: UInt8(ascii: "-")) }
        digits(of: Int(n / scale), &out)
        // The fraction without its trailing zeros, zero-padded on the left to what is left.
        var fraction = n % scale, places = decimals
        while places > 0 && fraction % 10 == 0 { fraction /= 10; places -= 1 }
        guard places > 0 else { return }
        out.add(byte: UInt8(ascii: "."))
        var divisor: Int64 = 1
        for _ in 1..<places { divisor *= 10 }
        while divisor > 0 {
            out.add(byte: UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }

    /// A whole number in decimal.
    static func digits(of n: Int, _ out: inout CStringList) {
        DecimalText.write(Int64(n)) { out.add(byte: $0) }
    }
}
