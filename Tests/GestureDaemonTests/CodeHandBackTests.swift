import Foundation
import GestureCore
@testable import GestureDaemon
import LinuxSystem
import Testing

/// The daemon hands back the code pages of once-only work: at start-up, and half a second after
/// a client connects or subscribes, however many do (CodeHandBack).
@Suite struct CodeHandBackTests {
    static let line = "kB of code pages handed back after a reload, a device opened or a client served"

    func count(_ d: DaemonProcess) -> Int { d.log.components(separatedBy: Self.line).count - 1 }

    /// A daemon past its start-up hand-back, and a client that has read the hello line.
    func connected() throws -> (DaemonProcess, TestClient) {
        let d = try DaemonProcess([], config: "log: {level: debug}\n")
        #expect(d.waitForLog("handed back after start-up"))
        let c = try TestClient(d.socket)
        _ = c.next()                                   // hello
        return (d, c)
    }

    /// A client gets every gesture without subscribing; its connection (accept, credentials,
    /// the hello line) is once-only work too.
    @Test func aClientThatOnlyConnects_isFollowedByOneHandBack() throws {
        let (d, client) = try connected()
        defer { withExtendedLifetime(client) { _ = d.stop() } }
        #expect(d.waitForLog(Self.line), "\(d.log)")
        usleep(700_000)
        #expect(count(d) == 1)
    }

    @Test func aSubscribe_isFollowedByOneHandBack_andAFloodByFew() throws {
        let (d, c) = try connected()
        defer { _ = d.stop() }
        c.send(#"{"type":"subscribe"}"#)
        _ = c.next()                                   // ok
        #expect(d.waitForLog(Self.line), "\(d.log)")
        #expect(count(d) == 1)
        // Subscribes for 1.6 s, every 20 ms: one hand-back per half second at most.
        let start = Date()
        while Date().timeIntervalSince(start) < 1.6 {
            c.send(#"{"type":"subscribe","kinds":["swipe"]}"#)
            _ = c.next()
            usleep(20_000)
        }
        usleep(700_000)
        let n = count(d)
        #expect(n >= 2 && n <= 6, "\(n) hand-backs for 80 subscribes in 1.6 s")
    }
}

/// CodeHandBack itself, on a real event loop: a drop waits while a device is not quiet.
@Suite struct CodeHandBackQuietTests {
    @Test func aDrop_waitsUntilNoFingerIsDown() throws {
        let pipe = try FileDescriptor.pipe()
        pipe.readEnd.setNonBlocking()
        defer { pipe.readEnd.close(); pipe.writeEnd.close() }
        let loop = EventLoop()
        let hand = CodeHandBack(loop: loop, log: Logger(level: .debug, journal: false, fd: pipe.writeEnd))
        let start = MonotonicClock.now()
        var asked = 0
        // A finger is down for the first 1.2 s: asked at 0.5 and 1.0 s (not quiet), then 1.5 s.
        hand.quiet = {
            asked += 1
            return MonotonicClock.now() - start > .milliseconds(1_200)
        }
        hand.soon()
        let stopper = DeadlineTimer()
        stopper.arm(at: start + .milliseconds(2_500))
        loop.add(stopper.fd, priority: .normal) { _ in loop.stop() }
        loop.run()
        var buf = [UInt8](repeating: 0, count: 4096)
        let n = buf.withUnsafeMutableBytes { (try? pipe.readEnd.read(into: $0)) ?? 0 }
        let log = String(decoding: buf[0..<n], as: UTF8.self)
        #expect(log.components(separatedBy: "handed back after").count - 1 == 1, "\(log)")
        #expect(asked == 3, "asked \(asked) times")
    }
}
