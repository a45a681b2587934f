import GestureCore
import GestureWire
import LinuxSystem

/// A connected client's side of the socket server: one receive a wakeup, requests answered,
/// output flushed once a wakeup, the client dropped on hangup or error.
extension SocketServer {
    func handle(_ c: Client, _ events: UInt32) {
        if events & EventLoop.writable != 0 { flush(c) }
        guard !c.dropped else { return }
        if c.readClosed {
            // Nothing more to read; a hangup now means the peer closed its receiving side too.
            if events & EventLoop.hangup != 0 { drop(c, reason: "closed the connection") }
            return
        }
        if events & (EventLoop.readable | EventLoop.hangup) != 0 { readFrom(c, hangup: events & EventLoop.hangup != 0) }
    }

    /// One receive (at most `receiveBytes`), then every complete line in it: a client's share of
    /// one wakeup. What is left stays readable, so the next wakeup serves it again.
    func readFrom(_ c: Client, hangup: Bool) {
        let received = receiveBuffer.withUnsafeMutableBytes { raw in
            Result { () throws(SystemError) in try c.fd.receive(into: raw) }
        }
        let n: Int
        switch received {
        case .success(0):
            if hangup { drop(c, reason: "closed the connection"); return }
            // Half-closed: it still gets what it subscribed to.
            c.readClosed = true
            c.input.reset()
            loop.modify(c.fd, events: c.interest)
            return
        case .success(let count): n = count
        case .failure(.wouldBlock): return
        case .failure(let error): drop(c, reason: error.description); return
        }
        if c.closeWhenFlushed { return }   // ignoring what it says after an over-long line
        receiveBuffer.withUnsafeBytes { c.input.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        while let line = c.input.nextLine() {
            if line.count > WireProtocol.maximumClientLineBytes { tooLong(c); return }
            handleLine(c, line)
            if c.dropped || c.closeWhenFlushed { return }
        }
        if c.input.pendingBytes > WireProtocol.maximumClientLineBytes { tooLong(c); return }
    }

    func tooLong(_ c: Client) {
        log.notice("socket: client pid \(c.peer.pid) sent a line over \(WireProtocol.maximumClientLineBytes) bytes; closing it")
        c.input.reset()
        enqueue(c, WireEncoder.error("line longer than \(WireProtocol.maximumClientLineBytes) bytes; closing"))
        c.closeWhenFlushed = true
        flush(c)
    }

    func handleLine(_ c: Client, _ bytes: ArraySlice<UInt8>) {
        // Blank lines (a keep-alive, or a flood of newlines) cost a scan and nothing else.
        guard bytes.contains(where: { $0 != 32 && $0 != 9 && $0 != 13 }) else { return }
        let line = String(decoding: bytes, as: UTF8.self)
        let trimmed = line.trimmingSpaces
        do {
            switch try WireDecoder.clientRequest(trimmed) {
            case .subscribe(let sub):
                c.subscription = sub
                interestChanged?()
                reply(c, WireEncoder.ok("subscribe"))
                onClientServed?()
            case .emit(let request):
                reply(c, onEmit?(request, c.peer) ?? WireEncoder.error("emit: this daemon sends no keys"))
            case .orientation(let request):
                reply(c, onOrientation?(request, c.peer) ?? WireEncoder.error("orientation: not taken by this daemon"))
            case .stream(.pipe):
                streamThroughPipe(c)
            }
        } catch {
            if let suppressed = badLineLog.allow(now: MonotonicClock.now()) {
                log.debug("socket: client pid \(c.peer.pid) sent a bad line: \(error.reason)\(suppressed > 0 ? " (\(suppressed) more not logged)" : "")")
            }
            reply(c, WireEncoder.error(error.reason))
        }
    }

    /// A reply to a request, sent with the wakeup's other output (one send, not one per line).
    func reply(_ c: Client, _ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        bytes.withUnsafeBufferPointer { deliver($0, to: c) }
    }

    func enqueue(_ c: Client, _ line: String) {
        c.queue.push(Self.lineBytes(line))
        flush(c)
    }

    /// `line` and its newline in one allocation.
    static func lineBytes(_ line: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(line.utf8.count + 1)
        bytes.append(contentsOf: line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Writes what `receive` queued during this wakeup: one send per client per wakeup instead of
    /// one per line (a pinch or rotate makes a line per frame; each send wakes the reader).
    func afterWakeup() {
        flushPending()
        if let until = acceptPausedUntil, MonotonicClock.now() >= until { resumeAccepting() }
        // Buffers of clients that left go back to the system once they add up (or the last left).
        if releasedBytes >= 1 << 20 || (releasedBytes > 0 && clients.isEmpty) {
            releasedBytes = 0
            CurrentProcess.returnFreeMemory()
        }
    }

    func flushPending() {
        guard flushDueSomewhere else { return }
        flushDueSomewhere = false
        // A client dropped during the wakeup is no longer listed, and needs no flush.
        for c in clientList where c.flushDue {
            c.flushDue = false
            if !c.dropped { flush(c) }
        }
    }

    /// At most this much queued output is joined into one send; the rest stays in the bounded
    /// queue (where the oldest lines are dropped for a client that does not read).
    static let sendBatchBytes = 16 * 1024

    /// Writes as much as the socket takes; EPOLLOUT on while something is left.
    func flush(_ c: Client) {
        while true {
            if c.writing.isEmpty {
                // Several queued lines (and a `dropped` notice, in its place) go out in one send.
                c.writing.clear()
                while c.writing.count < Self.sendBatchBytes, let next = c.queue.pop() {
                    c.writing.append(next)
                }
                if c.writing.isEmpty { break }
            }
            let sent = c.writing.withPending { raw in
                Result { () throws(SystemError) in try c.sendOutput(raw) }
            }
            switch sent {
            case .success(let n): c.writing.consumed(n)
            case .failure(.wouldBlock):
                if !c.wantsOut { c.wantsOut = true; outputInterestChanged(c) }
                return
            case .failure(.brokenPipe) where c.pipe != nil: drop(c, reason: "closed its stream pipe"); return
            case .failure(let error): drop(c, reason: error.description); return
            }
        }
        if c.closeWhenFlushed { drop(c, reason: "closed after an over-long line"); return }
        if c.wantsOut { c.wantsOut = false; outputInterestChanged(c) }
    }

    /// EPOLLOUT on where the client's lines go while `wantsOut`.
    func outputInterestChanged(_ c: Client) {
        if let pipe = c.pipe { loop.modify(pipe, events: c.wantsOut ? EventLoop.writable : 0) }
        else { loop.modify(c.fd, events: c.interest) }
    }

    func drop(_ c: Client, reason: String) {
        guard clients.removeValue(forKey: c.fd) != nil else { return }
        c.dropped = true
        loop.remove(c.fd)
        c.fd.close()
        if let pipe = c.pipe { loop.remove(pipe); pipe.close(); c.pipe = nil }
        if let n = clientsPerUID[c.peer.uid] { clientsPerUID[c.peer.uid] = n > 1 ? n - 1 : nil }
        let missed = c.queue.droppedTotal
        releasedBytes += c.queue.bytes + c.writing.capacity + c.input.buffer.capacity
        c.queue = BoundedLineQueue(limit: 1, byteLimit: 1)
        c.writing = SendBuffer()
        c.input.reset()
        // A descriptor is free again.
        resumeAccepting()
        log.info("socket: client pid \(c.peer.pid) disconnected (\(reason))\(missed > 0 ? "; \(missed) lines were dropped for it" : "")")
    }
}
