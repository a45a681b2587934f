import GestureCore
import LinuxSystem

/// The systemd watchdog: WATCHDOG=1 every half of `WatchdogSec=`, from a timerfd of its own on
/// the loop, so a stalled loop stops the pings and systemd restarts the service.
final class WatchdogService: DaemonService {
    let name = "watchdog"
    private let loop: EventLoop
    private let log: Logger
    private let notifier: SystemdNotifier
    private var timer: DeadlineTimer?

    init(loop: EventLoop, log: Logger, notifier: SystemdNotifier) {
        self.loop = loop; self.log = log; self.notifier = notifier
    }

    func start() throws(DaemonError) {
        guard let interval = notifier.watchdogInterval else { return }
        let t = DeadlineTimer()
        timer = t
        loop.add(t.fd, priority: .first) { [unowned self] _ in self.fired(interval / 2) }
        t.arm(at: MonotonicClock.now() + interval / 2)
        log.info("systemd watchdog: pinging every \((interval / 2).totalMicroseconds / 1000) ms")
    }

    private func fired(_ every: Duration) {
        guard let t = timer else { return }
        t.acknowledge()
        notifier.watchdog()
        t.arm(at: MonotonicClock.now() + every)
    }

    func stop() {
        guard let t = timer else { return }
        loop.remove(t.fd)
        timer = nil
    }
}
