import GestureConfig
import GestureCore
import LinuxInput
import LinuxSystem

/// Plays key chords and clicks on the daemon's virtual devices. Steps due now are written at
/// once; later ones (a binding's `key_hold_ms`/`key_delay_ms`) wait on a timerfd of their own in
/// the event loop, so the loop never sleeps.
final class ActionPlayer {
    struct Step {
        var due: Instant
        var device: VirtualKeyDevice
        var events: [(code: UInt16, value: Int32)]
    }
    private var pending: [Step] = []
    private let timer = DeadlineTimer()
    private let loop: EventLoop
    private let onError: (InputError) -> Void
    /// Key events written, for the log and tests.
    private(set) var written = 0

    init(loop: EventLoop, onError: @escaping (InputError) -> Void) {
        self.loop = loop
        self.onError = onError
        loop.add(timer.fd, priority: .first) { [unowned self] _ in self.timerFired() }
    }

    func close() {
        loop.remove(timer.fd)
        pending.removeAll()
    }

    /// The steps of `chords` on `device`: each chord's modifiers down, key down, (hold), key up,
    /// modifiers up in reverse; `delay` between chords.
    static func steps(_ chords: [KeyChord], hold: Duration, delay: Duration, startingAt now: Instant,
                      on device: VirtualKeyDevice) -> [Step] {
        var t = now
        var out: [Step] = []
        for (i, c) in chords.enumerated() {
            if i > 0 { t = t + delay }
            let e = c.events
            if hold > .zero {
                let downs = e.prefix { $0.value == 1 }
                out.append(Step(due: t, device: device, events: Array(downs)))
                t = t + hold
                out.append(Step(due: t, device: device, events: Array(e.dropFirst(downs.count))))
            } else {
                out.append(Step(due: t, device: device, events: e))
            }
        }
        return out
    }

    /// Runs what is due now and schedules the rest.
    func play(_ steps: [Step], now: Instant) {
        pending.append(contentsOf: steps)
        pending.sort { $0.due < $1.due }
        runDue(now: now)
    }

    /// Drops the steps for `device` (it is going away; its keys are released by the caller).
    func cancel(_ device: VirtualKeyDevice) {
        pending.removeAll { $0.device === device }
        timer.arm(at: pending.first?.due)
    }

    private func timerFired() {
        timer.acknowledge()
        runDue(now: MonotonicClock.now())
    }

    private func runDue(now: Instant) {
        while let first = pending.first, first.due <= now {
            pending.removeFirst()
            do {
                try first.device.send(first.events)
                written += first.events.count
            } catch {
                onError(error)
            }
        }
        timer.arm(at: pending.first?.due)
    }
}
