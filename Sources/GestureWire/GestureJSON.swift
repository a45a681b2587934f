import GestureCore

/// Hand-written JSON for gesture events and touch frames: one object per line, keys in a fixed
/// order, strings escaped per RFC 8259, non-finite numbers omitted (never NaN/inf). Fast enough for
/// the daemon's hot path: one `String` built by appending, no reflection.
///
/// Gesture shape (issue 2 item 5):
///
///     {"type":"gesture","gesture":"swipe","phase":"recognized","id":1,"fingers":3,
///      "direction":"left","edge":…,"time":1.234,"device":{"id":1,"name":"…","kind":"touchpad"},
///      "dx_mm":…,"dy_mm":…,"step_dx_mm":…,"step_dy_mm":…,"distance_mm":…,"velocity_mm_s":…,
///      "scale":…,"rotation_deg":…,"x":…,"y":…}
///
/// Frame shape:
///
///     {"type":"frame","time":0.012,"fingers":2,"touches":[{"id":1,"slot":0,"phase":"began",
///      "x_mm":12.5,"y_mm":30.25,"pressure":40,"major_mm":…,"tool":"finger"}],
///      "resynchronized":true,"semi_mt":true,"device_removed":true}
///
/// `time` is seconds since `origin` (the recording's first event, or the daemon's start).
public enum GestureJSON {
    /// A device as it appears in events: `{"id":…,"name":…,"kind":…}`. `id` is the daemon's
    /// device id (the one in `hello` and `deviceAdded`); nil outside the daemon (`gestured
    /// replay`), and then the key is left out. A gesture is identified within a daemon run by
    /// (device id, gesture id): gesture ids are numbered per device.
    public struct DeviceInfo: Hashable, Sendable {
        public var id: Int?
        public var name: String
        public var kind: DeviceKind
        public init(id: Int? = nil, name: String, kind: DeviceKind) { self.id = id; self.name = name; self.kind = kind }
        public init(_ d: DeviceDescription) { self.init(name: d.name, kind: d.kind) }
    }

    public static func encode(_ g: GestureEvent, device: DeviceInfo, origin: Instant) -> String {
        var s = "{\"type\":\"gesture\",\"gesture\":"
        s.reserveCapacity(256)
        appendString(g.kind.rawValue, to: &s)
        s += ",\"phase\":\""; s += g.phase.rawValue
        s += "\",\"id\":"; s += String(g.id)
        s += ",\"fingers\":"; s += String(g.fingers)
        if let d = g.direction { s += ",\"direction\":"; appendString(d.rawValue, to: &s) }
        if let e = g.edge { s += ",\"edge\":\""; s += e.rawValue; s += "\"" }
        s += ",\"time\":"; appendTime(g.time, origin: origin, to: &s)
        s += ",\"device\":"; appendDevice(device, to: &s)
        appendNumber("dx_mm", g.dxMillimeters, decimals: 3, to: &s)
        appendNumber("dy_mm", g.dyMillimeters, decimals: 3, to: &s)
        appendNumber("step_dx_mm", g.stepDxMillimeters, decimals: 3, to: &s)
        appendNumber("step_dy_mm", g.stepDyMillimeters, decimals: 3, to: &s)
        appendNumber("distance_mm", g.distanceMillimeters, decimals: 3, to: &s)
        appendNumber("velocity_mm_s", g.velocityMillimetersPerSecond, decimals: 3, to: &s)
        appendNumber("scale", g.scale, decimals: 4, to: &s)
        appendNumber("rotation_deg", g.rotationDegrees, decimals: 3, to: &s)
        appendNumber("x", g.x, decimals: 4, to: &s)
        appendNumber("y", g.y, decimals: 4, to: &s)
        s += "}"
        return s
    }

    public static func encode(_ f: TouchFrame, origin: Instant, device: DeviceInfo? = nil) -> String {
        var s = "{\"type\":\"frame\",\"time\":"
        s.reserveCapacity(64 + f.touches.count * 96)
        appendTime(f.time, origin: origin, to: &s)
        if let device { s += ",\"device\":"; appendDevice(device, to: &s) }
        s += ",\"fingers\":"; s += String(f.fingerCount)
        s += ",\"touches\":["
        for (i, t) in f.touches.enumerated() {
            if i > 0 { s += "," }
            s += "{\"id\":"; s += String(t.id)
            s += ",\"slot\":"; s += String(t.slot)
            s += ",\"phase\":\""; s += t.phase.rawValue; s += "\""
            appendNumber("x_mm", t.x, decimals: 3, to: &s)
            appendNumber("y_mm", t.y, decimals: 3, to: &s)
            if let p = t.pressure { s += ",\"pressure\":"; s += String(p) }
            appendNumber("major_mm", t.majorAxis, decimals: 3, to: &s)
            if t.tool != .finger { s += ",\"tool\":\""; s += t.tool.rawValue; s += "\"" }
            s += "}"
        }
        s += "]"
        if f.flags.contains(.resynchronized) { s += ",\"resynchronized\":true" }
        if f.flags.contains(.semiMT) { s += ",\"semi_mt\":true" }
        if f.flags.contains(.deviceRemoved) { s += ",\"device_removed\":true" }
        s += "}"
        return s
    }

    static func appendDevice(_ d: DeviceInfo, to s: inout String) {
        s += "{"
        if let id = d.id { s += "\"id\":"; s += String(id); s += "," }
        s += "\"name\":"; appendString(d.name, to: &s)
        s += ",\"kind\":"; appendString(d.kind.rawValue, to: &s)
        s += "}"
    }

    /// Seconds since `origin`, exact to the microsecond, trailing zeros trimmed (`1.5`, `0.000125`).
    public static func appendTime(_ t: Instant, origin: Instant, to s: inout String) {
        let us = t.microseconds - origin.microseconds
        if us < 0 { s += "-" }
        let a = us.magnitude
        s += String(a / 1_000_000)
        var frac = a % 1_000_000
        guard frac != 0 else { return }
        var digits = 6
        while frac % 10 == 0 { frac /= 10; digits -= 1 }
        let f = String(frac)
        s += "."
        if f.count < digits { s += String(repeating: "0", count: digits - f.count) }
        s += f
    }

    /// `,"key":value` with `decimals` fixed digits (trailing zeros trimmed); nothing for nil/NaN/inf.
    static func appendNumber(_ key: String, _ v: Double?, decimals: Int, to s: inout String) {
        guard let v, v.isFinite else { return }
        s += ",\""; s += key; s += "\":"
        appendFixed(v, decimals: decimals, to: &s)
    }

    /// A finite number with at most `decimals` fractional digits; huge values use Swift's shortest form.
    public static func appendFixed(_ v: Double, decimals: Int, to s: inout String) {
        var scale: Double = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (v * scale).rounded()
        guard scaled.magnitude < 9e15 else { s += v.description; return }
        var n = Int64(scaled)
        if n == 0 { s += "0"; return }
        if n < 0 { s += "-"; n = -n }
        let whole = n / Int64(scale), frac0 = n % Int64(scale)
        s += String(whole)
        guard frac0 != 0 else { return }
        var frac = frac0, digits = decimals
        while frac % 10 == 0 { frac /= 10; digits -= 1 }
        let f = String(frac)
        s += "."
        if f.count < digits { s += String(repeating: "0", count: digits - f.count) }
        s += f
    }

    /// A JSON string literal.
    public static func appendString(_ v: String, to s: inout String) {
        s += "\""
        var needsEscape = false
        for b in v.utf8 where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { needsEscape = true; break }
        if !needsEscape { s += v; s += "\""; return }
        for u in v.unicodeScalars {
            switch u {
            case "\"": s += "\\\""
            case "\\": s += "\\\\"
            case "\n": s += "\\n"
            case "\r": s += "\\r"
            case "\t": s += "\\t"
            case "\u{08}": s += "\\b"
            case "\u{0C}": s += "\\f"
            default:
                if u.value < 0x20 {
                    let h = String(u.value, radix: 16)
                    s += "\\u" + String(repeating: "0", count: 4 - h.count) + h
                } else {
                    s.unicodeScalars.append(u)
                }
            }
        }
        s += "\""
    }
}
