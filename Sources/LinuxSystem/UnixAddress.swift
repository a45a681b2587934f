#if canImport(Glibc)
import Glibc
#endif

/// A Unix-domain socket address (sockaddr_un) for a path; a leading '@' means the abstract
/// namespace. nil when the path does not fit in sun_path.
public struct UnixAddress {
    public var storage = sockaddr_un()
    public let length: socklen_t

    public init?(path: String) {
        storage.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        guard bytes.count < MemoryLayout.size(ofValue: storage.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            if !abstract { raw[bytes.count] = 0 }
        }
        length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length (for bind, connect, sendto).
    public func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> R) rethrows -> R {
        try withUnsafePointer(to: storage) {
            try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) }
        }
    }
}

extension FileDescriptor {
    /// A connected, close-on-exec SOCK_STREAM socket to `path`. `nonBlocking`: the socket is
    /// non-blocking from the start, so connect never waits: a listener whose backlog is full
    /// gives `.wouldBlock` at once (a blocking connect waits for room, for ever).
    public static func connectUnix(_ path: String, nonBlocking: Bool = false) throws(SystemError) -> FileDescriptor {
        guard let address = UnixAddress(path: path) else { throw .nameTooLong }
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        let fd = socket(AF_UNIX, flags, 0)
        guard fd >= 0 else { throw .last }
        let rc = address.withSockaddr { connect(fd, $0, $1) }
        if rc != 0 { let e = SystemError.last; Glibc.close(fd); throw e }
        return FileDescriptor(rawValue: fd)
    }
}
