#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import LinuxSystem

/// SessionLock on a thread of its own, for a process whose main loop is not an EventLoop
/// (`gestured listen` blocks reading the daemon's socket). The thread sleeps in epoll on the
/// system bus and sd-login's monitor; `locked` is read from any thread. `report` is called on the
/// watcher's thread: once when it cannot follow (no system bus), then on each lock and unlock.
public final class SessionLockWatcher: Sendable {
    public enum Report: Sendable, Equatable {
        case unavailable(String)
        /// The session now followed (nil: none found yet).
        case following(session: String?)
        case locked(session: String?)
        /// `skipped`: how many times `noteSkipped()` was called while it was locked.
        case unlocked(session: String?, skipped: Int)
    }

    private let state = Atomic<Bool>(false)
    private let skipped = Atomic<Int>(0)
    private let report: @Sendable (Report) -> Void
    private let choose: @Sendable () -> String?

    public var locked: Bool { state.load(ordering: .acquiring) }

    /// Something was left undone because of the lock (counted into the unlock report).
    public func noteSkipped() { skipped.add(1, ordering: .relaxed) }

    /// Starts the thread and returns once the first state is known (so the first event is judged
    /// right). `choose` names the session to follow (SeatSession.ownSession for listen).
    public init(choose: @escaping @Sendable () -> String? = SeatSession.ownSession,
                report: @escaping @Sendable (Report) -> Void) {
        self.choose = choose
        self.report = report
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { report(.unavailable("cannot create a pipe: \(SystemError.last)")); return }
        let box = Unmanaged.passRetained(Box(watcher: self, ready: fds[1])).toOpaque()
        var tid = pthread_t()
        let rc = pthread_create(&tid, nil, { arg in
            let box = Unmanaged<Box>.fromOpaque(arg!).takeRetainedValue()
            box.watcher.run(ready: box.ready)
            return nil
        }, box)
        if rc == 0 {
            pthread_detach(tid)
            var byte: UInt8 = 0
            while read(fds[0], &byte, 1) < 0 && SystemError.last == .interrupted {}
        } else {
            Unmanaged<Box>.fromOpaque(box).release()
            close(fds[1])
            report(.unavailable("cannot start a thread: \(SystemError(code: rc))"))
        }
        close(fds[0])
    }

    private final class Box {
        let watcher: SessionLockWatcher
        let ready: Int32
        init(watcher: SessionLockWatcher, ready: Int32) { self.watcher = watcher; self.ready = ready }
    }

    /// The thread: follows the lock for the life of the process.
    private func run(ready: Int32) {
        let loop = EventLoop()
        let lock = SessionLock(loop: loop, log: Logger(level: .warning), monitorCategory: nil, choose: choose)
        lock.onChange = { [self] now, session in
            state.store(now, ordering: .releasing)
            if now {
                skipped.store(0, ordering: .relaxed)
                report(.locked(session: session))
            } else {
                report(.unlocked(session: session, skipped: skipped.exchange(0, ordering: .relaxed)))
            }
        }
        lock.onFollow = { [self] session in report(.following(session: session)) }
        let problem = lock.start()
        var byte: UInt8 = 1
        _ = write(ready, &byte, 1)
        close(ready)
        if let problem { report(.unavailable(problem)); return }
        loop.run()
    }
}
