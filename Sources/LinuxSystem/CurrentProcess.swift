#if canImport(Glibc)
import Glibc
#endif

/// A signal number with names for the ones the daemon and the commands send, catch or ignore.
public struct Signal: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let hangUp = Signal(rawValue: SIGHUP)
    public static let interrupt = Signal(rawValue: SIGINT)
    public static let terminate = Signal(rawValue: SIGTERM)
    public static let kill = Signal(rawValue: SIGKILL)
    public static let brokenPipe = Signal(rawValue: SIGPIPE)
    public static let child = Signal(rawValue: SIGCHLD)

    public var description: String { String(rawValue) }
}

/// The calling process: its ids, its environment, its file-creation mask and signal dispositions.
public enum CurrentProcess {
    /// getpid(2).
    public static var id: Int32 { getpid() }

    /// getuid(2): the real user id.
    public static var userID: UInt32 { getuid() }

    /// getenv(3): the value of `name`, nil when unset.
    public static func environmentValue(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// umask(2): sets the mask files are created with and returns the previous one.
    @discardableResult
    public static func setFileCreationMask(_ mask: UInt32) -> UInt32 { UInt32(umask(mode_t(mask))) }

    /// Sets `signal` to be ignored (SIG_IGN): for SIGPIPE, a write to a closed pipe or socket
    /// then fails with `.brokenPipe` instead of ending the process.
    public static func ignore(_ signal: Signal) { _ = Glibc.signal(signal.rawValue, SIG_IGN) }

    /// exit(3): flushes C stdio and ends the process with `status`.
    public static func exit(_ status: Int32) -> Never { Glibc.exit(status) }
}

/// A string a C library allocated with malloc for the caller to free (sd-login, sd-bus).
public enum MallocString {
    /// The string's text; the memory is freed. Nil for a null pointer.
    public static func take(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// Frees it unread (free(3) of a null pointer does nothing).
    public static func release(_ pointer: UnsafeMutablePointer<CChar>?) { free(pointer) }
}
