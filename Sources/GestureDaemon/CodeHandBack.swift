import GestureCore
import LinuxSystem

/// Hands back the resident pages of code that ran once: start-up, a reload, a device opened, a
/// client that subscribed. Each maps pages of code the stream never runs again (the config
/// reader, udev's enumeration, the hello line and request parser) and every touched page brings
/// its 64 kB fault-around window along; they stay resident until dropped. `CodePages.dropUnused`
/// drops them (they come back from the page cache if that work runs again) and the allocator's
/// free pages go back to the system.
///
/// Start-up and reload hand back at once (`now`); the others `soon`: one drop `delay` after the
/// first of them, however many follow, so clients that subscribe again and again cost one read
/// of /proc/self/smaps (a fraction of a millisecond) per `delay`, and a device opened and its
/// first client share one. Half a second: over before a person's first gesture, as a rule.
final class CodeHandBack {
    static let delay: Duration = .milliseconds(500)
    private let timer = DeadlineTimer()
    private let log: Logger
    private let loop: EventLoop

    init(loop: EventLoop, log: Logger) {
        self.loop = loop; self.log = log
        loop.add(timer.fd, priority: .normal) { [unowned self] _ in
            self.timer.acknowledge()
            self.now("a device opened or a client subscribed")
        }
    }

    deinit { loop.remove(timer.fd) }

    /// Start-up or a reload is over.
    func now(_ after: String) {
        timer.arm(at: nil)
        CurrentProcess.returnFreeMemory()
        log.debug("memory: \(CodePages.dropUnused()) kB of code pages handed back after \(after)")
    }

    /// Work that runs once is over: a drop is due `delay` from the first such moment.
    func soon() {
        if timer.armedAt == nil { timer.arm(at: MonotonicClock.now() + Self.delay) }
    }
}
