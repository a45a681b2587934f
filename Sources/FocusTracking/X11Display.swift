import CXCB

/// An X server connection and the root window of the screen `DISPLAY` names, opened alike for
/// the focus (X11Backend) and the screen's turns (X11Screen).
enum X11Display {
    /// Connects to `display`. A failed connect still returns a connection, in its error state,
    /// which is freed here.
    static func open(_ display: String?) throws(FocusError) -> (connection: OpaquePointer, root: xcb_window_t) {
        guard let display, !display.isEmpty else { throw FocusError("DISPLAY is not set") }
        var screenNumber: Int32 = 0
        guard let c = xcb_connect(display, &screenNumber) else { throw FocusError("cannot connect to the X server at \(display)") }
        guard xcb_connection_has_error(c) == 0 else {
            xcb_disconnect(c)
            throw FocusError("cannot connect to the X server at \(display)")
        }
        var it = xcb_setup_roots_iterator(xcb_get_setup(c))
        for _ in 0..<max(0, Int(screenNumber)) where it.rem > 0 { xcb_screen_next(&it) }
        guard let screen = it.data else {
            xcb_disconnect(c)
            throw FocusError("the X server has no screen \(screenNumber)")
        }
        return (c, screen.pointee.root)
    }
}
