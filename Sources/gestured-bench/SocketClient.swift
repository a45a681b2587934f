// A minimal client of the daemon's Unix stream socket: connect, read newline-delimited lines.
#if canImport(Glibc)
import Glibc
#endif
import LinuxSystem

final class SocketClient {
    let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to `path`; nil if the socket does not accept.
    init?(path: String, nonBlocking: Bool = true) {
        let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard s >= 0 else { return nil }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { close(s); return nil }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            raw[bytes.count] = 0
        }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard rc == 0 else { close(s); return nil }
        if nonBlocking { _ = fcntl(s, F_SETFL, fcntl(s, F_GETFL) | O_NONBLOCK) }
        fd = s
    }

    deinit { close(fd) }

    func send(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 { if SystemError.last == .interrupted { continue }; return }
            bytes = bytes.dropFirst(n)
        }
    }

    /// Lines available now (non-blocking), or after waiting up to `timeoutMs` for the first one.
    func readLines(timeoutMs: Int32) -> [String]? {
        var lines = takeLines()
        if !lines.isEmpty { return lines }
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, timeoutMs) > 0 else { return [] }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 { buffer += chunk[0..<n]; continue }
            if n == 0 { lines = takeLines(); return lines.isEmpty ? nil : lines }   // closed
            break
        }
        return takeLines()
    }

    /// Waits for a line containing `needle`; the time it arrived (monotonic ns) or nil on timeout.
    func waitForLine(containing needle: String, timeoutMs: Int) -> (line: String, atNs: UInt64)? {
        let deadline = nowNanoseconds() + UInt64(timeoutMs) * 1_000_000
        while nowNanoseconds() < deadline {
            let left = Int32(max(1, (deadline - nowNanoseconds()) / 1_000_000))
            guard let lines = readLines(timeoutMs: left) else { return nil }
            let at = nowNanoseconds()
            if let l = lines.first(where: { $0.containsText(needle) }) { return (l, at) }
        }
        return nil
    }

    private func takeLines() -> [String] {
        var lines: [String] = []
        var start = 0
        for i in buffer.indices where buffer[i] == 10 {
            lines.append(String(decoding: buffer[start..<i], as: UTF8.self))
            start = i + 1
        }
        if start > 0 { buffer.removeFirst(start) }
        return lines
    }
}
