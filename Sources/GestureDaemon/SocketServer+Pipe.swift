import GestureWire
import LinuxSystem

/// `{"type":"stream","via":"pipe"}`: the client's lines from then on go through a pipe whose
/// read end comes attached to the `ok` reply (SCM_RIGHTS), and the socket carries only what the
/// client sends. A pipe write that wakes a waiting reader costs the sender less kernel time than
/// a Unix-socket send does (docs/PERFORMANCE.md, "What costs what"); a client that reads every
/// line of a pan pays that once a frame.
///
/// Nothing is lost or reordered at the switch: what was queued for the socket is sent first, and
/// the request is refused (the client asks again) while the socket cannot take it all. The pipe
/// is bounded as the socket is (64 KiB in the kernel, then the client's queue with its `dropped`
/// notices); the client closing the pipe's read end, or the socket, ends the connection.
extension SocketServer {
    func streamThroughPipe(_ c: Client) {
        guard c.pipe == nil else {
            reply(c, WireEncoder.error("stream: this connection already streams through a pipe"))
            return
        }
        flush(c)
        guard !c.dropped else { return }
        guard c.writing.isEmpty && c.queue.isEmpty else {
            reply(c, WireEncoder.error("stream: lines still wait to go out on the socket; read them, then ask again"))
            return
        }
        let ends: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do { ends = try FileDescriptor.pipe() } catch {
            reply(c, WireEncoder.error("stream: no pipe: \(error)"))
            return
        }
        // The client holds its own copy of the read end once it is sent; the write end is the
        // connection's only when the reply went out whole.
        var handedOver = false
        defer {
            ends.readEnd.close()
            if !handedOver { ends.writeEnd.close() }
        }
        let line = Self.lineBytes(WireEncoder.ok("stream"))
        let sent = line.withUnsafeBytes { raw in
            Result { () throws(SystemError) in try c.fd.send(raw, passing: ends.readEnd, dontWait: true) }
        }
        switch sent {
        case .success(let n) where n == line.count: handedOver = true
        case .success:
            // A short line into a socket whose queue was empty goes in one piece or not at all;
            // a part sent would leave the rest with nowhere to go.
            drop(c, reason: "the stream reply went out in part")
            return
        case .failure(.wouldBlock):
            reply(c, WireEncoder.error("stream: the socket's buffer is full; read what waits, then ask again"))
            return
        case .failure(let error):
            drop(c, reason: error.description)
            return
        }
        ends.writeEnd.setNonBlocking()
        c.pipe = ends.writeEnd
        // EPOLLERR comes whatever the interest once the client closes the read end.
        let watched = loop.add(ends.writeEnd, events: 0) { [unowned self] events in
            if events & EventLoop.hangup != 0 { drop(c, reason: "closed its stream pipe"); return }
            if events & EventLoop.writable != 0 { flush(c) }
        }
        // Unwatched, a full pipe would never be written again: the client must reconnect.
        guard watched else { drop(c, reason: "epoll refused its stream pipe"); return }
        log.info("socket: client pid \(c.peer.pid) streams through a pipe")
    }
}
