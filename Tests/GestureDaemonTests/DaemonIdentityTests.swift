// Issue 9's daemon bugs, through the real daemon binary and its socket: gesture identity across
// devices (`every:` progress, `listen`), and the stuck-touch watchdog on the daemon's timer.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import GestureCore
import GestureRecording
import GestureTestSupport
import GestureWire

@Suite(.serialized) struct DaemonIdentityTests {
    /// The person: a 1-finger pan up, then down, without lifting (RECORDINGS.md).
    static let drag = TestPaths.fixture("touchscreen-atmel-1finger-drag-up-then-down")

    /// Two copies of the drag under different paths: two devices with the same name.
    static func twoCopies(in dir: String) throws -> (String, String) {
        let a = dir + "/a.evemu", b = dir + "/b.evemu"
        try FileManager.default.copyItem(atPath: drag, toPath: a)
        try FileManager.default.copyItem(atPath: drag, toPath: b)
        return (a, b)
    }

    /// Lines of `path` once it stopped growing for half a second (hooks run asynchronously).
    static func settledLines(_ path: String) -> [String] {
        var last = -1, stable = 0
        var lines: [String] = []
        for _ in 0..<400 {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            lines = text.split(separator: "\n").map(String.init)
            if lines.count == last && last > 0 { stable += 1 } else { stable = 0 }
            if stable >= 20 { break }
            last = lines.count
            usleep(25_000)
        }
        return lines
    }

    static func everyConfig(_ out: String) -> String {
        """
        hooks:
          max_concurrent: 64
        bindings:
          - gesture: pan
            phase: changed
            every: 5mm
            command: 'echo "$GESTURE_DEVICE_NODE" >> \(out)'
        """
    }

    /// Bug 3: gesture ids are numbered per device, so two devices panning at once both send id 1.
    /// Once through the daemon, the `every: 5mm` binding fires some number of times for the drag;
    /// with two devices replaying it at the same moment, each fires exactly that often (before
    /// the fix they shared and reset one progress: 25 runs for one device, 25 for both).
    @Test func twoDevicesPanningAtOnceFireEveryBindingsIndependently() throws {
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (a, b) = try Self.twoCopies(in: dir)

        let outOne = dir + "/one.out"
        let one = try DaemonProcess(["--replay", a, "--replay-wait-for-clients", "1"],
                                    config: Self.everyConfig(outOne), directory: (dir + "/d1").created)
        let c1 = try TestClient(one.socket)
        _ = try c1.read(until: { m, _ in m.isDeviceRemoved })
        let alone = Self.settledLines(outOne).count
        _ = one.stop()
        #expect(alone >= 10, "the drag fired the every: 5mm binding only \(alone) times alone")

        let outTwo = dir + "/two.out"
        let two = try DaemonProcess(["--replay", a, "--replay", b, "--replay-wait-for-clients", "1"],
                                    config: Self.everyConfig(outTwo), directory: (dir + "/d2").created)
        defer { _ = two.stop() }
        let c2 = try TestClient(two.socket)
        var removed = 0
        let got = try c2.read(until: { m, _ in if m.isDeviceRemoved { removed += 1 }; return removed == 2 })
        let lines = Self.settledLines(outTwo)
        #expect(lines.filter { $0 == "replay:\(a)" }.count == alone, "device a: \(lines.filter { $0 == "replay:\(a)" }.count) runs, alone \(alone); log: \(two.log)")
        #expect(lines.filter { $0 == "replay:\(b)" }.count == alone, "device b: \(lines.filter { $0 == "replay:\(b)" }.count) runs, alone \(alone)")
        // The gesture lines say which device: both devices' pans carry gesture id 1, apart by device.id.
        var pans: Set<String> = []
        for (m, _) in got {
            if case .gesture(let g, let d) = m, g.kind == .pan, g.phase == .began { pans.insert("\(d.id.map(String.init) ?? "-")/\(g.id)") }
        }
        #expect(pans.count == 2 && !pans.contains { $0.hasPrefix("-") }, "pan began lines by device.id/id: \(pans)")
    }

    /// Bug 3: `listen` mapped a gesture's device name to a node, so of two devices with the same
    /// name (two identical touchscreens) every gesture looked like the last one announced.
    @Test func listenKeepsTwoDevicesWithTheSameNameApart() throws {
        guard let bin = TestPaths.binary else { throw TestFailure(description: "no gestured binary") }
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (a, b) = try Self.twoCopies(in: dir)
        let out = dir + "/listen.out"
        let userConfig = dir + "/user.yaml"
        try """
            bindings:
              - gesture: pan
                phase: began
                command: 'echo "$GESTURE_DEVICE_NODE" >> \(out)'
            """.write(toFile: userConfig, atomically: true, encoding: .utf8)
        let d = try DaemonProcess(["--replay", a, "--replay", b, "--replay-wait-for-clients", "1"],
                                  directory: (dir + "/d").created)
        defer { _ = d.stop() }
        let listen = Process()
        listen.executableURL = URL(fileURLWithPath: bin)
        listen.arguments = ["listen", "--config", userConfig, "--socket", d.socket]
        listen.standardError = FileHandle.nullDevice
        try listen.run()
        defer { listen.terminate(); listen.waitUntilExit() }
        let lines = Self.settledLines(out)
        #expect(lines.sorted() == ["replay:\(a)", "replay:\(b)"], "listen's hook saw nodes \(lines); daemon log: \(d.log)")
    }

    /// Bug 2: a touch left down by a device that then stops sending (BTN_TOUCH released, the
    /// tracking id −1 lost) is ended by the daemon's timer 2 s after the last frame, not when the
    /// device next speaks. The recording's last event comes 4 s after the release: before the
    /// fix the long press over the stuck touch ended only then.
    @Test func stuckTouchEndsOnTheTimerWhileTheDeviceIsSilent() throws {
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let device = try RecordingLoader.load(path: Self.drag).description
        let events = [
            ev(1000, EventType.abs, AbsCode.mtTrackingId, 7), ev(1000, EventType.abs, AbsCode.mtPositionX, 1000),
            ev(1000, EventType.abs, AbsCode.mtPositionY, 1000), ev(1000, EventType.key, KeyCode.btnTouch, 1),
            ev(1000, EventType.syn, SynCode.report, 0),
            ev(1100, EventType.key, KeyCode.btnTouch, 0), ev(1100, EventType.syn, SynCode.report, 0),
            ev(5100, EventType.syn, SynCode.report, 0),
        ]
        let path = dir + "/stuck.evemu"
        try EvemuWriter.write(Recording(description: device, events: events)).write(toFile: path, atomically: true, encoding: .utf8)
        let d = try DaemonProcess(["--replay", path, "--replay-wait-for-clients", "1"], directory: (dir + "/d").created)
        defer { _ = d.stop() }
        let c = try TestClient(d.socket)
        let got = try c.read(until: { m, _ in m.isDeviceRemoved })
        let press = got.compactMap { m, _ -> GestureEvent? in
            if case .gesture(let g, _) = m, g.kind == .longPress { return g }; return nil
        }
        guard let began = press.first(where: { $0.phase == .began }),
              let end = press.first(where: { $0.phase == .ended || $0.phase == .cancelled }) else {
            throw TestFailure(description: "no long press began and ended: \(c.lines)")
        }
        // Released at 1.1 s: the watchdog ends the touch at 3.1 s; the device speaks again at 5.1 s.
        let afterRelease = end.time - began.time
        #expect(end.phase == .ended)
        #expect(afterRelease < .milliseconds(3000), "the long press ended \(afterRelease) after it began: at the device's next event, not the watchdog's deadline")
        #expect(d.log.contains("still down"), "no kernel bug line: \(d.log)")
    }
}

extension String {
    /// Makes the directory (for a daemon's own socket and log) and returns its path.
    var created: String {
        try? FileManager.default.createDirectory(atPath: self, withIntermediateDirectories: true)
        return self
    }
}
