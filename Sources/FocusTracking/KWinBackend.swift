import CSystemd
import LinuxSystem

/// KDE Plasma: a KWin script, loaded over D-Bus (`org.kde.KWin /Scripting
/// org.kde.kwin.Scripting.loadScript`, then `run` on the script object), that calls back into
/// this process with `callDBus` on every activation: `org.gestured.Focus.Changed(app, class,
/// instance, title)` on `/org/gestured/Focus` at this connection's unique bus name. The script
/// uses `workspace.windowActivated` (Plasma 6) or `workspace.clientActivated` (Plasma 5).
final class KWinBackend: FocusBackend {
    let kind = FocusBackendKind.kwin
    let busAddress: String?
    private var dbus: DBusConnection?
    private var changes: [FocusChange] = []
    private var warnings: [String] = []
    private var scriptPath = ""
    static let objectPath = "/org/gestured/Focus"
    static let interface = "org.gestured.Focus"
    private var plugin: String { "gestured-focus-\(CurrentProcess.id)" }

    init(busAddress: String?) { self.busAddress = busAddress }

    var endpoint: String { "org.kde.KWin on the session bus (script \(plugin))" }

    /// The script KWin runs; `service` is where it reports.
    static func script(service: String) -> String {
        """
        // Written by gestured listen: reports the active window to \(service).
        function report(w) {
            var s = function (v) { return v === undefined || v === null ? "" : String(v); };
            callDBus("\(service)", "\(objectPath)", "\(interface)", "Changed",
                     w ? s(w.desktopFileName) : "", w ? s(w.resourceClass) : "",
                     w ? s(w.resourceName) : "", w ? s(w.caption) : "");
        }
        var activated = workspace.windowActivated || workspace.clientActivated;
        activated.connect(report);
        report(workspace.activeWindow !== undefined ? workspace.activeWindow : workspace.activeClient);
        """
    }

    func connect() throws(FocusError) -> Int32 {
        let d = try DBusConnection(address: busAddress)
        changes = []
        var slot: OpaquePointer?
        let me = Unmanaged.passUnretained(self).toOpaque()
        let r = gsd_bus_add_object(d.bus, &slot, KWinBackend.objectPath, { m, data, _ in
            KWinBackend.handle(m, Unmanaged<KWinBackend>.fromOpaque(data!).takeUnretainedValue())
        }, me)
        guard r >= 0 else { throw FocusError("cannot export \(KWinBackend.objectPath): \(DBusConnection.message(r))") }
        d.keep(slot)
        dbus = d
        // In the user's private runtime directory: KWin runs whatever this file says.
        let dir = CurrentProcess.environmentValue("XDG_RUNTIME_DIR") ?? "/tmp"
        scriptPath = "\(dir)/gestured-kwin-focus-\(CurrentProcess.id).js"
        try writeScript(KWinBackend.script(service: d.uniqueName))
        // A script of ours left from before (same pid after a reconnect) is replaced.
        if let old = try? d.call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "unloadScript", [plugin]) {
            gsd_bus_message_unref(old)
        }
        let reply = try d.call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "loadScript", [scriptPath, plugin])
        var id: Int32 = -1
        gsd_bus_message_read_basic(reply, CChar(UInt8(ascii: "i")), &id)
        gsd_bus_message_unref(reply)
        guard id >= 0 else { throw FocusError("KWin did not load the focus script (loadScript returned \(id))") }
        // Plasma 6 puts the script at /Scripting/ScriptN, Plasma 5 at /N.
        var ran = false
        var last = ""
        for path in ["/Scripting/Script\(id)", "/\(id)"] where !ran {
            do { gsd_bus_message_unref(try d.call("org.kde.KWin", path, "org.kde.kwin.Script", "run")); ran = true }
            catch { last = error.description }
        }
        guard ran else { throw FocusError("KWin loaded the focus script but did not run it: \(last)") }
        return d.fd
    }

    private func writeScript(_ text: String) throws(FocusError) {
        try? FileSystem.remove(scriptPath)
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(scriptPath, .createNew(permissions: 0o600)) } catch {
            throw FocusError("cannot write \(scriptPath): \(error)")
        }
        defer { fd.close() }
        do { try fd.writeAll(Array(text.utf8)) } catch { throw FocusError("cannot write \(scriptPath): \(error)") }
    }

    private static func handle(_ m: OpaquePointer?, _ b: KWinBackend) -> Int32 {
        guard let m, gsd_bus_message_is_method_call(m, interface, "Changed") > 0 else { return 0 }
        if let a = DBusConnection.strings(m, 4) {
            let app = a[0].isEmpty ? a[1] : a[0]
            if app.isEmpty && a[1].isEmpty && a[2].isEmpty && a[3].isEmpty { b.changes.append(.nothing) }
            else {
                var w = FocusedWindow(appID: app, instance: a[2], title: a[3])
                if !a[0].isEmpty && !a[1].isEmpty && a[1] != a[0] && a[2].isEmpty { w.instance = a[1] }
                b.changes.append(.window(w))
            }
        } else {
            b.warnings.append("skipped a Changed call without four strings")
        }
        var reply: OpaquePointer?
        if gsd_bus_message_new_method_return(m, &reply) >= 0 {
            gsd_bus_send(nil, reply, nil)
            gsd_bus_message_unref(reply)
        }
        return 1
    }

    func receive() throws(FocusError) -> [FocusChange] {
        guard let d = dbus, d.process() else { throw FocusError("the session bus closed the connection") }
        defer { changes = [] }
        return changes
    }

    func takeWarnings() -> [String] { defer { warnings = [] }; return warnings }

    func disconnect() {
        if let d = dbus, let r = try? d.call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "unloadScript", [plugin]) {
            gsd_bus_message_unref(r)
        }
        dbus = nil
        if !scriptPath.isEmpty { try? FileSystem.remove(scriptPath) }
    }
}
