import Foundation
import GestureWire
import Testing

/// `devices: rotation / invert_*` reach the pipeline: the EP0430M09 4-finger swipe *up* on a
/// panel mounted a quarter turn clockwise is, for the user, a swipe *right*.
@Suite struct DaemonRotationTests {
    static let swipe4 = TestPaths.fixture("touchscreen-ep0430m09-4finger-swipe-up")

    func swipes(config: String) throws -> [String?] {
        let d = try DaemonProcess(["--replay", Self.swipe4, "--replay-wait-for-clients", "1"], config: config)
        defer { _ = d.stop() }
        let c = try TestClient(d.socket)
        let got = try c.read(until: { m, _ in m.isDeviceRemoved })
        return got.compactMap { $0.0.gesture }.filter { $0.kind == "swipe" && $0.fingers == 4 }.map(\.direction)
    }

    @Test func test_withoutRotation_theSwipeIsUp() throws {
        #expect(try swipes(config: "devices: []\n") == ["up"])
    }

    @Test func test_rotation90_turnsTheSwipeUpIntoRight() throws {
        #expect(try swipes(config: """
            devices:
              - match: {kind: touchscreen}
                rotation: 90
            """) == ["right"])
    }

    @Test func test_invertY_turnsTheSwipeUpIntoDown() throws {
        #expect(try swipes(config: """
            devices:
              - match: {kind: touchscreen}
                invert_y: true
            """) == ["down"])
    }
}
