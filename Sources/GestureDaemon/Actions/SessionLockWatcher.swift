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
        let ready: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do { ready = try FileDescriptor.pipe() } catch { report(.unavailable("cannot create a pipe: \(error)")); return }
        do {
            try SystemThread.detached { [self] in run(ready: ready.writeEnd) }
            var byte: [UInt8] = [0]
            _ = byte.withUnsafeMutableBytes { try? ready.readEnd.read(into: $0) }
        } catch {
            ready.writeEnd.close()
            report(.unavailable("cannot start a thread: \(error)"))
        }
        ready.readEnd.close()
    }

    /// The thread: follows the lock for the life of the process.
    private func run(ready: FileDescriptor) {
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
        _ = [UInt8(1)].withUnsafeBytes { try? ready.write($0) }
        ready.close()
        if let problem { report(.unavailable(problem)); return }
        loop.run()
    }
}
