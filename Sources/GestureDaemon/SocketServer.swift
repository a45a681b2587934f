#if canImport(Glibc)
import Glibc
#endif
import CLinuxSys
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
        if uid == 0 || uid == getuid() { return true }
        if allowedUIDs.contains(uid) { return true }
        return allowedGIDs.contains(gid) || groups.contains(where: allowedGIDs.contains)
    }
}

/// The Unix stream socket: hello on connect, JSON lines out through a bounded queue per client,
/// `subscribe` lines in. Non-blocking everywhere; EPOLLOUT only while a client has output waiting.
public final class SocketServer: GestureSubscriber {
    public final class Client {
        public let fd: Int32
        public let uid: UInt32, gid: UInt32, pid: Int32
        var queue: BoundedLineQueue
        var writing: [UInt8] = []
        var writeOffset = 0
        var input: [UInt8] = []
        var subscription = Subscription.everything
        var wantsOut = false
        /// Lines were queued during this wakeup; `flushPending` writes them in one send.
        var flushDue = false
        var closeWhenFlushed = false
        init(fd: Int32, uid: UInt32, gid: UInt32, pid: Int32, limit: Int) {
            self.fd = fd; self.uid = uid; self.gid = gid; self.pid = pid
            queue = BoundedLineQueue(limit: limit)
        }
    }

    public let listenFD: Int32
    /// The path we created (and remove at shutdown); nil for an inherited (socket-activated) fd.
    public let ownedPath: String?
    public var policy: SocketPolicy
    private let loop: EventLoop
    private let log: Logger
    private var clients: [Int32: Client] = [:]
    /// Clients with lines queued by `receive` during the current wakeup.
    private var pendingFlush: [Client] = []
    /// The current devices and the daemon version, for hello.
    public var helloLine: () -> String = { "" }
    /// Called after a client is accepted and its hello queued (replay-on-first-client uses it).
    public var onConnect: (() -> Void)?
    /// Answers an `emit` request (the daemon's ActionService): the reply line. nil: refused.
    public var onEmit: ((EmitRequest, _ peer: PeerCredentials) -> String)?
    public let origin: Instant

    public var clientCount: Int { clients.count }

    /// Listens on an fd handed over by systemd (LISTEN_FDS) or on `path`.
    public init(listenFD: Int32, ownedPath: String?, policy: SocketPolicy, loop: EventLoop, log: Logger, origin: Instant) {
        self.listenFD = listenFD; self.ownedPath = ownedPath; self.policy = policy
        self.loop = loop; self.log = log; self.origin = origin
        Sys.setNonBlocking(listenFD)
        loop.add(listenFD) { [unowned self] _ in self.acceptAll() }
        loop.afterEachWakeup { [weak self] in self?.flushPending() }
    }

    /// The fd systemd passed (LISTEN_PID = us, LISTEN_FDS ≥ 1 → fd 3), if any.
    public static func activatedFD(environment: [String: String]) -> Int32? {
        guard let pid = environment["LISTEN_PID"].flatMap(Int32.init), pid == getpid(),
              let n = environment["LISTEN_FDS"].flatMap(Int.init), n >= 1 else { return nil }
        Sys.setCloseOnExec(3)
        return 3
    }

    public enum ListenError: Error, CustomStringConvertible {
        case failed(String)
        public var description: String { if case .failed(let s) = self { return s }; return "" }
    }

    /// Creates, binds and listens on `path`. A stale socket file (nobody accepts) is replaced; a
    /// live one (another daemon) or a file that is not a socket is an error.
    public static func listen(path: String, mode: UInt32, group: String?) throws(ListenError) -> Int32 {
        guard var (addr, len) = Sys.unixAddress(path) else { throw .failed("socket path too long: \(path)") }
        var st = stat()
        if lstat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFSOCK else {
                throw .failed("\(path) exists and is not a socket; not replacing it")
            }
            if case .success(let probe) = Sys.connectUnix(path) {
                close(probe); throw .failed("\(path): another gestured is listening there")
            }
            unlink(path)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw .failed("socket: \(SystemError.last)") }
        let old = umask(0o177)
        let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        let bindError = SystemError.last
        umask(old)
        guard rc == 0 else {
            close(fd)
            let hint = switch bindError {
            case .noSuchFile: " (does its directory exist? gestured.socket creates /run/gestured)"
            case .permissionDenied: " (permission denied: run as the gestured user or pass --socket)"
            default: ""
            }
            throw .failed("bind \(path): \(bindError)\(hint)")
        }
        var gid: gid_t = gid_t(bitPattern: -1)
        if let group {
            guard let gr = getgrnam(group) else { close(fd); unlink(path); throw .failed("config error: socket group '\(group)' does not exist") }
            gid = gr.pointee.gr_gid
        }
        if gid != gid_t(bitPattern: -1) && chown(path, uid_t(bitPattern: -1), gid) != 0 {
            let e = SystemError.last; close(fd); unlink(path)
            throw .failed("chown \(path) to group \(group ?? ""): \(e)")
        }
        if chmod(path, mode_t(mode)) != 0 {
            let e = SystemError.last; close(fd); unlink(path)
            throw .failed("chmod \(path): \(e)")
        }
        guard Glibc.listen(fd, 64) == 0 else {
            let e = SystemError.last; close(fd); unlink(path); throw .failed("listen \(path): \(e)")
        }
        return fd
    }

    // MARK: - Accept

    private func acceptAll() {
        while true {
            let fd = gestured_accept4(listenFD, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
            if fd < 0 {
                let error = SystemError.last
                if error == .interrupted { continue }
                if error != .wouldBlock { log.warning("accept: \(error)") }
                return
            }
            var cred = gestured_peer_credentials(pid: -1, uid: UInt32.max, gid: UInt32.max)
            _ = gestured_peer_credentials(fd, &cred)
            let groups = Self.supplementaryGroups(fd: fd, pid: cred.pid)
            guard policy.allows(uid: cred.uid, gid: cred.gid, groups: groups) else {
                log.notice("socket: refused client pid \(cred.pid) uid \(cred.uid) gid \(cred.gid): not in socket.allowed_uids/allowed_gids")
                let line = Array((WireEncoder.error("not allowed: uid \(cred.uid) is not in the daemon's allowed uids/gids") + "\n").utf8)
                _ = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
                close(fd)
                continue
            }
            // A small kernel buffer keeps what a slow client can lag behind bounded by the queue
            // limit (in lines), not by the kernel's default of ~200 KB.
            var sndbuf: Int32 = 64 * 1024
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, 4)
            let c = Client(fd: fd, uid: cred.uid, gid: cred.gid, pid: cred.pid, limit: policy.queueLimit)
            clients[fd] = c
            log.info("socket: client connected: pid \(cred.pid) uid \(cred.uid) gid \(cred.gid)")
            loop.add(fd) { [unowned self] ev in self.handle(c, ev) }
            enqueue(c, helloLine())
            onConnect?()
        }
    }

    /// The peer's supplementary groups: SO_PEERGROUPS (Linux 4.13+; needs no /proc, so it works
    /// under the service's ProtectProc=invisible), else the Groups: line of /proc/PID/status.
    static func supplementaryGroups(fd: Int32, pid: Int32) -> [UInt32] {
        var groups = [UInt32](repeating: 0, count: 256)
        var len = socklen_t(groups.count * 4)
        let soPeerGroups: Int32 = 59   // SO_PEERGROUPS, <asm-generic/socket.h>
        if getsockopt(fd, SOL_SOCKET, soPeerGroups, &groups, &len) == 0 {
            return Array(groups.prefix(Int(len) / 4))
        }
        return supplementaryGroups(pid: pid)
    }

    static func supplementaryGroups(pid: Int32) -> [UInt32] {
        guard pid > 0, let f = fopen("/proc/\(pid)/status", "r") else { return [] }
        defer { fclose(f) }
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), f) != nil {
            let s = String(cString: line)
            if s.hasPrefix("Groups:") {
                return s.dropFirst(7).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { UInt32($0) }
            }
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
            let n = buf.withUnsafeMutableBytes { recv(c.fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { drop(c, reason: "closed the connection"); return }
            if n < 0 {
                let error = SystemError.last
                if error == .interrupted { continue }
                if error == .wouldBlock { return }
                drop(c, reason: error.description); return
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
        let due = pendingFlush
        pendingFlush.removeAll(keepingCapacity: true)
        for c in due where c.flushDue {
            c.flushDue = false
            if clients[c.fd] === c { flush(c) }
        }
    }

    /// At most this much queued output is joined into one send; the rest stays in the bounded
    /// queue (where the oldest lines are dropped for a client that does not read).
    static let sendBatchBytes = 16 * 1024

    /// Writes as much as the socket takes; EPOLLOUT on while something is left.
    private func flush(_ c: Client) {
        while true {
            if c.writeOffset >= c.writing.count {
                // Several queued lines (and a `dropped` notice, in its place) go out in one send.
                c.writing.removeAll(keepingCapacity: true); c.writeOffset = 0
                while c.writing.count < Self.sendBatchBytes, let next = c.queue.pop() {
                    c.writing.append(contentsOf: next)
                }
                if c.writing.isEmpty { break }
            }
            let n = c.writing.withUnsafeBytes {
                send(c.fd, $0.baseAddress! + c.writeOffset, $0.count - c.writeOffset, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if n < 0 {
                let error = SystemError.last
                if error == .interrupted { continue }
                if error == .wouldBlock {
                    if !c.wantsOut { c.wantsOut = true; loop.modify(c.fd, events: EventLoop.readable | EventLoop.writable) }
                    return
                }
                drop(c, reason: error.description); return
            }
            c.writeOffset += n
        }
        if c.closeWhenFlushed { drop(c, reason: "closed after an over-long line"); return }
        if c.wantsOut { c.wantsOut = false; loop.modify(c.fd, events: EventLoop.readable) }
    }

    private func drop(_ c: Client, reason: String) {
        guard clients.removeValue(forKey: c.fd) != nil else { return }
        loop.remove(c.fd)
        close(c.fd)
        let missed = c.queue.droppedTotal
        log.info("socket: client pid \(c.pid) disconnected (\(reason))\(missed > 0 ? "; \(missed) lines were dropped for it" : "")")
    }

    // MARK: - Bus

    /// The line being fanned out, encoded once per message into a buffer that keeps its capacity.
    private var line = JSONBytes(capacity: 512)

    public func receive(_ m: BusMessage) {
        guard !clients.isEmpty else { return }
        var encoded = false
        for c in clients.values {
            switch m {
            case .gesture(let g, let d):
                guard c.subscription.matches(g, device: d) else { continue }
            case .frame(_, let d):
                guard policy.rawFrames, c.subscription.matches(device: d) else { continue }
            case .deviceAdded, .deviceRemoved: break
            }
            if !encoded { encode(m); encoded = true }
            if loop.dispatching {
                // Sent once this wakeup's handlers are done (flushPending).
                append(c, line.bytes)
                if !c.flushDue { c.flushDue = true; pendingFlush.append(c) }
            } else {
                c.queue.push(line.bytes)
                flush(c)
            }
        }
    }

    /// `m` as one JSON line with its newline, in `line`.
    private func encode(_ m: BusMessage) {
        line.clear()
        switch m {
        case .gesture(let g, let d): GestureJSON.encode(g, device: d.info, origin: origin, into: &line)
        case .frame(let f, let d): GestureJSON.encode(f, origin: origin, device: d.info, into: &line)
        case .deviceAdded(let d): line.rawText(WireEncoder.deviceAdded(d))
        case .deviceRemoved(let d): line.rawText(WireEncoder.deviceRemoved(d))
        }
        line.byte(UInt8(ascii: "\n"))
    }

    /// Queues `bytes` for `c`: straight into its send buffer while nothing waits in its queue and
    /// the buffer has room (no allocation per line), else through the bounded queue (which drops
    /// the oldest lines of a client that does not read).
    private func append(_ c: Client, _ bytes: [UInt8]) {
        if c.queue.isEmpty && !c.wantsOut && c.writing.count - c.writeOffset + bytes.count <= Self.sendBatchBytes {
            if c.writeOffset >= c.writing.count { c.writing.removeAll(keepingCapacity: true); c.writeOffset = 0 }
            c.writing.append(contentsOf: bytes)
        } else {
            c.queue.push(bytes)
        }
    }

    /// Closes every client and the listening socket; removes the socket file we created.
    public func shutdown() {
        for c in Array(clients.values) { flush(c); drop(c, reason: "daemon stopping") }
        loop.remove(listenFD)
        close(listenFD)
        if let ownedPath { unlink(ownedPath) }
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
