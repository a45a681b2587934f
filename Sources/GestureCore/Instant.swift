/// A point in time on the input device's clock (the kernel timestamp of an event, CLOCK_MONOTONIC
/// in the daemon, the recording's clock in a replay). Microsecond resolution, like `struct timeval`.
/// The core never reads a clock: every `Instant` comes from an event or from the caller.
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }
    public init(seconds: Int64, microseconds: Int64) {
        self.microseconds = seconds * 1_000_000 + microseconds
    }
    public static func milliseconds(_ ms: Int64) -> Instant { Instant(microseconds: ms * 1000) }

    public static let zero = Instant(microseconds: 0)

    /// Seconds as a floating-point value (for output only; never for comparisons).
    public var seconds: Double { Double(microseconds) / 1_000_000 }

    public static func < (a: Instant, b: Instant) -> Bool { a.microseconds < b.microseconds }

    public static func + (a: Instant, d: Duration) -> Instant {
        Instant(microseconds: a.microseconds + d.totalMicroseconds)
    }
    public static func - (a: Instant, d: Duration) -> Instant {
        Instant(microseconds: a.microseconds - d.totalMicroseconds)
    }
    /// The duration from `b` to `a`.
    public static func - (a: Instant, b: Instant) -> Duration {
        .microseconds(a.microseconds - b.microseconds)
    }

    /// The first instant after this one on the 1 µs clock: where a wait whose limit counts
    /// ("within 180 ms" includes 180 ms itself) runs out, so its deadline fires after an event
    /// stamped at the limit is decided, not before.
    public var successor: Instant { Instant(microseconds: microseconds + 1) }

    /// The earlier of two optional deadlines (nil: none): the one helper every owner of several
    /// deadlines (pipeline, arena, session, daemon) folds them with.
    @inlinable @inline(__always)
    public static func earliest(_ a: Instant?, _ b: Instant?) -> Instant? {
        guard let a else { return b }
        guard let b else { return a }
        return a.microseconds <= b.microseconds ? a : b
    }

    /// The earliest of any number of optional deadlines (nil when none is set), folded with
    /// `earliest(_:_:)`: for owners of a list of them (hook children, a command's devices).
    @inlinable
    public static func earliest<S: Sequence>(_ deadlines: S) -> Instant? where S.Element == Instant? {
        var e: Instant?
        for d in deadlines { e = earliest(e, d) }
        return e
    }

    /// The one loop that fires deadlines (the arena's, the pipeline's): while the earliest one,
    /// `next()`, is at or before `now`, `fire` it at its own instant. Deadlines so fire in time
    /// order, each at the time it names, and the caller's later work (a frame at `now`) sees
    /// them all fired. Returns whether anything fired.
    ///
    /// The invariant that makes it end, which every `fire` keeps: the deadline that fired at `d`
    /// is cleared or moved strictly later than `d`. Firing may arm another deadline at `d`
    /// itself (a threshold of 0 ms), which fires in the next pass; it never arms one before `d`.
    /// Owners check the first half where they fire (`RecognizerArena.fireDeadline`,
    /// `GesturePipeline.advance`); the second is checked here. Both are preconditions: a broken
    /// one is a gestured bug that stops the process loudly instead of spinning or being capped.
    @inlinable @inline(__always)
    public static func fireDeadlines(upTo now: Instant, next: () -> Instant?, _ fire: (Instant) -> Void) -> Bool {
        var last: Instant?
        while let d = next(), d <= now {
            if let last { precondition(last <= d, "gestured bug: deadline \(d) armed after \(last) had fired") }
            fire(d)
            last = d
        }
        return last != nil
    }

    public var description: String {
        let s = microseconds / 1_000_000, us = abs(microseconds % 1_000_000)
        let frac = String(us)
        return "\(microseconds < 0 && s == 0 ? "-" : "")\(s).\(String(repeating: "0", count: 6 - frac.count))\(frac)"
    }
}

extension Duration {
    /// Whole microseconds (truncated), the resolution of kernel input timestamps.
    public var totalMicroseconds: Int64 {
        // Every threshold and frame gap is far below 2^63 attoseconds (9.2 s): one 64-bit
        // division, not `components`' 128-bit one (this runs for every event while touches are down).
        let atto = attoseconds
        if let small = Int64(exactly: atto) { return small / 1_000_000_000_000 }
        let (s, a) = components
        return s * 1_000_000 + a / 1_000_000_000_000
    }
    /// Milliseconds as a floating-point value (for arithmetic on rates, never for time keeping).
    public var doubleMilliseconds: Double { Double(totalMicroseconds) / 1000 }
    public var doubleSeconds: Double { Double(totalMicroseconds) / 1_000_000 }
}

/// A length in millimetres. Thresholds name their unit; raw device units never reach a recognizer.
public typealias Millimeters = Double
/// An angle in degrees.
public typealias Degrees = Double
