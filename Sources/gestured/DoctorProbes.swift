#if canImport(Glibc)
import Glibc
#endif
import GestureConfig
import GestureCore
import GestureDaemon
import LinuxInput
import LinuxSystem

/// The `gestured doctor` checks that talk to something: the devices (open, classify, try a grab),
/// the daemon's socket, and systemd.
extension Doctor {
    /// EVIOCGRAB, _IOW('E', 0x90, int).
    static let eviocgrab: UInt = 0x4004_4590

    static func checkDevices(_ out: inout [Finding]) {
        let monitor: DeviceMonitor
        do { monitor = try DeviceMonitor() } catch {
            out.append(.problem("devices", "cannot list input devices: \(error)", fix: "see the nodes and udev lines above"))
            return
        }
        var found = 0
        for change in monitor.enumerate() {
            switch change {
            case .added(let dev):
                do {
                    let evdev = try EvdevDevice(path: dev.node)
                    found += 1
                    out.append(describe(dev, evdev.description, mode: monitor.mode))
                    if ioctl(evdev.fd, eviocgrab, Int32(1)) == 0 {
                        _ = ioctl(evdev.fd, eviocgrab, Int32(0))
                    } else if SystemError.last == .busy {
                        out.append(.problem("grab", "\(dev.node) is grabbed by another process (EVIOCGRAB): gestured gets no events from it",
                                            fix: "find it with `sudo fuser -v \(dev.node)` and stop it (evtest --grab, a remapper, another gesture tool)"))
                    }
                } catch {
                    out.append(.problem("devices", "\(dev.node) (\(dev.kind.rawValue)): \(error)", fix: "see the groups and nodes lines above"))
                }
            case .unavailable(let node, let error):
                out.append(.problem("devices", "\(node): \(error)", fix: "see the groups and nodes lines above"))
            case .ignored, .removed:
                break
            }
        }
        if found == 0 {
            out.append(.problem("devices", "no touchscreen or touchpad found (\(monitor.mode.rawValue) mode)",
                                fix: "plug one in, or try gestured with a recording: gestured run --replay FILE (e.g. Tests/Fixtures/*.evemu)"))
        }
    }

    static func describe(_ dev: DiscoveredDevice, _ d: DeviceDescription, mode: DeviceMonitor.Mode) -> Finding {
        let what = "\(dev.node) \"\(d.name)\""
        guard mode == .udev else {
            return .note("devices", "\(what): \(d.kind.rawValue) by its capabilities (udev is not running, so udev's view is unknown)")
        }
        let udevSays = dev.kind == .touchscreen ? "ID_INPUT_TOUCHSCREEN" : "ID_INPUT_TOUCHPAD"
        if d.kind == dev.kind {
            return .ok("devices", "\(what): \(dev.kind.rawValue) (udev: \(udevSays)=1; its capabilities agree)")
        }
        return .note("devices", "\(what): udev says \(udevSays)=1 but its capabilities look like \(d.kind.rawValue); gestured follows udev",
                     fix: "a hwdb entry or a udev rule setting ID_INPUT_TOUCHSCREEN/ID_INPUT_TOUCHPAD corrects udev")
    }

    static func checkSocket(_ path: String, config: Config?, _ out: inout [Finding]) {
        var st = stat()
        guard stat(path, &st) == 0 else {
            out.append(.problem("socket", "no socket at \(path)",
                                fix: "start the daemon: sudo systemctl enable --now gestured.socket (or `gestured run --socket \(path)`); `--socket PATH` checks another"))
            return
        }
        var who = "mode \(String(st.st_mode & 0o777, radix: 8)), owner \(userName(st.st_uid)), group "
        who += getgrgid(st.st_gid).map { String(cString: $0.pointee.gr_name) } ?? "\(st.st_gid)"
        if let s = config?.socket, !s.allowedUIDs.isEmpty || !s.allowedGIDs.isEmpty {
            who += "; the config narrows it to uids \(s.allowedUIDs) gids \(s.allowedGIDs)"
        }
        let connection: DaemonConnection
        do { connection = try DaemonConnection(path: path) } catch {
            let fix = switch error.error {
            case .permissionDenied: "ask to be added to the socket's group (sudo usermod -aG GROUP \(userName(geteuid())))"
            case .connectionRefused: "a stale socket: nobody listens; restart the daemon (sudo systemctl restart gestured.socket)"
            default: "check that the daemon runs: systemctl status gestured"
            }
            out.append(.problem("socket", "cannot connect to \(path) (\(who)): \(error.error)", fix: fix))
            return
        }
        var tv = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let first = connection.nextLine() ?? ""
        if first.containsText("\"type\":\"hello\"") {
            out.append(.ok("socket", "\(path) answers (\(who))"))
        } else if first.containsText("\"type\":\"error\"") {
            out.append(.problem("socket", "\(path) refuses you: \(first)", fix: "add your uid or a group of yours to socket.allowed_uids/allowed_gids in the config"))
        } else {
            out.append(.problem("socket", "\(path) accepted but sent no hello within 5 s (\(who))", fix: "the daemon may be stuck: systemctl status gestured; journalctl -u gestured"))
        }
    }

    static func checkService(_ unit: String, _ out: inout [Finding]) {
        guard access("/run/systemd/system", F_OK) == 0 else {
            out.append(.note("service", "systemd is not running here (no /run/systemd/system): no service to check"))
            return
        }
        let props = "LoadState,ActiveState,SubState,Result,NRestarts,UnitFileState"
        guard let text = capture(["/bin/systemctl", "show", unit, "--property=" + props]) else {
            out.append(.note("service", "could not run systemctl show \(unit)"))
            return
        }
        var p: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let kv = line.split(separator: "=", maxSplits: 1).map(String.init)
            if kv.count == 2 { p[kv[0]] = kv[1] }
        }
        let state = "\(p["ActiveState"] ?? "?")/\(p["SubState"] ?? "?"), \(p["UnitFileState"] ?? "?"), \(p["NRestarts"] ?? "0") restart(s)"
        switch (p["LoadState"], p["ActiveState"]) {
        case ("not-found", _):
            out.append(.note("service", "\(unit) is not installed", fix: "see README \"systemd setup\", or install the .deb"))
        case (_, "failed"):
            out.append(.problem("service", "\(unit) failed (\(state), result \(p["Result"] ?? "?"))",
                                fix: "journalctl -u \(unit) -n 50 says why; then sudo systemctl restart \(unit)"))
        case (_, "active"), (_, "reloading"), (_, "activating"):
            out.append(.ok("service", "\(unit) \(state)"))
        default:
            out.append(.note("service", "\(unit) is not running (\(state)); with gestured.socket enabled it starts on the first connection"))
        }
    }

    /// Runs argv (no shell) and returns its standard output, or nil when it cannot run.
    static func capture(_ argv: [String]) -> String? {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        var cargs = argv.map { strdup($0) } + [nil]
        defer { for a in cargs { free(a) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, argv[0], &actions, nil, &cargs, environ)
        close(fds[1])
        defer { close(fds[0]) }
        guard rc == 0 else { return nil }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if n < 0 && SystemError.last == .interrupted { continue }
            if n <= 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && SystemError.last == .interrupted {}
        return String(decoding: out, as: UTF8.self)
    }
}
