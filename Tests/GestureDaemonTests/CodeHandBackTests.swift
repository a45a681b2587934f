import Foundation
import Testing

/// The daemon hands back the code pages of once-only work: at start-up, and half a second after
/// a client subscribes, however many subscribe (CodeHandBack).
@Suite struct CodeHandBackTests {
    static let line = "kB of code pages handed back after a device opened or a client subscribed"

    func count(_ d: DaemonProcess) -> Int { d.log.components(separatedBy: Self.line).count - 1 }

    @Test func aSubscribe_isFollowedByOneHandBack_andAFloodByFew() throws {
        let d = try DaemonProcess([], config: "log: {level: debug}\n")
        defer { _ = d.stop() }
        #expect(d.waitForLog("handed back after start-up"))
        let c = try TestClient(d.socket)
        _ = c.next()                                   // hello
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
