// A minimal client of the daemon's Unix stream socket: connect, read newline-delimited lines.
import LinuxSystem

final class SocketClient {
    let fd: FileDescriptor
    private var buffer: [UInt8] = []

    /// Connects to `path`; nil if the socket does not accept.
    init?(path: String, nonBlocking: Bool = true) {
        guard let s = try? FileDescriptor.connectUnix(path) else { return nil }
        if nonBlocking { s.setNonBlocking() }
        fd = s
    }

    deinit { fd.close() }

    func send(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            guard let n = try? bytes.withUnsafeBytes({ try fd.send($0) }) else { return }
            bytes = bytes.dropFirst(n)
        }
    }

    /// Lines available now (non-blocking), or after waiting up to `timeoutMs` for the first one.
    func readLines(timeoutMs: Int32) -> [String]? {
        var lines = takeLines()
        if !lines.isEmpty { return lines }
        guard let ready = try? Poll.wait(for: fd, .readable, timeoutMilliseconds: timeoutMs), !ready.isEmpty else { return [] }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while let n = try? chunk.withUnsafeMutableBytes({ try fd.receive(into: $0, dontWait: true) }) {
            if n == 0 { lines = takeLines(); return lines.isEmpty ? nil : lines }   // closed
            buffer += chunk[0..<n]
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
