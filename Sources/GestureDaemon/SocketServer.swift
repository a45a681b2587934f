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
    let loop: EventLoop
    let log: Logger
    var clients: [FileDescriptor: Client] = [:] {
        didSet { clientList = Array(clients.values); interestChanged?() }
    }
    /// `clients.values` for the per-gesture fan-out: walking an array retains nothing, the
    /// dictionary's values do.
    var clientList: [Client] = []
    /// Connected clients per uid, for `maxClientsPerUID`.
    var clientsPerUID: [UInt32: Int] = [:]
    /// One receive's bytes, shared by every client (only complete lines are kept per client).
    var receiveBuffer = [UInt8](repeating: 0, count: SocketServer.receiveBytes)
    /// Refusals and bad requests are logged at most this often (a client can send thousands).
    var refusalLog = RateLimiter(burst: 5, interval: .seconds(60))
    var badLineLog = RateLimiter(burst: 5, interval: .seconds(60))
    /// A descriptor held in reserve: out of descriptors, it is closed to accept and refuse one
    /// waiting client at a time (with an error line) instead of leaving the backlog to spin.
    var reserveFD: FileDescriptor?
    /// Out of descriptors since this accept: logged once per episode.
    var outOfDescriptors = false
    /// Accepting is paused (EPOLLIN off on the listener) until a client leaves or this instant.
    var acceptPausedUntil: Instant?
    /// Bytes of buffers clients released since memory was last handed back to the system.
    var releasedBytes = 0
    /// Whether some client had lines queued by `receive` during the current wakeup (its
    /// `flushDue`): `flushPending` then looks for them in `clientList`, with no list of its own
    /// to append each to and empty again.
    var flushDueSomewhere = false
    /// The current devices and the daemon version, for hello.
    public var helloLine: () -> String = { "" }
    /// Called after a client is accepted and its hello queued (replay-on-first-client uses it).
    public var onConnect: (() -> Void)?
    /// Answers an `emit` request (the daemon's ActionService): the reply line. nil: refused.
    public var onEmit: ((EmitRequest, _ peer: PeerCredentials) -> String)?
    /// Answers an `orientation` request (Daemon+Orientation.swift): the reply line.
    public var onOrientation: ((OrientationRequest, _ peer: PeerCredentials) -> String)?
    /// Called after a client was admitted (its hello queued) and after its subscribe was
    /// answered: the daemon hands back the code that ran for it (a client need not subscribe
    /// to get every gesture).
    public var onClientServed: (() -> Void)?
    /// Set by the bus: called when the kinds its clients take may have changed (one
    /// connected, subscribed or left).
    public var interestChanged: (() -> Void)?

    /// The kinds some client takes: every kind once one subscribed to no kind in particular
    /// (a new client gets everything), none with no client.
    public var wantedKinds: GestureKindSet {
        var kinds = GestureKindSet.none
        for c in clientList {
            guard let k = c.subscription.kinds else { return .all }
            kinds.formUnion(GestureKindSet(k))
        }
        return kinds
    }
    public let origin: Instant
    private var afterWakeupID = 0

    public var clientCount: Int { clients.count }

    /// Listens on an fd handed over by systemd (LISTEN_FDS) or on `path`.
    public init(listenFD: FileDescriptor, ownedPath: String?, policy: SocketPolicy, loop: EventLoop, log: Logger, origin: Instant) {
        self.listenFD = listenFD; self.ownedPath = ownedPath; self.policy = policy
        self.loop = loop; self.log = log; self.origin = origin
        listenFD.setNonBlocking()
        reserveFD = try? FileDescriptor.open("/dev/null", .readOnly)
        loop.add(listenFD) { [unowned self] _ in self.acceptSome() }
        afterWakeupID = loop.afterEachWakeup { [unowned self] in self.afterWakeup() }
    }

    deinit { loop.removeAfterWakeup(afterWakeupID) }

    /// A receive reads at most this much of one client per wakeup.
    static let receiveBytes = 16 * 1024
    /// Connections accepted per wakeup.
    static let acceptsPerWakeup = 16
    /// Out of descriptors with no reserve to refuse through: accepting waits this long at most.
    static let acceptPause: Duration = .seconds(1)

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

    func resumeAccepting() {
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
        onClientServed?()
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
    func closeClientsNoLongerAllowed() {
        for c in clientList where !c.dropped && !policy.allows(uid: c.peer.uid, gid: c.peer.gid, groups: c.peer.groups) {
            c.queue.push(Array((WireEncoder.error("no longer allowed: the daemon's socket.allowed_uids/allowed_gids changed") + "\n").utf8))
            c.closeWhenFlushed = true
            flush(c)
            if !c.dropped { drop(c, reason: "no longer allowed by socket.allowed_uids/allowed_gids") }
        }
    }

    // MARK: - Bus

    /// The line being fanned out, encoded once per message into a buffer that keeps its capacity.
    private var line = JSONBytes(capacity: 512)

    public func receive(_ m: BusMessage) {
        switch m {
        case .gesture(let g, let d): receive(g, from: d)
        case .frame(let f, let d):
            guard policy.rawFrames else { return }
            fanOut({ $0.wants(framesOf: d) }) { GestureJSON.encode(f, origin: origin, device: d.info, into: &$0) }
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
        guard let first = list.firstIndex(where: { $0.wants(g, from: d) }) else { return }
        GestureJSON.withLine(g, device: d.info, origin: origin, newline: true) { line in
            deliver(line, to: list[first])
            for i in (first + 1)..<list.count where list[i].wants(g, from: d) {
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
    func deliver(_ line: UnsafeBufferPointer<UInt8>, to c: Client) {
        if loop.dispatching {
            append(c, line)
            if !c.flushDue { c.flushDue = true; flushDueSomewhere = true }
        } else {
            c.queue.push(Array(line))
            flush(c)
        }
    }

    /// Queues `bytes` for `c`: into its send buffer while nothing waits in its queue and it has
    /// room, else through the bounded queue (which drops the oldest lines of a slow client).
    func append(_ c: Client, _ bytes: UnsafeBufferPointer<UInt8>) {
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
