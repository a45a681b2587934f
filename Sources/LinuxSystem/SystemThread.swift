#if canImport(Glibc)
import Glibc
#endif
import CLinuxSys

/// A POSIX thread running a closure (the daemon links no Foundation, so no `Thread`): the hook
/// runner's worker (joined at shutdown), the session lock watcher and the replay feeders (detached).
public struct SystemThread: Sendable {
    private let id: pthread_t

    private final class Box: @unchecked Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts `body` on a new thread that must be `join`ed (or `detach`ed) once.
    public static func start(_ body: @escaping @Sendable () -> Void) throws(SystemError) -> SystemThread {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var tid = pthread_t()
        let rc = pthread_create(&tid, nil, { raw in
            SystemThread.noHugePagesOnStack()
            Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, box)
        guard rc == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            throw SystemError(code: rc)
        }
        return SystemThread(id: tid)
    }

    /// The calling thread's stack gets no transparent huge pages (`MADV_NOHUGEPAGE`). A thread's
    /// stack is an 8 MB anonymous mapping; where the kernel makes huge pages always (Debian's
    /// kernel does), khugepaged may turn the 2 MB-aligned stretch holding the few kB the thread
    /// uses into one huge page: 2 MB more private memory, at a random moment. Only this mapping:
    /// the process's children (hooks) keep the system's setting.
    static func noHugePagesOnStack() {
        var base: UnsafeMutableRawPointer?
        var size = 0
        if gestured_thread_stack(&base, &size) == 0, let base, size > 0 {
            _ = madvise(base, size, MADV_NOHUGEPAGE)
        }
    }

    /// Starts `body` on a thread nobody waits for: its resources go when it returns.
    public static func detached(_ body: @escaping @Sendable () -> Void) throws(SystemError) {
        try start(body).detach()
    }

    /// Waits until the thread's body has returned.
    public func join() { pthread_join(id, nil) }

    /// Lets the thread end on its own.
    public func detach() { pthread_detach(id) }
}
