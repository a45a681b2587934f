// Which output a touchscreen shows on under GNOME: a real headless Mutter 43.8 with two virtual
// monitors (Meta-0, Meta-1: neither built in, so without GNOME's mapping listen has no output to
// pick), its session bus and the dconf-service it starts; the mapping set with the real
// `gsettings set org.gnome.desktop.peripherals.touchscreen:/org/gnome/desktop/peripherals/
// touchscreens/VVVV:PPPP/ output [vendor, product, serial]`, as GNOME's settings write it. The
// touchscreen is the ELAN recording (04f3:0732) replayed by the daemon; the EP0430M09 recording
// (ids 0000:0000) is a second touchscreen no setting names.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GestureWire
import Testing

private let mutterInstalled = access("/usr/bin/mutter", X_OK) == 0 && access("/usr/bin/gsettings", X_OK) == 0

@Suite(.serialized, .enabled(if: mutterInstalled, "mutter or gsettings is not installed (Debian packages mutter, libglib2.0-bin); Tests/test.sh installs them"))
struct GnomeTouchscreenMappingSessionTests {
    static let elan = TestPaths.fixture("touchscreen-elan-1finger-drag-2finger-pan-10finger-spread")
    static let ep0430 = TestPaths.fixture("touchscreen-ep0430m09-2finger-swipe-up")
    static let schema = "org.gnome.desktop.peripherals.touchscreen:/org/gnome/desktop/peripherals/touchscreens/04f3:0732/"

    struct Monitor { var connector, vendor, product, serial, mode: String }

    /// DisplayConfig's monitors, as `gdbus` prints GetCurrentState: each one's EDID ids and mode.
    static func monitors(_ s: DesktopSession) throws -> (serial: String, [Monitor]) {
        let out = try s.gdbus("GetCurrentState")
        guard let serial = out.firstMatch(of: /^\(uint32 (\d+),/)?.1 else { throw TestFailure(description: "GetCurrentState: \(out)") }
        let list = out.matches(of: /\(\('([^']+)', '([^']*)', '([^']*)', '([^']*)'\), \[\('([^']+)'/).map {
            Monitor(connector: String($0.1), vendor: String($0.2), product: String($0.3), serial: String($0.4), mode: String($0.5))
        }
        return (String(serial), list)
    }

    /// Meta-0 at the left, Meta-1 beside it, each turned by its wl_output transform
    /// (counterclockwise: 2 is 180°, 3 is 90° clockwise as listen prints it).
    static func turn(_ s: DesktopSession, _ transforms: [Int]) throws {
        let (serial, ms) = try monitors(s)
        var x = 0, logical: [String] = []
        for (i, m) in ms.enumerated() {
            logical.append("(\(x), 0, 1.0, uint32 \(transforms[i]), \(i == 0), [('\(m.connector)', '\(m.mode)', @a{sv} {})])")
            let size = m.mode.split(separator: "@")[0].split(separator: "x").compactMap { Int($0) }
            x += transforms[i] % 2 == 1 ? size[1] : size[0]
        }
        _ = try s.gdbus("ApplyMonitorsConfig", [serial, "1", "[\(logical.joined(separator: ", "))]", "@a{sv} {}"])
    }

    static func mapTo(_ s: DesktopSession, _ m: Monitor) throws {
        _ = try s.gsettings(["set", schema, "output", "['\(m.vendor)', '\(m.product)', '\(m.serial)']"])
    }

    static func listenEnvironment(_ s: DesktopSession) -> [String: String] {
        var env = s.environment.filter { ["WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS"].contains($0.key) }
        env["XDG_CURRENT_DESKTOP"] = "GNOME"
        return env
    }

    /// The daemon and listen: the ELAN touchscreen takes the turn of the monitor GNOME maps it
    /// to, and follows the setting when it changes; the unmapped one is not turned.
    @Test func gnome_touchscreenSetting_choosesTheMappedMonitorsTurn() throws {
        guard let bin = TestPaths.binary else { throw TestFailure(description: "no gestured binary") }
        let s = try DesktopSession.mutter(monitors: ["1024x768", "800x600"], busAdmitsRoot: true)
        let (_, ms) = try Self.monitors(s)
        #expect(ms.map(\.connector) == ["Meta-0", "Meta-1"], "\(ms)")
        guard ms.count == 2 else { return }
        try Self.turn(s, [2, 3])    // Meta-0 180°, Meta-1 90° clockwise

        let d = try DaemonProcess(["--replay", Self.elan, "--replay", Self.ep0430, "--replay-wait-for-clients", "99"])
        defer { _ = d.stop() }
        let watcher = try TestClient(d.socket)
        guard case .hello(_, _, let devices) = try WireDecoder.serverMessage(watcher.next() ?? "") else {
            throw TestFailure(description: "no hello")
        }
        guard let elan = devices.first(where: { $0.inputID == "04f3:0732" }),
              let other = devices.first(where: { $0.name == "EP0430M09" }) else {
            throw TestFailure(description: "the replayed touchscreens with their ids: \(devices)")
        }
        #expect(other.inputID == nil, "EP0430M09's recording says 0000:0000")

        let cfg = s.dir + "/listen.yaml"
        try "bindings:\n  - {gesture: swipe, command: 'true'}\n".write(toFile: cfg, atomically: true, encoding: .utf8)
        let listen = Process()
        listen.executableURL = URL(fileURLWithPath: bin)
        listen.arguments = ["listen", "--config", cfg, "--socket", d.socket]
        var env = ["PATH": "/usr/bin:/bin", "HOME": s.dir]
        env.merge(Self.listenEnvironment(s)) { $1 }
        listen.environment = env
        let logPath = s.dir + "/listen.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        listen.standardError = FileHandle(forWritingAtPath: logPath)
        try listen.run()
        defer { listen.terminate(); listen.waitUntilExit() }
        var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
        try s.waitUntil("listen following GNOME's mapping: \(log)") { log.contains("following GNOME's touchscreen mapping at") }

        /// The watcher's messages until the ELAN device's sources name `want`; none may turn the other.
        func expectTurn(_ want: String) throws {
            let seen = try watcher.read { m, _ in
                if case .deviceChanged(let w) = m, w.id == elan.id { return w.orientation.sources.contains { $0.contains(want) } }
                return false
            }
            for case (.deviceChanged(let w), _) in seen {
                #expect(w.id != other.id, "the unmapped touchscreen was turned: \(w.orientation.sources)")
            }
        }

        // With no setting neither touchscreen has an output (two monitors, none built in).
        try Self.mapTo(s, ms[1])
        try expectTurn("Meta-1 transform 90, GNOME setting touchscreens/04f3:0732 output")
        try Self.mapTo(s, ms[0])
        try expectTurn("Meta-0 transform 180, GNOME setting touchscreens/04f3:0732 output")
        try Self.turn(s, [0, 3])
        try expectTurn("Meta-0 transform normal, GNOME setting touchscreens/04f3:0732 output")
        #expect(log.contains("device \(elan.id) 'ELAN"), "\(log)")
        #expect(log.contains("shows on Meta-1 (GNOME setting touchscreens/04f3:0732 output): transform 90"), "\(log)")
        #expect(!log.contains("device \(other.id) "), "the unmapped touchscreen: \(log)")
    }

    /// `--print-screen` prints GNOME's mapping as it changes, and says a setting it cannot use.
    @Test func gnome_printScreen_printsTheMappingAndSaysWhatItCannotUse() throws {
        let s = try DesktopSession.mutter(monitors: ["1024x768", "800x600"], busAdmitsRoot: true)
        let (_, ms) = try Self.monitors(s)
        guard ms.count == 2 else { throw TestFailure(description: "two monitors: \(ms)") }
        let p = try X11ScreenSessionTests.PrintScreen(s, environment: Self.listenEnvironment(s))
        try s.waitUntil("no mapping yet: \(p.out) \(p.log)") { p.out.contains("touchscreens: none\n") }
        try Self.mapTo(s, ms[1])
        try s.waitUntil("the mapping: \(p.out) \(p.log)") {
            p.out.hasSuffix("touchscreens: 04f3:0732 → Meta-1 (GNOME setting touchscreens/04f3:0732 output)\n")
        }
        let other = "org.gnome.desktop.peripherals.touchscreen:/org/gnome/desktop/peripherals/touchscreens/1234:abcd/"
        _ = try s.gsettings(["set", other, "output", "['GSM', 'LG ULTRAFINE', '0x0001']"])
        try s.waitUntil("a monitor that is not connected: \(p.log)") {
            p.log.contains("GNOME maps touchscreen 1234:abcd to the monitor GSM LG ULTRAFINE 0x0001, which is not connected")
        }
        _ = try s.gsettings(["set", other, "output", "['GSM', 'LG ULTRAFINE']"])
        try s.waitUntil("a setting of two strings: \(p.log)") {
            p.log.contains("GNOME's touchscreens/1234:abcd output holds 2 strings, not [vendor, product, serial]: ignored")
        }
        #expect(p.out.hasSuffix("touchscreens: 04f3:0732 → Meta-1 (GNOME setting touchscreens/04f3:0732 output)\n"), "\(p.out)")
        _ = try s.gsettings(["reset", Self.schema, "output"])
        try s.waitUntil("the mapping gone: \(p.out)") { p.out.hasSuffix("touchscreens: none\n") }
    }
}
