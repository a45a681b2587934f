#if canImport(Glibc)
import Glibc
#endif
import CLinuxSys
import GestureCore

/// A non-blocking, close-on-exec timerfd on CLOCK_MONOTONIC (the clock of `MonotonicClock` and of
/// evdev's timestamps), armed at absolute instants.
public struct TimerFD {
    public let descriptor: FileDescriptor

    public init() throws(SystemError) {
        let fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK) | Int32(TFD_CLOEXEC))
        guard fd >= 0 else { throw .last }
        descriptor = FileDescriptor(rawValue: fd)
    }

    /// Arms it to fire once at `instant`, or disarms it with nil.
    public func arm(at instant: Instant?) {
        var spec = itimerspec()
        if let instant {
            let us = max(instant.microseconds, 1)  // 0 would disarm it
            spec.it_value.tv_sec = Int(us / 1_000_000)
            spec.it_value.tv_nsec = Int(us % 1_000_000) * 1000
        }
        _ = timerfd_settime(descriptor.rawValue, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    /// Reads (and so clears) the expiration count; 0 when it had not fired.
    @discardableResult
    public func acknowledge() -> UInt64 {
        var count: UInt64 = 0
        _ = read(descriptor.rawValue, &count, 8)
        return count
    }
}
