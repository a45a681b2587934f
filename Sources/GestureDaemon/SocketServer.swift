import GestureConfig
import GestureCore
import GestureWire
import LinuxSystem

/// Who may connect and what they get.
public struct SocketPolicy: Sendable {
    /// Empty lists: anyone who can open the socket file (its mode and group decide).
    public var allowedUIDs: [UInt32] = []
    public var allowedGIDs: [UInt32] = []
    public var queueLimit = 256
    /// Bytes of lines queued per client (BoundedLineQueue).
    public var queueBytes = 64 * 1024
    /// Clients at once, in all and per uid; more are refused with an error line.
    public var maxClients = 64
    public var maxClientsPerUID = 16
    public var rawFrames = false
    public init(allowedUIDs: [UInt32] = [], allowedGIDs: [UInt32] = [], queueLimit: Int = 256, queueBytes: Int = 64 * 1024,
                maxClients: Int = 64, maxClientsPerUID: Int = 16, rawFrames: Bool = false) {
        self.allowedUIDs = allowedUIDs; self.allowedGIDs = allowedGIDs
        self.queueLimit = queueLimit; self.queueBytes = queueBytes
        self.maxClients = maxClients; self.maxClientsPerUID = maxClientsPerUID; self.rawFrames = rawFrames
    }

    /// The config's `socket:` section.
    public init(_ c: SocketConfig) {
        self.init(allowedUIDs: c.allowedUIDs, allowedGIDs: c.allowedGIDs, queueLimit: c.queueLimit, queueBytes: c.queueBytes,
                  maxClients: c.maxClients, maxClientsPerUID: c.maxClientsPerUID, rawFrames: c.rawFrames)
    }

    /// Root and the daemon's own user are always allowed; otherwise the uid, the primary gid or
    /// a supplementary group must be listed.
    public func allows(uid: UInt32, gid: UInt32, groups: [UInt32]) -> Bool {
        if allowedUIDs.isEmpty && allowedGIDs.isEmpty { return true }
        if uid == 0 || uid == CurrentProcess.userID { return true }
        if allowedUIDs.contains(uid) { return true }
        return allowedGIDs.contains(gid) || groups.contains(where: allowedGIDs.contains)
    }
}

/// The Unix stream socket: hello on connect, JSON lines out through a bounded queue per client,
/// `subscribe` and `emit` lines in. Non-blocking everywhere; EPOLLOUT only while a client has
/// output waiting. Each client is served a bounded slice per wakeup (one receive), clients are
/// capped in number and in bytes, and running out of descriptors pauses nothing but accepting
/// (docs/CONFIG.md, "socket").
public final class SocketServer: GestureSubscriber {
    typealias Client = SocketClient

    public let listenFD: FileDescriptor
    /// The path we created (and remove at shutdown); nil for an inherited (socket-activated) fd.
    public let ownedPath: String?
    public var policy: SocketPolicy {
        didSet { closeClientsNoLongerAllowed() }
    }
    private let loop: EventLoop
    private let log: Logger
    private var clients: [FileDescriptor: Client] = [:] {
        didSet { clientList = Array(clients.values) }
    }
    /// `clients.values` for the per-gesture fan-out: walking an array retains nothing, the
    /// dictionary's values do.
    private var clientList: [Client] = []
    /// Connected clients per uid, for `maxClientsPerUID`.
    private var clientsPerUID: [UInt32: Int] = [:]
    /// One receive's bytes, shared by every client (only complete lines are kept per client).
    private var receiveBuffer = [UInt8](repeating: 0, count: SocketServer.receiveBytes)
    /// Refusals and bad requests are logged at most this often (a client can send thousands).
    private var refusalLog = RateLimiter(burst: 5, interval: .seconds(60))
    private var badLineLog = RateLimiter(burst: 5, interval: .seconds(60))
    /// A descriptor held in reserve: out of descriptors, it is closed to accept and refuse one
    /// waiting client at a time (with an error line) instead of leaving the backlog to spin.
    private var reserveFD: FileDescriptor?
    /// Out of descriptors since this accept: logged once per episode.
    private var outOfDescriptors = false
    /// Accepting is paused (EPOLLIN off on the listener) until a client leaves or this instant.
    private var acceptPausedUntil: Instant?
    /// Bytes of buffers clients released since memory was last handed back to the system.
    private var releasedBytes = 0
    /// Clients with lines queued by `receive` during the current wakeup.
    private var pendingFlush: [Client] = []
    /// `pendingFlush` of the wakeup being flushed: the two swap, so neither is reallocated.
    private var flushing: [Client] = []
    /// The current devices and the daemon version, for hello.
    public var helloLine: () -> String = { "" }
    /// Called after a client is accepted and its hello queued (replay-on-first-client uses it).
    public var onConnect: (() -> Void)?
    /// Answers an `emit` request (the daemon's ActionService): the reply line. nil: refused.
    public var onEmit: ((EmitRequest, _ peer: PeerCredentials) -> String)?
    /// Answers an `orientation` request (Daemon+Orientation.swift): the reply line.
    public var onOrientation: ((OrientationRequest, _ peer: PeerCredentials) -> String)?
    public let origin: Instant

    public var clientCount: Int { clients.count }

    /// Listens on an fd handed over by systemd (LISTEN_FDS) or on `path`.
    public init(listenFD: FileDescriptor, ownedPath: String?, policy: SocketPolicy, loop: EventLoop, log: Logger, origin: Instant) {
        self.listenFD = listenFD; self.ownedPath = ownedPath; self.policy = policy
        self.loop = loop; self.log = log; self.origin = origin
        listenFD.setNonBlocking()
        reserveFD = try? FileDescriptor.open("/dev/null", .readOnly)
        loop.add(listenFD) { [unowned self] _ in self.acceptSome() }
        loop.afterEachWakeup { [weak self] in self?.afterWakeup() }
    }

    /// A receive reads at most this much of one client per wakeup.
    static let receiveBytes = 16 * 1024
    /// Connections accepted per wakeup.
    static let acceptsPerWakeup = 16
    /// Out of descriptors with no reserve to refuse through: accepting waits this long at most.
    static let acceptPause: Duration = .seconds(1)

    /// The fd systemd passed (LISTEN_PID = us, LISTEN_FDS ≥ 1 → fd 3), if any.
    public static func activatedFD(environment: [String: String]) -> FileDescriptor? {
        guard let pid = environment["LISTEN_PID"].flatMap(Int32.init), pid == CurrentProcess.id,
              let n = environment["LISTEN_FDS"].flatMap(Int.init), n >= 1 else { return nil }
        let inherited = FileDescriptor(rawValue: 3)
        inherited.setCloseOnExec()
        return inherited
    }

    public enum ListenError: Error, CustomStringConvertible {
        case failed(String)
        public var description: String { if case .failed(let s) = self { return s }; return "" }
    }

    /// Creates, binds and listens on `path`. A stale socket file (nobody accepts) is replaced; a
    /// live one (another daemon) or a file that is not a socket is an error. The probe of an
    /// existing socket never waits (a live daemon may have a full backlog). An abstract name
    /// (`@name`) is refused: it has no file mode or group to limit who connects.
    public static func listen(path: String, mode: UInt32, group: String?) throws(ListenError) -> FileDescriptor {
        if path.hasPrefix("@") {
            throw .failed("\(path): abstract socket names are not supported: an abstract socket has no file mode or group, so socket.mode and socket.group could not limit who connects; give a file path (e.g. $XDG_RUNTIME_DIR/gestured.sock)")
        }
        guard let address = UnixAddress(path: path) else { throw .failed("socket path too long: \(path)") }
        if let existing = try? FileStatus(ofLink: path) {
            guard existing.kind == .socket else {
                throw .failed("\(path) exists and is not a socket; not replacing it")
            }
            switch Result(catching: { () throws(SystemError) in try FileDescriptor.connectUnix(path, nonBlocking: true) }) {
            case .success(let probe):
                probe.close(); throw .failed("\(path): another gestured is listening there")
            case .failure(.wouldBlock):
                throw .failed("\(path): another gestured is listening there (its queue of connections is full)")
            case .failure:
                try? FileSystem.remove(path)
            }
        }
        let fd: FileDescriptor
        do { fd = try UnixSocket.open(.stream, nonBlocking: true) } catch { throw .failed("socket: \(error)") }
        let old = CurrentProcess.setFileCreationMask(0o177)
        let bound = Result { () throws(SystemError) in try fd.bind(to: address) }
        CurrentProcess.setFileCreationMask(old)
        if case .failure(let bindError) = bound {
            fd.close()
            let hint = switch bindError {
            case .noSuchFile: " (does its directory exist? gestured.socket creates /run/gestured)"
            case .permissionDenied: " (permission denied: run as the gestured user or pass --socket)"
            default: ""
            }
            throw .failed("bind \(path): \(bindError)\(hint)")
        }
        func abandon() { fd.close(); try? FileSystem.remove(path) }
        if let group {
            guard let gid = Accounts.groupID(named: group) else {
                abandon(); throw .failed("config error: socket group '\(group)' does not exist")
            }
            do { try FileSystem.changeGroup(path, to: gid) } catch {
                abandon(); throw .failed("chown \(path) to group \(group): \(error)")
            }
        }
        do { try FileSystem.changePermissions(path, to: mode) } catch {
            abandon(); throw .failed("chmod \(path): \(error)")
        }
        do { try fd.listen(backlog: 64) } catch {
            abandon(); throw .failed("listen \(path): \(error)")
        }
        return fd
    }

    // MARK: - Accept

    private func acceptSome() {
        for _ in 0..<Self.acceptsPerWakeup {
            let socket: FileDescriptor
            do { socket = try listenFD.acceptNonBlocking() } catch {
                if error == .wouldBlock { return }
                if error == .tooManyOpenFiles || error == .systemFileTableFull {
                    if !outOfDescriptors {
                        outOfDescriptors = true
                        log.warning("socket: out of file descriptors (\(error)); refusing new clients until one is free")
                    }
                    if !refuseThroughReserve() { pauseAccepting(); return }
                    continue
                }
                log.warning("socket: accept: \(error)")
                return
            }
            if outOfDescriptors {
                outOfDescriptors = false
                log.info("socket: descriptors available again; accepting clients")
            }
            admit(socket)
        }
    }

    /// Out of descriptors: frees the reserve to accept one waiting client, tells it why, closes it
    /// and takes the reserve back. False when that is not possible (accepting then pauses).
    private func refuseThroughReserve() -> Bool {
        guard let reserve = reserveFD else { return false }
        reserve.close()
        reserveFD = nil
        if let socket = try? listenFD.acceptNonBlocking() {
            sendAndClose(socket, WireEncoder.error("the daemon is out of file descriptors; try again later"))
        }
        reserveFD = try? FileDescriptor.open("/dev/null", .readOnly)
        return reserveFD != nil
    }

    private func pauseAccepting() {
        guard acceptPausedUntil == nil else { return }
        acceptPausedUntil = MonotonicClock.now() + Self.acceptPause
        loop.modify(listenFD, events: 0)
    }

    private func resumeAccepting() {
        guard acceptPausedUntil != nil else { return }
        acceptPausedUntil = nil
        loop.modify(listenFD, events: EventLoop.readable)
    }

    /// Checks a new connection against the policy and the caps; a refused one gets an error line.
    private func admit(_ socket: FileDescriptor) {
        let cred = socket.peer()
        // SO_PEERGROUPS (Linux 4.13+) gives the groups as they were at connect, like SO_PEERCRED:
        // they are never looked up later through a pid that may have been reused.
        let peer = PeerCredentials(pid: cred.pid, uid: cred.uid, gid: cred.gid, groups: socket.peerGroups() ?? [])
        guard policy.allows(uid: peer.uid, gid: peer.gid, groups: peer.groups) else {
            logRefusal("refused client pid \(peer.pid) uid \(peer.uid) gid \(peer.gid): not in socket.allowed_uids/allowed_gids")
            sendAndClose(socket, WireEncoder.error("not allowed: uid \(peer.uid) is not in the daemon's allowed uids/gids"))
            return
        }
        if clients.count >= policy.maxClients || clientsPerUID[peer.uid, default: 0] >= policy.maxClientsPerUID {
            let which = clients.count >= policy.maxClients ? "socket.max_clients \(policy.maxClients)"
                : "socket.max_clients_per_uid \(policy.maxClientsPerUID) for uid \(peer.uid)"
            logRefusal("refused client pid \(peer.pid) uid \(peer.uid): \(which) reached")
            sendAndClose(socket, WireEncoder.error("too many clients: \(which) reached; close another connection first"))
            return
        }
        // A small kernel buffer keeps what a slow client can lag behind bounded by the queue
        // limit (in lines and bytes), not by the kernel's default of ~200 KB.
        socket.setSendBufferSize(64 * 1024)
        let c = Client(fd: socket, peer: peer, limit: policy.queueLimit, byteLimit: policy.queueBytes)
        clients[socket] = c
        clientsPerUID[peer.uid, default: 0] += 1
        log.info("socket: client connected: pid \(peer.pid) uid \(peer.uid) gid \(peer.gid)")
        loop.add(socket) { [unowned self] ev in self.handle(c, ev) }
        enqueue(c, helloLine())
        onConnect?()
    }

    private func sendAndClose(_ socket: FileDescriptor, _ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { try? socket.send($0, dontWait: true) }
        socket.close()
    }

    private func logRefusal(_ message: String) {
        if let suppressed = refusalLog.allow(now: MonotonicClock.now()) {
            log.notice("socket: \(message)\(suppressed > 0 ? " (\(suppressed) similar refusals not logged)" : "")")
        }
    }

    /// After a reload narrowed `allowed_uids`/`allowed_gids`: clients it no longer allows are
    /// told and closed (the policy is about who may listen, not only who may connect).
    private func closeClientsNoLongerAllowed() {
        for c in clientList where !c.dropped && !policy.allows(uid: c.peer.uid, gid: c.peer.gid, groups: c.peer.groups) {
            c.queue.push(Array((WireEncoder.error("no longer allowed: the daemon's socket.allowed_uids/allowed_gids changed") + "\n").utf8))
            c.closeWhenFlushed = true
            flush(c)
            if !c.dropped { drop(c, reason: "no longer allowed by socket.allowed_uids/allowed_gids") }
        }
    }

    // MARK: - Client I/O

    private func handle(_ c: Client, _ events: UInt32) {
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
    private func readFrom(_ c: Client, hangup: Bool) {
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

    private func tooLong(_ c: Client) {
        log.notice("socket: client pid \(c.peer.pid) sent a line over \(WireProtocol.maximumClientLineBytes) bytes; closing it")
        c.input.reset()
        enqueue(c, WireEncoder.error("line longer than \(WireProtocol.maximumClientLineBytes) bytes; closing"))
        c.closeWhenFlushed = true
        flush(c)
    }

    private func handleLine(_ c: Client, _ bytes: ArraySlice<UInt8>) {
        // Blank lines (a keep-alive, or a flood of newlines) cost a scan and nothing else.
        guard bytes.contains(where: { $0 != 32 && $0 != 9 && $0 != 13 }) else { return }
        let line = String(decoding: bytes, as: UTF8.self)
        let trimmed = line.trimmingSpaces
        do {
            switch try WireDecoder.clientRequest(trimmed) {
            case .subscribe(let sub):
                c.subscription = sub
                reply(c, WireEncoder.ok("subscribe"))
            case .emit(let request):
                reply(c, onEmit?(request, c.peer) ?? WireEncoder.error("emit: this daemon sends no keys"))
            case .orientation(let request):
                reply(c, onOrientation?(request, c.peer) ?? WireEncoder.error("orientation: not taken by this daemon"))
            }
        } catch {
            if let suppressed = badLineLog.allow(now: MonotonicClock.now()) {
                log.debug("socket: client pid \(c.peer.pid) sent a bad line: \(error.reason)\(suppressed > 0 ? " (\(suppressed) more not logged)" : "")")
            }
            reply(c, WireEncoder.error(error.reason))
        }
    }

    /// A reply to a request, sent with the wakeup's other output (one send, not one per line).
    private func reply(_ c: Client, _ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        bytes.withUnsafeBufferPointer { deliver($0, to: c) }
    }

    private func enqueue(_ c: Client, _ line: String) {
        c.queue.push(Self.lineBytes(line))
        flush(c)
    }

    /// `line` and its newline in one allocation.
    private static func lineBytes(_ line: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(line.utf8.count + 1)
        bytes.append(contentsOf: line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Writes what `receive` queued during this wakeup: one send per client per wakeup instead of
    /// one per line (a pinch or rotate makes a line per frame; each send wakes the reader).
    private func afterWakeup() {
        flushPending()
        if let until = acceptPausedUntil, MonotonicClock.now() >= until { resumeAccepting() }
        // Buffers of clients that left go back to the system once they add up (or the last left).
        if releasedBytes >= 1 << 20 || (releasedBytes > 0 && clients.isEmpty) {
            releasedBytes = 0
            CurrentProcess.returnFreeMemory()
        }
    }

    private func flushPending() {
        guard !pendingFlush.isEmpty else { return }
        swap(&flushing, &pendingFlush)
        for c in flushing where c.flushDue {
            c.flushDue = false
            if !c.dropped { flush(c) }
        }
        // Popped, not removeAll(keepingCapacity:), a general replaceSubrange call.
        while !flushing.isEmpty { flushing.removeLast() }
    }

    /// At most this much queued output is joined into one send; the rest stays in the bounded
    /// queue (where the oldest lines are dropped for a client that does not read).
    static let sendBatchBytes = 16 * 1024

    /// Writes as much as the socket takes; EPOLLOUT on while something is left.
    private func flush(_ c: Client) {
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
                Result { () throws(SystemError) in try c.fd.send(raw, dontWait: true) }
            }
            switch sent {
            case .success(let n): c.writing.consumed(n)
            case .failure(.wouldBlock):
                if !c.wantsOut { c.wantsOut = true; loop.modify(c.fd, events: c.interest) }
                return
            case .failure(let error): drop(c, reason: error.description); return
            }
        }
        if c.closeWhenFlushed { drop(c, reason: "closed after an over-long line"); return }
        if c.wantsOut { c.wantsOut = false; loop.modify(c.fd, events: c.interest) }
    }

    private func drop(_ c: Client, reason: String) {
        guard clients.removeValue(forKey: c.fd) != nil else { return }
        c.dropped = true
        loop.remove(c.fd)
        c.fd.close()
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

    // MARK: - Bus

    /// The line being fanned out, encoded once per message into a buffer that keeps its capacity.
    private var line = JSONBytes(capacity: 512)

    public func receive(_ m: BusMessage) {
        switch m {
        case .gesture(let g, let d): receive(g, from: d)
        case .frame(let f, let d):
            guard policy.rawFrames else { return }
            fanOut({ $0.subscription.matches(device: d) }) { GestureJSON.encode(f, origin: origin, device: d.info, into: &$0) }
        case .deviceAdded(let d):
            fanOut({ _ in true }) { $0.rawText(WireEncoder.deviceAdded(d)) }
        case .deviceChanged(let d): fanOut({ _ in true }) { $0.rawText(WireEncoder.deviceChanged(d)) }
        case .deviceRemoved(let d):
            fanOut({ _ in true }) { $0.rawText(WireEncoder.deviceRemoved(d)) }
        }
    }

    /// A gesture's line goes from the encoder's temporary buffer straight into each client's
    /// send buffer (or queue), without the shared `line` buffer in between.
    public func receive(_ g: GestureEvent, from d: WireDevice) {
        // The list as it is now: outside a wakeup `deliver` sends at once and may drop a client.
        let list = clientList
        // The first client that wants the line; nothing is encoded when none does.
        guard let first = list.firstIndex(where: { $0.subscription.matches(g, device: d) }) else { return }
        GestureJSON.withLine(g, device: d.info, origin: origin, newline: true) { line in
            deliver(line, to: list[first])
            for i in (first + 1)..<list.count where list[i].subscription.matches(g, device: d) {
                deliver(line, to: list[i])
            }
        }
    }

    /// One line, encoded by `encode` (once, for the first client that `wants` it, with its
    /// newline, into `line`), to every client that wants it.
    @inline(__always)
    private func fanOut(_ wants: (Client) -> Bool, _ encode: (inout JSONBytes) -> Void) {
        guard !clients.isEmpty else { return }
        var encoded = false
        for c in clients.values where wants(c) {
            if !encoded {
                line.clear()
                encode(&line)
                line.byte(UInt8(ascii: "\n"))
                encoded = true
            }
            line.bytes.withUnsafeBufferPointer { deliver($0, to: c) }
        }
    }

    /// Sends one line (with its newline) to `c`: during a wakeup, once its handlers are done
    /// (flushPending); otherwise now.
    private func deliver(_ line: UnsafeBufferPointer<UInt8>, to c: Client) {
        if loop.dispatching {
            append(c, line)
            if !c.flushDue { c.flushDue = true; pendingFlush.append(c) }
        } else {
            c.queue.push(Array(line))
            flush(c)
        }
    }

    /// Queues `bytes` for `c`: into its send buffer while nothing waits in its queue and it has
    /// room, else through the bounded queue (which drops the oldest lines of a slow client).
    private func append(_ c: Client, _ bytes: UnsafeBufferPointer<UInt8>) {
        if c.queue.isEmpty && !c.wantsOut && c.writing.pending + bytes.count <= Self.sendBatchBytes {
            if c.writing.isEmpty { c.writing.clear() }
            c.writing.append(bytes)
        } else {
            c.queue.push(Array(bytes))
        }
    }

    /// Closes every client and the listening socket; removes the socket file we created.
    public func shutdown() {
        for c in Array(clients.values) { flush(c); drop(c, reason: "daemon stopping") }
        loop.remove(listenFD)
        listenFD.close()
        if let ownedPath { try? FileSystem.remove(ownedPath) }
    }
}

extension String {
    var trimmingSpaces: Substring {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s.removeLast() }
        return s
    }
}
