#if canImport(Glibc)
import Glibc
#endif
import GestureCore

/// CLOCK_MONOTONIC, the clock the kernel stamps input events with: the daemon's and the
/// commands' one clock, as the core's `Instant` (the core itself never reads a clock).
public enum MonotonicClock {
    public static func now() -> Instant {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Instant(microseconds: Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000)
    }
}
