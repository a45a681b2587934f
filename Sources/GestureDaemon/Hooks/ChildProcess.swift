import GestureCore
import LinuxSystem

/// One hook: `/bin/sh -c COMMAND` started with posix_spawn in a process group of its own,
/// standard input from /dev/null, standard output and error on non-blocking pipes, a pidfd when
/// the system has them, and its timeout; and the hook's other processes, its whole tree: its
/// process group and the members `HookTree` found outside it (`setsid`). The hook runner's worker
/// thread owns it; nothing here logs or waits for anything but the shell and its group.
final class ChildProcess {
    let pid: Int32
    /// The id in the hook's `GESTURED_HOOK` marker (HookTree).
    let hookID: Int
    /// Readable when the shell exits; nil without pidfds (then poll it) or once it has exited.
    private(set) var pidfd: FileDescriptor?
    /// The shell has exited and was collected (`reap()`).
    private(set) var leaderReaped = false
    /// A /proc scan has run since the shell was collected: `members` is then complete enough to
    /// say the hook is over.
    var scannedSinceReaped = false
    /// The shell exited but processes it started still run: the hook still counts against
    /// max_concurrent and its timeout still applies (logged once).
    var reportedBackground = false
    /// Processes of the hook outside its process group, by pid with their start time (HookTree).
    var members = PidMap<UInt64>()
    /// The last signal sent to the tree; a member found later gets it too.
    private(set) var lastSignal: Signal?
    /// The read ends of the output pipes; nil once closed.
    private(set) var stdout: FileDescriptor?
    private(set) var stderr: FileDescriptor?
    private var stdoutLines = OutputLineBuffer()
    private var stderrLines = OutputLineBuffer()
    var timeout: ChildTimeout
    /// What the logs call it: made when a line is written, not for every run.
    var label: String { "\(makeLabel()) pid \(pid)" }
    private let makeLabel: () -> String

    /// Why a child could not be started: the step that failed and the error text.
    struct SpawnError: Error {
        var message: String
    }

    /// Starts `command` with `environment` (NAME=value strings); the timeout starts now.
    /// `label` gets " pid N" appended.
    init(command: String, environment: CStringList, hookID: Int, label: @escaping @autoclosure () -> String,
         timeout: Duration, killAfter: Duration) throws(SpawnError) {
        self.hookID = hookID
        makeLabel = label
        let outPipe: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        let errPipe: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do { outPipe = try FileDescriptor.pipe() } catch { throw SpawnError(message: "cannot create a pipe: \(error)") }
        do { errPipe = try FileDescriptor.pipe() } catch {
            outPipe.readEnd.close(); outPipe.writeEnd.close()
            throw SpawnError(message: "cannot create a pipe: \(error)")
        }
        for fd in [outPipe.readEnd, errPipe.readEnd] { fd.setNonBlocking() }
        defer { outPipe.writeEnd.close(); errPipe.writeEnd.close() }
        let pid: Int32
        do {
            pid = try ChildSpawn.shell(command, environment: environment, stdout: outPipe.writeEnd, stderr: errPipe.writeEnd)
        } catch {
            outPipe.readEnd.close(); errPipe.readEnd.close()
            throw SpawnError(message: "cannot run /bin/sh: \(error)")
        }
        self.pid = pid
        pidfd = try? PidFD.open(pid)
        stdout = outPipe.readEnd
        stderr = errPipe.readEnd
        self.timeout = ChildTimeout(deadline: MonotonicClock.now() + timeout, killAfter: killAfter)
    }

    /// Sends `signal` to the hook's whole tree: its process group and every member found outside
    /// it (each checked by start time first, so a reused pid is left alone).
    func signalTree(_ signal: Signal) {
        lastSignal = signal
        ChildSpawn.signalGroup(pid, signal)
        members.forEach { member, start in HookTree.signal(member, startTime: start, signal) }
    }

    /// True while any process of the hook lives: one of its process group (whose zombies,
    /// orphaned to us as the subreaper, are reaped here first) or a member found outside it.
    func treeAlive() -> Bool {
        ChildSpawn.reapGroup(pid)
        return ChildSpawn.groupExists(pid) || !members.isEmpty
    }

    /// How the shell ended, as far as `waitpid` says.
    enum Exit: Equatable {
        case status(Int32)
        case signal(Int32)
        /// Reaped by someone else (`.noChild`: SIGCHLD ignored) or another error: gone either way.
        case unknown(SystemError)
    }

    /// The shell's exit, collected if it has exited; nil while it runs. Closes the pidfd then.
    /// This collects the shell only: the hook is over once `treeAlive()` is also false after a
    /// scan (what the shell left in its group, and members adopted by this process as their
    /// subreaper, are reaped there and by HookTree).
    func reap() -> Exit? {
        let exit: Exit
        do {
            switch try ChildSpawn.waitNoHang(pid) {
            case .running: return nil
            case .exited(let status): exit = .status(status)
            case .signalled(let sig): exit = .signal(sig)
            }
        } catch .interrupted { return nil } catch { exit = .unknown(error) }
        pidfd?.close(); pidfd = nil
        leaderReaped = true
        return exit
    }

    /// Reads what one output pipe holds and returns its complete lines; at the pipe's end or
    /// with `final` also the last partial line, and the pipe is closed.
    func readLines(stdout isStdout: Bool, final: Bool = false) -> [[UInt8]] {
        guard let fd = isStdout ? stdout : stderr else { return [] }
        var buffer = isStdout ? stdoutLines : stderrLines
        var chunk = [UInt8](repeating: 0, count: 4096)
        var eof = false
        while true {
            let n = chunk.withUnsafeMutableBytes { try? fd.read(into: $0) }
            if let n, n > 0 { buffer.append(chunk[0..<n]); if buffer.isFull { break }; continue }
            if n == 0 { eof = true }
            break
        }
        let lines = buffer.takeLines(end: eof || final)
        if eof || final {
            fd.close()
            if isStdout { stdout = nil } else { stderr = nil }
        }
        if isStdout { stdoutLines = buffer } else { stderrLines = buffer }
        return lines
    }

    /// Closes what is still open (the pidfd and the pipes).
    func closeAll() {
        for fd in [pidfd, stdout, stderr] { fd?.close() }
        pidfd = nil; stdout = nil; stderr = nil
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
