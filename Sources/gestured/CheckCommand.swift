import CommandArguments
import GestureConfig
import LinuxSystem

let checkHelp = """
usage: gestured check [--listen] [--config FILE]

Validates a config file and exits 0 when it is valid, 1 when it is not.
Prints a one-line summary, or every problem as
  config error: FILE:LINE:COLUMN: message (hint)

  --config FILE   the file to check (default \(Config.defaultPath);
                  a missing default file means the built-in defaults)
  --listen        check it as `gestured listen` reads it (per-application `app:` bindings
                  allowed; default file ~/.config/gestured/config.yaml)
  -h, --help      this help

"""

let checkSyntax = CommandSyntax(command: "gestured check", help: checkHelp, options: [
    .value("--config", "-c", needs: "a file"), .flag("--listen"),
], unknown: "unknown argument")

func checkMain(_ arguments: [String]) -> Int32 {
    var path: String?
    var purpose = ConfigPurpose.daemon
    let parsed = checkSyntax.parse(arguments)
    for argument in parsed.arguments {
        switch argument {
        case .flag("--listen"): purpose = .listen
        case .value("--config", let v): path = v
        default: fatalError("gestured bug: check's syntax has no \(argument)")
        }
    }
    if let stop = parsed.stop { return stop.report() }
    if purpose == .listen && path == nil {
        path = (CurrentProcess.environmentValue("HOME") ?? "") + "/.config/gestured/config.yaml"
    }
    do {
        let config = try Config.load(path: path, purpose: purpose)
        // What only this system can tell: `run` would fail on a group that does not exist.
        if let g = config.socket.group, Accounts.groupID(named: g) == nil {
            eprint(ConfigDiagnostic(file: config.file, line: config.socket.groupLine, column: config.socket.groupColumn,
                                    message: "socket.group '\(g)' does not exist on this system",
                                    hint: "`getent group` lists the groups; leave it out to keep the daemon's group").description)
            eprint("\(config.file): 1 error")
            return 1
        }
        print(checkSummary(config))
        return 0
    } catch {
        eprint(error.description)
        let n = error.diagnostics.count
        eprint("\(path ?? Config.defaultPath): \(n) error\(n == 1 ? "" : "s")")
        return 1
    }
}

func checkSummary(_ c: Config) -> String {
    func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
    return "\(c.file): ok: \(plural(c.bindings.count, "binding")), \(plural(c.devices.count, "device rule")), "
        + "socket \(c.socket.path)"
}
