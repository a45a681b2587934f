// Protocol-level tests for KDE Plasma (KWin) and GNOME Shell, which Debian here cannot run
// headless: a real dbus-daemon (a private session bus), the real backends, and a stand-in
// service on that bus speaking KWin's documented scripting interface (org.kde.kwin.Scripting
// loadScript/unloadScript, org.kde.kwin.Script run) or the shipped GNOME Shell extension's
// interface (contrib/gnome-shell). The stand-in does what the loaded script / extension would.
#if canImport(Glibc)
import Glibc
#endif
import CSystemd
import FocusTracking
import Foundation
import GestureConfig
import Synchronization
import Testing

/// A private session bus: `dbus-daemon --session` on a socket in a temporary directory.
final class PrivateBus {
    let dir = tempDirectory()
    let process = Process()
    var address: String { "unix:path=\(dir)/bus" }

    init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--session", "--nofork", "--nopidfile", "--address=unix:path=\(dir)/bus"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        for _ in 0..<500 where access(dir + "/bus", F_OK) != 0 { usleep(10_000) }
        guard access(dir + "/bus", F_OK) == 0 else { throw TestFailure(description: "dbus-daemon did not start") }
    }

    deinit {
        // dbus-daemon --session does not stop on SIGTERM; not waitUntilExit, which can miss the exit.
        kill(process.processIdentifier, SIGKILL)
        for _ in 0..<200 where process.isRunning { usleep(10_000) }
        try? FileManager.default.removeItem(atPath: dir)
    }
}

/// A service on the bus, run by its own thread; `handle` answers method calls on `paths`.
final class StandInService: @unchecked Sendable {
    let bus: OpaquePointer
    let stop = Atomic<Bool>(false)
    let releaseName = Atomic<Bool>(false)
    let calls = Mutex<[String]>([])
    private var thread: Thread?
    private let name: String
    var handle: (OpaquePointer, String, OpaquePointer) -> Void = { _, _, _ in }

    init(address: String, name: String, paths: [String]) throws {
        var b: OpaquePointer?
        gsd_bus_new(&b)
        bus = b!
        self.name = name
        gsd_bus_set_address(bus, address)
        gsd_bus_set_bus_client(bus, 1)
        guard gsd_bus_start(bus) >= 0, gsd_bus_request_name(bus, name, 0) >= 0 else {
            throw TestFailure(description: "the stand-in cannot own \(name)")
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        for p in paths {
            gsd_bus_add_object(bus, nil, p, { m, data, _ in
                let s = Unmanaged<StandInService>.fromOpaque(data!).takeUnretainedValue()
                var t: UInt8 = 0
                guard let m, gsd_bus_message_get_type(m, &t) >= 0, t == 1 else { return 0 }   // method calls only
                let member = String(cString: gsd_bus_message_get_member(m))
                s.calls.withLock { $0.append(String(cString: gsd_bus_message_get_path(m)) + " " + member) }
                s.handle(m, member, s.bus)
                return 1
            }, me)
        }
        let t = Thread { [self] in
            while !stop.load(ordering: .relaxed) {
                while gsd_bus_process(bus, nil) > 0 {}
                if releaseName.exchange(false, ordering: .relaxed) { gsd_bus_release_name(bus, name) }
                gsd_bus_wait(bus, 50_000)
            }
            gsd_bus_flush_close_unref(bus)
        }
        thread = t
        t.start()
    }

    func shutdown() { stop.store(true, ordering: .relaxed); usleep(150_000) }

    static func reply(_ m: OpaquePointer, _ strings: [String] = [], int32: Int32? = nil, bool: Bool? = nil) {
        var r: OpaquePointer?
        gsd_bus_message_new_method_return(m, &r)
        for s in strings { s.withCString { _ = gsd_bus_message_append_basic(r, CChar(UInt8(ascii: "s")), $0) } }
        if var v = int32 { gsd_bus_message_append_basic(r, CChar(UInt8(ascii: "i")), &v) }
        if let v = bool { var i: Int32 = v ? 1 : 0; gsd_bus_message_append_basic(r, CChar(UInt8(ascii: "b")), &i) }
        gsd_bus_send(nil, r, nil)
        gsd_bus_message_unref(r)
    }

    static func strings(_ m: OpaquePointer, _ n: Int) -> [String] {
        (0..<n).map { _ in
            var p: UnsafePointer<CChar>?
            gsd_bus_message_read_basic(m, CChar(UInt8(ascii: "s")), &p)
            return p.map { String(cString: $0) } ?? ""
        }
    }

    /// Sends a method call or signal with string arguments, not waiting for a reply.
    static func send(_ bus: OpaquePointer, signal: Bool, to dest: String?, _ path: String, _ iface: String, _ member: String, _ args: [String]) {
        var m: OpaquePointer?
        if signal { gsd_bus_message_new_signal(bus, &m, path, iface, member) }
        else { gsd_bus_message_new_method_call(bus, &m, dest, path, iface, member) }
        for a in args { a.withCString { _ = gsd_bus_message_append_basic(m, CChar(UInt8(ascii: "s")), $0) } }
        gsd_bus_send(bus, m, nil)
        gsd_bus_message_unref(m)
    }
}

@Suite(.serialized) struct DesktopBusTests {
    /// KWin: the backend loads its script with loadScript(path, plugin), runs it on
    /// /Scripting/Script<id>; the script calls back Changed(desktopFile, class, name, caption).
    @Test func kwin_protocol_scriptLoadedOverDBusReportsActivations() throws {
        let bus = try PrivateBus()
        let kwin = try StandInService(address: bus.address, name: "org.kde.KWin", paths: ["/Scripting", "/Scripting/Script7"])
        defer { kwin.shutdown() }
        let script = Mutex<String>("")
        kwin.handle = { m, member, b in
            switch member {
            case "unloadScript": StandInService.reply(m, bool: false)
            case "loadScript":
                let a = StandInService.strings(m, 2)
                script.withLock { $0 = (try? String(contentsOfFile: a[0], encoding: .utf8)) ?? "" }
                StandInService.reply(m, int32: 7)
            case "run":
                StandInService.reply(m)
                // What the script does: report the active window, then each activation.
                let text = script.withLock { $0 }
                guard let r = text.range(of: "callDBus(\""), let end = text[r.upperBound...].firstIndex(of: "\"") else { return }
                let service = String(text[r.upperBound..<end])
                for args in [["org.kde.dolphin", "dolphin", "dolphin", "Home — Dolphin"], ["", "firefox", "Navigator", "Mozilla Firefox"], ["", "", "", ""]] {
                    StandInService.send(b, signal: false, to: service, "/org/gestured/Focus", "org.gestured.Focus", "Changed", args)
                }
            default: break
            }
        }
        let probe = TrackerProbe(.kwin, env: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        try probe.wait("three activations") { probe.changes.count == 3 }
        #expect(probe.changes == [window("org.kde.dolphin", "Home — Dolphin", instance: "dolphin"),
                                  window("firefox", "Mozilla Firefox", instance: "Navigator"), .nothing])
        let text = script.withLock { $0 }
        #expect(text.contains("workspace.windowActivated || workspace.clientActivated"))
        #expect(kwin.calls.withLock { $0 }.starts(with: ["/Scripting unloadScript", "/Scripting loadScript", "/Scripting/Script7 run"]))
        probe.tracker.stop()
        #expect(kwin.calls.withLock { $0 }.last == "/Scripting unloadScript")   // removed when listen stops
    }

    /// GNOME: Get() once, then the Changed signal; the extension leaving the bus (GNOME Shell
    /// restarting) is a loss, said once, and focus falls back to unknown.
    @Test func gnome_protocol_extensionGetChangedAndLeaving() throws {
        let bus = try PrivateBus()
        let ext = try StandInService(address: bus.address, name: "org.gestured.ShellFocus", paths: ["/org/gestured/ShellFocus"])
        defer { ext.shutdown() }
        ext.handle = { m, member, b in
            guard member == "Get" else { return }
            StandInService.reply(m, ["org.gnome.Nautilus", "org.gnome.Nautilus", "Home"])
            for args in [["", "Firefox-esr", "Mozilla Firefox"], ["", "", ""]] {
                StandInService.send(b, signal: true, to: nil, "/org/gestured/ShellFocus", "org.gestured.ShellFocus", "Changed", args)
            }
        }
        let probe = TrackerProbe(.gnome, env: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        try probe.wait("three changes") { probe.changes.count == 3 }
        #expect(probe.changes == [window("org.gnome.Nautilus", "Home", instance: "org.gnome.Nautilus"),
                                  window("Firefox-esr", "Mozilla Firefox"), .nothing])
        ext.releaseName.store(true, ordering: .relaxed)
        try probe.wait("the loss") { probe.logged("focus: lost gnome") == 1 }
        #expect(probe.tracker.focus == .unknown)
        usleep(1_000_000)
        #expect(probe.logged("focus: lost gnome") == 1)
        #expect(probe.logged("does not answer") == 0)        // retries are not logged again
    }
}
