#if canImport(Glibc)
import Glibc
#endif
import CLinuxSys
import GestureCore

/// Small wrappers over the system calls the daemon uses (errno kept, EINTR retried).
enum Sys {
    /// CLOCK_MONOTONIC now, the clock evdev timestamps use.
    static func monotonicNow() -> Instant {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Instant(microseconds: Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000)
    }

    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }

    static func setCloseOnExec(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFD)
        _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC)
    }

    static func errorString(_ e: Int32) -> String { String(cString: strerror(e)) }

    /// Blocking write of everything (for pipes and stdout); false on error.
    @discardableResult
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
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

    static func connectUnix(_ path: String) -> (fd: Int32, errno: Int32) {
        guard var (addr, len) = unixAddress(path) else { return (-1, ENAMETOOLONG) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return (-1, errno) }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, len) }
        }
        if rc != 0 { let e = errno; close(fd); return (-1, e) }
        return (fd, 0)
    }

    /// Asks the kernel to reclaim the executable's clean, read-only pages this process alone has
    /// touched (MADV_PAGEOUT, Linux 5.4+; EINVAL before: nothing happens). Called once after
    /// start-up: the code that parsed the config, enumerated udev and opened the devices is not
    /// needed while streaming, and whatever is needed faults back in from the page cache.
    /// Returns the bytes advised.
    @discardableResult
    static func pageOutExecutable() -> Int {
        var exe = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &exe, exe.count - 1)
        guard n > 0 else { return 0 }
        let path = Array(exe[0..<n].map { UInt8(bitPattern: $0) })
        let fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let r = read(fd, &chunk, chunk.count)
            if r < 0 && errno == EINTR { continue }
            guard r > 0 else { break }
            text += chunk[0..<r]
        }
        var advised = 0
        for line in text.split(separator: UInt8(ascii: "\n")) {
            // start-end perms offset dev inode path
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
            guard fields.count >= 6, Array(fields[5]) == path, fields[1].count == 4,
                  fields[1][fields[1].startIndex + 1] != UInt8(ascii: "w") else { continue }
            let range = fields[0].split(separator: UInt8(ascii: "-"))
            guard range.count == 2, let start = UInt(String(decoding: range[0], as: UTF8.self), radix: 16),
                  let end = UInt(String(decoding: range[1], as: UTF8.self), radix: 16), end > start,
                  let address = UnsafeMutableRawPointer(bitPattern: start) else { continue }
            if madvise(address, Int(end - start), 21 /* MADV_PAGEOUT */) == 0 { advised += Int(end - start) }
        }
        return advised
    }
}
