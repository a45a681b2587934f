import GestureCore
import GestureWire
import LinuxSystem

/// Who may connect and what they get.
public struct SocketPolicy: Sendable {
    /// Empty lists: anyone who can open the socket file (its mode and group decide).
    public var allowedUIDs: [UInt32] = []
    public var allowedGIDs: [UInt32] = []
    public var queueLimit = 256
    public var rawFrames = false
    public init(allowedUIDs: [UInt32] = [], allowedGIDs: [UInt32] = [], queueLimit: Int = 256, rawFrames: Bool = false) {
        self.allowedUIDs = allowedUIDs; self.allowedGIDs = allowedGIDs
        self.queueLimit = queueLimit; self.rawFrames = rawFrames
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
/// `subscribe` lines in. Non-blocking everywhere; EPOLLOUT only while a client has output waiting.
public final class SocketServer: GestureSubscriber {
    public final class Client {
        public let fd: FileDescriptor
        public let uid: UInt32, gid: UInt32, pid: Int32
        var queue: BoundedLineQueue
        var writing = SendBuffer()
        var input: [UInt8] = []
        var subscription = Subscription.everything
        var wantsOut = false
        /// Lines were queued during this wakeup; `flushPending` writes them in one send.
        var flushDue = false
        var closeWhenFlushed = false
        /// `drop` closed it (the fd number may already belong to another client).
        var dropped = false
        init(fd: FileDescriptor, uid: UInt32, gid: UInt32, pid: Int32, limit: Int) {
            self.fd = fd; self.uid = uid; self.gid = gid; self.pid = pid
            queue = BoundedLineQueue(limit: limit)
        }
    }

    public let listenFD: FileDescriptor
    /// The path we created (and remove at shutdown); nil for an inherited (socket-activated) fd.
    public let ownedPath: String?
    public var policy: SocketPolicy
    private let loop: EventLoop
    private let log: Logger
    private var clients: [FileDescriptor: Client] = [:] {
        didSet { clientList = Array(clients.values) }
    }
    /// `clients.values` for the per-gesture fan-out: iterating the dictionary (twice a gesture)
    /// retained its storage and every client (callgrind, issue 13).
    private var clientList: [Client] = []
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
        loop.add(listenFD) { [unowned self] _ in self.acceptAll() }
        loop.afterEachWakeup { [weak self] in self?.flushPending() }
    }

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
    /// live one (another daemon) or a file that is not a socket is an error.
    public static func listen(path: String, mode: UInt32, group: String?) throws(ListenError) -> FileDescriptor {
        guard let address = UnixAddress(path: path) else { throw .failed("socket path too long: \(path)") }
        if let existing = try? FileStatus(ofLink: path) {
            guard existing.kind == .socket else {
                throw .failed("\(path) exists and is not a socket; not replacing it")
            }
            if let probe = try? FileDescriptor.connectUnix(path) {
                probe.close(); throw .failed("\(path): another gestured is listening there")
            }
            try? FileSystem.remove(path)
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

    private func acceptAll() {
        while true {
            let socket: FileDescriptor
            do { socket = try listenFD.acceptNonBlocking() } catch {
                if error != .wouldBlock { log.warning("accept: \(error)") }
                return
            }
            let cred = socket.peer()
            let groups = Self.supplementaryGroups(socket, pid: cred.pid)
            guard policy.allows(uid: cred.uid, gid: cred.gid, groups: groups) else {
                log.notice("socket: refused client pid \(cred.pid) uid \(cred.uid) gid \(cred.gid): not in socket.allowed_uids/allowed_gids")
                let line = Array((WireEncoder.error("not allowed: uid \(cred.uid) is not in the daemon's allowed uids/gids") + "\n").utf8)
                _ = line.withUnsafeBytes { try? socket.send($0, dontWait: true) }
                socket.close()
                continue
            }
            // A small kernel buffer keeps what a slow client can lag behind bounded by the queue
            // limit (in lines), not by the kernel's default of ~200 KB.
            socket.setSendBufferSize(64 * 1024)
            let c = Client(fd: socket, uid: cred.uid, gid: cred.gid, pid: cred.pid, limit: policy.queueLimit)
            clients[socket] = c
            log.info("socket: client connected: pid \(cred.pid) uid \(cred.uid) gid \(cred.gid)")
            loop.add(socket) { [unowned self] ev in self.handle(c, ev) }
            enqueue(c, helloLine())
            onConnect?()
        }
    }

    /// The peer's supplementary groups: SO_PEERGROUPS (Linux 4.13+; needs no /proc, so it works
    /// under the service's ProtectProc=invisible), else the Groups: line of /proc/PID/status.
    static func supplementaryGroups(_ socket: FileDescriptor, pid: Int32) -> [UInt32] {
        socket.peerGroups() ?? supplementaryGroups(pid: pid)
    }

    static func supplementaryGroups(pid: Int32) -> [UInt32] {
        guard pid > 0, let status = try? FileContents.bytes(of: "/proc/\(pid)/status", maximumBytes: 1 << 20) else { return [] }
        for line in String(decoding: status, as: UTF8.self).split(separator: "\n") where line.hasPrefix("Groups:") {
            return line.dropFirst(7).split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { UInt32($0) }
        }
        return []
    }

    // MARK: - Client I/O

    private func handle(_ c: Client, _ events: UInt32) {
        if events & EventLoop.writable != 0 { flush(c) }
        guard clients[c.fd] != nil else { return }
        if events & (EventLoop.readable | EventLoop.hangup) != 0 { readFrom(c) }
    }

    private func readFrom(_ c: Client) {
        var buf = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let received = buf.withUnsafeMutableBytes { raw in
                Result { () throws(SystemError) in try c.fd.receive(into: raw) }
            }
            let n: Int
            switch received {
            case .success(0): drop(c, reason: "closed the connection"); return
            case .success(let count): n = count
            case .failure(.wouldBlock): return
            case .failure(let error): drop(c, reason: error.description); return
            }
            if c.closeWhenFlushed { continue }   // ignoring what it says after an over-long line
            c.input.append(contentsOf: buf[0..<n])
            while let nl = c.input.firstIndex(of: UInt8(ascii: "\n")) {
                let line = c.input[0..<nl]
                c.input.removeSubrange(0...nl)
                if line.count > WireProtocol.maximumClientLineBytes { tooLong(c); return }
                handleLine(c, String(decoding: line, as: UTF8.self))
                guard clients[c.fd] != nil else { return }
            }
            if c.input.count > WireProtocol.maximumClientLineBytes { tooLong(c); return }
        }
    }

    private func tooLong(_ c: Client) {
        log.notice("socket: client pid \(c.pid) sent a line over \(WireProtocol.maximumClientLineBytes) bytes; closing it")
        c.input.removeAll()
        enqueue(c, WireEncoder.error("line longer than \(WireProtocol.maximumClientLineBytes) bytes; closing"))
        c.closeWhenFlushed = true
        flush(c)
    }

    private func handleLine(_ c: Client, _ line: String) {
        let trimmed = line.trimmingSpaces
        guard !trimmed.isEmpty else { return }
        do {
            switch try WireDecoder.clientRequest(trimmed) {
            case .subscribe(let sub):
                c.subscription = sub
                enqueue(c, WireEncoder.ok("subscribe"))
            case .emit(let request):
                let peer = PeerCredentials(pid: c.pid, uid: c.uid, gid: c.gid, groups: Self.supplementaryGroups(pid: c.pid))
                enqueue(c, onEmit?(request, peer) ?? WireEncoder.error("emit: this daemon sends no keys"))
            case .orientation(let request):
                let peer = PeerCredentials(pid: c.pid, uid: c.uid, gid: c.gid, groups: Self.supplementaryGroups(pid: c.pid))
                enqueue(c, onOrientation?(request, peer) ?? WireEncoder.error("orientation: not taken by this daemon"))
            }
        } catch {
            log.debug("socket: client pid \(c.pid) sent a bad line: \(error.reason)")
            enqueue(c, WireEncoder.error(error.reason))
        }
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
    private func flushPending() {
        guard !pendingFlush.isEmpty else { return }
        swap(&flushing, &pendingFlush)
        for c in flushing where c.flushDue {
            c.flushDue = false
            if !c.dropped { flush(c) }
        }
        // Popped, not removeAll(keepingCapacity:): that is a replaceSubrange call, about 60
        // instructions a wakeup for the one client usually here (callgrind).
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
                if !c.wantsOut { c.wantsOut = true; loop.modify(c.fd, events: EventLoop.readable | EventLoop.writable) }
                return
            case .failure(let error): drop(c, reason: error.description); return
            }
        }
        if c.closeWhenFlushed { drop(c, reason: "closed after an over-long line"); return }
        if c.wantsOut { c.wantsOut = false; loop.modify(c.fd, events: EventLoop.readable) }
    }

    private func drop(_ c: Client, reason: String) {
        guard clients.removeValue(forKey: c.fd) != nil else { return }
        c.dropped = true
        loop.remove(c.fd)
        c.fd.close()
        let missed = c.queue.droppedTotal
        log.info("socket: client pid \(c.pid) disconnected (\(reason))\(missed > 0 ? "; \(missed) lines were dropped for it" : "")")
    }

    // MARK: - Bus

    /// The line being fanned out, encoded once per message into a buffer that keeps its capacity.
    private var line = JSONBytes(capacity: 512)
    /// Each open device's object in gesture lines (GestureJSON.deviceJSON), by device id.
    private var deviceJSON: [(id: Int, bytes: [UInt8])] = []

    private func encodedDevice(_ d: WireDevice) -> [UInt8] {
        if let e = deviceJSON.first(where: { $0.id == d.id }) { return e.bytes }
        let bytes = GestureJSON.deviceJSON(d.info)
        deviceJSON.append((d.id, bytes))
        return bytes
    }

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
            deviceJSON.removeAll { $0.id == d.id }
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
        GestureJSON.withLine(g, deviceJSON: encodedDevice(d), origin: origin, newline: true) { line in
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
