// Hostile clients against the real daemon binary (issue 26): a client that writes without pause,
// thousands of clients that never read, running out of descriptors, a half-closed client, and
// `emit` from a connection whose process is gone and whose pid now belongs to someone else.
// What is checked is what a healthy client gets and what the daemon holds, never a timing.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import GestureCore
import GestureDaemon
import GestureRecording
import GestureWire

@Suite(.serialized) struct HostileClientTests {
    static let swipe4 = LoadSocketTests.swipe4
    static let ten = TestPaths.fixture("touchscreen-3m-10finger-mixed-rotate-pinch-drags")
    static let peerScript = TestPaths.repo.appendingPathComponent("Tests/scripts/socket-peer.py").path

    /// Lets this process hold `n` descriptors (the clients it opens).
    static func allowFiles(_ n: Int) {
        var l = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &l)
        if l.rlim_cur < rlim_t(n) { l.rlim_cur = min(rlim_t(n), l.rlim_max); setrlimit(Int32(RLIMIT_NOFILE.rawValue), &l) }
    }

    /// A connection whose receive buffer is small and which never reads (nil when refused).
    static func stalledClient(_ path: String) -> Int32? {
        let fd = LoadSocketTests.connectRaw(path)
        guard fd >= 0 else { return nil }
        var size: Int32 = 4096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, 4)
        return fd
    }

    /// What arrived on `fd` within `seconds` (non-blocking reads).
    static func drain(_ fd: Int32, seconds: Double = 0.2) -> String {
        var out: [UInt8] = []
        let end = Date().addingTimeInterval(seconds)
        var chunk = [UInt8](repeating: 0, count: 65536)
        while Date() < end {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 { out += chunk[0..<n] } else if n == 0 { break } else { usleep(10_000) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func python(_ args: [String]) throws -> String {
        try TestPaths.run("/usr/bin/python3", [peerScript] + args).output
    }

    @Test(arguments: ["newlines", "subscribe lines"])
    func floodingClient_slowsOnlyItself_healthyClientGetsEveryGesture(payload: String) throws {
        let d = try DaemonProcess(["--replay", Self.swipe4, "--replay-wait-for-clients", "2", "--replay-delay", "0.5"])
        defer { _ = d.stop() }
        let healthy = try TestClient(d.socket)
        _ = healthy.next()
        let flooder = try TestClient(d.socket)
        let bytes = Array((payload == "newlines" ? String(repeating: "\n", count: 65536)
                                                 : String(repeating: "{\"type\":\"subscribe\"}\n", count: 2000)).utf8)
        let stop = ManagedAtomicFlag()
        let fd = flooder.fd
        let writer = Thread {
            var tv = timeval(tv_sec: 0, tv_usec: 200_000)
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            while !stop.isSet {
                if bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) < 0 && errno != EAGAIN { break }
            }
        }
        writer.start()
        defer { stop.set() }
        let got = try LoadSocketTests.readAll(healthy, devices: 1)
        let gestures = got.compactMap { $0.0.gesture }
        #expect(gestures.count == (try LoadSocketTests.expectedGestures()), "healthy client got \(gestures.count) gestures during the flood")
        #expect(gestures.contains { $0.kind == "swipe" && $0.fingers == 4 })
    }

    @Test func threeThousandStalledConnections_areRefusedClearly_memoryStaysBounded() throws {
        Self.allowFiles(8192)
        let d = try DaemonProcess(["--replay", Self.ten, "--replay-loop", "--replay-delay", "0"])
        defer { _ = d.stop() }
        var fds: [Int32] = []
        for _ in 0..<3000 { if let fd = Self.stalledClient(d.socket) { fds.append(fd) } }
        defer { for fd in fds { close(fd) } }
        usleep(3_000_000)
        let rss = LoadSocketTests.rssKilobytes(d.pid)
        #expect(rss < 60 * 1024, "RSS \(rss) kB with \(fds.count) stalled connections")
        // The ones beyond the caps were told why (the last connection is surely one of them).
        let refused = Self.drain(fds.last ?? -1)
        #expect(refused.contains("too many clients"), "the 3000th connection read: \(refused.prefix(200))")
        for fd in fds { close(fd) }
        fds = []
        // The daemon notices the 3 000 hangups over a few wakeups, and a new connection waits
        // behind those still in the listen backlog (accepted 16 a wakeup, each refused with its
        // line); until then a new client may still find the caps reached (and is told so). The
        // bound is for liveness, not speed: under CI's parallel suites the debug daemon has taken
        // over 10 s.
        var late: TestClient?
        for _ in 0..<600 {
            let c = try TestClient(d.socket)
            if c.next()?.contains("\"hello\"") == true { late = c; break }
            usleep(100_000)
        }
        guard let late else { Issue.record("no hello within 60 s after the stalled clients left"); return }
        #expect(try late.read(until: { m, _ in m.gesture != nil }).last?.0.gesture != nil)
    }

    @Test func stalledClientsUnderTheCap_holdBoundedBytes_andGiveThemBackWhenTheyLeave() throws {
        Self.allowFiles(4096)
        let config = "socket:\n  max_clients: 1000\n  max_clients_per_uid: 1000\n"
        let d = try DaemonProcess(["--replay", Self.ten, "--replay-loop", "--replay-delay", "0"], config: config)
        defer { _ = d.stop() }
        // The socket is up before the replay's device (its 3 MB recording read, its pipe made).
        #expect(d.waitForLog("stands in for"))
        usleep(500_000)
        let baseline = LoadSocketTests.rssKilobytes(d.pid)
        let fdsBefore = LoadSocketTests.openFDs(d.pid)
        var rounds: [(with: Int, after: Int)] = []
        for _ in 0..<2 {
            var fds: [Int32] = []
            for _ in 0..<300 { if let fd = Self.stalledClient(d.socket) { fds.append(fd) } }
            #expect(fds.count == 300)
            usleep(6_000_000)                        // the 10-finger replay fills every queue
            let with = LoadSocketTests.rssKilobytes(d.pid)
            for fd in fds { close(fd) }
            // The next round starts once the daemon has seen every one of these leave; their
            // memory goes back in the wakeup that drops the last of them.
            var settled = fdsBefore + 300
            for _ in 0..<4 where settled > fdsBefore { settled = LoadSocketTests.settleFDs(d.pid, to: fdsBefore) }
            #expect(settled <= fdsBefore, "the daemon still holds \(settled - fdsBefore) of the clients that left")
            var after = LoadSocketTests.rssKilobytes(d.pid)
            for _ in 0..<50 where after - baseline >= 6 * 1024 { usleep(100_000); after = LoadSocketTests.rssKilobytes(d.pid) }
            rounds.append((with, after))
        }
        // What docs/CONFIG.md promises per client: 64 KiB of queued lines, a send batch of 16 KiB
        // (its buffer may double to 32 KiB) and a partial request line: at most 150 KiB. When they
        // leave, their memory goes back (malloc_trim), round after round.
        for (i, r) in rounds.enumerated() {
            #expect(r.with - baseline < 300 * 150, "round \(i + 1): RSS \(baseline) kB idle, \(r.with) kB with 300 stalled clients")
            #expect(r.after - baseline < 6 * 1024, "round \(i + 1): RSS \(baseline) kB idle, \(r.after) kB once its clients left")
        }
    }

    @Test func outOfDescriptors_refusesWithAnErrorLine_logsOnce_andRecovers() throws {
        let config = "socket:\n  max_clients: 1000\n  max_clients_per_uid: 1000\n"
        let d = try DaemonProcess([], config: config, fileLimit: 40)
        defer { _ = d.stop() }
        var fds: [Int32] = []
        for _ in 0..<80 { if let fd = Self.stalledClient(d.socket) { fds.append(fd) } }
        usleep(1_500_000)
        let texts = fds.map { Self.drain($0, seconds: 0.02) }
        for fd in fds { close(fd) }
        #expect(texts.contains { $0.contains("out of file descriptors") }, "no connection was told the daemon is out of descriptors")
        let episodes = d.log.components(separatedBy: "\n").filter { $0.contains("out of file descriptors") }.count
        #expect(episodes >= 1 && episodes <= 2, "\(episodes) log lines about running out of descriptors")
        // The daemon notices the hangups over a few wakeups; until then a new client may still
        // be refused for want of a descriptor (and is told so).
        var hello = false
        for _ in 0..<100 where !hello {
            let c = try TestClient(d.socket)
            hello = c.next()?.contains("\"hello\"") == true
            if !hello { usleep(100_000) }
        }
        #expect(hello, "no hello within 10 s once descriptors were free again")
    }

    @Test func halfClosedClient_stillGetsWhatItSubscribedTo() throws {
        let d = try DaemonProcess(["--replay", Self.swipe4, "--replay-wait-for-clients", "1", "--replay-delay", "0.5"])
        defer { _ = d.stop() }
        let c = try TestClient(d.socket)
        c.send(#"{"type":"subscribe","kinds":["swipe"]}"#)
        shutdown(c.fd, Int32(SHUT_WR))                   // what `printf … | nc -U` does
        let got = try c.read(until: { m, _ in m.gesture?.kind == "swipe" })
        #expect(got.last?.0.gesture?.fingers == 4)
    }

    @Test func emit_isJudgedOnTheConnectionsCredentials_notOnAReusedPid() throws {
        guard getuid() == 0 else { return }                  // needs setuid and ns_last_pid
        let config = "socket:\n  mode: \"0666\"\nactions:\n  active_session: false\n  allowed_gids: [4242]\n"
        let d = try DaemonProcess([], config: config)
        defer { _ = d.stop() }
        chmod(d.dir, 0o755)                                  // uid 65534 reaches the socket
        let out = try Self.python(["pid-reuse", d.socket])
        #expect(out.contains("reply:") && out.contains("emit refused: uid 65534"), "\(out)")
    }

    @Test func refusedEmitFlood_isAnsweredEveryTime_andLoggedAFewTimes() throws {
        guard getuid() == 0 else { return }
        let d = try DaemonProcess([], config: "socket:\n  mode: \"0666\"\nactions:\n  active_session: false\n")
        defer { _ = d.stop() }
        chmod(d.dir, 0o755)
        let out = try Self.python(["refused-flood", d.socket])
        #expect(out.contains("answered: 2000"), "every request is answered or counted as dropped: \(out)")
        let logged = d.log.components(separatedBy: "\n").filter { $0.contains("emit refused") }.count
        #expect(logged <= 6, "\(logged) log lines for 2000 refused emits")
    }

    @Test func reloadNarrowingAllowedUIDs_closesClientsNoLongerAllowed() throws {
        guard getuid() == 0 else { return }
        let d = try DaemonProcess([], config: "socket:\n  mode: \"0666\"\n  allowed_uids: [65534]\n")
        defer { _ = d.stop() }
        chmod(d.dir, 0o755)
        let out = try Self.python(["narrow", d.socket, d.configPath, String(d.pid)])
        #expect(out.contains("no longer allowed") && out.contains("after: eof"), "\(out)")
    }
}

/// A flag one thread sets and another polls.
final class ManagedAtomicFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func set() { lock.lock(); value = true; lock.unlock() }
}
