import GestureConfig
import GestureCore
import LinuxInput
import LinuxSystem

/// The checks behind `gestured doctor`, each appending its findings. Every check looks at the
/// real thing (the group database, the nodes, udev, the socket, systemctl), never a guess.
enum Doctor {
    static func checkConfig(_ path: String?, _ out: inout [Finding]) -> Config? {
        do {
            let c = try Config.load(path: path)
            out.append(.ok("config", "\(c.file): valid (\(c.bindings.count) binding\(c.bindings.count == 1 ? "" : "s"))"))
            return c
        } catch {
            let shown = error.diagnostics.prefix(5).map(\.description).joined(separator: "\n\("".padded(26))")
            out.append(.problem("config", shown, fix: "edit the file; `gestured check --config \(path ?? Config.defaultPath)` lists every error"))
            return nil
        }
    }

    static func userName(_ uid: UInt32) -> String { Accounts.userName(uid) ?? "uid \(uid)" }

    static func checkGroups(_ out: inout [Finding]) {
        guard let input = Accounts.groupID(named: "input") else {
            out.append(.problem("groups", "there is no group 'input' (udev's rules give /dev/input to it)",
                                fix: "sudo groupadd --system input && sudo udevadm trigger"))
            return
        }
        let me = userName(CurrentProcess.effectiveUserID)
        if CurrentProcess.effectiveUserID == 0 {
            out.append(.ok("groups", "you are root: every input device is readable"))
        } else if CurrentProcess.groupIDs.contains(input) {
            out.append(.ok("groups", "you (\(me)) are in group input"))
        } else {
            out.append(.problem("groups", "you (\(me)) are not in group input, so `gestured run` cannot read touch devices",
                                fix: "sudo usermod -aG input \(me), then log out and in again"))
        }
        if let user = Accounts.user(named: "gestured") {
            if Accounts.groups(ofUser: "gestured", primary: user.gid).contains(input) {
                out.append(.ok("groups", "the service user 'gestured' is in group input"))
            } else {
                out.append(.problem("groups", "the service user 'gestured' is not in group input",
                                    fix: "sudo systemd-sysusers (the sysusers file adds it), or sudo usermod -aG input gestured"))
            }
        } else {
            out.append(.note("groups", "no 'gestured' user: needed only by the system service",
                             fix: "sudo systemd-sysusers /usr/lib/sysusers.d/gestured.conf"))
        }
    }

    /// Mode, group and whether this process may use a node, as text.
    static func nodeSummary(_ path: String, _ st: FileStatus) -> String {
        let group = Accounts.groupName(st.ownerGID) ?? "gid \(st.ownerGID)"
        return "\(path) \(String(st.permissions & 0o777, radix: 8)) \(userName(st.ownerUID)):\(group)"
    }

    static func checkNodes(_ out: inout [Finding]) {
        var bad: [String] = []
        var count = 0
        let input = Accounts.groupID(named: "input")
        for name in FileContents.names(inDirectory: "/dev/input") ?? [] where name.hasPrefix("event") {
            guard let st = try? FileStatus(of: "/dev/input/" + name) else { continue }
            count += 1
            if st.ownerGID != input || st.permissions & 0o040 == 0 { bad.append(nodeSummary("/dev/input/" + name, st)) }
        }
        if count == 0 {
            out.append(.problem("nodes", "no /dev/input/event* nodes at all", fix: "is this a container or VM without input devices? `gestured run --replay FILE` works without them"))
        } else if bad.isEmpty {
            out.append(.ok("nodes", "all \(count) /dev/input/event* nodes are group-readable by input"))
        } else {
            out.append(.problem("nodes", "not readable by group input: \(bad.joined(separator: ", "))",
                                fix: "udev's rules (50-udev-default.rules) set GROUP=\"input\" MODE=\"0660\": sudo udevadm trigger --subsystem-match=input"))
        }
        checkUInput(&out)
    }

    /// /dev/uinput lets the daemon create virtual keyboards and pointers (key and button actions).
    static func checkUInput(_ out: inout [Finding]) {
        guard let st = try? FileStatus(of: "/dev/uinput") else {
            out.append(.note("uinput", "/dev/uinput does not exist: key and button actions cannot work", fix: "sudo modprobe uinput"))
            return
        }
        if FileSystem.isWritable("/dev/uinput") {
            out.append(.ok("uinput", "\(nodeSummary("/dev/uinput", st)): writable by you"))
        } else {
            out.append(.note("uinput", "\(nodeSummary("/dev/uinput", st)): not writable by you (only key and button actions need it)",
                             fix: "the package's udev rule gives it to a group; see README \"systemd setup\""))
        }
    }

    static func checkUdev(_ out: inout [Finding]) {
        if DeviceMonitor.udevdRunning {
            out.append(.ok("udev", "udevd is running (/run/udev/control)"))
        } else {
            out.append(.problem("udev", "udevd is not running: devices are not classified, and hot-plug falls back to inotify",
                                fix: "sudo systemctl start systemd-udevd (or start udevd in this container)"))
        }
    }
}
