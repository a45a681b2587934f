#if canImport(Glibc)
import Glibc
import LinuxSystem
#endif

/// A connected Unix stream socket, non-blocking for reads.
final class UnixStream {
    let fd: Int32

    private init(fd: Int32) { self.fd = fd }
    deinit { close(fd) }

    static func connect(_ path: String) throws(FocusError) -> UnixStream {
        let bytes = Array(path.utf8)
        var addr = sockaddr_un()
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { throw FocusError("socket path too long: \(path)") }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw FocusError("socket(): \(SystemError.last)") }
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            raw[bytes.count] = 0
        }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else {
            let e = SystemError.last
            close(fd)
            throw FocusError("cannot connect to \(path): \(e)")
        }
        return UnixStream(fd: fd)
    }

    /// Writes everything (waiting up to 2 s for room).
    func write(_ bytes: [UInt8]) throws(FocusError) {
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if n > 0 { off += n; continue }
            let error = SystemError.last
            if n < 0 && error == .interrupted { continue }
            if n < 0 && error == .wouldBlock {
                var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                if poll(&p, 1, 2000) > 0 { continue }
                throw FocusError("the socket took no data for 2 s")
            }
            throw FocusError("write: \(error)")
        }
    }

    /// Appends whatever can be read now; throws at end of stream.
    func readAvailable(into buffer: inout [UInt8]) throws(FocusError) {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 { buffer.append(contentsOf: chunk[0..<n]); if n < chunk.count { return }; continue }
            if n == 0 { throw FocusError("the socket was closed") }
            let error = SystemError.last
            if error == .interrupted { continue }
            if error == .wouldBlock { return }
            throw FocusError("read: \(error)")
        }
    }

    /// Reads until the peer closes (a request/reply socket), waiting up to `seconds` in all.
    func readToEnd(limit: Int, seconds: Int32 = 2) throws(FocusError) -> [UInt8] {
        var out: [UInt8] = []
        while true {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, seconds * 1000) > 0 else { throw FocusError("no reply within \(seconds) s") }
            do { try readAvailable(into: &out) } catch { return out }
            if out.count > limit { throw FocusError("a reply larger than \(limit) bytes") }
        }
    }
}

/// Splits a byte stream into lines, skipping (and reporting) lines longer than the limit.
struct LineSplitter {
    let maximumLineBytes: Int
    private var buffer: [UInt8] = []
    private var skippingLongLine = false
    private(set) var skippedLongLines = 0

    init(maximumLineBytes: Int) { self.maximumLineBytes = maximumLineBytes }

    /// "skipped N line(s) longer than …" once per batch of skipped lines, for the log.
    mutating func takeLongLineWarning() -> [String] {
        guard skippedLongLines > 0 else { return [] }
        defer { skippedLongLines = 0 }
        return ["skipped \(skippedLongLines) event line(s) longer than \(maximumLineBytes >> 20) MiB"]
    }

    /// Bytes of `buffer` already searched for a newline.
    private var scanned = 0

    mutating func feed(_ stream: UnixStream) throws(FocusError) -> [[UInt8]] {
        try stream.readAvailable(into: &buffer)
        var lines: [[UInt8]] = []
        var start = 0
        while let nl = buffer[max(start, scanned)...].firstIndex(of: 0x0a) {
            if skippingLongLine { skippingLongLine = false }
            else if nl - start > maximumLineBytes { skippedLongLines += 1 }
            else { lines.append(Array(buffer[start..<nl])) }
            start = nl + 1
            scanned = start
        }
        buffer.removeSubrange(0..<start)
        scanned = buffer.count
        if buffer.count > maximumLineBytes {
            if !skippingLongLine { skippedLongLines += 1 }
            skippingLongLine = true
            buffer.removeAll(keepingCapacity: false)
            scanned = 0
        }
        return lines
    }
}

/// Reads a JSON object's members by path, tolerating any other shape.
extension Dictionary where Key == String, Value == Any {
    func string(_ key: String) -> String? { self[key] as? String }
    func object(_ key: String) -> [String: Any]? { self[key] as? [String: Any] }
}
