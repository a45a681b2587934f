import LinuxSystem
import GestureCore
import Synchronization

/// Log lines to standard error. Under journald (`JOURNAL_STREAM` set) each line starts with its
/// syslog priority `<N>` so the journal records the level; otherwise a level word is printed.
/// Lines say who is at fault: "config error:", "kernel bug:", "gestured bug:".
public final class Logger: Sendable {
    public enum Level: Int, Sendable, Comparable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
        var word: String {
            switch self {
            case .error: "error"; case .warning: "warning"; case .notice: "notice"
            case .info: "info"; case .debug: "debug"
            }
        }
    }

    private let state: Mutex<(level: Level, journal: Bool)>
    /// Where lines go (standard error); tests may pass a pipe.
    public let fd: FileDescriptor

    public init(level: Level = .info, journal: Bool? = nil, fd: FileDescriptor = .standardError) {
        let j = journal ?? (CurrentProcess.environmentValue("JOURNAL_STREAM") != nil)
        state = Mutex((level, j))
        self.fd = fd
    }

    public static let shared = Logger()

    public var level: Level {
        get { state.withLock { $0.level } }
        set { state.withLock { $0.level = newValue } }
    }

    public func log(_ level: Level, _ message: String) {
        let (min, journal) = state.withLock { ($0.level, $0.journal) }
        guard level <= min else { return }
        var text = ""
        for line in message.split(separator: "\n", omittingEmptySubsequences: false) {
            text += journal ? "<\(level.rawValue)>" : "gestured: \(level == .info ? "" : level.word + ": ")"
            // Outside text (device names, hook output) cannot forge a line or drive a terminal.
            text += TextEscaping.controlsEscaped(String(line))
            text += "\n"
        }
        try? fd.writeAll(Array(text.utf8))
    }

    public func error(_ m: String) { log(.error, m) }
    public func warning(_ m: String) { log(.warning, m) }
    public func notice(_ m: String) { log(.notice, m) }
    public func info(_ m: String) { log(.info, m) }
    public func debug(_ m: String) { log(.debug, m) }
}

/// Lets at most `burst` lines through per `interval`; counts what it held back so the next line
/// that passes can say "(N similar lines suppressed)". Time is passed in.
public struct RateLimiter: Sendable {
    public var burst: Int
    public var interval: Duration
    private var windowStart: Instant?
    private var passed = 0
    public private(set) var suppressed = 0

    public init(burst: Int = 10, interval: Duration = .seconds(60)) {
        self.burst = burst; self.interval = interval
    }

    /// nil: drop the line. Otherwise the number of lines suppressed before this one.
    public mutating func allow(now: Instant) -> Int? {
        if windowStart.map({ now - $0 >= interval }) ?? true {
            windowStart = now; passed = 0
        }
        guard passed < burst else { suppressed += 1; return nil }
        passed += 1
        defer { suppressed = 0 }
        return suppressed
    }
}
