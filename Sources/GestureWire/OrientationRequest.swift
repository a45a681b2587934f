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
