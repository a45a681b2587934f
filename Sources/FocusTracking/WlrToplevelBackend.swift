import CWlrForeignToplevel
import LinuxSystem

/// Any wlroots compositor (sway, river, labwc, Wayfire, …): the wlr-foreign-toplevel-management
/// protocol through libwayland-client. Every toplevel's title, app_id and state arrive as events,
/// each batch closed by `done`; the toplevel whose state holds `activated` has the focus.
final class WlrToplevelBackend: FocusBackend {
    let kind = FocusBackendKind.wlr
    let display: String?
    private var connection: OpaquePointer?
    private var registry: OpaquePointer?
    private var manager: OpaquePointer?
    private var managerName: UInt32?
    private var managerVersion: UInt32 = 0
    private var finished = false

    private struct Toplevel {
        var title = "", appID = "", activated = false
        var pendingTitle: String?, pendingAppID: String?, pendingActivated: Bool?
    }
    private var toplevels: [OpaquePointer: Toplevel] = [:]
    private var lastReported: FocusChange?
    private var initial: [FocusChange] = []

    init(display: String?) { self.display = display }

    var endpoint: String { "WAYLAND_DISPLAY \(display ?? "")" }

    func connect() throws(FocusError) -> Int32 {
        guard let display, !display.isEmpty else { throw FocusError("WAYLAND_DISPLAY is not set") }
        guard let c = wl_display_connect(display) else { throw FocusError("cannot connect to the Wayland display \(display)") }
        connection = c
        toplevels = [:]; managerName = nil; finished = false; lastReported = nil
        let me = Unmanaged.passUnretained(self).toOpaque()
        registry = wl_display_get_registry(c)
        wl_registry_add_listener(registry, &WlrToplevelBackend.registryListener, me)
        wl_display_roundtrip(c)
        guard let name = managerName else {
            disconnect()
            throw FocusError("the compositor does not offer zwlr_foreign_toplevel_manager_v1 (GNOME and KDE have their own backends)")
        }
        let bound = wl_registry_bind(registry, name, gestured_wlr_toplevel_manager_interface(), min(managerVersion, 3))
        manager = OpaquePointer(bound)
        zwlr_foreign_toplevel_manager_v1_add_listener(manager, &WlrToplevelBackend.managerListener, me)
        wl_display_roundtrip(c)    // the toplevels…
        wl_display_roundtrip(c)    // …and their first title, app_id, state and done
        initial = [currentFocus()]
        lastReported = initial.first
        return wl_display_get_fd(c)
    }

    func pending() -> [FocusChange] { defer { initial = [] }; return initial }

    func disconnect() {
        for h in toplevels.keys { zwlr_foreign_toplevel_handle_v1_destroy(h) }
        toplevels = [:]
        if let m = manager { zwlr_foreign_toplevel_manager_v1_destroy(m) }
        if let r = registry { wl_registry_destroy(r) }
        if let c = connection { wl_display_disconnect(c) }
        manager = nil; registry = nil; connection = nil
    }

    func receive() throws(FocusError) -> [FocusChange] {
        guard let c = connection else { throw FocusError("not connected") }
        while wl_display_prepare_read(c) != 0 { _ = wl_display_dispatch_pending(c) }
        if wl_display_read_events(c) < 0 || wl_display_dispatch_pending(c) < 0 || wl_display_get_error(c) != 0 {
            let e = SystemError(code: wl_display_get_error(c))
            throw FocusError(e == .brokenPipe || e.code == 0 ? "the compositor closed the connection" : "Wayland error: \(e)")
        }
        _ = wl_display_flush(c)
        if finished { throw FocusError("the compositor stopped the toplevel list") }
        let now = currentFocus()
        guard now != lastReported else { return [] }
        lastReported = now
        return [now]
    }

    private func currentFocus() -> FocusChange {
        guard let t = toplevels.values.first(where: { $0.activated }) else { return .nothing }
        return .window(FocusedWindow(appID: t.appID, title: t.title))
    }

    // MARK: listeners (C callbacks; `data` is the backend)

    private static func me(_ data: UnsafeMutableRawPointer?) -> WlrToplevelBackend {
        Unmanaged<WlrToplevelBackend>.fromOpaque(data!).takeUnretainedValue()
    }

    nonisolated(unsafe) static var registryListener = wl_registry_listener(
        global: { data, _, name, interface, version in
            guard let interface, String(cString: interface) == "zwlr_foreign_toplevel_manager_v1" else { return }
            let b = me(data)
            b.managerName = name; b.managerVersion = version
        },
        global_remove: { _, _, _ in })

    nonisolated(unsafe) static var managerListener = zwlr_foreign_toplevel_manager_v1_listener(
        toplevel: { data, _, handle in
            guard let handle else { return }
            me(data).toplevels[handle] = Toplevel()
            zwlr_foreign_toplevel_handle_v1_add_listener(handle, &WlrToplevelBackend.handleListener, data)
        },
        finished: { data, _ in me(data).finished = true })

    nonisolated(unsafe) static var handleListener = zwlr_foreign_toplevel_handle_v1_listener(
        title: { data, h, title in
            guard let h, let title else { return }
            me(data).toplevels[h]?.pendingTitle = String(cString: title)
        },
        app_id: { data, h, appID in
            guard let h, let appID else { return }
            me(data).toplevels[h]?.pendingAppID = String(cString: appID)
        },
        output_enter: { _, _, _ in },
        output_leave: { _, _, _ in },
        state: { data, h, array in
            guard let h, let array else { return }
            let count = array.pointee.size / MemoryLayout<UInt32>.size
            let states = array.pointee.data.map { UnsafeBufferPointer(start: $0.assumingMemoryBound(to: UInt32.self), count: count) }
            let activated = states?.contains(ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_ACTIVATED.rawValue) ?? false
            me(data).toplevels[h]?.pendingActivated = activated
        },
        done: { data, h in
            guard let h, var t = me(data).toplevels[h] else { return }
            if let v = t.pendingTitle { t.title = v }
            if let v = t.pendingAppID { t.appID = v }
            if let v = t.pendingActivated { t.activated = v }
            t.pendingTitle = nil; t.pendingAppID = nil; t.pendingActivated = nil
            me(data).toplevels[h] = t
        },
        closed: { data, h in
            guard let h else { return }
            me(data).toplevels[h] = nil
            zwlr_foreign_toplevel_handle_v1_destroy(h)
        },
        parent: { _, _, _ in })
}
