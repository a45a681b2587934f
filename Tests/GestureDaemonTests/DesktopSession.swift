// Test support: real desktops for the per-application binding tests. A headless sway (headless
// backend, pixman renderer) with foot windows, or an Xvfb with openbox and xterms. Tests/test.sh
// installs the Debian packages; a missing one fails the test with the package to install.
// sway refuses to run as root, so under root every desktop process runs as nobody.
#if canImport(Glibc)
import Glibc
#endif
import Foundation

final class DesktopSession {
    let dir: String
    var environment: [String: String] = [:]
    private var children: [Child] = []
    /// Xvfb's -displayfd pipe: kept open, since Xvfb dies of SIGPIPE writing to a closed one.
    private var xvfbPipe: [Int32] = []
    let asNobody: Bool

    init(asNobody: Bool = false) throws {
        self.asNobody = asNobody && getuid() == 0
        dir = TestPaths.tempDirectory()
        if self.asNobody { chmod(dir, 0o755); chown(dir, 65534, 65534) }
    }

    deinit {
        // What the desktop processes started (xterm's cat, foot's sleep) is noted before they
        // end: see `OrphanedProcess`.
        let started = children.flatMap { OrphanedProcess.descendants(of: $0.pid) } + orphans
        for c in children.reversed() { c.signal(SIGTERM) }
        for c in children { c.reap() }
        for p in started { p.collect() }
        // What the session's bus activated (dconf-service for gsettings): dbus-daemon's
        // babysitter leaves it, so it is this process's child from the start, never a
        // descendant of the bus. Known by this session's directory in its environment.
        OrphanedProcess.end(mentioning: dir)
        OrphanedProcess.reapForeignZombies()
        for fd in xvfbPipe { close(fd) }
        try? FileManager.default.removeItem(atPath: dir)
    }

    static func need(_ program: String, package: String) throws -> String {
        for d in ["/usr/bin", "/usr/local/bin", "/bin"] where access("\(d)/\(program)", X_OK) == 0 { return "\(d)/\(program)" }
        throw TestFailure(description: "\(program) is not installed (Debian package \(package)); Tests/test.sh installs it")
    }

    /// Starts a desktop process (a program in /usr/bin or an absolute path; as nobody under root)
    /// with the session's environment, its output to DIR/log. posix_spawn and waitpid, not
    /// Foundation's Process, which under load missed xterm's exit and waited forever.
    @discardableResult
    func spawn(_ argv: [String], log: String, extra: [String: String] = [:], stdoutFD: Int32? = nil) throws -> Child {
        let bin = argv[0].hasPrefix("/") ? argv[0] : try DesktopSession.need(argv[0], package: argv[0])
        let args = (asNobody ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", bin] : [bin]) + Array(argv.dropFirst())
        var env = ["PATH": "/usr/bin:/bin", "HOME": dir, "LANG": "C.UTF-8"]
        env.merge(environment) { $1 }
        env.merge(extra) { $1 }
        let c = try Child(args, environment: env, log: dir + "/" + log, stdoutFD: stdoutFD)
        children.append(c)
        return c
    }

    /// Runs a session tool (swaymsg, xdotool) to its end: status and output.
    @discardableResult
    func run(_ argv: [String], extra: [String: String] = [:], seconds: Int = 10) throws -> (Int32, String) {
        let p = Process()
        // A tool that waits forever (xdotool --sync on a window that never activates) fails instead.
        p.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        p.arguments = ["\(seconds)", try DesktopSession.need(argv[0], package: argv[0])] + Array(argv.dropFirst())
        var env = ["PATH": "/usr/bin:/bin", "HOME": dir]
        env.merge(environment) { $1 }
        env.merge(extra) { $1 }
        p.environment = env
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        OrphanedProcess.reapForeignZombies()   // a tool's own children orphaned to us (kscreen-doctor's)
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func waitUntil(_ what: String, seconds: Double = 15, _ ok: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try ok() { return }
            usleep(50_000)
        }
        throw TestFailure(description: "timed out waiting for \(what); logs: \(logs)")
    }

    var logs: String {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { $0.hasSuffix(".log") }.sorted().map { n in
            "\n== \(n):\n" + ((try? String(contentsOfFile: dir + "/" + n, encoding: .utf8)) ?? "").suffix(1500)
        }.joined()
    }

    // MARK: sway

    /// A headless sway, its IPC socket at a fixed path (so a restarted sway comes back there).
    /// With `xwayland`, sway starts Xwayland at once, and the session's user lets root in (the
    /// test runs as root and the session as nobody; Xwayland admits only its own user); its
    /// display is in `xwaylandDisplay`.
    static func sway(xwayland: Bool = false) throws -> DesktopSession {
        let s = try DesktopSession(asNobody: true)
        let run = s.dir + "/run"
        mkdir(run, 0o700)
        if s.asNobody { chown(run, 65534, 65534) }
        var config = "output HEADLESS-1 resolution 800x600\n"
        if xwayland {
            if access("/usr/bin/Xwayland", X_OK) != 0 { throw TestFailure(description: "Xwayland is not installed (Debian package xwayland); Tests/test.sh installs it") }
            _ = try need("xhost", package: "x11-xserver-utils")
            config += "xwayland force\n"
        } else {
            config += "xwayland disable\n"
        }
        try config.write(toFile: s.dir + "/sway.conf", atomically: true, encoding: .utf8)
        s.environment = ["XDG_RUNTIME_DIR": run, "SWAYSOCK": s.dir + "/sway.sock"]
        try s.startSway()
        if xwayland { try s.findXwayland() }
        return s
    }

    /// Processes a desktop process started that are not its descendants: wlroots starts
    /// Xwayland through a double fork, so it is orphaned at once (to this process, a subreaper
    /// once a hook runner ran in it) and must be collected here (`OrphanedProcess`).
    private var orphans: [OrphanedProcess] = []

    /// sway's Xwayland, found by its XDG_RUNTIME_DIR (this session's own), its display read
    /// from its command line; then root is let in (`xhost`, run as the session's user).
    private func findXwayland() throws {
        let runtimeDir = "XDG_RUNTIME_DIR=\(dir)/run"
        var found: (pid: pid_t, display: String)?
        try waitUntil("sway's Xwayland") {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                guard let pid = pid_t(name),
                      (try? String(contentsOfFile: "/proc/\(name)/comm", encoding: .utf8))?.hasPrefix("Xwayland") == true,
                      let environ = FileManager.default.contents(atPath: "/proc/\(name)/environ"),
                      environ.split(separator: 0).contains(where: { String(decoding: $0, as: UTF8.self) == runtimeDir }),
                      let cmdline = FileManager.default.contents(atPath: "/proc/\(name)/cmdline") else { continue }
                let args = cmdline.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
                guard let display = args.first(where: { $0.hasPrefix(":") }) else { continue }
                found = (pid, display)
                return true
            }
            return false
        }
        guard let (pid, display) = found else { return }
        if let st = OrphanedProcess.stat(pid) { orphans.append(OrphanedProcess(pid: pid, start: st.start)) }
        xwaylandDisplay = display
        let xhost = try DesktopSession.need("xhost", package: "x11-xserver-utils")
        let argv = asNobody ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", xhost] : ["xhost"]
        try waitUntil("xhost letting root into \(display)") { try run(argv + ["+si:localuser:root"], extra: ["DISPLAY": display]).0 == 0 }
    }

    /// The DISPLAY of sway's Xwayland (`sway(xwayland: true)`).
    private(set) var xwaylandDisplay: String?

    private(set) var sway: Child?

    func startSway() throws {
        unlink(dir + "/sway.sock")
        sway = try spawn(["sway", "-c", dir + "/sway.conf"], log: "sway.log",
                         extra: ["WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1"])
        try waitUntil("sway's IPC socket") {
            guard access(dir + "/sway.sock", F_OK) == 0 else { return false }
            return try run(["swaymsg", "-t", "get_version"]).0 == 0
        }
        let sockets = (try? FileManager.default.contentsOfDirectory(atPath: dir + "/run")) ?? []
        guard let wl = sockets.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }) else {
            throw TestFailure(description: "sway made no Wayland socket: \(logs)")
        }
        environment["WAYLAND_DISPLAY"] = wl
    }

    func killSway() {
        guard let c = sway else { return }
        let started = OrphanedProcess.descendants(of: c.pid)
        c.signal(SIGKILL)
        c.reap()
        for p in started { p.collect() }
        sway = nil
    }

    /// A foot terminal with this app id (and title), running until the session ends.
    func foot(appID: String, title: String) throws {
        try spawn(["foot", "--app-id=\(appID)", "--title=\(title)", "--", "sleep", "600"], log: "foot-\(appID).log")
        try waitUntil("foot \(appID)'s window") { try run(["swaymsg", "-t", "get_tree"]).1.contains("\"app_id\": \"\(appID)\"") }
    }

    func swaymsg(_ command: String) throws {
        let (status, out) = try run(["swaymsg", command])
        guard status == 0 else { throw TestFailure(description: "swaymsg \(command): \(out)") }
    }

    // MARK: GNOME

    /// Mutter (GNOME's compositor) headless with one virtual monitor, on a session bus of its
    /// own (a dbus-daemon of the test's, not dbus-run-session, which leaves both running when it
    /// is ended), as nobody under root like sway; its Wayland display and bus in `environment`.
    /// A headless mutter with one virtual monitor per size in `monitors` (Meta-0, Meta-1…). With
    /// `busAdmitsRoot`, the session bus (a user's own, its session.conf) also admits root, so a
    /// test's root process (listen) can use it while the session runs as nobody.
    static func mutter(monitors: [String] = ["1024x768"], busAdmitsRoot: Bool = false) throws -> DesktopSession {
        let s = try DesktopSession(asNobody: true)
        let run = s.dir + "/run"
        mkdir(run, 0o700)
        if s.asNobody { chown(run, 65534, 65534) }
        _ = try need("mutter", package: "mutter")
        let bus = "unix:path=\(s.dir)/bus"
        s.environment = ["XDG_RUNTIME_DIR": run]
        var daemon = ["dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=\(bus)"]
        if busAdmitsRoot {
            try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <include>/usr/share/dbus-1/session.conf</include>
              <policy context="default"><allow user="root"/></policy>
            </busconfig>
            """.write(toFile: s.dir + "/bus.conf", atomically: true, encoding: .utf8)
            daemon[1] = "--config-file=\(s.dir)/bus.conf"
        }
        try s.spawn(daemon, log: "dbus.log")
        try s.waitUntil("the session bus") { access(s.dir + "/bus", F_OK) == 0 }
        s.environment["DBUS_SESSION_BUS_ADDRESS"] = bus
        try s.spawn(["mutter", "--headless", "--wayland", "--no-x11"] + monitors.flatMap { ["--virtual-monitor", $0] }, log: "mutter.log")
        try s.waitUntil("mutter's Wayland socket") { access(run + "/wayland-0", F_OK) == 0 }
        s.environment["WAYLAND_DISPLAY"] = "wayland-0"
        try s.waitUntil("org.gnome.Mutter.DisplayConfig") { (try? s.displayConfigState()) != nil }
        return s
    }

    /// `gdbus call` on the session's bus as the session's user (a session bus admits only the
    /// user who started it).
    func gdbus(_ method: String, _ arguments: [String] = []) throws -> String {
        let call = ["gdbus", "call", "--session", "--dest", "org.gnome.Mutter.DisplayConfig",
                    "--object-path", "/org/gnome/Mutter/DisplayConfig", "--method", "org.gnome.Mutter.DisplayConfig." + method] + arguments
        let argv = asNobody ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", try DesktopSession.need("gdbus", package: "libglib2.0-bin")] + call.dropFirst() : call
        let (status, out) = try run(argv)
        guard status == 0 else { throw TestFailure(description: "gdbus \(method): \(out)") }
        return out
    }

    /// DisplayConfig's GetCurrentState: its serial, and the first monitor's connector and current mode.
    func displayConfigState() throws -> (serial: String, connector: String, mode: String) {
        let out = try gdbus("GetCurrentState")
        guard let serial = out.firstMatch(of: /^\(uint32 (\d+),/)?.1,
              let monitor = out.firstMatch(of: /\[\(\('([^']+)'/)?.1,
              let mode = out.firstMatch(of: /\('([^']+)', \d+, \d+, [\d.]+, [\d.]+, \[[^\]]*\], \{[^}]*'is-current': <true>/)?.1 else {
            throw TestFailure(description: "GetCurrentState: \(out)")
        }
        return (String(serial), String(monitor), String(mode))
    }

    /// Turns the monitor with DisplayConfig's ApplyMonitorsConfig (method 1: temporary), as
    /// GNOME's display settings and its accelerometer rotation do. `transform` is wl_output's:
    /// 0 normal, 1 90°, 2 180°, 3 270° counterclockwise, 4…7 the same flipped.
    func mutterTransform(_ transform: Int) throws {
        let state = try displayConfigState()
        _ = try gdbus("ApplyMonitorsConfig", [state.serial, "1",
            "[(0, 0, 1.0, uint32 \(transform), true, [('\(state.connector)', '\(state.mode)', @a{sv} {})])]", "@a{sv} {}"])
    }

    /// `gsettings` as the session's user on its bus: dconf-service, started by the bus, writes
    /// the user's database under HOME (this session's directory).
    func gsettings(_ arguments: [String]) throws -> String {
        let tool = try DesktopSession.need("gsettings", package: "libglib2.0-bin")
        let argv = asNobody ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", tool] + arguments : [tool] + arguments
        let (status, out) = try run(argv)
        guard status == 0 else { throw TestFailure(description: "gsettings \(arguments): \(out)") }
        return out
    }

    // MARK: X11

    /// Xvfb on a free display number, openbox on it.
    static func x11() throws -> DesktopSession {
        let s = try DesktopSession()
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw TestFailure(description: "pipe: \(errno)") }
        s.xvfbPipe = fds
        try s.spawn(["Xvfb", "-displayfd", "3", "-screen", "0", "800x600x24", "-nolisten", "tcp"], log: "xvfb.log", stdoutFD: fds[1])
        var number = ""
        var ch: UInt8 = 0
        var p = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
        while poll(&p, 1, 10_000) > 0, read(fds[0], &ch, 1) == 1, ch != 0x0a { number.append(Character(UnicodeScalar(ch))) }
        guard !number.isEmpty else { throw TestFailure(description: "Xvfb did not start: \(s.logs)") }
        s.environment = ["DISPLAY": ":" + number]
        try s.spawn(["openbox"], log: "openbox.log")
        try s.waitUntil("openbox's EWMH check window") { try s.run(["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"]).1.contains("window id") }
        return s
    }

    /// An xterm whose WM_CLASS class is `cls`.
    func xterm(class cls: String, title: String) throws {
        try spawn(["xterm", "-class", cls, "-T", title, "-e", "cat"], log: "xterm-\(cls).log")
        try waitUntil("xterm \(cls)") { try run(["xdotool", "search", "--class", cls]).0 == 0 }
    }

    func activate(class cls: String) throws {
        let (status, out) = try run(["xdotool", "search", "--class", cls, "windowactivate", "--sync"])
        guard status == 0 else { throw TestFailure(description: "xdotool activate \(cls): \(out)") }
    }
}

/// A child process of the test, reaped with waitpid.
final class Child {
    let pid: pid_t
    private var reaped = false

    init(_ argv: [String], environment: [String: String], log: String, stdoutFD: Int32?) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        if let fd = stdoutFD { posix_spawn_file_actions_adddup2(&actions, fd, 3) }
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { cArgs.forEach { free($0) }; cEnv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, argv[0], &actions, nil, cArgs, cEnv)
        guard rc == 0 else { throw TestFailure(description: "cannot start \(argv[0]): \(String(cString: strerror(rc)))") }
        self.pid = pid
    }

    func signal(_ s: Int32) { if !reaped { kill(pid, s) } }

    /// Waits up to 2 s, then kills.
    func reap() {
        guard !reaped else { return }
        var status: Int32 = 0
        for _ in 0..<200 {
            if waitpid(pid, &status, WNOHANG) == pid { reaped = true; return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        reaped = true
    }

    deinit { if !reaped { kill(pid, SIGKILL); reap() } }
}

/// A process a desktop process started, by pid and start time (a pid alone may be reused). When
/// its parent ends first it is orphaned to this test process (a subreaper once any hook runner
/// ran in it), and its zombie would stay: swift-testing's exit-test monitor waits with
/// `waitid(P_ALL, WNOWAIT)`, which then reports that zombie forever and never an exit test's
/// child, so every exit test still running hangs. `collect` reaps exactly such an orphan.
struct OrphanedProcess {
    let pid: pid_t
    let start: Substring

    /// The live descendants of `pid`, children before their own children.
    static func descendants(of pid: pid_t) -> [OrphanedProcess] {
        children(of: pid).flatMap { child -> [OrphanedProcess] in
            guard let s = stat(child) else { return [] }
            return [OrphanedProcess(pid: child, start: s.start)] + descendants(of: child)
        }
    }

    /// Reaps every zombie child of this process that is not running this test binary and that
    /// another process put in its process group: what a desktop tool left orphaned to us as the
    /// subreaper (kscreen-doctor's own children, in the group `timeout` made, which it never
    /// waits for). Exit tests run this binary, so their children are left to swift-testing's
    /// monitor, whose `waitid(P_ALL, WNOWAIT)` any other zombie would block. A child a test
    /// started itself is left to the test: Foundation's `Process` makes each child lead its own
    /// group, and `posix_spawn` without flags leaves it in ours; reaping it here would take the
    /// exit status its `waitUntilExit` reads (CI saw a parallel `gestured explain` not exit 1).
    static func reapForeignZombies() {
        let me = getpid()
        guard let mine = try? String(contentsOfFile: "/proc/\(me)/comm", encoding: .utf8) else { return }
        for pid in children(of: me) {
            guard let s = stat(pid), s.state == "Z", s.group != pid, s.group != getpgrp(),
                  let comm = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8), comm != mine else { continue }
            var status: Int32 = 0
            _ = waitpid(pid, &status, WNOHANG)
        }
    }

    /// Ends every other process whose environment mentions `text` (a session's directory):
    /// SIGTERM, SIGKILL a second later, and reaps the ones that are this process's children
    /// (adopted, as a subreaper). A bus-activated dconf-service ignores SIGTERM while busy and
    /// is init's child or ours, never a descendant of the session's bus.
    static func end(mentioning text: String) {
        let all = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(pid_t.init)
        let found = all.compactMap { pid -> OrphanedProcess? in
            guard pid != getpid(), let s = stat(pid), s.state != "Z",
                  let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ"),
                  String(decoding: environ, as: UTF8.self).contains(text) else { return nil }
            return OrphanedProcess(pid: pid, start: s.start)
        }
        for p in found { kill(p.pid, SIGTERM) }
        for p in found {
            for i in 0..<200 {
                guard let s = stat(p.pid), s.start == p.start else { break }
                if s.state == "Z" {
                    if s.parent == getpid() { var status: Int32 = 0; _ = waitpid(p.pid, &status, WNOHANG) }
                    break
                }
                if i == 100 { kill(p.pid, SIGKILL) }
                usleep(10_000)
            }
        }
    }

    /// `pid`'s children: from /proc/PID/task/*/children where the kernel has it
    /// (CONFIG_PROC_CHILDREN), else from every process's parent in /proc (kernels without it,
    /// this sandbox's among them, would otherwise find no descendant and leave, say, the
    /// dconf-service a session's bus started, to hang the exit tests as above).
    static func children(of pid: pid_t) -> [pid_t] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        if let first = tasks.first, access("/proc/\(pid)/task/\(first)/children", R_OK) == 0 {
            return tasks.flatMap { task -> [pid_t] in
                let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
                return text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            }
        }
        let all = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return all.compactMap(pid_t.init).filter { stat($0)?.parent == pid }
    }

    /// Parent, process group, state and start time from /proc/PID/stat; nil once it is gone.
    static func stat(_ pid: pid_t) -> (parent: pid_t, group: pid_t, state: Substring, start: Substring)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: end)...].split(separator: " ")
        guard fields.count > 19, let parent = pid_t(fields[1]), let group = pid_t(fields[2]) else { return nil }
        return (parent, group, fields[0], fields[19])
    }

    /// Once its parent is gone: reaps it if it is this process's child now (waiting up to 2 s
    /// for it to end, SIGKILL after 1 s). One that is gone, someone else's child or another
    /// process with its pid is left alone, so this never takes a child another part waits for.
    func collect() {
        for i in 0..<200 {
            guard let s = Self.stat(pid), s.start == start, s.parent == getpid() else { return }
            if s.state == "Z" {
                var status: Int32 = 0
                _ = waitpid(pid, &status, WNOHANG)
                return
            }
            if i == 100 { kill(pid, SIGKILL) }
            usleep(10_000)
        }
    }
}
