#if canImport(Glibc)
import Glibc
#endif
import GestureCore
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

/// Reads newline-delimited lines from a socket fd.
struct LineReader {
    let fd: Int32
    var buffer: [UInt8] = []
    init(fd: Int32) { self.fd = fd }
    /// The next line, or nil at end of stream / error.
    mutating func next() -> String? {
        while true {
            if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[0..<nl], as: UTF8.self)
                buffer.removeSubrange(0...nl)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 16384)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }
}

/// Connects to a Unix stream socket; nil (and a message) on failure.
func connectSocket(_ path: String, quiet: Bool = false) -> Int32? {
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { eprint("socket path too long: \(path)"); return nil }
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b }; raw[bytes.count] = 0 }
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    let rc = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    if rc != 0 {
        let e = errno
        close(fd)
        if !quiet {
            let hint = e == ENOENT ? " (is the daemon running? `systemctl status gestured` or pass --socket)"
                : e == EACCES ? " (permission denied: the socket's group (socket.group in the config) must include you)"
                : e == ECONNREFUSED ? " (nobody is listening: the daemon stopped)" : ""
            eprint("cannot connect to \(path): \(String(cString: strerror(e)))\(hint)")
        }
        return nil
    }
    return fd
}

func writeLine(_ fd: Int32, _ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
}

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
    guard let fd = connectSocket(path) else { return 1 }
    defer { close(fd) }
    if let subscribe { writeLine(fd, subscribe) }
    var out = OutputBuffer()
    var reader = LineReader(fd: fd)
    while let line = reader.next() {
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
