import GestureCore

/// Hand-written JSON for gesture events and touch frames: one object per line, keys in a fixed
/// order, strings escaped per RFC 8259, non-finite numbers omitted (never NaN/inf). Built as bytes
/// (`JSONBytes`): the daemon encodes straight into its send buffer, no reflection, no String.
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
        var w = JSONBytes()
        encode(g, device: device, origin: origin, into: &w)
        return w.string
    }

    /// The gesture's line appended to `w` (no newline).
    public static func encode(_ g: GestureEvent, device: DeviceInfo, origin: Instant, into w: inout JSONBytes) {
        encode(g, deviceJSON: deviceJSON(device), origin: origin, into: &w)
    }

    /// `{"id":…,"name":…,"kind":…}` as it appears in the events of `device`.
    public static func deviceJSON(_ device: DeviceInfo) -> [UInt8] {
        var w = JSONBytes(capacity: 64)
        appendDevice(device, to: &w)
        return w.bytes
    }

    /// The gesture's line appended to `w`, with the device object as `deviceJSON(_:)` made it.
    public static func encode(_ g: GestureEvent, deviceJSON: [UInt8], origin: Instant, into w: inout JSONBytes) {
        withLine(g, deviceJSON: deviceJSON, origin: origin) { w.append(contentsOf: $0) }
    }

    /// The gesture's line (and a newline after it when `newline`), handed to `body` from a
    /// temporary buffer: the daemon's hot path, which copies it straight into each client's send
    /// buffer (through a buffer of its own, emptying and appending cost about 450 instructions a
    /// line, callgrind). The device object is as `deviceJSON(_:)` made it (a device's object is
    /// the same on every line; encoding it anew was a fifth of the line's instructions).
    public static func withLine(_ g: GestureEvent, deviceJSON: [UInt8], origin: Instant, newline: Bool = false,
                                _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        typealias P = JSONBytes.Piece
        let kind = Names.kind(g.kind), phase = Names.phase(g.phase), edge = g.edge.map(Names.edge)
        var room = 201 + deviceJSON.count + P.stringRoom(g.kind.rawValue) + phase.utf8CodeUnitCount
        if let d = g.direction { room += P.stringRoom(d.rawValue) }
        if let edge { room += edge.utf8CodeUnitCount }
        room += P.numberRoom("velocity_mm_s") * 10
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { buf in
            let p = buf.baseAddress!
            var i = P.text("{\"type\":\"gesture\",\"gesture\":", p, 0)
            if let kind { i = P.text(kind, p, i) } else { i = P.string(g.kind.rawValue, p, i) }
            i = P.text(phase, p, i); i = P.integer(g.id, p, i)
            i = P.text(",\"fingers\":", p, i); i = P.integer(g.fingers, p, i)
            if let d = g.direction {
                if let literal = Names.direction(d) { i = P.text(literal, p, i) } else {
                    i = P.text(",\"direction\":", p, i); i = P.string(d.rawValue, p, i)
                }
            }
            if let edge { i = P.text(edge, p, i) }
            i = P.text(",\"time\":", p, i); i = P.time(g.time, origin: origin, p, i)
            i = P.text(",\"device\":", p, i)
            i = deviceJSON.withUnsafeBufferPointer { d in
                // memcpy: the device's object is tens of bytes, past what word copies do well.
                if let from = d.baseAddress { UnsafeMutableRawPointer(p + i).copyMemory(from: from, byteCount: d.count) }
                return i + d.count
            }
            i = numbers(of: g, p, i)
            i = P.text("}", p, i)
            if newline { i = P.text("\n", p, i) }
            // The room above is a worst case; one past it is a bug: stop, never send.
            precondition(i <= room, "GestureJSON: \(i) bytes written into room for \(room)")
            body(UnsafeBufferPointer(start: p, count: i))
        }
    }

    /// The numbers of `g`, nil and non-finite ones left out. Each key is written with its
    /// punctuation as one literal and each value by a function of its own fixed decimals
    /// (`Piece.number3`, `number4`): through one function taking the key and the decimals at run
    /// time, the numbers were over half of a pan line's instructions (callgrind).
    @inline(__always)
    private static func numbers(of g: GestureEvent, _ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> Int {
        typealias P = JSONBytes.Piece
        var i = i
        if let v = g.dxMillimeters { i = P.number3(v, p, P.text(",\"dx_mm\":", p, i), orBackTo: i) }
        if let v = g.dyMillimeters { i = P.number3(v, p, P.text(",\"dy_mm\":", p, i), orBackTo: i) }
        if let v = g.stepDxMillimeters { i = P.number3(v, p, P.text(",\"step_dx_mm\":", p, i), orBackTo: i) }
        if let v = g.stepDyMillimeters { i = P.number3(v, p, P.text(",\"step_dy_mm\":", p, i), orBackTo: i) }
        if let v = g.distanceMillimeters { i = P.number3(v, p, P.text(",\"distance_mm\":", p, i), orBackTo: i) }
        if let v = g.velocityMillimetersPerSecond { i = P.number3(v, p, P.text(",\"velocity_mm_s\":", p, i), orBackTo: i) }
        if let v = g.scale { i = P.number4(v, p, P.text(",\"scale\":", p, i), orBackTo: i) }
        if let v = g.rotationDegrees { i = P.number3(v, p, P.text(",\"rotation_deg\":", p, i), orBackTo: i) }
        if let v = g.x { i = P.number4(v, p, P.text(",\"x\":", p, i), orBackTo: i) }
        if let v = g.y { i = P.number4(v, p, P.text(",\"y\":", p, i), orBackTo: i) }
        return i
    }

    /// The names of kinds, phases, directions and edges as literals with their quotes (and for
    /// a phase, direction or edge, the key): a line copies them instead of escaping a String
    /// byte by byte (two strings a line, about a tenth of its instructions, callgrind).
    enum Names {
        /// `,"phase":"…","id":`.
        static func phase(_ phase: GesturePhase) -> StaticString {
            switch phase {
            case .recognized: ",\"phase\":\"recognized\",\"id\":"
            case .began: ",\"phase\":\"began\",\"id\":"
            case .changed: ",\"phase\":\"changed\",\"id\":"
            case .ended: ",\"phase\":\"ended\",\"id\":"
            case .cancelled: ",\"phase\":\"cancelled\",\"id\":"
            }
        }

        /// `,"edge":"…"`.
        static func edge(_ edge: Edge) -> StaticString {
            switch edge {
            case .left: ",\"edge\":\"left\""
            case .right: ",\"edge\":\"right\""
            case .top: ",\"edge\":\"top\""
            case .bottom: ",\"edge\":\"bottom\""
            }
        }

        /// `"…"` for one of GestureCore's kinds; nil for any other name (the caller escapes it).
        static func kind(_ kind: GestureKind) -> StaticString? {
            guard MemoryLayout<String>.size == 16 else { return nil }
            let w = words(kind.rawValue)
            if w == words("pan") { return "\"pan\"" }
            if w == words("pinch") { return "\"pinch\"" }
            if w == words("rotate") { return "\"rotate\"" }
            if w == words("swipe") { return "\"swipe\"" }
            if w == words("tap") { return "\"tap\"" }
            if w == words("doubleTap") { return "\"doubleTap\"" }
            if w == words("longPress") { return "\"longPress\"" }
            if w == words("edgeSwipe") { return "\"edgeSwipe\"" }
            return nil
        }

        /// `,"direction":"…"` for one of GestureCore's directions; nil for any other name.
        static func direction(_ direction: GestureDirection) -> StaticString? {
            guard MemoryLayout<String>.size == 16 else { return nil }
            let w = words(direction.rawValue)
            if w == words("left") { return ",\"direction\":\"left\"" }
            if w == words("right") { return ",\"direction\":\"right\"" }
            if w == words("up") { return ",\"direction\":\"up\"" }
            if w == words("down") { return ",\"direction\":\"down\"" }
            if w == words("upLeft") { return ",\"direction\":\"upLeft\"" }
            if w == words("upRight") { return ",\"direction\":\"upRight\"" }
            if w == words("downLeft") { return ",\"direction\":\"downLeft\"" }
            if w == words("downRight") { return ",\"direction\":\"downRight\"" }
            if w == words("in") { return ",\"direction\":\"in\"" }
            if w == words("out") { return ",\"direction\":\"out\"" }
            if w == words("clockwise") { return ",\"direction\":\"clockwise\"" }
            if w == words("counterclockwise") { return ",\"direction\":\"counterclockwise\"" }
            return nil
        }

        /// The two words of a String's representation (on 64-bit platforms, checked above). Equal
        /// words are equal strings: the standard library's `==` compares them first. A name of
        /// up to 15 bytes is a small string, its bytes in the words, so GestureCore's constants
        /// (and the same names read from a config) have the literals' words here. A name held
        /// otherwise (16 bytes or more, as `counterclockwise`, whose words point at its bytes)
        /// may not be found and is then escaped: the words decide how fast a line is written,
        /// never what it says. `==` would call into the standard library for every name it
        /// rejects on the way.
        @inline(__always)
        private static func words(_ s: String) -> (UInt64, UInt64) { unsafeBitCast(s, to: (UInt64, UInt64).self) }
    }

    public static func encode(_ f: TouchFrame, origin: Instant, device: DeviceInfo? = nil) -> String {
        var w = JSONBytes(capacity: 64 + f.touches.count * 96)
        encode(f, origin: origin, device: device, into: &w)
        return w.string
    }

    /// The frame's line appended to `w` (no newline).
    public static func encode(_ f: TouchFrame, origin: Instant, device: DeviceInfo? = nil, into w: inout JSONBytes) {
        w.raw("{\"type\":\"frame\",\"time\":"); w.time(f.time, origin: origin)
        if let device { w.raw(",\"device\":"); appendDevice(device, to: &w) }
        w.raw(",\"fingers\":"); w.int(f.fingerCount)
        w.raw(",\"touches\":[")
        for (i, t) in f.touches.enumerated() {
            if i > 0 { w.raw(",") }
            w.raw("{\"id\":"); w.int(t.id)
            w.raw(",\"slot\":"); w.int(t.slot)
            w.raw(",\"phase\":\""); w.rawText(t.phase.rawValue); w.raw("\"")
            w.number("x_mm", t.x, decimals: 3)
            w.number("y_mm", t.y, decimals: 3)
            if let p = t.pressure { w.raw(",\"pressure\":"); w.int(p) }
            w.number("major_mm", t.majorAxis, decimals: 3)
            if t.tool != .finger { w.raw(",\"tool\":\""); w.rawText(t.tool.rawValue); w.raw("\"") }
            w.raw("}")
        }
        w.raw("]")
        if f.flags.contains(.resynchronized) { w.raw(",\"resynchronized\":true") }
        if f.flags.contains(.semiMT) { w.raw(",\"semi_mt\":true") }
        if f.flags.contains(.deviceRemoved) { w.raw(",\"device_removed\":true") }
        w.raw("}")
    }

    static func appendDevice(_ d: DeviceInfo, to w: inout JSONBytes) {
        w.raw("{")
        if let id = d.id { w.raw("\"id\":"); w.int(id); w.raw(",") }
        w.raw("\"name\":"); w.string(d.name)
        w.raw(",\"kind\":"); w.string(d.kind.rawValue)
        w.raw("}")
    }

    /// Seconds since `origin`, exact to the microsecond, trailing zeros trimmed (`1.5`, `0.000125`).
    public static func appendTime(_ t: Instant, origin: Instant, to s: inout String) {
        var w = JSONBytes(capacity: 24); w.time(t, origin: origin); s += w.string
    }

    /// A finite number with at most `decimals` fractional digits; huge values use Swift's shortest form.
    public static func appendFixed(_ v: Double, decimals: Int, to s: inout String) {
        var w = JSONBytes(capacity: 24); w.fixed(v, decimals: decimals); s += w.string
    }

    /// A JSON string literal.
    public static func appendString(_ v: String, to s: inout String) {
        var w = JSONBytes(capacity: v.utf8.count + 2); w.string(v); s += w.string
    }
}
