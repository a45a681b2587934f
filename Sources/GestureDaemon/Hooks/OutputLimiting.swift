import GestureCore
/// What the hook runner does with a child's output: cut it into lines (with caps on how much is
/// held and how long a line may be) and log at most `hooks.output_lines_per_minute` of them.
/// Pure: bytes and times in, lines and verdicts out.

/// The bytes read from one output pipe that do not end in a newline yet.
struct OutputLineBuffer {
    /// Reading a pipe stops for this poll round once this much is held (an endless stream).
    static let readLimitBytes = 1 << 20
    /// A longer line is logged cut to this length; a longer unfinished line is logged in pieces.
    static let lineLimitBytes = 4096

    private(set) var bytes: [UInt8] = []

    /// True once more than `readLimitBytes` are held: stop reading until the lines are taken.
    var isFull: Bool { bytes.count > Self.readLimitBytes }

    mutating func append(_ chunk: ArraySlice<UInt8>) { bytes.append(contentsOf: chunk) }

    /// The complete lines held (without their newlines); then, when what is left exceeds
    /// `lineLimitBytes` (a line without end) or at `end` (the pipe is closed), the rest too.
    mutating func takeLines(end: Bool = false) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        while let nl = bytes.firstIndex(of: 10) {
            lines.append(Array(bytes[..<nl]))
            bytes.removeSubrange(...nl)
        }
        if bytes.count > Self.lineLimitBytes || (end && !bytes.isEmpty) {
            lines.append(bytes)
            bytes.removeAll()
        }
        return lines
    }

    /// A line as logged: at most `lineLimitBytes`, invalid UTF-8 replaced, a trailing CR dropped.
    static func text(_ line: [UInt8]) -> String {
        var text = String(decoding: line.prefix(lineLimitBytes), as: UTF8.self)
        if text.last == "\r" { text.removeLast() }
        return text
    }
}

/// At most `limit` output lines per minute over all hooks; the rest are counted, not logged.
/// Windows are fixed: the first line after a minute has passed starts the next one.
struct OutputRateLimiter {
    static let window: Duration = .seconds(60)

    private(set) var windowStart: Instant?
    private(set) var logged = 0
    /// Lines suppressed in the current window.
    private(set) var suppressed = 0

    /// Whether a line at `now` may be logged under `limit` lines per minute, and
    /// how many lines the window that ended before it suppressed (0 when none ended or none were).
    mutating func admit(now: Instant, limit: Int) -> (log: Bool, suppressedInEndedWindow: Int) {
        var ended = 0
        if windowStart.map({ now - $0 >= Self.window }) ?? true {
            ended = suppressed
            self = OutputRateLimiter(windowStart: now)
        }
        guard logged < limit else {
            suppressed += 1
            return (false, ended)
        }
        logged += 1
        return (true, ended)
    }
}
