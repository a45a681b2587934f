// `systemctl reload` (SIGHUP) reaches devices that are already open (issue 27): through the real
// daemon binary, with a looping replay standing in for an open device.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import GestureWire

@Suite(.serialized) struct LiveReloadTests {
    static let doubleTap = TestPaths.fixture("touchpad-semimt-alps-1finger-double-tap")
    static let swipe2 = TestPaths.fixture("touchscreen-ep0430m09-2finger-swipe-up")

    @Test func reloadAddingADoubleTapBinding_firesOnTheOpenDevice() throws {
        let d = try DaemonProcess(["--replay", Self.doubleTap, "--replay-loop", "--replay-wait-for-clients", "1", "--replay-delay", "0.3"],
                                  config: "bindings:\n  - gesture: tap\n    command: \"true\"\n")
        defer { _ = d.stop() }
        let c = try TestClient(d.socket)
        var taps = 0
        let before = try c.read(until: { m, _ in if m.gesture?.kind == "tap" { taps += 1 }; return taps >= 2 })
        #expect(!before.contains { $0.0.gesture?.kind == "doubleTap" }, "doubleTap is not recognized while unbound")
        try "bindings:\n  - gesture: tap\n    command: \"true\"\n  - gesture: doubleTap\n    command: \"true\"\n"
            .write(toFile: d.configPath, atomically: true, encoding: .utf8)
        d.signal(SIGHUP)
        #expect(d.waitForLog("recognizes doubleTap"), "the log names the change: \(d.log.suffix(600))")
        let after = try c.read(until: { m, _ in m.gesture?.kind == "doubleTap" })
        #expect(after.last?.0.gesture?.fingers == 1)
    }

    @Test func reloadRaisingTheSwipeDistance_stopsSwipesOnTheOpenDevice() throws {
        let d = try DaemonProcess(["--replay", Self.swipe2, "--replay-loop", "--replay-wait-for-clients", "1", "--replay-delay", "0.3"],
                                  config: "bindings: []\n")
        defer { _ = d.stop() }
        let c = try TestClient(d.socket)
        _ = try c.read(until: { m, _ in m.gesture?.kind == "swipe" })
        try "thresholds:\n  touchscreen: {swipe_minimum_distance_mm: 900}\n".write(toFile: d.configPath, atomically: true, encoding: .utf8)
        d.signal(SIGHUP)
        #expect(d.waitForLog("swipe_minimum_distance_mm"), "the log names the change: \(d.log.suffix(600))")
        #expect(d.waitForLog("new settings in force"), "\(d.log.suffix(600))")
        // Lines read now may still be from plays before the change: of four more plays (each a
        // pan that ends), the last two are wholly under the new thresholds.
        var kinds: [(String, Int)] = []
        var pans = 0
        _ = try c.read(until: { m, _ in
            if let g = m.gesture { kinds.append((g.kind, pans)) }
            if let g = m.gesture, g.kind == "pan", g.phase == "ended" { pans += 1 }
            return pans >= 4
        })
        let late = kinds.filter { $0.1 >= 2 }.map(\.0)
        #expect(late.contains("pan") && !late.contains("swipe"), "gestures of the last two plays: \(late)")
    }
}
