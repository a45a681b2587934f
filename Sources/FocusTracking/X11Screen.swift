import CXCB
import LinuxSystem

/// X11 through xcb-randr: the screen's outputs (RRGetScreenResourcesCurrent, RRGetOutputInfo)
/// and the rotation and reflection of the CRTC each one shows (RRGetCrtcInfo), asked again
/// whenever the server says the screen, a CRTC or an output changed (RRSelectInput on the root
/// window: RRScreenChangeNotify and RRNotify), so a turned screen is pushed, never polled.
/// Needs RandR 1.3 (GetScreenResourcesCurrent does not probe the hardware). Outputs that are
/// disconnected and show nothing are left out (Xorg's dummy driver lists sixteen).
final class X11Screen: ScreenBackend {
    let display: String?
    private var connection: OpaquePointer?
    private var root: xcb_window_t = 0
    private var firstEvent: UInt8 = 0
    private var initial: [ScreenOutput]?

    init(display: String?) { self.display = display }

    var name: String { "X11 RandR" }
    var endpoint: String { "DISPLAY \(display ?? "")" }

    func connect() throws(FocusError) -> Int32 {
        let (c, root) = try X11Display.open(display)
        connection = c
        self.root = root
        guard let ext = gestured_xcb_randr_extension(c), ext.pointee.present != 0 else {
            disconnect(); throw FocusError("the X server at \(display ?? "") has no RandR extension")
        }
        firstEvent = ext.pointee.first_event
        let version = xcb_randr_query_version_reply(c, xcb_randr_query_version(c, 1, 5), nil)
        let (major, minor) = version.map { ($0.pointee.major_version, $0.pointee.minor_version) } ?? (0, 0)
        CMemory.free(version)
        guard major > 1 || (major == 1 && minor >= 3) else {
            disconnect(); throw FocusError("the X server at \(display ?? "") has RandR \(major).\(minor); 1.3 or later is needed")
        }
        let mask = UInt16(XCB_RANDR_NOTIFY_MASK_SCREEN_CHANGE.rawValue | XCB_RANDR_NOTIFY_MASK_CRTC_CHANGE.rawValue
                          | XCB_RANDR_NOTIFY_MASK_OUTPUT_CHANGE.rawValue)
        // Selected before the outputs are read, so no change between the two is missed.
        xcb_randr_select_input(c, root, mask)
        do {
            initial = try outputs()
            // A change that came while the replies were read waits in xcb's queue, where poll()
            // on the socket does not see it.
            while takeRandREvents(xcb_poll_for_queued_event) { initial = try outputs() }
        } catch {
            disconnect()
            throw error
        }
        xcb_flush(c)
        return xcb_get_file_descriptor(c)
    }

    func disconnect() {
        if let c = connection { xcb_disconnect(c) }
        connection = nil
        initial = nil
    }

    func pending() -> [ScreenOutput]? { defer { initial = nil }; return initial }

    func receive() throws(FocusError) -> [ScreenOutput]? {
        guard let c = connection else { throw FocusError("not connected") }
        var latest: [ScreenOutput]?
        // Asking for the outputs queues the events that arrive meanwhile inside xcb, where
        // poll() on the socket no longer sees them: drain again after every read.
        while takeRandREvents(xcb_poll_for_event) { latest = try outputs() }
        if xcb_connection_has_error(c) != 0 { throw FocusError("the X server closed the connection") }
        return latest
    }

    /// Takes every event `next` hands out; true when one of them is RandR's.
    private func takeRandREvents(_ next: (OpaquePointer?) -> UnsafeMutablePointer<xcb_generic_event_t>?) -> Bool {
        var randr = false
        while let event = next(connection) {
            defer { CMemory.free(event) }
            let type = event.pointee.response_type & 0x7f
            if type == firstEvent &+ UInt8(XCB_RANDR_SCREEN_CHANGE_NOTIFY) || type == firstEvent &+ UInt8(XCB_RANDR_NOTIFY) {
                randr = true
            }
        }
        return randr
    }

    /// The outputs in the server's order, each with its CRTC's rotation and reflection.
    private func outputs() throws(FocusError) -> [ScreenOutput] {
        guard let c = connection else { throw FocusError("not connected") }
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        guard let resources = xcb_randr_get_screen_resources_current_reply(c, xcb_randr_get_screen_resources_current(c, root), &error) else {
            CMemory.free(error)
            throw FocusError(xcb_connection_has_error(c) != 0 ? "the X server closed the connection" : "RRGetScreenResourcesCurrent failed")
        }
        defer { CMemory.free(resources) }
        let stamp = resources.pointee.config_timestamp
        let ids = Array(UnsafeBufferPointer(start: xcb_randr_get_screen_resources_current_outputs(resources),
                                            count: Int(xcb_randr_get_screen_resources_current_outputs_length(resources))))
        // Every request first, then the replies: one round trip for all outputs.
        let cookies = ids.map { xcb_randr_get_output_info(c, $0, stamp) }
        var result: [ScreenOutput] = []
        for cookie in cookies {
            // An output removed since the resources were read answers with an error: skipped.
            guard let info = xcb_randr_get_output_info_reply(c, cookie, nil) else { continue }
            defer { CMemory.free(info) }
            let bytes = UnsafeBufferPointer(start: xcb_randr_get_output_info_name(info), count: Int(xcb_randr_get_output_info_name_length(info)))
            let name = String(decoding: bytes, as: UTF8.self)
            let crtc = info.pointee.crtc
            let connected = info.pointee.connection == UInt8(XCB_RANDR_CONNECTION_CONNECTED.rawValue)
            guard crtc != 0 || connected else { continue }
            var rotation: UInt16 = UInt16(XCB_RANDR_ROTATION_ROTATE_0.rawValue)
            if crtc != 0, let crtcInfo = xcb_randr_get_crtc_info_reply(c, xcb_randr_get_crtc_info(c, crtc, stamp), nil) {
                rotation = crtcInfo.pointee.rotation
                CMemory.free(crtcInfo)
            }
            let t = Self.transform(rotation)
            result.append(ScreenOutput(name: name, rotation: t.rotation, flipped: t.flipped, active: connected && crtc != 0))
        }
        return result
    }

    /// A RandR rotation (RR_Rotate_0/90/180/270, RR_Reflect_X/Y bits) as ScreenOutput counts it.
    /// RandR turns counterclockwise (`xrandr -o left` is RR_Rotate_90) and ScreenOutput clockwise;
    /// a reflection in Y is one in X turned by 180°, and both together are only that turn.
    /// Xwayland maps wl_output's transforms one to one onto these (flipped-90 as Reflect_X |
    /// Rotate_90), so an output reads the same here as through WaylandScreen.
    static func transform(_ rotation: UInt16) -> (rotation: Int, flipped: Bool) {
        func has(_ bit: xcb_randr_rotation_t) -> Bool { rotation & UInt16(bit.rawValue) != 0 }
        var quarters = has(XCB_RANDR_ROTATION_ROTATE_90) ? 1 : has(XCB_RANDR_ROTATION_ROTATE_180) ? 2
            : has(XCB_RANDR_ROTATION_ROTATE_270) ? 3 : 0    // counterclockwise
        let reflectX = has(XCB_RANDR_ROTATION_REFLECT_X), reflectY = has(XCB_RANDR_ROTATION_REFLECT_Y)
        if reflectY { quarters += 2 }
        return (((4 - quarters % 4) % 4) * 90, reflectX != reflectY)
    }
}
