#if canImport(Glibc)
import Glibc
#endif
import CLinuxSys
import GestureCore
import LinuxSystem

/// One epoll instance on one thread. Idle means blocked in `epoll_wait` with no timeout: every
/// wakeup is an fd (device, udev/inotify, socket, client, timerfd, signalfd) becoming ready.
public final class EventLoop {
    public typealias Handler = (_ events: UInt32) -> Void

    public static let readable = UInt32(EPOLLIN.rawValue)
    public static let writable = UInt32(EPOLLOUT.rawValue)
    public static let hangup = UInt32(EPOLLHUP.rawValue) | UInt32(EPOLLERR.rawValue)

    private let epfd: Int32
    private var handlers: [Int32: Handler] = [:]
    private var running = false
    /// Wakeups handled so far (tests and the idle benchmark read it).
    public private(set) var wakeups = 0
    /// True while the handlers of one `epoll_wait` result run: work a handler defers (the socket
    /// server's writes) is done once by the `afterWakeup` actions, not once per line.
    public private(set) var dispatching = false
    private var afterWakeup: [() -> Void] = []

    public init() {
        epfd = epoll_create1(Int32(EPOLL_CLOEXEC))
        precondition(epfd >= 0, "epoll_create1 failed: \(SystemError.last)")
    }

    deinit { close(epfd) }

    /// Watches `fd` (level-triggered). Returns false (errno set) when epoll refuses it.
    @discardableResult
    public func add(_ fd: Int32, events: UInt32 = EventLoop.readable, _ handler: @escaping Handler) -> Bool {
        var ev = epoll_event()
        ev.events = events
        ev.data.fd = fd
        guard epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) == 0 else { return false }
        handlers[fd] = handler
        return true
    }

    public func modify(_ fd: Int32, events: UInt32) {
        var ev = epoll_event()
        ev.events = events
        ev.data.fd = fd
        _ = epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &ev)
    }

    /// Stops watching `fd` (call before closing it).
    public func remove(_ fd: Int32) {
        guard handlers.removeValue(forKey: fd) != nil else { return }
        var ev = epoll_event()
        _ = epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &ev)
    }

    public var watchedCount: Int { handlers.count }

    /// Runs `action` after the handlers of every wakeup (in the order they were added).
    public func afterEachWakeup(_ action: @escaping () -> Void) { afterWakeup.append(action) }

    /// Runs until `stop()`.
    public func run() {
        running = true
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while running {
            let n = events.withUnsafeMutableBufferPointer { epoll_wait(epfd, $0.baseAddress, 64, -1) }
            if n < 0 {
                let error = SystemError.last
                if error == .interrupted { continue }
                Logger.shared.error("gestured bug: epoll_wait failed: \(error)")
                return
            }
            wakeups += 1
            dispatching = true
            for i in 0..<Int(n) {
                let fd = events[i].data.fd
                // A handler earlier in this batch may have removed it.
                guard let h = handlers[fd] else { continue }
                h(events[i].events)
                if !running { break }
            }
            dispatching = false
            for action in afterWakeup { action() }
        }
    }

    public func stop() { running = false }
}

/// A timerfd on CLOCK_MONOTONIC armed at an absolute instant (or disarmed).
final class DeadlineTimer {
    let fd: Int32
    private(set) var armedAt: Instant?

    init() {
        fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK) | Int32(TFD_CLOEXEC))
        precondition(fd >= 0, "timerfd_create failed: \(SystemError.last)")
    }
    deinit { close(fd) }

    /// Arms at `instant` on CLOCK_MONOTONIC, or disarms with nil.
    func arm(at instant: Instant?) {
        guard instant != armedAt else { return }
        armedAt = instant
        var spec = itimerspec()
        if let instant {
            let us = max(instant.microseconds, 1)  // 0 would disarm it
            spec.it_value.tv_sec = Int(us / 1_000_000)
            spec.it_value.tv_nsec = Int(us % 1_000_000) * 1000
        }
        _ = timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    /// Consumes the expiration count.
    func acknowledge() {
        var count: UInt64 = 0
        _ = read(fd, &count, 8)
        armedAt = nil
    }
}
