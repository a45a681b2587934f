import CXCB
import LinuxSystem

/// X11 through libxcb: the root window's `_NET_ACTIVE_WINDOW` (set by every EWMH window manager)
/// and that window's `WM_CLASS` (instance and class) and `_NET_WM_NAME`/`WM_NAME`, following
/// PropertyNotify events on the root window and on the active window. Nothing is polled.
final class X11Backend: FocusBackend {
    let kind = FocusBackendKind.x11
    let display: String?
    private var connection: OpaquePointer?
    private var root: xcb_window_t = 0
    private var active: xcb_window_t = 0
    private var atoms: [String: xcb_atom_t] = [:]
    private var warnings: [String] = []
    private var initial: [FocusChange] = []
    private var warnedNoEWMH = false

    init(display: String?) { self.display = display }

    var endpoint: String { "DISPLAY \(display ?? "")" }

    func connect() throws(FocusError) -> Int32 {
        let (c, root) = try X11Display.open(display)
        connection = c
        self.root = root
        for name in ["_NET_ACTIVE_WINDOW", "_NET_WM_NAME", "UTF8_STRING"] { atoms[name] = intern(name) }
        selectPropertyChanges(root)
        active = 0
        initial = [refresh()]
        xcb_flush(c)
        return xcb_get_file_descriptor(c)
    }

    func disconnect() {
        if let c = connection { xcb_disconnect(c) }
        connection = nil
    }

    func takeWarnings() -> [String] { defer { warnings = [] }; return warnings }
    func pending() -> [FocusChange] { defer { initial = [] }; return initial }

    func receive() throws(FocusError) -> [FocusChange] {
        guard let c = connection else { throw FocusError("not connected") }
        var out: [FocusChange] = []
        // Reading a property queues the events that arrive meanwhile inside xcb, where poll()
        // on the socket no longer sees them: drain again after every refresh.
        while true {
            var dirty = false
            while let event = xcb_poll_for_event(c) {
                defer { CMemory.free(event) }
                guard event.pointee.response_type & 0x7f == UInt8(XCB_PROPERTY_NOTIFY) else { continue }
                let e = UnsafeRawPointer(event).assumingMemoryBound(to: xcb_property_notify_event_t.self).pointee
                if e.window == root && e.atom == atoms["_NET_ACTIVE_WINDOW"] { dirty = true }
                if e.window == active && active != 0
                    && [xcb_atom_t(XCB_ATOM_WM_CLASS.rawValue), xcb_atom_t(XCB_ATOM_WM_NAME.rawValue), atoms["_NET_WM_NAME"]].contains(e.atom) {
                    dirty = true
                }
            }
            if xcb_connection_has_error(c) != 0 { throw FocusError("the X server closed the connection") }
            guard dirty else { break }
            out.append(refresh())
            xcb_flush(c)
        }
        return out
    }

    /// The active window now, and start following its properties.
    private func refresh() -> FocusChange {
        guard let a = atoms["_NET_ACTIVE_WINDOW"],
              let value = property(root, a, type: xcb_atom_t(XCB_ATOM_WINDOW.rawValue), longs: 1) else {
            if !warnedNoEWMH {
                warnings.append("the window manager does not set _NET_ACTIVE_WINDOW (not EWMH?)")
                warnedNoEWMH = true
            }
            return .nothing
        }
        let window: xcb_window_t = value.count >= 4 ? value.withUnsafeBytes { $0.loadUnaligned(as: xcb_window_t.self) } : 0
        if window != active {
            if window != 0 { selectPropertyChanges(window) }
            active = window
        }
        guard window != 0 else { return .nothing }
        let cls = property(window, xcb_atom_t(XCB_ATOM_WM_CLASS.rawValue), type: xcb_atom_t(XCB_ATOM_STRING.rawValue), longs: 256) ?? []
        let parts = cls.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        var title = ""
        if let n = atoms["_NET_WM_NAME"], let u = atoms["UTF8_STRING"], let t = property(window, n, type: u, longs: 1024) {
            title = String(decoding: t, as: UTF8.self)
        } else if let t = property(window, xcb_atom_t(XCB_ATOM_WM_NAME.rawValue), type: xcb_atom_t(XCB_ATOM_ANY.rawValue), longs: 1024) {
            title = String(decoding: t, as: UTF8.self)
        }
        // WM_CLASS is "instance\0class\0".
        return .window(FocusedWindow(appID: parts.count > 1 ? parts[1] : "", instance: parts.first ?? "", title: title))
    }

    private func selectPropertyChanges(_ window: xcb_window_t) {
        guard let c = connection else { return }
        var mask = UInt32(XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue)
        xcb_change_window_attributes(c, window, UInt32(XCB_CW_EVENT_MASK.rawValue), &mask)
    }

    private func intern(_ name: String) -> xcb_atom_t? {
        guard let c = connection else { return nil }
        let cookie = xcb_intern_atom(c, 0, UInt16(name.utf8.count), name)
        guard let reply = xcb_intern_atom_reply(c, cookie, nil) else { return nil }
        defer { CMemory.free(reply) }
        return reply.pointee.atom
    }

    /// A property's bytes; nil when the window or property does not exist.
    private func property(_ window: xcb_window_t, _ atom: xcb_atom_t, type: xcb_atom_t, longs: UInt32) -> [UInt8]? {
        guard let c = connection else { return nil }
        let cookie = xcb_get_property(c, 0, window, atom, type, 0, longs)
        var err: UnsafeMutablePointer<xcb_generic_error_t>?
        guard let reply = xcb_get_property_reply(c, cookie, &err) else { CMemory.free(err); return nil }
        defer { CMemory.free(reply) }
        guard reply.pointee.type != 0 else { return nil }
        let n = Int(xcb_get_property_value_length(reply))
        guard n > 0, let p = xcb_get_property_value(reply) else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: n))
    }
}
