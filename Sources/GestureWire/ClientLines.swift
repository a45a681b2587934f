import GestureCore

/// What `gestured monitor` and `gestured listen` do with one line from the server, kept here
/// (pure, no I/O) so the tests and the `clientlines` fuzz target drive the clients' real line
/// handling. Every line, however hostile (the socket path may belong to someone else), yields
/// text or an action, never a trap; outside text is escaped before it reaches a terminal or log.
public enum MonitorText {
    /// The line `monitor` prints for one server line: the raw line (`--json`) with control bytes
    /// escaped, the human-readable description, `nil` for nothing, or `?? reason: line`.
    public static func line(for raw: String, json: Bool) -> String? {
        if json { return TextEscaping.escaped(raw) }
        do { return describe(try WireDecoder.serverMessage(raw)) } catch {
            return "?? \(TextEscaping.escaped(error.reason)): \(TextEscaping.escaped(raw))"
        }
    }

    /// One human-readable line for a server message.
    public static func describe(_ m: ServerMessage) -> String? {
        switch m {
        case .hello(let p, let v, let devices):
            var s = "connected to gestured \(TextEscaping.escaped(v)) (protocol \(p)), \(devices.count) device(s)"
            for d in devices { s += "\n" + describeDevice(d, prefix: "  device") }
            return s
        case .deviceAdded(let d): return describeDevice(d, prefix: "+ device")
        case .deviceChanged(let d): return describeDevice(d, prefix: "~ device")
        case .deviceRemoved(let d): return describeDevice(d, prefix: "- device")
        case .gesture(let g, let d): return describeGesture(g, device: d)
        case .frame(let t, let f): return "\(padded(fixed(t, 3), 9))  frame  \(f) finger(s)"
        case .dropped(let n): return "!! \(n) event(s) dropped (this client was too slow)"
        case .ok: return nil
        case .error(let r): return "!! daemon says: \(TextEscaping.escaped(r))"
        case .unknown: return nil
        }
    }

    static func describeGesture(_ g: GestureEvent, device d: GestureJSON.DeviceInfo) -> String {
        var parts = [padded(fixed(g.time.seconds, 3), 9), padded(TextEscaping.escaped(d.kind.rawValue), 11),
                     padded(TextEscaping.escaped(g.kind.rawValue), 10), padded(g.phase.rawValue, 10),
                     "\(g.fingers)f", d.id.map { "#\($0).\(g.id)" } ?? "#\(g.id)"]
        if let dir = g.direction { parts.append(TextEscaping.escaped(dir.rawValue)) }
        if let e = g.edge { parts.append("edge \(e.rawValue)") }
        if let dx = g.dxMillimeters, let dy = g.dyMillimeters { parts.append("Δ \(fixed(dx, 1)),\(fixed(dy, 1)) mm") }
        if let s = g.scale { parts.append("scale \(fixed(s, 3))") }
        if let r = g.rotationDegrees { parts.append("rot \(fixed(r, 1))°") }
        if let v = g.velocityMillimetersPerSecond { parts.append("\(fixed(v, 0)) mm/s") }
        parts.append("'\(TextEscaping.escaped(d.name))'")
        return parts.joined(separator: "  ")
    }

    public static func describeDevice(_ d: WireDevice, prefix: String) -> String {
        let size = "\(d.sizeKnown ? "" : "~")\(fixed(d.widthMillimeters, 0))×\(fixed(d.heightMillimeters, 0)) mm"
        return "\(prefix) \(d.id): \(TextEscaping.escaped(d.kind.rawValue)) '\(TextEscaping.escaped(d.name))' "
            + "\(TextEscaping.escaped(d.node)) \(size), \(d.slots) slots, protocol \(TextEscaping.escaped(d.contactProtocol))"
            + (d.orientation.sources.isEmpty ? "" : ", \(TextEscaping.escaped(d.orientation.summary)) (\(d.orientation.sources.map(TextEscaping.escaped).joined(separator: ", ")))")
    }

    static func fixed(_ v: Double, _ decimals: Int) -> String {
        var s = ""
        GestureJSON.appendFixed(v, decimals: decimals, to: &s)
        return s
    }

    static func padded(_ s: String, _ n: Int) -> String {
        s.count >= n ? s : s + String(repeating: " ", count: n - s.count)
    }
}

/// What `gestured listen` does with one server line.
public enum ListenAction {
    /// Run the bindings for this gesture on this device (daemon device id, name, kind, evdev node).
    case gesture(GestureEvent, id: Int, name: String, kind: DeviceKind, node: String)
    /// Print this (already escaped) text to standard error.
    case log(String)
    case nothing
}

/// `listen`'s per-connection state: the devices a connection announced (hello, deviceAdded), by
/// the daemon's device id. Gesture lines carry that id, so two devices with the same name (two
/// identical touchscreens) stay apart; a daemon too old to send the id is matched by name.
public struct ListenLines {
    public private(set) var byId: [Int: WireDevice] = [:]
    private var byName: [String: WireDevice] = [:]
    /// At most this many devices are remembered (a hostile server cannot grow the table forever).
    public static let maximumDevices = 1024
    public init() {}

    public mutating func handle(_ line: String, socket: String, bindings: Int) -> ListenAction {
        do { return handle(try WireDecoder.serverMessage(line), socket: socket, bindings: bindings) } catch {
            return .log("unparsable line from the daemon (\(TextEscaping.escaped(error.reason))): \(TextEscaping.escaped(line))")
        }
    }

    public mutating func handle(_ message: ServerMessage, socket: String, bindings: Int) -> ListenAction {
        switch message {
        case .hello(_, let v, let devices):
            for d in devices { remember(d) }
            return .log("connected to gestured \(TextEscaping.escaped(v)) on \(TextEscaping.escaped(socket)), \(devices.count) device(s), \(bindings) binding(s)")
        case .deviceAdded(let d): remember(d); return .nothing
        case .deviceChanged(let d): remember(d); return .nothing
        case .gesture(let g, let d):
            let known = d.id.flatMap { byId[$0] } ?? byName[d.name]
            return .gesture(g, id: d.id ?? known?.id ?? 0, name: d.name, kind: d.kind, node: known?.node ?? "")
        case .dropped(let n): return .log("warning: the daemon dropped \(n) event(s) for this client")
        case .error(let r): return .log("the daemon says: \(TextEscaping.escaped(r))")
        default: return .nothing
        }
    }

    mutating func remember(_ d: WireDevice) {
        guard byId[d.id] != nil || byId.count < Self.maximumDevices else { return }
        byId[d.id] = d
        if byName[d.name] != nil || byName.count < Self.maximumDevices { byName[d.name] = d }
    }
}
