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
    var greeted = false, lastError: String?
    while let item = connection.next() {
        guard case .line(let line) = item else {
            out.line("?? a line longer than \(DaemonConnection.maximumLineBytes) bytes was skipped"); out.flush(); continue
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
