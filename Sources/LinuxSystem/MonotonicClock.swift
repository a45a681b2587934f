#if canImport(Glibc)
import Glibc
#endif
import GestureCore

/// CLOCK_MONOTONIC, the clock the kernel stamps input events with: the daemon's and the
/// commands' one clock, as the core's `Instant` (the core itself never reads a clock).
public enum MonotonicClock {
    /// CLOCK_MONOTONIC, for C libraries that take a clock id (libevdev's event timestamps).
    public static let clockID = CLOCK_MONOTONIC
    public static func now() -> Instant {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Instant(microseconds: Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000)
    }

    /// The same clock in nanoseconds: `gestured-bench`'s measuring clock (a frame takes a few µs,
    /// finer than `Instant`).
    @inline(__always) public static func nanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}

extension MonotonicClock {
    /// Sleeps until the clock reads `instant` (clock_nanosleep with TIMER_ABSTIME; a signal
    /// handler's interruption is resumed, so it never wakes early).
    public static func sleep(until instant: Instant) {
        var ts = timespec(tv_sec: Int(instant.microseconds / 1_000_000),
                          tv_nsec: Int(instant.microseconds % 1_000_000) * 1000)
        while SystemError(code: clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil)) == .interrupted {}
    }

    /// Sleeps for `duration` (nanosleep, resumed after an interruption with what is left).
    public static func sleep(for duration: Duration) {
        let parts = duration.components
        var ts = timespec(tv_sec: Int(parts.seconds), tv_nsec: Int(parts.attoseconds / 1_000_000_000))
        var rest = timespec()
        while nanosleep(&ts, &rest) != 0 && SystemError.last == .interrupted { ts = rest }
    }
}
