#if canImport(Glibc)
import Glibc
#endif
import CLinuxSys

/// The few C calls the hook runner needs.
enum HookSys {
    /// Makes this process the reaper of its orphaned descendants, so the processes a hook's
    /// shell leaves running are adopted here and can be waited for by process group.
    static func becomeSubreaper() { _ = gestured_become_subreaper() }

    /// A pipe whose both ends are close-on-exec from the start (no window in which a child
    /// spawned by another thread inherits them); false with errno set.
    static func makePipe(_ fds: inout [Int32]) -> Bool { gestured_pipe_cloexec(&fds) == 0 }

    static func setFlags(_ fd: Int32, nonBlocking: Bool = true) {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        if nonBlocking { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }

    static func environment() -> [String] {
        var out: [String] = []
        var p = environ
        while let s = p.pointee { out.append(String(cString: s)); p += 1 }
        return out
    }

    private typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32
    /// glibc ≥ 2.36 exports pidfd_open; Swift cannot call the variadic syscall(2), so look it up.
    private static let pidfdOpenFunction: PidfdOpen? = {
        guard let sym = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pidfd_open") else { return nil }
        return unsafeBitCast(sym, to: PidfdOpen.self)
    }()

    static var hasPidfd: Bool { pidfdOpenFunction != nil }

    /// A pidfd for `pid` (readable when it exits), or -1: then the runner checks every 50 ms.
    static func pidfdOpen(_ pid: pid_t) -> Int32 {
        guard let f = pidfdOpenFunction else { return -1 }
        let fd = f(pid, 0)
        if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return fd
    }
}
