// The `orientation` request against the real daemon: a replayed touchscreen turns with the
// screen from the next moment no finger is down, on the socket and in hooks.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GestureWire
import Testing

@Suite struct OrientationRequestTests {
    /// A 2-finger swipe up on a real touchscreen (RECORDINGS.md).
    static let swipeUp = TestPaths.fixture("touchscreen-ep0430m09-2finger-swipe-up")
    static let touchpad = TestPaths.fixture("touchpad-semimt-cypress-3finger-tap")

    static func config(out: String) -> String {
        """
        actions: {allowed_uids: [\(getuid())]}
        bindings:
          - gesture: swipe
            fingers: 2
            command: 'echo "$GESTURE_DIRECTION" >> \(out)'
        """
    }

    static func reply(_ c: TestClient) throws -> String {
        while let l = c.next() {
            if l.contains("\"type\":\"ok\"") || l.contains("\"type\":\"error\"") { return l }
        }
        throw TestFailure(description: "no reply")
    }

    @Test func test_theScreensTurn_turnsTheSwipe_onTheSocketAndInHooks() throws {
        let dir = TestPaths.tempDirectory()
        let out = dir + "/hook.out"
        let d = try DaemonProcess(["--replay", Self.swipeUp, "--replay", Self.touchpad, "--replay-wait-for-clients", "1", "--replay-loop"],
                                  config: Self.config(out: out), directory: dir)
        defer { _ = d.stop() }
        let c = try TestClient(d.socket)
        guard case .hello(_, _, let devices) = try WireDecoder.serverMessage(c.next() ?? "") else {
            throw TestFailure(description: "no hello")
        }
        let screen = try #require(devices.first { $0.kind == .touchscreen })
        let pad = try #require(devices.first { $0.kind == .touchpad })
        #expect(screen.orientation.summary == "as the device reports" && screen.orientation.sources.isEmpty)
        // sway's `transform 90`: the picture turned a quarter clockwise; the person holds the
        // device a quarter counterclockwise, and the stroke towards the panel's top is their left.
        c.send(WireEncoder.orientation(OrientationRequest(device: screen.id, rotation: 90, source: "test output")))
        var got = try c.read { m, _ in if case .deviceChanged = m { return true }; return false }
        guard case .deviceChanged(let turned)? = got.last?.0 else { throw TestFailure(description: "no deviceChanged") }
        #expect(turned.orientation.matrix == "0 1 0 -1 0 1" && turned.orientation.summary == "rotated 270°")
        #expect(turned.orientation.sources.first?.contains("test output") == true)
        #expect(turned.widthMillimeters == screen.heightMillimeters && turned.heightMillimeters == screen.widthMillimeters)
        // Idle, the turn is in force at once: deviceChanged goes out before the reply.
        #expect(try Self.reply(c).contains("\"request\":\"orientation\""))
        got = try c.read { m, _ in m.gesture.map { $0.kind == "swipe" && $0.phase == "recognized" } ?? false }
        #expect(got.last?.0.gesture?.direction == "left", "\(got.map(\.1).suffix(3))")

        // Upside down: the same recorded stroke is the person's down, from its next touch on.
        c.send(WireEncoder.orientation(OrientationRequest(device: screen.id, rotation: 180, source: "test output")))
        _ = try c.read { m, _ in if case .deviceChanged(let w) = m { return w.orientation.summary == "rotated 180°" }; return false }
        got = try c.read { m, _ in m.gesture.map { $0.kind == "swipe" && $0.phase == "recognized" } ?? false }
        #expect(got.last?.0.gesture?.direction == "down", "\(got.map(\.1).suffix(3))")

        for _ in 0..<200 where ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").split(separator: "\n").count < 2 { usleep(25_000) }
        let lines = ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(2)) == ["left", "down"], "hooks: \(lines)")

        // A touchpad follows no screen; an unknown device is said; the connection lives on.
        c.send(WireEncoder.orientation(OrientationRequest(device: pad.id, rotation: 90)))
        #expect(try Self.reply(c).contains("only touchscreens follow the screen"))
        c.send(WireEncoder.orientation(OrientationRequest(device: 99, rotation: 90)))
        #expect(try Self.reply(c).contains("no device 99"))
        c.send(#"{"type":"orientation","device":1,"rotation":33}"#)
        #expect(try Self.reply(c).contains("0, 90, 180 or 270"))
        #expect(d.log.contains("now rotated 270°"), "\(d.log)")
    }
}
