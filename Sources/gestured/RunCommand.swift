import CommandArguments
import GestureDaemon
import LinuxSystem

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

let runSyntax = CommandSyntax(command: "gestured run", help: runUsage, options: [
    .value("--config"), .value("--socket"), .value("--replay"), .flag("--replay-loop"),
    .value("--replay-delay"), .value("--replay-wait-for-clients"), .flag("--no-discovery"),
])

func runMain(_ arguments: [String]) -> Int32 {
    var o = DaemonOptions()
    var replay = ReplayOptions()
    o.daemonVersion = version
    o.environment = CurrentProcess.environment
    let parsed = runSyntax.parse(arguments)
    for argument in parsed.arguments {
        switch argument {
        case .value("--config", let v): o.configPath = v
        case .value("--socket", let v): o.socketPath = v
        case .value("--replay", let v): replay.recordings.append(v)
        case .flag("--replay-loop"): replay.loop = true
        case .value("--replay-wait-for-clients", let v):
            guard let n = Int(v), n >= 0 else { return runSyntax.invalid("--replay-wait-for-clients expects a count, got '\(v)'").report() }
            replay.waitForClients = n
        case .flag("--no-discovery"): o.discoverDevices = false
        case .value("--replay-delay", let v):
            // At most a day: `inf` or 1e300 would trap in the conversion to microseconds.
            guard let s = Double(v), s >= 0, s <= 86_400 else { return runSyntax.invalid("--replay-delay expects seconds 0…86400, got '\(v)'").report() }
            replay.delay = .microseconds(Int64(s * 1_000_000))
        default: fatalError("gestured bug: run's syntax has no \(argument)")
        }
    }
    if let stop = parsed.stop { return stop.report() }
    CurrentProcess.useOneAllocatorArena()
    let daemon: Daemon
    do { daemon = try Daemon(options: o) } catch {
        // Through the logger: under journald the line carries its priority (<3>) like every other.
        Logger.shared.error(error.description)
        return 1
    }
    if !replay.recordings.isEmpty { daemon.addService(ReplayService(replay, daemon: daemon)) }
    return daemon.run()
}
