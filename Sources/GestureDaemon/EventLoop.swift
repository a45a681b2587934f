import GestureCore
import LinuxSystem

/// One epoll instance on one thread. Idle means blocked in `epoll_wait` with no timeout: every
/// wakeup is an fd (device, udev/inotify, socket, client, timerfd, signalfd) becoming ready.
///
/// Fairness: every handler does a bounded amount of work per call (a device reads at most
/// `maximumEvents`, a client one receive, the listener a few accepts), and within one wakeup the
/// `.first` handlers (devices, timers, signals, discovery) run before the `.normal` ones (the
/// socket and its clients). A client that writes without pause is served once per wakeup, after
/// the devices, so it slows only itself.
public final class EventLoop {
    public typealias Handler = (_ events: UInt32) -> Void

    public enum Priority: Sendable { case first, normal }

    public static let readable = Epoll.readable
    public static let writable = Epoll.writable
    public static let hangup = Epoll.hangup

    private let epoll: Epoll
    /// Handlers by fd number (fds are small and reused by the kernel): a wakeup finds its handler
    /// by index instead of hashing the fd into a dictionary.
    private var handlers: [Handler?] = []
    /// Whether the handler at the same index runs in the wakeup's first pass.
    private var runsFirst: [Bool] = []
    public private(set) var watchedCount = 0
    private var running = false
    /// Wakeups handled so far (tests and the idle benchmark read it).
    public private(set) var wakeups = 0
    /// True while the handlers of one `epoll_wait` result run: work a handler defers (the socket
    /// server's writes) is done once by the `afterWakeup` actions, not once per line.
    public private(set) var dispatching = false
    private var afterWakeup: [(id: Int, action: () -> Void)] = []
    private var nextAfterWakeupID = 0

    public init() {
        do { epoll = try Epoll() } catch { preconditionFailure("epoll_create1 failed: \(error)") }
    }

    deinit { epoll.descriptor.close() }

    /// Watches `fd` (level-triggered). Returns false when epoll refuses it.
    @discardableResult
    public func add(_ fd: FileDescriptor, events: UInt32 = EventLoop.readable, priority: Priority = .normal,
                    _ handler: @escaping Handler) -> Bool {
        guard (try? epoll.add(fd, events: events)) != nil else { return false }
        let i = Int(fd.rawValue)
        if i >= handlers.count {
            handlers.append(contentsOf: repeatElement(nil, count: i + 1 - handlers.count))
            runsFirst.append(contentsOf: repeatElement(false, count: i + 1 - runsFirst.count))
        }
        if handlers[i] == nil { watchedCount += 1 }
        handlers[i] = handler
        runsFirst[i] = priority == .first
        return true
    }

    public func modify(_ fd: FileDescriptor, events: UInt32) {
        try? epoll.modify(fd, events: events)
    }

    /// Stops watching `fd` (call before closing it).
    public func remove(_ fd: FileDescriptor) {
        let i = Int(fd.rawValue)
        guard i >= 0, i < handlers.count, handlers[i] != nil else { return }
        handlers[i] = nil
        watchedCount -= 1
        try? epoll.remove(fd)
    }


    /// Runs `action` after the handlers of every wakeup (in the order they were added), until
    /// `removeAfterWakeup` with the id returned. Its owner captures itself `unowned` and removes
    /// it in `deinit`: a `weak` capture gives the owner a side table, which sends every retain
    /// and release of it (several a frame) through the runtime's slow path.
    @discardableResult
    public func afterEachWakeup(_ action: @escaping () -> Void) -> Int {
        nextAfterWakeupID += 1
        afterWakeup.append((nextAfterWakeupID, action))
        return nextAfterWakeupID
    }

    public func removeAfterWakeup(_ id: Int) { afterWakeup.removeAll { $0.id == id } }

    /// Runs until `stop()`.
    public func run() {
        running = true
        var events = Epoll.Events(capacity: 64)
        while running {
            let n: Int
            do { n = try epoll.wait(into: &events) } catch .interrupted { continue } catch {
                Logger.shared.error("gestured bug: epoll_wait failed: \(error)")
                return
            }
            wakeups += 1
            dispatching = true
            for pass in 0..<2 where running {
                let first = pass == 0
                for k in 0..<n {
                    let (fd, ready) = events[k]
                    // A handler earlier in this batch may have removed it (or its fd was reused).
                    let i = Int(fd.rawValue)
                    guard i >= 0, i < handlers.count, runsFirst[i] == first, let h = handlers[i] else { continue }
                    h(ready)
                    if !running { break }
                }
            }
            dispatching = false
            for a in afterWakeup { a.action() }
        }
    }

    public func stop() { running = false }
}

/// A timerfd on CLOCK_MONOTONIC armed at an absolute instant (or disarmed).
final class DeadlineTimer {
    private let timer: TimerFD
    var fd: FileDescriptor { timer.descriptor }
    private(set) var armedAt: Instant?

    init() {
        do { timer = try TimerFD() } catch { preconditionFailure("timerfd_create failed: \(error)") }
    }
    deinit { timer.descriptor.close() }

    /// Arms at `instant` on CLOCK_MONOTONIC, or disarms with nil.
    func arm(at instant: Instant?) {
        guard instant != armedAt else { return }
        armedAt = instant
        timer.arm(at: instant)
    }

    /// Consumes the expiration count.
    func acknowledge() {
        timer.acknowledge()
        armedAt = nil
    }
}
