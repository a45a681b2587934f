import GestureCore

/// The socket protocol: newline-delimited JSON objects, one message a line, each with a `type`.
///
/// Server → client: `hello` (first line), `gesture`, `frame` (only when the config opts in),
/// `deviceAdded`, `deviceChanged`, `deviceRemoved`, `dropped`, `ok`, `error`. Client → server:
/// `subscribe`, `emit`, `orientation`.
/// Parsers ignore unknown keys; `WireProtocol.version` changes only on incompatible changes.
public enum WireProtocol {
    /// The protocol version sent in `hello`.
    public static let version = 1
    /// Longest line a client may send (bytes, newline excluded); longer → `error` and close.
    public static let maximumClientLineBytes = 64 * 1024
}

/// A device as the socket describes it in `hello`, `deviceAdded` and `deviceRemoved`.
public struct WireDevice: Hashable, Sendable {
    /// The device as gesture and frame lines carry it (`{"id","name","kind"}`), with its
    /// encoded object.
    public private(set) var info: GestureJSON.DeviceInfo
    /// The daemon's id for this device, unique for the daemon's lifetime.
    public var id: Int { get { info.id ?? 0 } set { info.id = newValue } }
    public var name: String { get { info.name } set { info.name = newValue } }
    public var kind: DeviceKind { get { info.kind } set { info.kind = newValue } }
    /// The evdev node (/dev/input/event5) or, for a replayed recording, `replay:FILE`.
    public var node: String
    public var widthMillimeters: Double
    public var heightMillimeters: Double
    /// False when the device reports no resolution and the size is a guess.
    public var sizeKnown: Bool
    public var slots: Int
    /// `ContactProtocol.rawValue`: `B` (slots), `A` (packets), `single-touch`, `none`.
    public var contactProtocol: String
    /// The map from the device's axes to the picture in force (`AxisTransform.matrixText`, six
    /// numbers in libinput's calibration layout) and where its parts came from (`udev …`,
    /// `config`, `screen …`); size_mm, directions, edges and positions are the picture's.
    public var orientation = WireOrientation()
    /// The output the touchscreen shows on, when udev says it (`WL_OUTPUT`).
    public var output: String?
    /// The device's vendor and product ids, `04f3:2234` (lowercase hex, as udev's ID_VENDOR_ID and
    /// ID_MODEL_ID and GNOME's per-touchscreen settings write them); nil when unknown (0:0).
    public var inputID: String?

    public init(id: Int, name: String, kind: DeviceKind, node: String, widthMillimeters: Double,
                heightMillimeters: Double, sizeKnown: Bool, slots: Int, contactProtocol: String) {
        info = GestureJSON.DeviceInfo(id: id, name: name, kind: kind); self.node = node
        self.widthMillimeters = widthMillimeters; self.heightMillimeters = heightMillimeters
        self.sizeKnown = sizeKnown; self.slots = slots; self.contactProtocol = contactProtocol
    }

    public init(id: Int, node: String, description d: DeviceDescription) {
        let size = d.size
        self.init(id: id, name: d.name, kind: d.kind, node: node, widthMillimeters: size.width,
                  heightMillimeters: size.height, sizeKnown: d.sizeKnown, slots: d.slotCount,
                  contactProtocol: d.contactProtocol.rawValue)
        if d.vendor != 0 || d.product != 0 { inputID = WireDevice.inputID(vendor: d.vendor, product: d.product) }
    }
}

/// What a client asked to receive. `nil` means "everything" for that criterion.
public struct Subscription: Hashable, Sendable {
    public var kinds: Set<GestureKind>?
    public var phases: Set<GesturePhase>?
    /// Device names, nodes, ids (as strings) or kinds (`touchpad`, `touchscreen`).
    public var devices: Set<String>?
    public var fingers: Set<Int>?

    public init(kinds: Set<GestureKind>? = nil, phases: Set<GesturePhase>? = nil,
                devices: Set<String>? = nil, fingers: Set<Int>? = nil) {
        self.kinds = kinds; self.phases = phases; self.devices = devices; self.fingers = fingers
    }

    public static let everything = Subscription()

    public func matches(device: WireDevice) -> Bool {
        guard let devices else { return true }
        return devices.contains(device.name) || devices.contains(device.node)
            || devices.contains(String(device.id)) || devices.contains(device.kind.rawValue)
    }

    public func matches(_ g: GestureEvent, device: WireDevice) -> Bool {
        // A few kinds at most: comparing the (short) names beats hashing one into the set.
        if let kinds, !kinds.contains(where: { $0 == g.kind }) { return false }
        if let phases, !phases.contains(g.phase) { return false }
        if let fingers, !fingers.contains(g.fingers) { return false }
        return matches(device: device)
    }
}

/// A line a client sent.
public enum ClientRequest: Hashable, Sendable {
    case subscribe(Subscription)
    /// Send keys or a click through the daemon (EmitRequest.swift).
    case emit(EmitRequest)
    /// How the screen a touchscreen shows on turns its picture (WireOrientation.swift).
    case orientation(OrientationRequest)
    /// Every later line for this client through another channel the server hands over.
    case stream(StreamChannel)
}

/// Where a `stream` request asks for the client's lines to go.
public enum StreamChannel: String, Hashable, Sendable, CaseIterable {
    /// A pipe whose read end comes with the `ok` reply (SCM_RIGHTS): a pipe write wakes a
    /// waiting reader for less kernel time than a socket send (docs/PROTOCOL.md).
    case pipe
}

/// A message the server sent, as a client reads it.
public enum ServerMessage: Sendable {
    case hello(protocolVersion: Int, daemonVersion: String, devices: [WireDevice])
    case gesture(GestureEvent, device: GestureJSON.DeviceInfo)
    case frame(time: Double, fingers: Int)
    case deviceAdded(WireDevice)
    /// An open device's orientation changed (the screen turned): the device as it now is.
    case deviceChanged(WireDevice)
    case deviceRemoved(WireDevice)
    case dropped(count: Int)
    case ok
    case error(reason: String)
    /// A type this client does not know (a newer daemon): ignored.
    case unknown(type: String)
}

/// A line that is not valid protocol: why.
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

// MARK: - Encoding

/// Server lines (and the client's `subscribe`), each without its trailing newline.
public enum WireEncoder {
    public static func hello(daemonVersion: String, devices: [WireDevice]) -> String {
        var s = "{\"type\":\"hello\",\"protocol\":\(WireProtocol.version),\"version\":"
        GestureJSON.appendString(daemonVersion, to: &s)
        s += ",\"devices\":["
        for (i, d) in devices.enumerated() {
            if i > 0 { s += "," }
            appendDevice(d, to: &s)
        }
        s += "]}"
        return s
    }

    public static func deviceAdded(_ d: WireDevice) -> String {
        var s = "{\"type\":\"deviceAdded\",\"device\":"
        appendDevice(d, to: &s)
        return s + "}"
    }

    public static func deviceRemoved(_ d: WireDevice) -> String {
        var s = "{\"type\":\"deviceRemoved\",\"device\":"
        appendDevice(d, to: &s)
        return s + "}"
    }

    public static func dropped(count: Int) -> String { "{\"type\":\"dropped\",\"count\":\(count)}" }

    public static func ok(_ request: String) -> String {
        var s = "{\"type\":\"ok\",\"request\":"
        GestureJSON.appendString(request, to: &s)
        return s + "}"
    }

    public static func error(_ reason: String) -> String {
        var s = "{\"type\":\"error\",\"reason\":"
        GestureJSON.appendString(reason, to: &s)
        return s + "}"
    }

    /// The gesture line: GestureJSON's shape (`device` is `{id, name, kind}`).
    public static func gesture(_ g: GestureEvent, device: WireDevice, origin: Instant) -> String {
        GestureJSON.encode(g, device: device.info, origin: origin)
    }

    public static func subscribe(_ sub: Subscription) -> String {
        var s = "{\"type\":\"subscribe\""
        func list(_ key: String, _ values: [String]?) {
            guard let values else { return }
            s += ",\"\(key)\":["
            for (i, v) in values.sorted().enumerated() {
                if i > 0 { s += "," }
                GestureJSON.appendString(v, to: &s)
            }
            s += "]"
        }
        list("kinds", sub.kinds.map { $0.map(\.rawValue) })
        list("phases", sub.phases.map { $0.map(\.rawValue) })
        list("devices", sub.devices.map(Array.init))
        if let f = sub.fingers { s += ",\"fingers\":[" + f.sorted().map(String.init).joined(separator: ",") + "]" }
        return s + "}"
    }

    static func appendDevice(_ d: WireDevice, to s: inout String) {
        s += "{\"id\":\(d.id),\"name\":"
        GestureJSON.appendString(d.name, to: &s)
        s += ",\"kind\":"; GestureJSON.appendString(d.kind.rawValue, to: &s)
        s += ",\"node\":"; GestureJSON.appendString(d.node, to: &s)
        s += ",\"size_mm\":["
        GestureJSON.appendFixed(d.widthMillimeters, decimals: 1, to: &s)
        s += ","
        GestureJSON.appendFixed(d.heightMillimeters, decimals: 1, to: &s)
        s += "],\"size_known\":\(d.sizeKnown),\"slots\":\(d.slots),\"protocol\":"
        GestureJSON.appendString(d.contactProtocol, to: &s)
        appendOrientation(d, to: &s)
        s += "}"
    }
}

// MARK: - Decoding

/// Parses lines with the module's own JSON reader (no Foundation); unknown keys are ignored.
public enum WireDecoder {
    static func object(_ line: some StringProtocol) throws(WireError) -> [String: Any] {
        let any: Any
        do { any = try JSONReader.parse(Array(line.utf8)) } catch {
            throw WireError("not JSON: expected one JSON object per line (\(error.message))")
        }
        guard let obj = any as? [String: Any] else { throw WireError("expected a JSON object, got \(kindName(any))") }
        return obj
    }

    static func kindName(_ v: Any) -> String {
        switch v {
        case is String: return "a string"
        case is [Any]: return "an array"
        case is JSONNull: return "null"
        case is Bool: return "a boolean"
        case is Double: return "a number"
        case is [String: Any]: return "an object"
        default: return "a value"
        }
    }

    /// Parses a client line (server side). Unknown keys are ignored; unknown values are errors.
    public static func clientRequest(_ line: some StringProtocol) throws(WireError) -> ClientRequest {
        let obj = try object(line)
        guard let type = obj["type"] as? String else { throw WireError("missing \"type\" (expected \"subscribe\")") }
        switch type {
        case "subscribe":
            var sub = Subscription()
            if let v = obj["kinds"] {
                let names = try strings(v, key: "kinds")
                let known = Set(GestureKind.all.map(\.rawValue))
                for n in names where !known.contains(n) {
                    throw WireError("kinds: unknown gesture '\(n)' (expected one of \(GestureKind.all.map(\.rawValue).joined(separator: ", ")))")
                }
                sub.kinds = Set(names.map(GestureKind.init(rawValue:)))
            }
            if let v = obj["phases"] {
                var phases = Set<GesturePhase>()
                for n in try strings(v, key: "phases") {
                    guard let p = GesturePhase(rawValue: n) else {
                        throw WireError("phases: unknown phase '\(n)' (expected one of \(GesturePhase.allCases.map(\.rawValue).joined(separator: ", ")))")
                    }
                    phases.insert(p)
                }
                sub.phases = phases
            }
            if let v = obj["devices"] {
                var set = Set<String>()
                guard let arr = v as? [Any] else { throw WireError("devices: expected an array of names, nodes, ids or kinds") }
                for e in arr {
                    if let s = e as? String { set.insert(s) }
                    else if let i = int(e) { set.insert(String(i)) }
                    else { throw WireError("devices: expected strings or ids, got \(kindName(e))") }
                }
                sub.devices = set
            }
            if let v = obj["fingers"] {
                guard let arr = v as? [Any] else { throw WireError("fingers: expected an array of finger counts 1…10") }
                var set = Set<Int>()
                for e in arr {
                    guard let i = int(e), (1...10).contains(i) else {
                        throw WireError("fingers: expected finger counts 1…10, got \(e)")
                    }
                    set.insert(i)
                }
                sub.fingers = set
            }
            return .subscribe(sub)
        case "emit":
            return .emit(try emitRequest(obj))
        case "orientation":
            return .orientation(try orientationRequest(obj))
        case "stream":
            let expected = StreamChannel.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
            guard let via = obj["via"] else { throw WireError("stream: missing \"via\" (expected \(expected))") }
            guard let name = via as? String, let channel = StreamChannel(rawValue: name) else {
                throw WireError("stream: via \(via as? String ?? kindName(via)) is not a channel (expected \(expected))")
            }
            return .stream(channel)
        default:
            throw WireError("unknown request type '\(type)' (expected \"subscribe\", \"emit\", \"orientation\" or \"stream\")")
        }
    }

    static func strings(_ v: Any, key: String) throws(WireError) -> [String] {
        guard let arr = v as? [Any] else { throw WireError("\(key): expected an array of strings") }
        var out: [String] = []
        for e in arr {
            guard let s = e as? String else { throw WireError("\(key): expected strings, got \(kindName(e))") }
            out.append(s)
        }
        return out
    }

    /// Parses a server line (client side: monitor, listen, tests).
    public static func serverMessage(_ line: some StringProtocol) throws(WireError) -> ServerMessage {
        let obj = try object(line)
        guard let type = obj["type"] as? String else { throw WireError("missing \"type\"") }
        switch type {
        case "hello":
            var devices: [WireDevice] = []
            for d in obj["devices"] as? [Any] ?? [] { devices.append(try device(d, in: "hello")) }
            return .hello(protocolVersion: int(obj["protocol"]) ?? 0,
                          daemonVersion: obj["version"] as? String ?? "?", devices: devices)
        case "gesture":
            guard let kind = obj["gesture"] as? String, let phaseName = obj["phase"] as? String,
                  let phase = GesturePhase(rawValue: phaseName) else {
                throw WireError("gesture: expected \"gesture\" and a known \"phase\"")
            }
            let dev = obj["device"] as? [String: Any]
            let info = GestureJSON.DeviceInfo(id: int(dev?["id"]), name: dev?["name"] as? String ?? "?",
                                              kind: DeviceKind(rawValue: dev?["kind"] as? String ?? "other"))
            let t = try seconds(obj["time"], in: "gesture")
            let idValue = int(obj["id"]) ?? 0
            guard let id = UInt64(exactly: idValue) else { throw WireError("gesture: \"id\" must be a non-negative integer, not \(idValue)") }
            var g = GestureEvent(kind: GestureKind(rawValue: kind), phase: phase,
                                 id: id, fingers: int(obj["fingers"]) ?? 0,
                                 time: Instant(microseconds: Int64((t * 1_000_000).rounded())))
            g.direction = (obj["direction"] as? String).map(GestureDirection.init(rawValue:))
            g.edge = (obj["edge"] as? String).flatMap(Edge.init(rawValue:))
            g.dxMillimeters = double(obj["dx_mm"]); g.dyMillimeters = double(obj["dy_mm"])
            g.stepDxMillimeters = double(obj["step_dx_mm"]); g.stepDyMillimeters = double(obj["step_dy_mm"])
            g.distanceMillimeters = double(obj["distance_mm"])
            g.velocityMillimetersPerSecond = double(obj["velocity_mm_s"])
            g.scale = double(obj["scale"]); g.rotationDegrees = double(obj["rotation_deg"])
            g.x = double(obj["x"]); g.y = double(obj["y"])
            return .gesture(g, device: info)
        case "frame":
            return .frame(time: try seconds(obj["time"], in: "frame"), fingers: int(obj["fingers"]) ?? 0)
        case "deviceAdded", "deviceRemoved", "deviceChanged":
            let d = try device(obj["device"] as Any, in: type)
            return type == "deviceAdded" ? .deviceAdded(d) : type == "deviceChanged" ? .deviceChanged(d) : .deviceRemoved(d)
        case "dropped": return .dropped(count: int(obj["count"]) ?? 0)
        case "ok": return .ok
        case "error": return .error(reason: obj["reason"] as? String ?? "")
        default: return .unknown(type: type)
        }
    }

    /// The largest time a server line may carry (seconds since the daemon's start; ~31 years).
    public static let maximumSeconds: Double = 1e9
    /// The largest device side a server line may carry (millimetres: 100 m).
    public static let maximumMillimeters: Double = 100_000

    /// A `time` value: absent is 0; present, it must lie within ±`maximumSeconds`.
    static func seconds(_ v: Any?, in type: String) throws(WireError) -> Double {
        guard let v else { return 0 }
        guard let t = double(v), t.magnitude <= maximumSeconds else {
            throw WireError("\(type): \"time\" must be a number of seconds within ±\(Int(maximumSeconds)), got \(v)")
        }
        return t
    }

    static func device(_ v: Any, in type: String) throws(WireError) -> WireDevice {
        guard let o = v as? [String: Any] else { throw WireError("\(type): expected a \"device\" object") }
        let size = o["size_mm"] as? [Any] ?? []
        var sides: [Double] = []
        for side in size.prefix(2) {
            guard let mm = double(side), mm >= 0, mm <= maximumMillimeters else {
                throw WireError("\(type): \"size_mm\" must hold sizes 0…\(Int(maximumMillimeters)) mm, got \(side)")
            }
            sides.append(mm)
        }
        var d = WireDevice(id: int(o["id"]) ?? 0, name: o["name"] as? String ?? "?",
                          kind: DeviceKind(rawValue: o["kind"] as? String ?? "other"),
                          node: o["node"] as? String ?? "?",
                          widthMillimeters: sides.count > 0 ? sides[0] : 0,
                          heightMillimeters: sides.count > 1 ? sides[1] : 0,
                          sizeKnown: o["size_known"] as? Bool ?? false, slots: int(o["slots"]) ?? 0,
                          contactProtocol: o["protocol"] as? String ?? "?")
        readOrientation(o, into: &d)
        return d
    }

    /// Numbers are Double and booleans Bool (JSONReader; no NSNumber bridging).
    static func isBoolean(_ v: Any) -> Bool { v is Bool }

    static func int(_ v: Any?) -> Int? {
        guard let d = v as? Double else { return nil }
        guard d.isFinite, d == d.rounded(), abs(d) < 1e15 else { return nil }
        return Int(d)
    }
    /// A finite number (JSONReader already refuses numbers beyond Double's range).
    static func double(_ v: Any?) -> Double? {
        guard let d = v as? Double, d.isFinite else { return nil }
        return d
    }
}
