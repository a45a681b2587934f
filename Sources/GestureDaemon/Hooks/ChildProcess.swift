#if canImport(Glibc)
import Glibc
import GestureCore
import LinuxSystem
#endif

/// One hook's child: `/bin/sh -c COMMAND` started with posix_spawn in a process group of its own,
/// standard input from /dev/null, standard output and error on non-blocking pipes, a pidfd when
/// the system has them, and its timeout. The hook runner's worker thread owns it; nothing here
/// logs or waits.
final class ChildProcess {
    let pid: pid_t
    /// Readable when the shell exits; -1 without pidfds (then poll it) or once it has exited.
    private(set) var pidfd: Int32
    /// The shell exited but processes it started in the background still run in its process
    /// group: the hook still counts against max_concurrent and its timeout still applies.
    var leaderExited = false
    /// The read ends of the output pipes; -1 once closed.
    private(set) var stdout: Int32
    private(set) var stderr: Int32
    private var stdoutLines = OutputLineBuffer()
    private var stderrLines = OutputLineBuffer()
    var timeout: ChildTimeout
    /// What the logs call it.
    let label: String

    /// Why a child could not be started: the step that failed and the error text.
    struct SpawnError: Error {
        var message: String
    }

    /// Starts `command` with `environment` (NAME=value strings); the timeout starts now.
    /// `label` gets " pid N" appended.
    init(command: String, environment: [String], label: String, timeout: Duration,
         killAfter: Duration) throws(SpawnError) {
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        guard HookSys.makePipe(&outPipe) else { throw SpawnError(message: "cannot create a pipe: \(SystemError.last)") }
        guard HookSys.makePipe(&errPipe) else {
            let e = SystemError.last
            close(outPipe[0]); close(outPipe[1])
            throw SpawnError(message: "cannot create a pipe: \(e)")
        }
        for fd in [outPipe[0], errPipe[0]] { HookSys.setFlags(fd) }
        defer { close(outPipe[1]); close(errPipe[1]) }
        var pid: pid_t = 0
        let rc = Self.spawnShell(command, environment: environment, stdout: outPipe[1], stderr: errPipe[1], pid: &pid)
        guard rc == 0 else {
            close(outPipe[0]); close(errPipe[0])
            throw SpawnError(message: "cannot run /bin/sh: \(SystemError(code: rc))")
        }
        self.pid = pid
        self.label = "\(label) pid \(pid)"
        pidfd = HookSys.pidfdOpen(pid)
        stdout = outPipe[0]
        stderr = errPipe[0]
        self.timeout = ChildTimeout(deadline: MonotonicClock.now() + timeout, killAfter: killAfter)
    }

    /// posix_spawn of `/bin/sh -c command`: signals reset to their defaults and unblocked, its
    /// own process group (a timeout kills what it started too). posix_spawn's result (0: started).
    private static func spawnShell(_ command: String, environment: [String], stdout: Int32, stderr: Int32,
                                   pid: inout pid_t) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)

        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var empty = sigset_t(), defaults = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        for s in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD, SIGQUIT, SIGUSR1, SIGUSR2] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigmask(&attr, &empty)
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setpgroup(&attr, 0)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(command), nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) }; for p in envp { free(p) } }
        return posix_spawn(&pid, "/bin/sh", &actions, &attr, argv, envp)
    }

    /// Sends `signal` to the child's whole process group.
    func signalGroup(_ signal: Int32) { kill(-pid, signal) }

    /// True while any process of the child's process group lives (its zombies, orphaned to us as
    /// the subreaper, are reaped here first).
    func groupAlive() -> Bool {
        var status: Int32 = 0
        while waitpid(-pid, &status, WNOHANG) > 0 {}
        return kill(-pid, 0) == 0 || SystemError.last == .notPermitted
    }

    /// How the shell ended, as far as `waitpid` says.
    enum Exit: Equatable {
        case status(Int32)
        case signal(Int32)
        /// Reaped by someone else (`.noChild`: SIGCHLD ignored) or another error: gone either way.
        case unknown(SystemError)
    }

    /// The shell's exit, collected if it has exited; nil while it runs. Closes the pidfd then.
    /// This collects the shell only: the child is over once `groupAlive()` is also false (it
    /// reaps what the shell left in its group and this process adopted as their subreaper).
    /// Stopping at `reap()` leaves those zombies to this process for good.
    func reap() -> Exit? {
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        if r == 0 { return nil }
        let exit: Exit
        if r < 0 {
            let error = SystemError.last
            if error == .interrupted { return nil }
            exit = .unknown(error)
        } else {
            let sig = status & 0x7f
            exit = sig == 0 ? .status((status >> 8) & 0xff) : .signal(sig)
        }
        if pidfd >= 0 { close(pidfd); pidfd = -1 }
        return exit
    }

    /// Reads what one output pipe holds and returns its complete lines; at the pipe's end or
    /// with `final` also the last partial line, and the pipe is closed.
    func readLines(stdout isStdout: Bool, final: Bool = false) -> [[UInt8]] {
        let fd = isStdout ? stdout : stderr
        guard fd >= 0 else { return [] }
        var buffer = isStdout ? stdoutLines : stderrLines
        var chunk = [UInt8](repeating: 0, count: 4096)
        var eof = false
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { buffer.append(chunk[0..<n]); if buffer.isFull { break }; continue }
            if n == 0 { eof = true }
            else if SystemError.last == .interrupted { continue }
            break
        }
        let lines = buffer.takeLines(end: eof || final)
        if eof || final {
            close(fd)
            if isStdout { stdout = -1 } else { stderr = -1 }
        }
        if isStdout { stdoutLines = buffer } else { stderrLines = buffer }
        return lines
    }

    /// Closes what is still open (the pidfd and the pipes).
    func closeAll() {
        if pidfd >= 0 { close(pidfd); pidfd = -1 }
        if stdout >= 0 { close(stdout); stdout = -1 }
        if stderr >= 0 { close(stderr); stderr = -1 }
    }
}

/// A child's timeout: SIGTERM to its process group at the deadline, SIGKILL `killAfter` later if
/// it is still there. Pure: the caller passes the time and sends the signal.
struct ChildTimeout: Equatable {
    enum Step: Equatable { case terminate, kill }

    private(set) var deadline: Instant
    let killAfter: Duration
    private(set) var termSent = false
    private(set) var killSent = false

    init(deadline: Instant, killAfter: Duration) {
        self.deadline = deadline
        self.killAfter = killAfter
    }

    /// When the next step is due; nil once SIGKILL was sent.
    var nextDeadline: Instant? { killSent ? nil : deadline }

    /// The step due at `now`, if any (SIGTERM moves the deadline to `now + killAfter`).
    mutating func step(now: Instant) -> Step? {
        guard deadline <= now, !killSent else { return nil }
        if !termSent {
            termSent = true
            deadline = now + killAfter
            return .terminate
        }
        killSent = true
        return .kill
    }

    /// Stopping the runner: true when SIGTERM is to be sent now (not sent before); SIGKILL
    /// follows `killAfter` later through `step`.
    mutating func stop(now: Instant) -> Bool {
        guard !termSent else { return false }
        termSent = true
        deadline = now + killAfter
        return true
    }
}
