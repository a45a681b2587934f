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

/// Reads newline-delimited lines from a socket fd. A line longer than `maximumLineBytes` is
/// skipped up to its newline (reported as `.tooLong`), so a hostile server cannot grow the buffer.
struct LineReader {
    enum Item { case line(String), tooLong }
    /// Far above any server line (a hello with 1 000 devices is ~250 KiB).
    static let maximumLineBytes = 1 << 20
    let fd: Int32
    var buffer: [UInt8] = []
    var skipping = false
    var limit = LineReader.maximumLineBytes
    init(fd: Int32) { self.fd = fd }
    /// The next line, or nil at end of stream / error.
    mutating func next() -> Item? {
        while true {
            if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[0..<nl], as: UTF8.self)
                buffer.removeSubrange(0...nl)
                if skipping { skipping = false; continue }
                return .line(line)
            }
            if buffer.count > limit {
                buffer.removeAll(keepingCapacity: false)
                if !skipping { skipping = true; return .tooLong }
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
    var greeted = false, lastError: String?
    while let item = reader.next() {
        guard case .line(let line) = item else {
            out.line("?? a line longer than \(LineReader.maximumLineBytes) bytes was skipped"); out.flush(); continue
        }
        if let text = MonitorText.line(for: line, json: json) { out.line(text) }
        switch try? WireDecoder.serverMessage(line) {
        case .hello?: greeted = true
        case .error(let reason)?: lastError = reason
        default: break
        }
        out.flush()
    }
    // Refused (an error and no hello) or cut off before the hello: a failure, not a normal end.
    if !greeted {
        eprint("gestured monitor: the daemon closed the connection" + (lastError.map { ": \(TextEscaping.escaped($0))" } ?? " before greeting"))
        return 1
    }
    eprint("gestured monitor: the daemon closed the connection")
    return 0
}
