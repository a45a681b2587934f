#if canImport(Glibc)
import Glibc
#endif

/// An errno value as a typed error with named cases: `catch SystemError.interrupted`,
/// `if error == .wouldBlock`. Never compare raw numbers. Its description is strerror's text.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The positive errno value.
    public var code: Int32

    public init(code: Int32) { self.code = code }

    /// The calling thread's errno now (read it before any other call can change it).
    public static var last: SystemError { SystemError(code: errno) }

    /// From a call that returns a negative errno (libevdev, libudev, sd-bus): -19 is `.noDevice`.
    public init(negated result: Int32) { self.init(code: -result) }

    public static let interrupted = SystemError(code: EINTR)
    /// EAGAIN, which is EWOULDBLOCK on Linux: a non-blocking call would have waited.
    public static let wouldBlock = SystemError(code: EAGAIN)
    public static let noSuchFile = SystemError(code: ENOENT)
    public static let noDevice = SystemError(code: ENODEV)
    public static let permissionDenied = SystemError(code: EACCES)
    public static let notPermitted = SystemError(code: EPERM)
    public static let noChild = SystemError(code: ECHILD)
    public static let connectionRefused = SystemError(code: ECONNREFUSED)
    public static let nameTooLong = SystemError(code: ENAMETOOLONG)
    public static let addressInUse = SystemError(code: EADDRINUSE)
    public static let busy = SystemError(code: EBUSY)
    public static let isDirectory = SystemError(code: EISDIR)
    public static let fileTooLarge = SystemError(code: EFBIG)
    public static let brokenPipe = SystemError(code: EPIPE)
    public static let outOfMemory = SystemError(code: ENOMEM)
    /// EMFILE: the process has as many descriptors open as RLIMIT_NOFILE allows.
    public static let tooManyOpenFiles = SystemError(code: EMFILE)
    /// ENFILE: the system-wide file table is full.
    public static let systemFileTableFull = SystemError(code: ENFILE)

    public var description: String { String(cString: strerror(code)) }
}
