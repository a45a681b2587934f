#if canImport(Glibc)
import Glibc
#endif
import GestureCore
import GestureDaemon
import GestureWire

let monitorUsage = """
    usage: gestured monitor [--socket PATH] [--json] [--subscribe JSON]

    Connects to the daemon's socket and prints what it sends, like `libinput debug-events`:
    devices, then one line per gesture event. Stops at end of stream or Ctrl-C.

      --socket PATH     the daemon's socket (default /run/gestured/gestured.sock)
      --json            print the raw JSON lines
      --subscribe JSON  send this subscribe line first, e.g.
                        '{"type":"subscribe","kinds":["swipe","tap"],"fingers":[3]}'
      -h, --help        this text

    """

func format(_ x: Double?, _ unit: String, _ decimals: Int = 1) -> String? {
    guard let x else { return nil }
    var s = ""
    GestureJSON.appendFixed(x, decimals: decimals, to: &s)
    return s + unit
}

/// One human-readable line for a server message.
func describe(_ m: ServerMessage) -> String? {
    switch m {
    case .hello(let p, let v, let devices):
        var s = "connected to gestured \(v) (protocol \(p)), \(devices.count) device(s)"
        for d in devices { s += "\n" + describeDevice(d, prefix: "  device") }
        return s
    case .deviceAdded(let d): return describeDevice(d, prefix: "+ device")
    case .deviceRemoved(let d): return describeDevice(d, prefix: "- device")
    case .gesture(let g, let d):
        var parts = [String(format: g.time), d.kind.rawValue.padded(11), g.kind.rawValue.padded(10),
                     g.phase.rawValue.padded(10), "\(g.fingers)f", d.id.map { "#\($0).\(g.id)" } ?? "#\(g.id)"]
        if let dir = g.direction { parts.append(dir.rawValue) }
        if let e = g.edge { parts.append("edge \(e.rawValue)") }
        if let dx = format(g.dxMillimeters, ""), let dy = format(g.dyMillimeters, "") { parts.append("Δ \(dx),\(dy) mm") }
        if let s = format(g.scale, "", 3) { parts.append("scale \(s)") }
        if let r = format(g.rotationDegrees, "°") { parts.append("rot \(r)") }
        if let v = format(g.velocityMillimetersPerSecond, " mm/s", 0) { parts.append(v) }
        parts.append("'\(d.name)'")
        return parts.joined(separator: "  ")
    case .frame(let t, let f): return "\(String(format: t))  frame  \(f) finger(s)"
    case .dropped(let n): return "!! \(n) event(s) dropped (this client was too slow)"
    case .ok: return nil
    case .error(let r): return "!! daemon says: \(r)"
    case .unknown: return nil
    }
}

func describeDevice(_ d: WireDevice, prefix: String) -> String {
    "\(prefix) \(d.id): \(d.kind) '\(d.name)' \(d.node) \(d.sizeKnown ? "" : "~")\(Int(d.widthMillimeters.rounded()))×\(Int(d.heightMillimeters.rounded())) mm, \(d.slots) slots, protocol \(d.contactProtocol)"
}

extension String {
    init(format t: Instant) {
        var s = ""
        GestureJSON.appendFixed(t.seconds, decimals: 3, to: &s)
        self = s.padded(9)
    }
    init(format t: Double) {
        var s = ""
        GestureJSON.appendFixed(t, decimals: 3, to: &s)
        self = s.padded(9)
    }
}

func monitorMain(_ arguments: [String]) -> Int32 {
    var path = "/run/gestured/gestured.sock"
    var json = false
    var subscribe: String?
    var i = 0
    while i < arguments.count {
        switch arguments[i] {
        case "-h", "--help": print(monitorUsage, terminator: ""); return 0
        case "--json": json = true
        case "--socket":
            guard i + 1 < arguments.count else { eprint("gestured monitor: --socket needs a path"); return 2 }
            i += 1; path = arguments[i]
        case "--subscribe":
            guard i + 1 < arguments.count else { eprint("gestured monitor: --subscribe needs a JSON line"); return 2 }
            i += 1; subscribe = arguments[i]
        default:
            eprint("gestured monitor: unknown option '\(arguments[i])'\n\n" + monitorUsage, terminator: "")
            return 2
        }
        i += 1
    }
    let connection: DaemonConnection
    do { connection = try DaemonConnection(path: path) } catch {
        eprint(error.description)
        return 1
    }
    if let subscribe { connection.send(subscribe) }
    var out = OutputBuffer()
    while let line = connection.nextLine() {
        if json {
            out.line(line)
        } else {
            do {
                if let text = describe(try WireDecoder.serverMessage(line)) { out.line(text) }
            } catch {
                out.line("?? \(error.reason): \(line)")
            }
        }
        out.flush()
    }
    eprint("gestured monitor: the daemon closed the connection")
    return 0
}
