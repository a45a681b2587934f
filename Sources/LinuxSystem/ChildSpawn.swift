#if canImport(Glibc)
import Glibc
#endif
import CLinuxSys

/// The process calls the hook runner makes: posix_spawn of a shell in its own process group,
/// waiting without blocking, signalling a process group, becoming the subreaper, pidfds.
public enum ChildSpawn {
    /// posix_spawn of `/bin/sh -c command` with `environment` (NAME=value strings): standard input
    /// from /dev/null, output and error on the given fds, signals reset to their defaults and
    /// unblocked, a process group of its own (so a timeout kills what it started too).
    public static func shell(_ command: String, environment: CStringList, stdout: FileDescriptor,
                             stderr: FileDescriptor) throws(SystemError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout.rawValue, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr.rawValue, 2)

        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var empty = sigset_t(), defaults = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        for s in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigmask(&attr, &empty)
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setpgroup(&attr, 0)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        var argv = CStringList()
        argv.begin(); argv.add("/bin/sh"); argv.end()
        argv.begin(); argv.add("-c"); argv.end()
        argv.begin(); argv.add(command); argv.end()
        var pid: pid_t = 0
        let rc = argv.withPointers { a in
            environment.withPointers { e in posix_spawn(&pid, "/bin/sh", &actions, &attr, a, e) }
        }
        guard rc == 0 else { throw SystemError(code: rc) }
        return pid
    }

    /// Where a spawned program's standard input, output or error goes.
    public enum Redirection: Sendable {
        /// Ours, as it is (no file action at all).
        case inherited
        /// /dev/null (read-only for input, write-only for output).
        case null
        /// This fd of ours, duplicated onto it.
        case descriptor(FileDescriptor)
        /// A file opened for writing: created (0644 less the umask) or emptied.
        case file(String)
    }

    /// posix_spawn of `argv` (argv[0] a full path; no shell, no PATH search) with `environment`
    /// (NAME=value strings; nil: this process's): standard streams as given, `closing` closed in
    /// the child (the read end of the caller's pipe).
    public static func program(_ argv: [String], stdin: Redirection = .null, stdout: Redirection,
                               stderr: Redirection = .null, environment: [String]? = nil,
                               closing: FileDescriptor? = nil) throws(SystemError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, redirection) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            switch redirection {
            case .inherited: break
            case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd.rawValue, target)
            case .file(let path): posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            }
        }
        if let closing { posix_spawn_file_actions_addclose(&actions, closing.rawValue) }
        let cargs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        let cenv: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup($0) } + [nil] }
        defer { for a in cargs { free(a) }; for e in cenv ?? [] { free(e) } }
        var pid: pid_t = 0
        let rc = cenv.map { posix_spawn(&pid, argv[0], &actions, nil, cargs, $0) }
            ?? posix_spawn(&pid, argv[0], &actions, nil, cargs, environ)
        guard rc == 0 else { throw SystemError(code: rc) }
        return pid
    }

    /// Sends `signal` to process `pid` alone.
    public static func signal(_ pid: pid_t, _ signal: Signal) { _ = kill(pid, signal.rawValue) }

    /// Waits for `pid` to end (EINTR retried): how it ended.
    public static func wait(_ pid: pid_t) throws(SystemError) -> Wait {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            let error = SystemError.last
            if error != .interrupted { throw error }
        }
        let sig = status & 0x7f
        return sig == 0 ? .exited(status: (status >> 8) & 0xff) : .signalled(sig)
    }

    /// What `waitpid(pid, WNOHANG)` found.
    public enum Wait: Equatable, Sendable {
        case running
        case exited(status: Int32)
        case signalled(Int32)
    }

    /// Collects `pid` if it has ended (errors such as `.noChild` or `.interrupted` are thrown).
    public static func waitNoHang(_ pid: pid_t) throws(SystemError) -> Wait {
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        if r == 0 { return .running }
        guard r > 0 else { throw .last }
        let sig = status & 0x7f
        return sig == 0 ? .exited(status: (status >> 8) & 0xff) : .signalled(sig)
    }

    /// Reaps every ended process of process group `pgid` that is our child (or adopted by us).
    public static func reapGroup(_ pgid: pid_t) {
        var status: Int32 = 0
        while waitpid(-pgid, &status, WNOHANG) > 0 {}
    }

    /// Sends `signal` to every process of group `pgid`.
    public static func signalGroup(_ pgid: pid_t, _ signal: Signal) { _ = kill(-pgid, signal.rawValue) }

    /// True while any process of group `pgid` exists (EPERM: it exists but is not ours to signal).
    public static func groupExists(_ pgid: pid_t) -> Bool {
        kill(-pgid, 0) == 0 || SystemError.last == .notPermitted
    }

    /// Makes this process the reaper of its orphaned descendants (PR_SET_CHILD_SUBREAPER).
    public static func becomeSubreaper() { _ = gestured_become_subreaper() }

    /// This process's environment as NAME=value strings.
    public static func environment() -> [String] {
        var out: [String] = []
        var p = environ
        while let s = p.pointee { out.append(String(cString: s)); p += 1 }
        return out
    }
}

/// pidfd_open(2): an fd that becomes readable when a process exits.
public enum PidFD {
    private typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32
    /// glibc ≥ 2.36 exports pidfd_open; Swift cannot call the variadic syscall(2), so look it up.
    private static let function: PidfdOpen? = {
        guard let sym = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pidfd_open") else { return nil }
        return unsafeBitCast(sym, to: PidfdOpen.self)
    }()

    /// Whether this libc has pidfd_open at all.
    public static var available: Bool { function != nil }

    /// A close-on-exec pidfd for `pid`.
    public static func open(_ pid: pid_t) throws(SystemError) -> FileDescriptor {
        guard let function else { throw SystemError(code: ENOSYS) }
        let fd = function(pid, 0)
        guard fd >= 0 else { throw .last }
        let descriptor = FileDescriptor(rawValue: fd)
        descriptor.setCloseOnExec()
        return descriptor
    }
}

extension FileDescriptor {
    /// A pipe whose both ends are close-on-exec from the start (no window in which a child
    /// spawned by another thread inherits them).
    public static func pipe() throws(SystemError) -> (readEnd: FileDescriptor, writeEnd: FileDescriptor) {
        var fds: [Int32] = [-1, -1]
        guard gestured_pipe_cloexec(&fds) == 0 else { throw .last }
        return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    }
}
