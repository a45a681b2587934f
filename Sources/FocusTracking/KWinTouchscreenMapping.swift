import CSystemd

/// KWin's touchscreen-to-output mapping: each libinput device it handles is an object
/// `/org/kde/KWin/InputDevice/eventN` of `org.kde.KWin` on the session bus, interface
/// `org.kde.KWin.InputDevice`, whose properties `touch` (b) and `outputName` (s) say whether it
/// is a touchscreen and the output KWin maps it to (KWin's src/backends/libinput/device.h, Plasma
/// 5.27 and 6); `org.kde.KWin.InputDeviceManager` at `/org/kde/KWin/InputDevice` lists them
/// (`devicesSysNames`) and signals `deviceAdded`/`deviceRemoved`. KWin exports the properties
/// without change signals, so the mapping is read again on those signals, on KWin's
/// PropertiesChanged where a version sends it, when KWin's bus name changes owner, and when the
/// session's outputs change (`invalidate`, from the screen tracker).
final class KWinTouchscreenMapping: TouchscreenMappingSource {
    let busAddress: String?
    private var dbus: DBusConnection?
    private let changed = SignalFlag()
    static let service = "org.kde.KWin"
    static let managerPath = "/org/kde/KWin/InputDevice"
    static let manager = "org.kde.KWin.InputDeviceManager"
    static let device = "org.kde.KWin.InputDevice"

    init(busAddress: String?) { self.busAddress = busAddress }

    var name: String { "KWin" }
    var endpoint: String { "\(KWinTouchscreenMapping.service) \(KWinTouchscreenMapping.managerPath) on the session bus" }

    func connect() throws(FocusError) -> Int32 {
        let d = try DBusConnection(address: busAddress)
        try d.follow([
            (Self.service, Self.managerPath, Self.manager, "deviceAdded"),
            (Self.service, Self.managerPath, Self.manager, "deviceRemoved"),
            (Self.service, nil, "org.freedesktop.DBus.Properties", "PropertiesChanged"),
        ], raising: changed)
        var owner: OpaquePointer?
        let r = gsd_bus_match_signal(d.bus, &owner, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                     "NameOwnerChanged", { m, data, _ in
            if let m, let a = DBusConnection.strings(m, 1), a[0] == KWinTouchscreenMapping.service {
                Unmanaged<SignalFlag>.fromOpaque(data!).takeUnretainedValue().raised = true
            }
            return 0
        }, Unmanaged.passUnretained(changed).toOpaque())
        if r >= 0 { d.keep(owner) }
        dbus = d
        changed.raised = true
        return d.fd
    }

    func disconnect() { dbus = nil }

    func pending() -> TouchscreenMapping? { nil }

    func invalidate() { changed.raised = true }

    func receive() throws(FocusError) -> TouchscreenMapping? {
        guard let d = dbus, d.process() else { throw FocusError("the session bus closed the connection") }
        return changed.take() ? try read(d) : nil
    }

    /// Every touchscreen KWin has with the output it maps it to; one without (`outputName` empty:
    /// KWin has not mapped it) or gone while it was asked is left out.
    private func read(_ d: DBusConnection) throws(FocusError) -> TouchscreenMapping {
        let names = try Self.property(d, Self.managerPath, Self.manager, "devicesSysNames", "as") { m throws(FocusError) in
            var out: [String] = []
            guard gsd_bus_message_enter_container(m, Self.type("a"), "s") > 0 else { throw FocusError("devicesSysNames is not a list of strings") }
            var p: UnsafePointer<CChar>?
            while gsd_bus_message_read_basic(m, Self.type("s"), &p) > 0, let s = p { out.append(String(cString: s)) }
            return out
        }
        var m = TouchscreenMapping()
        for sys in names.sorted() where !sys.isEmpty && !sys.contains("/") {
            let path = Self.managerPath + "/" + sys
            guard let touch = try? Self.property(d, path, Self.device, "touch", "b", { m throws(FocusError) in
                var b: Int32 = 0
                guard gsd_bus_message_read_basic(m, Self.type("b"), &b) > 0 else { throw FocusError("touch is not a boolean") }
                return b != 0
            }), touch else { continue }
            guard let output = try? Self.property(d, path, Self.device, "outputName", "s", { m throws(FocusError) in
                var p: UnsafePointer<CChar>?
                guard gsd_bus_message_read_basic(m, Self.type("s"), &p) > 0, let s = p else { throw FocusError("outputName is not a string") }
                return String(cString: s)
            }) else {
                m.notes.append("KWin's \(path) has no outputName it would say")
                continue
            }
            if output.isEmpty { continue }
            m.rules.append(.init(node: sys, output: output, origin: "KWin InputDevice \(sys) outputName"))
        }
        return m
    }

    static func type(_ s: Character) -> CChar { CChar(UInt8(ascii: s.unicodeScalars.first!)) }

    /// `org.freedesktop.DBus.Properties.Get`: the variant's contents of `signature`, read by `body`.
    static func property<T>(_ d: DBusConnection, _ path: String, _ interface: String, _ name: String, _ signature: String,
                            _ body: (OpaquePointer) throws(FocusError) -> T) throws(FocusError) -> T {
        let reply = try d.call(service, path, "org.freedesktop.DBus.Properties", "Get", [interface, name])
        defer { gsd_bus_message_unref(reply) }
        guard gsd_bus_message_enter_container(reply, type("v"), signature) > 0 else {
            throw FocusError("\(path) \(interface).\(name) is not of type \(signature)")
        }
        return try body(reply)
    }
}
