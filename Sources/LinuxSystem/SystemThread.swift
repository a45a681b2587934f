#if canImport(Glibc)
import Glibc
#endif

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
            Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, box)
        guard rc == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            throw SystemError(code: rc)
        }
        return SystemThread(id: tid)
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
