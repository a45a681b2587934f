import GestureCore
import LinuxSystem

/// Hands back the resident pages of code that ran once: start-up, a reload, a device opened, a
/// client that connected or subscribed. Each maps pages of code the stream never runs again (the
/// config reader, udev's enumeration, the hello line and request parser) and every touched page
/// brings its 64 kB fault-around window along; they stay resident until dropped.
/// `CodePages.dropUnused` drops them (they come back from the page cache if that work runs
/// again) and the allocator's free pages go back to the system.
///
/// Start-up hands back at once (`now`); a reload, a device opened, a client connected and a
/// subscribe `soon`: one drop `delay` after the first of them, however many follow, so clients
/// that connect or subscribe again and again cost one read of /proc/self/smaps (a fraction of a
/// millisecond) per `delay`, and a device opened and its first client share one. Never while a
/// finger is down or a gesture waits (`quiet`): the frames after a drop fault the running code
/// back in (milliseconds under an emulator), which would shift an exclusive device's holds
/// against real time; the drop waits another `delay` then.
final class CodeHandBack {
    static let delay: Duration = .milliseconds(500)
    private let timer = DeadlineTimer()
    private let log: Logger
    private let loop: EventLoop
    /// Whether no device has a finger on it or a gesture waiting.
    var quiet: () -> Bool = { true }

    init(loop: EventLoop, log: Logger) {
        self.loop = loop; self.log = log
        loop.add(timer.fd, priority: .normal) { [unowned self] _ in
            self.timer.acknowledge()
            if self.quiet() {
                self.now("a reload, a device opened or a client served")
            } else {
                self.timer.arm(at: MonotonicClock.now() + Self.delay)
            }
        }
    }

    deinit { loop.remove(timer.fd) }

    /// Start-up is over.
    func now(_ after: String) {
        timer.arm(at: nil)
        CurrentProcess.returnFreeMemory()
        let kilobytes = CodePages.dropUnused()
        // Made only when written: formatting a number runs the runtime's integer and string code,
        // and after the drop each page of it would come back with its 64 kB window.
        if log.writes(.debug) { log.debug("memory: \(kilobytes) kB of code pages handed back after \(after)") }
    }

    /// Work that runs once is over: a drop is due `delay` from the first such moment.
    func soon() {
        if timer.armedAt == nil { timer.arm(at: MonotonicClock.now() + Self.delay) }
    }
}
