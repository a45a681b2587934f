#if canImport(Glibc)
import Glibc
#endif
import CLinuxSys

/// A signal number with names for the ones the daemon and the commands send, catch or ignore.
public struct Signal: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let hangUp = Signal(rawValue: SIGHUP)
    public static let interrupt = Signal(rawValue: SIGINT)
    public static let terminate = Signal(rawValue: SIGTERM)
    public static let kill = Signal(rawValue: SIGKILL)
    public static let brokenPipe = Signal(rawValue: SIGPIPE)
    public static let child = Signal(rawValue: SIGCHLD)
    public static let user1 = Signal(rawValue: SIGUSR1)
    public static let user2 = Signal(rawValue: SIGUSR2)
    public static let alarm = Signal(rawValue: SIGALRM)

    public var description: String { String(rawValue) }
}

/// The calling process: its ids, its environment, its file-creation mask and signal dispositions.
public enum CurrentProcess {
    /// getpid(2).
    public static var id: Int32 { getpid() }

    /// getuid(2): the real user id.
    public static var userID: UInt32 { getuid() }

    /// geteuid(2): the effective user id (what file permissions are checked against).
    public static var effectiveUserID: UInt32 { geteuid() }

    /// The process's groups: the supplementary ones (getgroups) and the effective gid.
    public static var groupIDs: [UInt32] {
        let n = getgroups(0, nil)
        var list = [gid_t](repeating: 0, count: Int(max(0, n)))
        let m = getgroups(n, &list)
        return Array(list.prefix(Int(max(0, m)))) + [getegid()]
    }

    /// The whole environment as a dictionary (of a repeated name, the last wins).
    public static var environment: [String: String] {
        var env: [String: String] = [:]
        for s in ChildSpawn.environment() {
            if let eq = s.firstIndex(of: "=") {
                env[String(s[..<eq])] = String(s[s.index(after: eq)...])
            }
        }
        return env
    }

    /// The running executable's path (readlink of /proc/self/exe), nil when unreadable.
    public static var executablePath: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `name` in the running executable's directory (nil when /proc/self/exe is unreadable):
    /// the programs installed or built beside it.
    public static func siblingPath(_ name: String) -> String? {
        guard var path = executablePath else { return nil }
        while let last = path.last, last != "/" { path.removeLast() }
        return path + name
    }

    /// getenv(3): the value of `name`, nil when unset.
    public static func environmentValue(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// umask(2): sets the mask files are created with and returns the previous one.
    @discardableResult
    public static func setFileCreationMask(_ mask: UInt32) -> UInt32 { UInt32(umask(mode_t(mask))) }

    /// Sets `signal` to be ignored (SIG_IGN): for SIGPIPE, a write to a closed pipe or socket
    /// then fails with `.brokenPipe` instead of ending the process.
    public static func ignore(_ signal: Signal) { _ = Glibc.signal(signal.rawValue, SIG_IGN) }

    /// Restores the default action of `signals` and unblocks them on the calling thread (a parent
    /// may hand a process blocked or ignored signals).
    public static func restoreDefault(_ signals: [Signal]) {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s.rawValue); _ = Glibc.signal(s.rawValue, SIG_DFL) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Sleeps until a signal ends the process (pause(2) in a loop): for a main thread whose
    /// work happens on others.
    public static func waitForSignals() -> Never {
        while true { pause() }
    }

    /// execv(3): replaces the process with the program at `path` (arguments[0] is its argv[0]);
    /// returns only when that fails, with why. Descriptors without FD_CLOEXEC stay open.
    public static func replace(with path: String, arguments: [String]) -> SystemError {
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for a in argv { Glibc.free(a) } }
        execv(path, &argv)
        return .last
    }

    /// Raises the soft RLIMIT_NOFILE to the hard limit (what systemd's docs ask of a daemon that
    /// holds many descriptors; the hard limit is the real bound). Returns the soft limit before
    /// and after; throws what setrlimit said (`.notPermitted` under a seccomp filter that denies
    /// @resources, where the unit's LimitNOFILE= sets both).
    @discardableResult
    public static func raiseOpenFileLimit() throws(SystemError) -> (before: UInt64, after: UInt64) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { throw .last }
        let before = UInt64(limit.rlim_cur)
        guard limit.rlim_cur < limit.rlim_max else { return (before, before) }
        limit.rlim_cur = limit.rlim_max
        guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { throw .last }
        return (before, UInt64(limit.rlim_max))
    }

    /// malloc_trim(0): hands the allocator's free pages back to the system, so memory a burst
    /// of clients used stops counting in the RSS once they leave.
    public static func returnFreeMemory() { _ = malloc_trim(0) }

    /// mallopt(M_ARENA_MAX, 1): every thread allocates from the main arena. glibc otherwise gives
    /// each thread that allocates (the hook runner, the trackers) an arena of its own, whose
    /// touched pages count as private memory for the process's life; a daemon with a few mostly
    /// idle threads gains nothing from them. Call before the first thread starts.
    public static func useOneAllocatorArena() { _ = mallopt(M_ARENA_MAX, 1) }

    /// exit(3): flushes C stdio and ends the process with `status`.
    public static func exit(_ status: Int32) -> Never { Glibc.exit(status) }
}

/// Memory a C library allocated with malloc for the caller to free (sd-login's and sd-bus's
/// strings, xcb's replies and events).
public enum CMemory {
    /// The string's text; the memory is freed. Nil for a null pointer.
    public static func takeString(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        defer { Glibc.free(pointer) }
        return String(cString: pointer)
    }

    /// free(3) (a null pointer is fine).
    public static func free(_ pointer: UnsafeMutableRawPointer?) { Glibc.free(pointer) }
}
