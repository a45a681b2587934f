// Load and fault tests on the socket, against the real daemon binary (`gestured run --replay`,
// a pipe-backed device source at the recording's pace): a thousand clients churning, clients that
// send garbage, a 10 MB line or nothing at all, and a SIGHUP storm — while a healthy client must
// get every gesture and the daemon's fd count and RSS stay steady. Tests, not timings.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import GestureCore
import GestureDaemon
import GestureRecording
import GestureWire

@Suite(.serialized) struct LoadSocketTests {
    static let swipe4 = TestPaths.fixture("touchscreen-ep0430m09-4finger-swipe-up")

    /// Gestures the pipeline makes of one replay of the recording (the daemon uses the same
    /// decoder and arena; the person did one 4-finger swipe up, checked below).
    static func expectedGestures() throws -> Int {
        let recording = try RecordingLoader.load(path: swipe4)
        var n = 0
        GesturePipeline.run(recording) { if case .gesture = $0 { n += 1 } }
        return n
    }

    static func openFDs(_ pid: Int32) -> Int {
        guard let d = opendir("/proc/\(pid)/fd") else { return -1 }
        defer { closedir(d) }
        var n = 0
        while let e = readdir(d) { if e.pointee.d_name.0 != 46 { n += 1 } }   // skip . and ..
        return n
    }

    static func rssKilobytes(_ pid: Int32) -> Int {
        guard let s = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = s.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return -1 }
        return Int(line.filter(\.isNumber)) ?? -1
    }

    /// Polls until the daemon's fd count is back to `baseline` (it closes vanished clients as it
    /// notices them), up to 5 s; returns the last count.
    static func settleFDs(_ pid: Int32, to baseline: Int) -> Int {
        var n = openFDs(pid)
        for _ in 0..<200 where n > baseline { usleep(25_000); n = openFDs(pid) }
        return n
    }

    /// A raw connection that is closed at once or after doing `act`.
    static func connectRaw(_ path: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b }; raw[bytes.count] = 0 }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if rc != 0 { close(fd); return -1 }
        return fd
    }

    /// The healthy client reads until `devices` replays have ended; returns its gesture lines.
    static func readAll(_ c: TestClient, devices: Int) throws -> [(ServerMessage, String)] {
        var removed = 0
        return try c.read(until: { m, _ in if m.isDeviceRemoved { removed += 1 }; return removed == devices })
    }

    @Test func test_thousandClientsConnectingAndVanishing_healthyClientLosesNoGesture_fdsAndRSSSteady() throws {
        let replays = Array(repeating: ["--replay", Self.swipe4], count: 3).flatMap { $0 }
        let d = try DaemonProcess(replays + ["--replay-wait-for-clients", "1", "--replay-delay", "0.5"])
        defer { _ = d.stop() }
        let healthy = try TestClient(d.socket)
        #expect(healthy.next()?.contains("\"hello\"") == true)
        usleep(100_000)
        let fdsBefore = Self.openFDs(d.pid)
        let rssBefore = Self.rssKilobytes(d.pid)
        let socket = d.socket
        let churn = DispatchGroup()
        DispatchQueue.global().async(group: churn) {
            for i in 0..<1000 {
                let fd = Self.connectRaw(socket)
                guard fd >= 0 else { continue }
                switch i % 4 {
                case 0: break                                               // vanish at once
                case 1: var b = [UInt8](repeating: 0, count: 512); _ = recv(fd, &b, 512, Int32(MSG_DONTWAIT))
                case 2: let s = Array("{\"type\":\"subscribe\",\"kinds\":[\"swipe\"]}\n".utf8)
                        _ = s.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                default: shutdown(fd, Int32(SHUT_WR))                          // half-close
                }
                close(fd)
            }
        }
        let got = try Self.readAll(healthy, devices: 3)
        churn.wait()
        let gestures = got.compactMap { $0.0.gesture }
        #expect(gestures.count == 3 * (try Self.expectedGestures()), "healthy client got \(gestures.count) gestures")
        #expect(gestures.filter { $0.kind == "swipe" }.count == 3)
        #expect(!got.contains { if case .dropped = $0.0 { return true }; return false })
        let fdsAfter = Self.settleFDs(d.pid, to: fdsBefore)
        #expect(fdsAfter <= fdsBefore, "daemon fds: \(fdsBefore) before, \(fdsAfter) after 1000 clients")
        let rssAfter = Self.rssKilobytes(d.pid)
        #expect(rssAfter - rssBefore < 4096, "daemon RSS grew from \(rssBefore) kB to \(rssAfter) kB")
        // Still serving.
        let late = try TestClient(d.socket)
        #expect(late.next()?.contains("\"hello\"") == true)
    }

    @Test func test_garbage_tenMegabyteLine_andSilentClients_doNotHurtAHealthyOne() throws {
        let replays = Array(repeating: ["--replay", Self.swipe4], count: 2).flatMap { $0 }
        let d = try DaemonProcess(replays + ["--replay-wait-for-clients", "4", "--replay-delay", "0.5"])
        defer { _ = d.stop() }
        let healthy = try TestClient(d.socket)
        _ = healthy.next()
        let silent = try TestClient(d.socket, receiveBuffer: 2048)    // never reads, never writes
        let garbage = try TestClient(d.socket)
        let huge = try TestClient(d.socket)
        _ = garbage.next(); _ = huge.next()
        let rssBefore = Self.rssKilobytes(d.pid)
        // Garbage: binary noise with newlines, invalid UTF-8, half JSON, deep nesting.
        var noise: [UInt8] = []
        var x: UInt32 = 12345
        for _ in 0..<20_000 { x = x &* 1_103_515_245 &+ 12345; noise.append(UInt8(truncatingIfNeeded: x >> 16)) }
        for i in stride(from: 0, to: noise.count, by: 97) { noise[i] = 10 }
        noise += Array("{\"type\":\"subscribe\",\"kinds\":[\n{\"type\":\n\(String(repeating: "[", count: 5000))\n\u{FF}\u{FE}\n".utf8)
        _ = noise.withUnsafeBytes { send(garbage.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        // 10 MB without a newline, written from another thread (the daemon closes it part way).
        let hugeDone = DispatchSemaphore(value: 0)
        let hugeFD = huge.fd
        DispatchQueue.global().async {
            let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
            var tv = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(hugeFD, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            for _ in 0..<10 {
                if chunk.withUnsafeBytes({ send(hugeFD, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) < 0 { break }
            }
            hugeDone.signal()
        }
        let got = try Self.readAll(healthy, devices: 2)
        #expect(hugeDone.wait(timeout: .now() + 10) == .success, "the 10 MB writer is stuck: the daemon stopped reading it?")
        let gestures = got.compactMap { $0.0.gesture }
        #expect(gestures.count == 2 * (try Self.expectedGestures()), "healthy client got \(gestures.count) gestures")
        #expect(!got.contains { if case .dropped = $0.0 { return true }; return false })
        // The garbage sender got error lines (and may have been closed); the huge one an error then EOF.
        for c in [garbage, huge] {
            var tv = timeval(tv_sec: 1, tv_usec: 0)
            setsockopt(c.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        }
        var garbageLines: [String] = []
        while let l = garbage.next(), garbageLines.count < 10_000 { garbageLines.append(l) }
        #expect(garbageLines.contains { $0.contains("\"error\"") }, "no error line for garbage: \(garbageLines.prefix(3))")
        var hugeLines: [String] = []
        while let l = huge.next() { hugeLines.append(l) }
        #expect(hugeLines.contains { $0.contains("longer than") }, "\(hugeLines.suffix(3))")
        let rssAfter = Self.rssKilobytes(d.pid)
        #expect(rssAfter - rssBefore < 4096, "daemon RSS grew from \(rssBefore) kB to \(rssAfter) kB (10 MB line buffered?)")
        _ = silent
    }

    @Test func test_sighupStorm_whileGesturesFlow_daemonReloadsAndLosesNothing() throws {
        let replays = Array(repeating: ["--replay", Self.swipe4], count: 2).flatMap { $0 }
        let d = try DaemonProcess(replays + ["--replay-wait-for-clients", "1", "--replay-delay", "0.3"],
                                  config: "socket:\n  queue_limit: 512\n")
        defer { _ = d.stop() }
        let healthy = try TestClient(d.socket)
        _ = healthy.next()
        usleep(50_000)
        let fdsBefore = Self.openFDs(d.pid)
        let pid = d.pid
        let storm = DispatchGroup()
        DispatchQueue.global().async(group: storm) {
            for _ in 0..<300 { kill(pid, SIGHUP); usleep(2000) }
        }
        let got = try Self.readAll(healthy, devices: 2)
        storm.wait()
        let gestures = got.compactMap { $0.0.gesture }
        #expect(gestures.count == 2 * (try Self.expectedGestures()), "healthy client got \(gestures.count) gestures")
        #expect(d.waitForLog("reload"), "no reload in the log: \(d.log.suffix(500))")
        #expect(kill(pid, 0) == 0, "the daemon died")
        #expect(Self.settleFDs(pid, to: fdsBefore) <= fdsBefore)
        let late = try TestClient(d.socket)
        #expect(late.next()?.contains("\"hello\"") == true)
    }
}
