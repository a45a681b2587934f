#if canImport(Glibc)
import Glibc
import CLinuxSys
#endif

/// An open file descriptor as a value (swift-system's shape): the raw number plus the few calls
/// the daemon makes on it. It does not close itself; whoever opened it calls `close()` once.
/// Every failing call throws the errno as a `SystemError`; EINTR is retried where noted.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32

    @inlinable public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let standardInput = FileDescriptor(rawValue: 0)
    public static let standardOutput = FileDescriptor(rawValue: 1)
    public static let standardError = FileDescriptor(rawValue: 2)

    /// How `open` opens a file.
    public enum OpenMode: Sendable {
        case readOnly
        /// Read only, O_NONBLOCK (an evdev node: reads end at EAGAIN instead of waiting).
        case readOnlyNonBlocking
        /// Read and write (/dev/uinput).
        case readWrite
        /// Write only, created with `permissions` (less the umask) or emptied if it exists.
        case createOrTruncate(permissions: UInt32)
        /// Write only, a new file with `permissions` (less the umask): an existing file or a
        /// symbolic link there is an error (O_EXCL, O_NOFOLLOW).
        case createNew(permissions: UInt32)
    }

    /// open(2), always close-on-exec.
    public static func open(_ path: String, _ mode: OpenMode) throws(SystemError) -> FileDescriptor {
        let fd = switch mode {
        case .readOnly: Glibc.open(path, O_RDONLY | O_CLOEXEC)
        case .readOnlyNonBlocking: Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        case .readWrite: Glibc.open(path, O_RDWR | O_CLOEXEC)
        case .createOrTruncate(let permissions): Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(permissions))
        case .createNew(let permissions):
            Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(permissions))
        }
        guard fd >= 0 else { throw .last }
        return FileDescriptor(rawValue: fd)
    }

    /// Closes it (errors from close are not actionable and are ignored).
    public func close() { _ = Glibc.close(rawValue) }

    /// One read(2) into `buffer`: the number of bytes read (0 at end of file). EINTR is retried.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        while true {
            // Not a cancellation point (CLinuxSys: gestured_read).
            let n = gestured_read(rawValue, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            let error = SystemError.last
            if error != .interrupted { throw error }
        }
    }

    /// One write(2) from `buffer`: the number of bytes written. EINTR is retried.
    public func write(_ buffer: UnsafeRawBufferPointer) throws(SystemError) -> Int {
        while true {
            // Not a cancellation point (CLinuxSys: gestured_write).
            let n = gestured_write(rawValue, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            let error = SystemError.last
            if error != .interrupted { throw error }
        }
    }

    /// Writes every byte, waiting (poll) when a non-blocking fd is full. For pipes and stdout.
    public func writeAll(_ bytes: [UInt8]) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Result { () throws(SystemError) in try write(UnsafeRawBufferPointer(rebasing: raw[offset...])) }
            }
            switch written {
            case .success(let n): offset += n
            case .failure(.wouldBlock):
                var p = pollfd(fd: rawValue, events: Int16(POLLOUT), revents: 0)
                _ = poll(&p, 1, -1)
            case .failure(let error): throw error
            }
        }
    }

    /// Sets O_NONBLOCK on the open file.
    public func setNonBlocking() {
        let flags = fcntl(rawValue, F_GETFL)
        _ = fcntl(rawValue, F_SETFL, flags | O_NONBLOCK)
    }

    /// Sets FD_CLOEXEC, so children started later do not inherit it.
    public func setCloseOnExec() {
        let flags = fcntl(rawValue, F_GETFD)
        _ = fcntl(rawValue, F_SETFD, flags | FD_CLOEXEC)
    }
}
