import Synchronization
import LinuxSystem

/// A tracker's own thread and the pipe that wakes it to stop (the focus, screen and touchscreen
/// mapping trackers each own one): `start` runs the body on a new thread; `stop` raises
/// `isStopping`, makes `wake` readable so a poll beside the connection returns, and joins.
final class WorkerThread: Sendable {
    private let stopping = Atomic<Bool>(false)
    /// Readable once `stop` was called: poll it beside the connection.
    let wake: FileDescriptor
    private let wakeWrite: FileDescriptor
    private let thread = Mutex<SystemThread?>(nil)

    init() { (wake, wakeWrite) = Self.nonBlockingPipe() }

    /// A non-blocking pipe; without one (no descriptors left) two skipped descriptors, which a
    /// poll ignores, so `stop` then cannot interrupt a wait.
    static func nonBlockingPipe() -> (readEnd: FileDescriptor, writeEnd: FileDescriptor) {
        let p = (try? FileDescriptor.pipe()) ?? (readEnd: Poll.skipped, writeEnd: Poll.skipped)
        for end in [p.readEnd, p.writeEnd] { end.setNonBlocking() }
        return p
    }

    var isStopping: Bool { stopping.load(ordering: .relaxed) }

    /// Runs `body` on a thread of its own; false when no thread could be made.
    func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        guard let started = try? SystemThread.start(body) else { return false }
        thread.withLock { $0 = started }
        return true
    }

    /// Stops the thread and waits for it, then closes the pipe. True the first time only.
    @discardableResult
    func stop() -> Bool {
        guard !stopping.exchange(true, ordering: .sequentiallyConsistent) else { return false }
        _ = [UInt8(1)].withUnsafeBytes { try? wakeWrite.write($0) }
        if let worker = thread.withLock({ t -> SystemThread? in defer { t = nil }; return t }) { worker.join() }
        wake.close(); wakeWrite.close()
        return true
    }
}
