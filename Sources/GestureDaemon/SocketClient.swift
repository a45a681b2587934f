import GestureCore
import GestureWire
import LinuxSystem

/// One connected client of the `SocketServer`: its credentials as they were when it connected,
/// its subscription, and its three bounded buffers (queued lines, the batch being sent, the
/// request line being received).
final class SocketClient {
    let fd: FileDescriptor
    /// SO_PEERCRED and SO_PEERGROUPS at accept: who connected, kept for the connection's life.
    let peer: PeerCredentials
    var queue: BoundedLineQueue
    var writing = SendBuffer()
    var input = LineReader()
    var subscription = Subscription.everything {
        didSet { wantsEverything = subscription == .everything }
    }
    /// The subscription asks for everything (what a new client has): a gesture or frame is
    /// wanted without copying the subscription's four sets to test it.
    private(set) var wantsEverything = true
    /// EPOLLOUT is on: the socket's (or the stream pipe's) buffer was full.
    var wantsOut = false
    /// The write end of the pipe the client asked its lines through (`stream`), non-blocking;
    /// nil: they go on the socket.
    var pipe: FileDescriptor?
    /// Lines were queued during this wakeup; `flushPending` writes them in one send.
    var flushDue = false
    var closeWhenFlushed = false
    /// The peer shut down its sending side (`printf … | nc -U` does after its request): nothing
    /// more to read, but it still gets gestures until it closes or a send fails.
    var readClosed = false
    /// `drop` closed it (the fd number may already belong to another client).
    var dropped = false

    func wants(_ g: GestureEvent, from d: WireDevice) -> Bool {
        wantsEverything || subscription.matches(g, device: d)
    }

    func wants(framesOf d: WireDevice) -> Bool {
        wantsEverything || subscription.matches(device: d)
    }

    init(fd: FileDescriptor, peer: PeerCredentials, limit: Int, byteLimit: Int) {
        self.fd = fd; self.peer = peer
        queue = BoundedLineQueue(limit: limit, byteLimit: byteLimit)
    }

    /// The epoll interest on the socket that matches the client's state.
    var interest: UInt32 {
        (readClosed ? 0 : EventLoop.readable) | (wantsOut && pipe == nil ? EventLoop.writable : 0)
    }

    /// Sends what it can of `raw` where the client's lines go: the socket, or its stream pipe.
    func sendOutput(_ raw: UnsafeRawBufferPointer) throws(SystemError) -> Int {
        if let pipe { return try pipe.write(raw) }
        return try fd.send(raw, dontWait: true)
    }
}

/// Splits received bytes into lines in one linear pass: a line is handed out as a slice of the
/// buffer, and the consumed prefix is removed once per receive, not once per line.
struct LineReader {
    private(set) var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0

    /// Bytes held that are not yet a whole line.
    var pendingBytes: Int { buffer.count - start }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0 {
            buffer.removeFirst(start)
            scanned -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete line (without its newline), or nil when none is left.
    mutating func nextLine() -> ArraySlice<UInt8>? {
        var i = Swift.max(scanned, start)
        while i < buffer.count {
            if buffer[i] == UInt8(ascii: "\n") {
                let line = buffer[start..<i]
                start = i + 1
                scanned = start
                return line
            }
            i += 1
        }
        scanned = i
        return nil
    }

    /// Forgets everything and gives the storage back.
    mutating func reset() { buffer = []; start = 0; scanned = 0 }
}
