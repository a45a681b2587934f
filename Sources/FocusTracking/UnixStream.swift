import LinuxSystem

/// A connected Unix stream socket, non-blocking for reads.
final class UnixStream {
    let descriptor: FileDescriptor
    var fd: Int32 { descriptor.rawValue }

    private init(_ descriptor: FileDescriptor) { self.descriptor = descriptor }
    deinit { descriptor.close() }

    static func connect(_ path: String) throws(FocusError) -> UnixStream {
        do { return UnixStream(try FileDescriptor.connectUnix(path)) } catch {
            if error == .nameTooLong { throw FocusError("socket path too long: \(path)") }
            throw FocusError("cannot connect to \(path): \(error)")
        }
    }

    /// Writes everything (waiting up to 2 s for room).
    func write(_ bytes: [UInt8]) throws(FocusError) {
        var off = 0
        while off < bytes.count {
            let sent = bytes[off...].withUnsafeBytes { raw in
                Result { () throws(SystemError) in try descriptor.send(raw, dontWait: true) }
            }
            switch sent {
            case .success(let n): off += n
            case .failure(.wouldBlock):
                let room = try? Poll.wait(for: descriptor, .writable, timeoutMilliseconds: 2000)
                guard let room, !room.isEmpty else { throw FocusError("the socket took no data for 2 s") }
            case .failure(let error): throw FocusError("write: \(error)")
            }
        }
    }

    /// Appends whatever can be read now, until `buffer` holds `maximumBytes` (what is left stays
    /// in the socket, and poll says so again); throws at end of stream. The bound keeps a peer
    /// that writes without pause from growing the buffer without end between two checks.
    func readAvailable(into buffer: inout [UInt8], maximumBytes: Int) throws(FocusError) {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while buffer.count < maximumBytes {
            let received = chunk.withUnsafeMutableBytes { raw in
                Result { () throws(SystemError) in try descriptor.receive(into: raw, dontWait: true) }
            }
            switch received {
            case .success(0): throw FocusError("the socket was closed")
            case .success(let n):
                buffer.append(contentsOf: chunk[0..<n])
                if n < chunk.count { return }
            case .failure(.wouldBlock): return
            case .failure(let error): throw FocusError("read: \(error)")
            }
        }
    }

    /// Reads until the peer closes (a request/reply socket), waiting up to `seconds` in all.
    func readToEnd(limit: Int, seconds: Int32 = 2) throws(FocusError) -> [UInt8] {
        var out: [UInt8] = []
        while true {
            let ready = try? Poll.wait(for: descriptor, .readable, timeoutMilliseconds: seconds * 1000)
            guard let ready, !ready.isEmpty else { throw FocusError("no reply within \(seconds) s") }
            do { try readAvailable(into: &out, maximumBytes: limit + 1) } catch { return out }
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
        try stream.readAvailable(into: &buffer, maximumBytes: maximumLineBytes + 65536)
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
