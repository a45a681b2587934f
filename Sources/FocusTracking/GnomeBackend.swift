import CSystemd

/// GNOME Shell: the extension shipped in contrib/gnome-shell (gestured-focus@gestured) owns
/// `org.gestured.ShellFocus` on the session bus and exports `/org/gestured/ShellFocus` with
/// `Get() → (app_id, wm_class, title)` and the signal `Changed(app_id, wm_class, title)`. The
/// backend asks once, then follows the signal, and the bus's NameOwnerChanged for the name (GNOME
/// Shell restarting, the extension being turned off).
final class GnomeBackend: FocusBackend {
    let kind = FocusBackendKind.gnome
    let busAddress: String?
    private var dbus: DBusConnection?
    private var changes: [FocusChange] = []
    private var warnings: [String] = []
    private var gone = false
    static let service = "org.gestured.ShellFocus"
    static let path = "/org/gestured/ShellFocus"
    static let interface = "org.gestured.ShellFocus"

    init(busAddress: String?) { self.busAddress = busAddress }

    var endpoint: String { "\(GnomeBackend.service) on the session bus" }

    func connect() throws(FocusError) -> Int32 {
        let d = try DBusConnection(address: busAddress)
        changes = []; gone = false
        let me = Unmanaged.passUnretained(self).toOpaque()
        var slot: OpaquePointer?
        var r = gsd_bus_match_signal(d.bus, &slot, GnomeBackend.service, GnomeBackend.path, GnomeBackend.interface, "Changed", { m, data, _ in
            let b = Unmanaged<GnomeBackend>.fromOpaque(data!).takeUnretainedValue()
            if let m, let a = DBusConnection.strings(m, 3) { b.changes.append(GnomeBackend.change(a)) }
            else { b.warnings.append("skipped a Changed signal without three strings") }
            return 0
        }, me)
        guard r >= 0 else { throw FocusError("cannot follow \(GnomeBackend.service): \(DBusConnection.message(r))") }
        d.keep(slot)
        var owner: OpaquePointer?
        r = gsd_bus_match_signal(d.bus, &owner, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                "NameOwnerChanged", { m, data, _ in
            let b = Unmanaged<GnomeBackend>.fromOpaque(data!).takeUnretainedValue()
            if let m, let a = DBusConnection.strings(m, 3), a[0] == GnomeBackend.service, a[2].isEmpty { b.gone = true }
            return 0
        }, me)
        if r >= 0 { d.keep(owner) }
        dbus = d
        do throws(FocusError) {
            let reply = try d.call(GnomeBackend.service, GnomeBackend.path, GnomeBackend.interface, "Get")
            defer { gsd_bus_message_unref(reply) }
            guard let a = DBusConnection.strings(reply, 3) else { throw FocusError("its Get reply is not three strings") }
            changes = [GnomeBackend.change(a)]
        } catch {
            dbus = nil
            let why = error.description
            throw FocusError("the gestured-focus@gestured GNOME Shell extension does not answer (" + why
                             + "); install it from contrib/gnome-shell (docs/CONFIG.md says how)")
        }
        return d.fd
    }

    static func change(_ a: [String]) -> FocusChange {
        if a.allSatisfy(\.isEmpty) { return .nothing }
        return .window(FocusedWindow(appID: a[0].isEmpty ? a[1] : a[0], instance: a[0].isEmpty ? "" : a[1], title: a[2]))
    }

    func pending() -> [FocusChange] { defer { changes = [] }; return changes }

    func receive() throws(FocusError) -> [FocusChange] {
        guard let d = dbus, d.process() else { throw FocusError("the session bus closed the connection") }
        if gone { throw FocusError("GNOME Shell's focus extension left the bus") }
        defer { changes = [] }
        return changes
    }

    func takeWarnings() -> [String] { defer { warnings = [] }; return warnings }

    func disconnect() { dbus = nil }
}
