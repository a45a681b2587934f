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

    /// Whether a line at `level` would be written: for a message whose making would run code the
    /// daemon otherwise leaves alone (CodeHandBack's, made after the drop).
    public func writes(_ level: Level) -> Bool { level <= state.withLock { $0.level } }

    public func log(_ level: Level, _ message: String) {
        let (min, journal) = state.withLock { ($0.level, $0.journal) }
        guard level <= min else { return }
        let prefix = journal ? "<\(level.rawValue)>" : "gestured: \(level == .info ? "" : level.word + ": ")"
        try? fd.writeAll(Self.lines(message, prefix: prefix))
    }

    /// Each line of `message` (split at `\n` but not at CR LF, as a split into Characters does; a
    /// trailing `\n` ends an empty line) after `prefix`,
    /// with C0 controls, DEL and C1 controls escaped as `TextEscaping.controlsEscaped` does:
    /// outside text (device names, hook output) cannot forge a line or drive a terminal. Done on
    /// the UTF-8 in one pass, without splitting the String into Characters: the daemon logs
    /// while devices stream (a "kernel bug:" line for an axis value past its range, once per
    /// axis per 10 s), so a line must cost little next to a frame.
    static func lines(_ message: String, prefix: String) -> [UInt8] {
        var message = message
        return message.withUTF8 { lines($0, prefix: prefix) }
    }

    private static let hex: StaticString = "0123456789abcdef"

    /// `lines(_:prefix:)` on the message's bytes: the runs of bytes that need no escape (all of a
    /// usual line) are copied whole.
    private static func lines(_ bytes: UnsafeBufferPointer<UInt8>, prefix: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(prefix.utf8.count + bytes.count + 16)
        out.append(contentsOf: prefix.utf8)
        func hexDigit(_ v: UInt8) -> UInt8 { hex.utf8Start[Int(v & 0xF)] }
        var run = 0   // the start of the bytes not yet copied
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            // Anything but C0 controls, DEL and 0xC2 (the lead byte of U+0080…U+00BF) is copied as it is.
            if b >= 0x20 && b != 0x7F && b != 0xC2 { i += 1; continue }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i]))
            i += 1
            switch b {
            case 0xC2:
                guard i < bytes.count else { out.append(b); break }
                let next = bytes[i]
                i += 1
                if next < 0xA0 {   // U+0080…U+009F: a C1 control
                    out.append(contentsOf: "\\u{".utf8); out.append(hexDigit(next >> 4)); out.append(hexDigit(next))
                    out.append(UInt8(ascii: "}"))
                } else {
                    out.append(0xC2); out.append(next)
                }
            // CR LF is one Character: it does not end a line, both are escaped.
            case UInt8(ascii: "\n") where i >= 2 && bytes[i - 2] == UInt8(ascii: "\r"): out.append(contentsOf: "\\n".utf8)
            case UInt8(ascii: "\n"): out.append(b); out.append(contentsOf: prefix.utf8)
            case UInt8(ascii: "\r"): out.append(contentsOf: "\\r".utf8)
            case UInt8(ascii: "\t"): out.append(contentsOf: "\\t".utf8)
            default: out.append(contentsOf: "\\x".utf8); out.append(hexDigit(b >> 4)); out.append(hexDigit(b))
            }
            run = i
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i]))
        out.append(UInt8(ascii: "\n"))
        return out
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
