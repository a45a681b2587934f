/// `{"type":"emit", …}`: a client (`gestured listen`) asks the daemon to send keys or a click
/// through its virtual devices. The daemon checks the peer's credentials first.
///
///     {"type":"emit","keys":["ctrl+c","ctrl+v"],"key_delay_ms":50,"key_hold_ms":0,
///      "button":"right","at":{"device":3,"x":0.42,"y":0.17},"when_locked":false}
///
/// `keys` (chords as in the config) and/or `button` must be given. `at` clicks where a gesture
/// happened on device `device` (its id from hello/deviceAdded; x, y from the gesture line).
/// Replies: `{"type":"ok","request":"emit"}` or `{"type":"error","reason":…}`.
public struct EmitRequest: Hashable, Sendable {
    public var keys: [String] = []
    public var keyDelayMilliseconds: Double = 0
    public var keyHoldMilliseconds: Double = 0
    public var button: String?
    public var at: (device: Int, x: Double, y: Double)?
    public var whenLocked = false
    public init() {}

    public static func == (a: EmitRequest, b: EmitRequest) -> Bool {
        a.keys == b.keys && a.keyDelayMilliseconds == b.keyDelayMilliseconds && a.keyHoldMilliseconds == b.keyHoldMilliseconds
            && a.button == b.button && a.whenLocked == b.whenLocked
            && a.at?.device == b.at?.device && a.at?.x == b.at?.x && a.at?.y == b.at?.y
    }
    public func hash(into h: inout Hasher) { h.combine(keys); h.combine(button); h.combine(at?.device) }
}

extension WireEncoder {
    /// The emit line a client sends.
    public static func emit(_ e: EmitRequest) -> String {
        var s = "{\"type\":\"emit\""
        if !e.keys.isEmpty {
            s += ",\"keys\":["
            for (i, k) in e.keys.enumerated() { if i > 0 { s += "," }; GestureJSON.appendString(k, to: &s) }
            s += "]"
        }
        if e.keyDelayMilliseconds > 0 { s += ",\"key_delay_ms\":\(e.keyDelayMilliseconds)" }
        if e.keyHoldMilliseconds > 0 { s += ",\"key_hold_ms\":\(e.keyHoldMilliseconds)" }
        if let b = e.button { s += ",\"button\":"; GestureJSON.appendString(b, to: &s) }
        if let a = e.at { s += ",\"at\":{\"device\":\(a.device),\"x\":\(a.x),\"y\":\(a.y)}" }
        if e.whenLocked { s += ",\"when_locked\":true" }
        return s + "}"
    }
}

extension WireDecoder {
    static func emitRequest(_ obj: [String: Any]) throws(WireError) -> EmitRequest {
        var e = EmitRequest()
        if let v = obj["keys"] {
            if let s = v as? String { e.keys = [s] } else { e.keys = try strings(v, key: "keys") }
        }
        for (key, set) in [("key_delay_ms", { (r: inout EmitRequest, v: Double) in r.keyDelayMilliseconds = v }),
                           ("key_hold_ms", { (r: inout EmitRequest, v: Double) in r.keyHoldMilliseconds = v })] {
            guard let v = obj[key] else { continue }
            guard let d = double(v), d >= 0, d <= 10_000 else { throw WireError("\(key): expected milliseconds 0…10000") }
            set(&e, d)
        }
        if let v = obj["button"] {
            guard let s = v as? String else { throw WireError("button: expected a string (left, right, middle, back, forward)") }
            e.button = s
        }
        if let v = obj["at"] {
            guard let a = v as? [String: Any], let d = int(a["device"]), let x = double(a["x"]), let y = double(a["y"]),
                  (0...1).contains(x), (0...1).contains(y) else {
                throw WireError("at: expected {\"device\": ID, \"x\": 0…1, \"y\": 0…1}")
            }
            e.at = (d, x, y)
        }
        if let v = obj["when_locked"] {
            guard let b = v as? Bool else { throw WireError("when_locked: expected true or false") }
            e.whenLocked = b
        }
        if e.keys.isEmpty && e.button == nil { throw WireError("emit needs \"keys\" or \"button\"") }
        return e
    }
}
