/// `{"type":"orientation", …}`: a client in the session (`gestured listen`) tells the daemon how
/// the screen a touchscreen shows on turns its picture now, pushed by the compositor:
///
///     {"type":"orientation","device":3,"rotation":90,"flipped":false,"source":"sway output eDP-1"}
///
/// `device` is the daemon's id (hello/deviceAdded); `rotation` is how far the screen turns its
/// picture clockwise (sway's and wlroots' `transform`: 0, 90, 180, 270); `flipped` mirrors it
/// left to right first; `source` says where it was learnt (shown in `deviceChanged`, the log and
/// `gestured monitor`). The daemon checks the peer as for `emit`, then applies it from the next
/// moment no finger is down. Replies: `{"type":"ok","request":"orientation"}` or `error`.
public struct OrientationRequest: Hashable, Sendable {
    public var device: Int
    public var rotation: Int
    public var flipped: Bool
    public var source: String
    /// Longest `source` taken (characters).
    public static let maximumSourceLength = 200

    public init(device: Int, rotation: Int, flipped: Bool = false, source: String = "") {
        self.device = device; self.rotation = rotation; self.flipped = flipped; self.source = source
    }
}

extension WireEncoder {
    /// The orientation line a client sends.
    public static func orientation(_ r: OrientationRequest) -> String {
        var s = "{\"type\":\"orientation\",\"device\":\(r.device),\"rotation\":\(r.rotation),\"flipped\":\(r.flipped),\"source\":"
        GestureJSON.appendString(r.source, to: &s)
        return s + "}"
    }
}

extension WireDecoder {
    static func orientationRequest(_ obj: [String: Any]) throws(WireError) -> OrientationRequest {
        guard let device = int(obj["device"]), device > 0 else { throw WireError("orientation: \"device\" must be a device id from hello") }
        guard let rotation = int(obj["rotation"]), [0, 90, 180, 270].contains(rotation) else {
            throw WireError("orientation: \"rotation\" must be 0, 90, 180 or 270 (degrees the screen turns its picture clockwise)")
        }
        var r = OrientationRequest(device: device, rotation: rotation)
        if let v = obj["flipped"] {
            guard let b = v as? Bool else { throw WireError("orientation: \"flipped\" must be true or false") }
            r.flipped = b
        }
        if let v = obj["source"] {
            guard let s = v as? String, s.count <= OrientationRequest.maximumSourceLength else {
                throw WireError("orientation: \"source\" must be a string of at most \(OrientationRequest.maximumSourceLength) characters")
            }
            r.source = s
        }
        return r
    }
}

/// A device's orientation as the socket says it.
public struct WireOrientation: Hashable, Sendable {
    public var matrix = "1 0 0 0 1 0"
    /// "rotated 90°", "as the device reports"…
    public var summary = "as the device reports"
    /// Where the parts came from, in the order they apply.
    public var sources: [String] = []
    public init(matrix: String = "1 0 0 0 1 0", summary: String = "as the device reports", sources: [String] = []) {
        self.matrix = matrix; self.summary = summary; self.sources = sources
    }
}

extension WireEncoder {
    public static func deviceChanged(_ d: WireDevice) -> String {
        var s = "{\"type\":\"deviceChanged\",\"device\":"
        appendDevice(d, to: &s)
        return s + "}"
    }

    /// A device's `output` and `orientation` keys.
    static func appendOrientation(_ d: WireDevice, to s: inout String) {
        if let o = d.output { s += ",\"output\":"; GestureJSON.appendString(o, to: &s) }
        if let i = d.inputID { s += ",\"input_id\":"; GestureJSON.appendString(i, to: &s) }
        s += ",\"orientation\":{\"matrix\":"
        GestureJSON.appendString(d.orientation.matrix, to: &s)
        s += ",\"summary\":"
        GestureJSON.appendString(d.orientation.summary, to: &s)
        s += ",\"from\":["
        for (i, f) in d.orientation.sources.enumerated() {
            if i > 0 { s += "," }
            GestureJSON.appendString(f, to: &s)
        }
        s += "]}"
    }
}

extension WireDecoder {
    /// A device object's `output` and `orientation` (absent from an older daemon: upright).
    static func readOrientation(_ o: [String: Any], into d: inout WireDevice) {
        d.output = o["output"] as? String
        d.inputID = o["input_id"] as? String
        if let or = o["orientation"] as? [String: Any] {
            d.orientation = WireOrientation(matrix: or["matrix"] as? String ?? "1 0 0 0 1 0",
                                            summary: or["summary"] as? String ?? "",
                                            sources: (or["from"] as? [Any] ?? []).compactMap { $0 as? String })
        }
    }
}

extension WireDevice {
    /// `04f3:2234`: four lowercase hex digits each, as Mutter names a device's settings path.
    public static func inputID(vendor: UInt16, product: UInt16) -> String {
        func hex4(_ v: UInt16) -> String {
            let h = String(v, radix: 16)
            return String(repeating: "0", count: 4 - h.count) + h
        }
        return hex4(vendor) + ":" + hex4(product)
    }
}
