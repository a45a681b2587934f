#if canImport(Glibc)
import Glibc
#endif
import GestureDaemon

let runUsage = """
    usage: gestured run [--config FILE] [--socket PATH] [--replay RECORDING]… [--replay-loop]
                        [--replay-delay SECONDS] [--replay-wait-for-clients N] [--no-discovery]

    Runs the daemon in the foreground (no fork, no pidfile; logs go to standard error, with
    syslog priorities under journald). Finds touchscreens and touchpads through udev (inotify on
    /dev/input without udevd), recognizes gestures, runs the config's bindings and streams JSON
    lines on a Unix socket.

      --config FILE             config file (default /etc/gestured/config.yaml; missing → defaults)
      --socket PATH             socket path (overrides socket.path; default /run/gestured/gestured.sock)
      --replay RECORDING        a recording (evemu, libinput record or evtest) stands in for a device,
                                replayed at its recorded pace through the whole pipeline; repeatable.
                                The daemon stays up when it ends.
      --replay-delay SECONDS    wait before replaying (default 1)
      --replay-loop             replay again and again, 2 s apart
      --replay-wait-for-clients N
                                start replaying once N socket clients have connected
      --no-discovery            do not look for real devices (replays only)
      -h, --help                this text

    Signals: SIGHUP reloads the config (a bad file keeps the old one), SIGTERM/SIGINT stop.
    Under systemd (Type=notify): READY=1, RELOADING=1, STOPPING=1, WATCHDOG=1; LISTEN_FDS honoured.

    """

func runMain(_ arguments: [String]) -> Int32 {
    var o = DaemonOptions()
    o.daemonVersion = version
    var env: [String: String] = [:]
    var p = environ
    while let entry = p.pointee {
        let s = String(cString: entry)
        if let eq = s.firstIndex(of: "=") { env[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
        p += 1
    }
    o.environment = env
    var i = 0
    func value(_ name: String) -> String? {
        guard i + 1 < arguments.count else { eprint("gestured run: \(name) needs a value"); return nil }
        i += 1
        return arguments[i]
    }
    while i < arguments.count {
        let a = arguments[i]
        switch a {
        case "-h", "--help": print(runUsage, terminator: ""); return 0
        case "--config": guard let v = value(a) else { return 2 }; o.configPath = v
        case "--socket": guard let v = value(a) else { return 2 }; o.socketPath = v
        case "--replay": guard let v = value(a) else { return 2 }; o.replays.append(v)
        case "--replay-loop": o.replayLoop = true
        case "--replay-wait-for-clients":
            guard let v = value(a) else { return 2 }
            guard let n = Int(v), n >= 0 else { eprint("gestured run: --replay-wait-for-clients expects a count, got '\(v)'"); return 2 }
            o.replayWaitForClients = n
        case "--no-discovery": o.discoverDevices = false
        case "--replay-delay":
            guard let v = value(a) else { return 2 }
            // At most a day: `inf` or 1e300 would trap in the conversion to microseconds.
            guard let s = Double(v), s >= 0, s <= 86_400 else { eprint("gestured run: --replay-delay expects seconds 0…86400, got '\(v)'"); return 2 }
            o.replayDelay = .microseconds(Int64(s * 1_000_000))
        default:
            if let eq = a.firstIndex(of: "="), a.hasPrefix("--") {
                let name = String(a[..<eq]), v = String(a[a.index(after: eq)...])
                switch name {
                case "--config": o.configPath = v; i += 1; continue
                case "--socket": o.socketPath = v; i += 1; continue
                case "--replay": o.replays.append(v); i += 1; continue
                default: break
                }
            }
            eprint("gestured run: unknown option '\(a)'\n\n" + runUsage, terminator: "")
            return 2
        }
        i += 1
    }
    let daemon: Daemon
    do { daemon = try Daemon(options: o) } catch {
        // Through the logger: under journald the line carries its priority (<3>) like every other.
        Logger.shared.error(error.description)
        return 1
    }
    return daemon.run()
}
