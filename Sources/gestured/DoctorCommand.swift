import CommandArguments
import GestureConfig
import LinuxSystem

let doctorHelp = """
    usage: gestured doctor [--config FILE] [--socket PATH] [--service UNIT]

    Checks what usually stops gestured from working and says how to fix each problem: the config,
    the `input` group (yours and the service user's), permissions on /dev/input/event* and
    /dev/uinput, udevd, the touch devices and how udev classified them, a device grabbed by
    another process, the daemon's socket and who may connect, and the service under systemd.

      --config FILE    config to check (default /etc/gestured/config.yaml)
      --socket PATH    socket to try (default: the config's socket.path)
      --service UNIT   systemd unit to ask about (default gestured.service)
      -h, --help       this text

    Exit status: 0 when every check passes (notes are information), 1 with the list of problems,
    2 on a usage error.

    """

let doctorSyntax = CommandSyntax(command: "gestured doctor", help: doctorHelp, options: [
    .value("--config", "-c"), .value("--socket"), .value("--service"),
], unknown: "unknown argument")

/// One finding: `ok`, a `problem` (with how to fix it), or a `note` that does not fail the run.
struct Finding {
    enum Level: String { case ok = "ok", problem = "PROBLEM", note = "note" }
    var level: Level
    var check: String
    var text: String
    var fix: String? = nil

    static func ok(_ check: String, _ text: String) -> Finding { Finding(level: .ok, check: check, text: text) }
    static func note(_ check: String, _ text: String, fix: String? = nil) -> Finding {
        Finding(level: .note, check: check, text: text, fix: fix)
    }
    static func problem(_ check: String, _ text: String, fix: String) -> Finding {
        Finding(level: .problem, check: check, text: text, fix: fix)
    }
}

struct DoctorOptions {
    var configPath: String?
    var socketPath: String?
    var service = "gestured.service"
}

func doctorMain(_ arguments: [String]) -> Int32 {
    var o = DoctorOptions()
    let parsed = doctorSyntax.parse(arguments)
    for argument in parsed.arguments {
        switch argument {
        case .value("--config", let v): o.configPath = v
        case .value("--socket", let v): o.socketPath = v
        case .value("--service", let v): o.service = v.contains(".") ? v : v + ".service"
        default: fatalError("gestured bug: doctor's syntax has no \(argument)")
        }
    }
    if let stop = parsed.stop { return stop.report() }
    var findings: [Finding] = []
    let config = Doctor.checkConfig(o.configPath, &findings)
    Doctor.checkGroups(&findings)
    Doctor.checkNodes(&findings)
    Doctor.checkUdev(&findings)
    Doctor.checkDevices(&findings)
    Doctor.checkSocket(o.socketPath ?? config?.socket.path ?? SocketConfig.defaultPath, config: config, &findings)
    Doctor.checkService(o.service, &findings)
    for f in findings {
        print("\(f.level.rawValue.padded(8)) \(f.check.padded(8)) \(f.text)")
        if let fix = f.fix { print("\("".padded(17)) fix: \(fix)") }
    }
    let problems = findings.filter { $0.level == .problem }.count
    print(problems == 0 ? "\nall checks passed" : "\n\(problems) problem\(problems == 1 ? "" : "s") found")
    return problems == 0 ? 0 : 1
}
