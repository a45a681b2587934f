// The compositors' own touchscreen mappings that cannot run here with a touchscreen, through
// the real TouchscreenMappingTracker and its real sources:
// - KWin: Debian 12's kwin_wayland 5.27 runs headless here (`--virtual`), but without a DRM
//   session and /dev/input it has no libinput and so no /org/kde/KWin/InputDevice objects. A
//   STAND-IN for KWin on a real dbus-daemon serves what KWin 5.27 exports
//   (src/backends/libinput/connection.cpp and device.h): org.kde.KWin.InputDeviceManager at
//   /org/kde/KWin/InputDevice (devicesSysNames, deviceAdded) and org.kde.KWin.InputDevice at
//   /org/kde/KWin/InputDevice/eventN (touch, outputName), through org.freedesktop.DBus.Properties.Get.
// - Hyprland is not in Debian: a STAND-IN Unix-socket server speaks its IPC (.socket.sock
//   answering `j/getoption`, .socket2.sock sending `EVENT>>DATA` lines), in both reply shapes
//   Hyprland has had (hyprctl.cpp before and after hyprlang).
#if canImport(Glibc)
import Glibc
#endif
import CSystemd
import FocusTracking
import Foundation
import Synchronization
import Testing

/// What a mapping tracker under test observed and logged.
final class MappingRecorder: Sendable {
    let mappings = Mutex<[TouchscreenMapping]>([])
    let logs = Mutex<[String]>([])
}

/// A mapping tracker under test, started.
final class MappingProbe {
    let recorder: MappingRecorder
    let tracker: TouchscreenMappingTracker

    init(_ env: [String: String]) {
        let r = MappingRecorder()
        recorder = r
        tracker = TouchscreenMappingTracker(environment: env, log: { s in r.logs.withLock { $0.append(s) } },
                                            observe: { m in r.mappings.withLock { $0.append(m) } })
        tracker.start()
    }

    var seen: [TouchscreenMapping] { recorder.mappings.withLock { $0 } }
    var logged: [String] { recorder.logs.withLock { $0 } }

    /// The last mapping's rules as `who → output (origin)`.
    var last: String { seen.last?.summary ?? "nothing yet" }

    func wait(_ what: String, _ ok: () -> Bool) throws {
        for _ in 0..<1000 { if ok() { return }; usleep(10_000) }
        throw TestFailure(description: "timed out waiting for \(what); seen: \(seen.map(\.summary)); logs: \(logged)")
    }
}

/// STAND-IN for KWin's input devices on the bus (see the file's head): properties from `devices`,
/// signals queued in `outbox` and sent by its own thread (an sd-bus connection is one thread's).
final class KWinInputStandIn: @unchecked Sendable {
    struct Device { var touch: Bool; var outputName: String? }
    let devices = Mutex<[String: Device]>([:])
    let outbox = Mutex<[(member: String, arg: String)]>([])
    let gets = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
    private let bus: OpaquePointer
    private var thread: Thread?

    init(address: String) throws {
        var b: OpaquePointer?
        gsd_bus_new(&b)
        bus = b!
        gsd_bus_set_address(bus, address)
        gsd_bus_set_bus_client(bus, 1)
        guard gsd_bus_start(bus) >= 0, gsd_bus_request_name(bus, "org.kde.KWin", 0) >= 0 else {
            throw TestFailure(description: "the stand-in cannot own org.kde.KWin")
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        // A fallback-less object per path is enough: the tracker asks the manager and eventN.
        for path in ["/org/kde/KWin/InputDevice"] + (5...9).map({ "/org/kde/KWin/InputDevice/event\($0)" }) {
            gsd_bus_add_object(bus, nil, path, { m, data, _ in
                let s = Unmanaged<KWinInputStandIn>.fromOpaque(data!).takeUnretainedValue()
                var t: UInt8 = 0
                guard let m, gsd_bus_message_get_type(m, &t) >= 0, t == 1,
                      String(cString: gsd_bus_message_get_member(m)) == "Get" else { return 0 }
                s.gets.add(1, ordering: .relaxed)
                return s.get(m, path: String(cString: gsd_bus_message_get_path(m)))
            }, me)
        }
        let t = Thread { [self] in
            while !stop.load(ordering: .relaxed) {
                while gsd_bus_process(bus, nil) > 0 {}
                for (member, arg) in outbox.withLock({ o -> [(member: String, arg: String)] in defer { o = [] }; return o }) {
                    var m: OpaquePointer?
                    gsd_bus_message_new_signal(bus, &m, "/org/kde/KWin/InputDevice", "org.kde.KWin.InputDeviceManager", member)
                    arg.withCString { _ = gsd_bus_message_append_basic(m, CChar(UInt8(ascii: "s")), $0) }
                    gsd_bus_send(bus, m, nil)
                    gsd_bus_message_unref(m)
                }
                gsd_bus_wait(bus, 20_000)
            }
            gsd_bus_flush_close_unref(bus)
        }
        thread = t
        t.start()
    }

    func shutdown() { stop.store(true, ordering: .relaxed); usleep(100_000) }

    private func c(_ s: Character) -> CChar { CChar(UInt8(ascii: s.unicodeScalars.first!)) }

    /// Properties.Get(interface, name): the value in a variant, as Qt's D-Bus adaptor answers;
    /// an unknown property is an error reply.
    private func get(_ m: OpaquePointer, path: String) -> Int32 {
        var ps: [String] = []
        for _ in 0..<2 {
            var p: UnsafePointer<CChar>?
            gsd_bus_message_read_basic(m, c("s"), &p)
            ps.append(p.map { String(cString: $0) } ?? "")
        }
        let sys = path.split(separator: "/").last.map(String.init) ?? ""
        let list = devices.withLock { $0 }
        var r: OpaquePointer?
        gsd_bus_message_new_method_return(m, &r)
        defer { gsd_bus_send(nil, r, nil); gsd_bus_message_unref(r) }
        switch (ps[0], ps[1]) {
        case ("org.kde.KWin.InputDeviceManager", "devicesSysNames"):
            gsd_bus_message_open_container(r, c("v"), "as")
            gsd_bus_message_open_container(r, c("a"), "s")
            for name in list.keys.sorted() { name.withCString { _ = gsd_bus_message_append_basic(r, c("s"), $0) } }
            gsd_bus_message_close_container(r)
            gsd_bus_message_close_container(r)
        case ("org.kde.KWin.InputDevice", "touch"):
            var b: Int32 = list[sys]?.touch == true ? 1 : 0
            gsd_bus_message_open_container(r, c("v"), "b")
            gsd_bus_message_append_basic(r, c("b"), &b)
            gsd_bus_message_close_container(r)
        case ("org.kde.KWin.InputDevice", "outputName"):
            if let name = list[sys]?.outputName {
                gsd_bus_message_open_container(r, c("v"), "s")
                name.withCString { _ = gsd_bus_message_append_basic(r, c("s"), $0) }
            } else {    // a damaged answer: an integer where KWin sends a string
                var i: Int32 = 3
                gsd_bus_message_open_container(r, c("v"), "i")
                gsd_bus_message_append_basic(r, c("i"), &i)
            }
            gsd_bus_message_close_container(r)
        default:
            return 0
        }
        return 1
    }
}

@Suite(.serialized) struct TouchscreenMappingStandInTests {
    /// KWin: each touchscreen's outputName by its event node; a keyboard and an unmapped
    /// touchscreen are left out; a change KWin does not signal is read on the outputs' change
    /// (`refresh`), a new device on deviceAdded; a damaged property is said, not fatal.
    @Test func kwin_inputDevices_giveEachTouchscreensOutput() throws {
        let bus = try PrivateBus()
        let kwin = try KWinInputStandIn(address: bus.address)
        defer { kwin.shutdown() }
        kwin.devices.withLock {
            $0 = ["event5": .init(touch: false, outputName: "eDP-1"), "event7": .init(touch: true, outputName: "HDMI-A-1"),
                  "event8": .init(touch: true, outputName: "")]
        }
        let probe = MappingProbe(["XDG_CURRENT_DESKTOP": "KDE", "DBUS_SESSION_BUS_ADDRESS": bus.address])
        defer { probe.tracker.stop() }
        try probe.wait("the first mapping") { !probe.seen.isEmpty }
        #expect(probe.last == "event7 → HDMI-A-1 (KWin InputDevice event7 outputName)")
        #expect(probe.logged.contains { $0.contains("following KWin's touchscreen mapping at org.kde.KWin /org/kde/KWin/InputDevice") })

        // KWin maps event7 elsewhere (it signals nothing): read again when the outputs change.
        kwin.devices.withLock { $0["event7"]?.outputName = "eDP-1" }
        usleep(200_000)
        #expect(probe.last == "event7 → HDMI-A-1 (KWin InputDevice event7 outputName)", "nothing told the tracker yet")
        probe.tracker.refresh()
        try probe.wait("event7 on eDP-1") { probe.last == "event7 → eDP-1 (KWin InputDevice event7 outputName)" }

        // A touchscreen plugged in: deviceAdded.
        kwin.devices.withLock { $0["event9"] = .init(touch: true, outputName: "DP-2") }
        kwin.outbox.withLock { $0.append(("deviceAdded", "event9")) }
        try probe.wait("event9 added") {
            probe.last == "event7 → eDP-1 (KWin InputDevice event7 outputName); event9 → DP-2 (KWin InputDevice event9 outputName)"
        }

        // event9's outputName answered with an integer: said in the log, event7 stays.
        kwin.devices.withLock { $0["event9"]?.outputName = nil }
        kwin.outbox.withLock { $0.append(("deviceRemoved", "event6")) }
        try probe.wait("the damaged answer said") {
            probe.logged.contains("screen: KWin's /org/kde/KWin/InputDevice/event9 has no outputName it would say")
        }
        #expect(probe.last == "event7 → eDP-1 (KWin InputDevice event7 outputName)")
    }

    /// KWin not on the bus (Plasma restarting, a desktop name set by hand): said once, retried
    /// with backoff, nothing observed; stop ends it.
    @Test func kwin_absent_isSaidOnceAndRetried() throws {
        let bus = try PrivateBus()
        let probe = MappingProbe(["XDG_CURRENT_DESKTOP": "KDE", "DBUS_SESSION_BUS_ADDRESS": bus.address])
        try probe.wait("the failure said") { probe.logged.contains { $0.hasPrefix("screen: KWin touchscreen mapping: org.kde.KWin ") } }
        usleep(1_200_000)    // several retries (250, 500 ms…)
        #expect(probe.logged.filter { $0.contains("KWin touchscreen mapping:") }.count == 1, "\(probe.logged)")
        #expect(probe.seen.isEmpty)
        probe.tracker.stop()
    }

    /// Hyprland: `j/getoption input:touchdevice:output` at connection and on each
    /// `configreloaded>>`, in the old and the new reply shapes; `[[Auto]]` is no mapping; a reply
    /// that is not JSON is said in the log and listen goes on.
    @Test func hyprland_touchdeviceOutput_isReadAgainOnConfigReloaded() throws {
        let run = tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: run) }
        let dir = run + "/hypr/sig2"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let replies = Mutex<[String]>([
            #"{"option": "input:touchdevice:output", "int": 0, "float": 0.00000, "str": "eDP-1", "data": "0x0", "set": true}"#,
            #"{"option": "input:touchdevice:output", "str": "HDMI-A-1", "set": true }"#,
            #"{"option": "input:touchdevice:output", "str": "[[Auto]]", "set": false }"#,
            "no such option",
        ])
        let requests = try FakeSocketServer(path: dir + "/.socket.sock") { c, s in
            var b = [UInt8](repeating: 0, count: 256)
            let n = read(c, &b, b.count)
            s.received.withLock { $0 += b[0..<max(0, n)] + [0x0a] }
            FakeSocketServer.send(c, replies.withLock { $0.isEmpty ? "" : $0.removeFirst() })
        }
        defer { requests.shutdown() }
        let outbox = Mutex<[String]>([])
        let events = try FakeSocketServer(path: dir + "/.socket2.sock") { c, _ in
            var p = pollfd(fd: c, events: Int16(POLLIN), revents: 0)
            var b = [UInt8](repeating: 0, count: 256)
            while true {
                for line in outbox.withLock({ o -> [String] in defer { o = [] }; return o }) { FakeSocketServer.send(c, line) }
                if poll(&p, 1, 20) > 0, read(c, &b, b.count) <= 0 { return }
            }
        }
        defer { events.shutdown() }
        let probe = MappingProbe(["HYPRLAND_INSTANCE_SIGNATURE": "sig2", "XDG_RUNTIME_DIR": run])
        defer { probe.tracker.stop() }
        let rule = "every touchscreen → %@ (Hyprland input:touchdevice:output)"
        try probe.wait("eDP-1") { probe.last == rule.replacingOccurrences(of: "%@", with: "eDP-1") }
        outbox.withLock { $0.append("workspace>>2\nactivewindow>>kitty,~\n") }    // not a reload: not asked again
        usleep(200_000)
        #expect(String(decoding: requests.received.withLock { $0 }, as: UTF8.self) == "j/getoption input:touchdevice:output\n")
        outbox.withLock { $0.append("configreloaded>>\n") }
        try probe.wait("HDMI-A-1") { probe.last == rule.replacingOccurrences(of: "%@", with: "HDMI-A-1") }
        outbox.withLock { $0.append("configreloaded>>\n") }
        try probe.wait("[[Auto]]: none") { probe.last == "none" && probe.seen.count == 3 }
        outbox.withLock { $0.append("configreloaded>>\n") }
        try probe.wait("the bad reply said") {
            probe.logged.contains("screen: Hyprland's reply to getoption input:touchdevice:output is not a JSON object: no such option")
        }
        #expect(probe.last == "none")
    }

    /// A session whose compositor exposes no mapping (sway, niri) says so and starts nothing.
    @Test func sway_hasNoMapping_saidOnce() {
        let probe = MappingProbe(["SWAYSOCK": "/run/user/1000/sway-ipc.sock", "XDG_CURRENT_DESKTOP": "sway"])
        #expect(probe.logged == ["screen: this session's compositor exposes no touchscreen mapping gestured reads (XDG_CURRENT_DESKTOP=sway); udev WL_OUTPUT or the built-in panel decides"])
        #expect(probe.seen.isEmpty)
    }
}
