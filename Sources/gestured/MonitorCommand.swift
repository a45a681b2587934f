import CommandArguments
import GestureCore
import GestureDaemon
import GestureWire
import LinuxSystem

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

let monitorSyntax = CommandSyntax(command: "gestured monitor", help: monitorUsage, options: [
    .flag("--json"), .value("--socket", needs: "a path"), .value("--subscribe", needs: "a JSON line"),
])

func monitorMain(_ arguments: [String]) -> Int32 {
    var path = "/run/gestured/gestured.sock"
    var json = false
    var subscribe: String?
    let parsed = monitorSyntax.parse(arguments)
    for argument in parsed.arguments {
        switch argument {
        case .flag("--json"): json = true
        case .value("--socket", let v): path = v
        case .value("--subscribe", let v): subscribe = v
        default: fatalError("gestured bug: monitor's syntax has no \(argument)")
        }
    }
    if let stop = parsed.stop { return stop.report() }
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
