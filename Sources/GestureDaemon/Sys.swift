#if canImport(Glibc)
import Glibc
#endif
import CLinuxSys
import GestureCore
import LinuxSystem

/// Small wrappers over the system calls the daemon uses (errno kept, EINTR retried).
enum Sys {
    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }

    static func setCloseOnExec(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFD)
        _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC)
    }

    /// Blocking write of everything (for pipes and stdout); false on error.
    @discardableResult
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                let error = SystemError.last
                if error == .interrupted { continue }
                if error == .wouldBlock {
                    var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&p, 1, -1)
                    continue
                }
                return false
            }
            offset += n
        }
        return true
    }

    /// Fills a sockaddr_un for `path` (a leading '@' means the abstract namespace). nil if too long.
    static func unixAddress(_ path: String) -> (sockaddr_un, socklen_t)? {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard bytes.count < capacity else { return nil }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            if !abstract { raw[bytes.count] = 0 }
        }
        let len = MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1)
        return (addr, socklen_t(len))
    }

    /// A connected SOCK_STREAM socket to `path`, or why not.
    static func connectUnix(_ path: String) -> Result<Int32, SystemError> {
        guard var (addr, len) = unixAddress(path) else { return .failure(.nameTooLong) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(.last) }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, len) }
        }
        if rc != 0 { let e = SystemError.last; close(fd); return .failure(e) }
        return .success(fd)
    }
}
