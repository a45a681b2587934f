import GestureCore

/// Hand-written JSON for gesture events and touch frames: one object per line, keys in a fixed
/// order, strings escaped per RFC 8259, non-finite numbers omitted (never NaN/inf). Built as bytes
/// (`JSONBytes.Piece`) into a buffer sized beforehand: no reflection, no String on the daemon's
/// path. Tests/GestureWireTests/GestureLineReferenceTests.swift holds a plain encoder of the same
/// shapes; every fixture's lines must match it byte for byte.
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
        public var id: Int? { didSet { encodeObject() } }
        public var name: String { didSet { encodeObject() } }
        public var kind: DeviceKind { didSet { encodeObject() } }
        /// The object as every gesture and frame line of this device carries it, encoded with
        /// the fields and again whenever one changes (a line copies it instead of escaping the
        /// name on every frame).
        public private(set) var object: [UInt8] = []

        public init(id: Int? = nil, name: String, kind: DeviceKind) {
            self.id = id; self.name = name; self.kind = kind
            encodeObject()
        }
        public init(_ d: DeviceDescription) { self.init(name: d.name, kind: d.kind) }

        private mutating func encodeObject() {
            var w = JSONBytes(capacity: 64)
            w.raw("{")
            if let id { w.raw("\"id\":"); w.int(id); w.raw(",") }
            w.raw("\"name\":"); w.string(name)
            w.raw(",\"kind\":"); w.string(kind.rawValue)
            w.raw("}")
            object = w.bytes
        }
    }

    /// The gesture's line, without a newline.
    public static func encode(_ g: GestureEvent, device: DeviceInfo, origin: Instant) -> String {
        var line = ""
        withLine(g, device: device, origin: origin) { line = String(decoding: $0, as: UTF8.self) }
        return line
    }

    /// The one writer of gesture lines (`encode` above, `gestured replay`, the socket): the line,
    /// and a newline after it when `newline`, handed to `body` from a temporary buffer that is
    /// never seen again. The buffer is sized from each field's longest form, so the line is
    /// written without a capacity check per piece; writing past that room is a bug and stops
    /// the process rather than send a cut line.
    public static func withLine(_ g: GestureEvent, device: DeviceInfo, origin: Instant, newline: Bool = false,
                                _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        typealias P = JSONBytes.Piece
        let phase = phaseLiteral(g.phase), edge = g.edge.map(edgeLiteral)
        // The known names as literals; a name met later (GestureKind's NameTable) is escaped,
        // and only then looked up as a String.
        let kindLiteral = Self.kindLiteral(g.kind), directionLiteral = g.direction.flatMap(Self.directionLiteral)
        // The kind and direction literals (at most 11 and 31 bytes), the device object, the
        // numbers at their longest.
        var room = 201 + 48 + phase.utf8CodeUnitCount + device.object.count + P.numberRoom("velocity_mm_s") * 10
        if kindLiteral == nil { room += P.stringRoom(g.kind.rawValue) }
        if directionLiteral == nil, let d = g.direction { room += P.stringRoom(d.rawValue) }
        if let edge { room += edge.utf8CodeUnitCount }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { buf in
            let p = buf.baseAddress!
            var i = P.text("{\"type\":\"gesture\",\"gesture\":", p, 0)
            if let kindLiteral { i = P.text(kindLiteral, p, i) } else { i = P.string(g.kind.rawValue, p, i) }
            i = P.text(phase, p, i); i = P.integer(g.id, p, i)
            i = P.text(",\"fingers\":", p, i); i = P.integer(g.fingers, p, i)
            if let directionLiteral { i = P.text(directionLiteral, p, i) } else if let d = g.direction {
                i = P.text(",\"direction\":", p, i); i = P.string(d.rawValue, p, i)
            }
            if let edge { i = P.text(edge, p, i) }
            i = P.text(",\"time\":", p, i); i = P.time(g.time, origin: origin, p, i)
            i = P.text(",\"device\":", p, i); i = deviceObject(device, p, i)
            i = numbers(of: g, p, i)
            i = P.text("}", p, i)
            if newline { i = P.text("\n", p, i) }
            precondition(i <= room, "GestureJSON: \(i) bytes written into room for \(room)")
            body(UnsafeBufferPointer(start: p, count: i))
        }
    }

    /// `device.object` at `p + i`.
    @inline(__always)
    private static func deviceObject(_ device: DeviceInfo, _ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> Int {
        device.object.withUnsafeBufferPointer { d in
            // memcpy: the object is tens of bytes, past what word copies do well.
            if let from = d.baseAddress { UnsafeMutableRawPointer(p + i).copyMemory(from: from, byteCount: d.count) }
            return i + d.count
        }
    }

    /// The numbers of `g` in their fixed order, nil and non-finite ones left out. Each key is
    /// one literal with its punctuation; `number3` and `number4` take it back out when the
    /// value is not finite.
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

    /// `,"phase":"…","id":` (phases are a closed enum, so each is a literal).
    private static func phaseLiteral(_ phase: GesturePhase) -> StaticString {
        switch phase {
        case .recognized: ",\"phase\":\"recognized\",\"id\":"
        case .began: ",\"phase\":\"began\",\"id\":"
        case .changed: ",\"phase\":\"changed\",\"id\":"
        case .ended: ",\"phase\":\"ended\",\"id\":"
        case .cancelled: ",\"phase\":\"cancelled\",\"id\":"
        }
    }

    /// `"…"`, a known kind's name as a JSON string.
    private static func kindLiteral(_ kind: GestureKind) -> StaticString? {
        switch kind {
        case .tap: "\"tap\""
        case .doubleTap: "\"doubleTap\""
        case .longPress: "\"longPress\""
        case .swipe: "\"swipe\""
        case .pan: "\"pan\""
        case .pinch: "\"pinch\""
        case .rotate: "\"rotate\""
        case .edgeSwipe: "\"edgeSwipe\""
        default: nil
        }
    }

    /// `,"direction":"…"` for a known direction.
    private static func directionLiteral(_ d: GestureDirection) -> StaticString? {
        switch d {
        case .up: ",\"direction\":\"up\""
        case .down: ",\"direction\":\"down\""
        case .left: ",\"direction\":\"left\""
        case .right: ",\"direction\":\"right\""
        case .upLeft: ",\"direction\":\"upLeft\""
        case .upRight: ",\"direction\":\"upRight\""
        case .downLeft: ",\"direction\":\"downLeft\""
        case .downRight: ",\"direction\":\"downRight\""
        case .in: ",\"direction\":\"in\""
        case .out: ",\"direction\":\"out\""
        case .clockwise: ",\"direction\":\"clockwise\""
        case .counterclockwise: ",\"direction\":\"counterclockwise\""
        default: nil
        }
    }

    /// `,"edge":"…"` (edges are a closed enum).
    private static func edgeLiteral(_ edge: Edge) -> StaticString {
        switch edge {
        case .left: ",\"edge\":\"left\""
        case .right: ",\"edge\":\"right\""
        case .top: ",\"edge\":\"top\""
        case .bottom: ",\"edge\":\"bottom\""
        }
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
        d.object.withUnsafeBufferPointer { w.append(contentsOf: $0) }
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
