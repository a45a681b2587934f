import GestureConfig
import GestureCore
import GestureDaemon
import LinuxInput
import LinuxSystem

/// The `gestured doctor` checks that talk to something: the devices (open, classify, try a grab),
/// the daemon's socket, and systemd.
extension Doctor {
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
                    do { try evdev.grab(); evdev.ungrab() } catch where error.error == .busy {
                        out.append(.problem("grab", "\(dev.node) is grabbed by another process (EVIOCGRAB): gestured gets no events from it",
                                            fix: "find it with `sudo fuser -v \(dev.node)` and stop it (evtest --grab, a remapper, another gesture tool)"))
                    } catch {}
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
        guard let st = try? FileStatus(of: path) else {
            out.append(.problem("socket", "no socket at \(path)",
                                fix: "start the daemon: sudo systemctl enable --now gestured.socket (or `gestured run --socket \(path)`); `--socket PATH` checks another"))
            return
        }
        var who = "mode \(String(st.permissions & 0o777, radix: 8)), owner \(userName(st.ownerUID)), group "
        who += Accounts.groupName(st.ownerGID) ?? "\(st.ownerGID)"
        if let s = config?.socket, !s.allowedUIDs.isEmpty || !s.allowedGIDs.isEmpty {
            who += "; the config narrows it to uids \(s.allowedUIDs) gids \(s.allowedGIDs)"
        }
        let connection: DaemonConnection
        do { connection = try DaemonConnection(path: path) } catch {
            let fix = switch error.error {
            case .permissionDenied: "ask to be added to the socket's group (sudo usermod -aG GROUP \(userName(CurrentProcess.effectiveUserID)))"
            case .connectionRefused: "a stale socket: nobody listens; restart the daemon (sudo systemctl restart gestured.socket)"
            default: "check that the daemon runs: systemctl status gestured"
            }
            out.append(.problem("socket", "cannot connect to \(path) (\(who)): \(error.error)", fix: fix))
            return
        }
        connection.fd.setReceiveTimeout(.seconds(5))
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
        guard FileSystem.exists("/run/systemd/system") else {
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
        guard let pipe = try? FileDescriptor.pipe() else { return nil }
        let pid = try? ChildSpawn.program(argv, stdout: .descriptor(pipe.writeEnd), closing: pipe.readEnd)
        pipe.writeEnd.close()
        defer { pipe.readEnd.close() }
        guard let pid else { return nil }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while let n = try? chunk.withUnsafeMutableBytes({ try pipe.readEnd.read(into: $0) }), n > 0 {
            out.append(contentsOf: chunk[0..<n])
        }
        _ = try? ChildSpawn.wait(pid)
        return String(decoding: out, as: UTF8.self)
    }
}
