import CWaylandClient
import CXdgOutput
import LinuxSystem

/// Any Wayland compositor (sway, Hyprland, niri, KWin, Mutter, labwc…): the core `wl_output`
/// globals through libwayland-client. Each output sends its `transform` in `geometry` and its
/// connector `name` (version 4), closed by `done`; the compositor sends them again whenever
/// they change, so a turned screen is pushed, never polled. The protocol's transform turns
/// counterclockwise: sway's `transform 90` (clockwise, sway-output(5)) arrives as
/// WL_OUTPUT_TRANSFORM_270. A compositor whose wl_output is older than version 4 (Mutter 43
/// offers 3) names its outputs through xdg-output (`zxdg_output_v1.name`, version 2 on) instead.
final class WaylandScreen: ScreenBackend {
    let display: String?
    private var connection: OpaquePointer?
    private var registry: OpaquePointer?
    private var xdgManager: OpaquePointer?

    private struct Output {
        var globalName: UInt32
        var name: String?, transform: Int32 = 0
        var pendingName: String?, pendingTransform: Int32?
        var seen = false
        var xdg: OpaquePointer?
    }
    private var outputs: [OpaquePointer: Output] = [:]
    private var changed = false

    init(display: String?) { self.display = display }

    var name: String { "Wayland wl_output" }
    var endpoint: String { "WAYLAND_DISPLAY \(display ?? "")" }

    func connect() throws(FocusError) -> Int32 {
        guard let display, !display.isEmpty else { throw FocusError("WAYLAND_DISPLAY is not set") }
        guard let c = wl_display_connect(display) else { throw FocusError("cannot connect to the Wayland display \(display)") }
        connection = c
        outputs = [:]
        let me = Unmanaged.passUnretained(self).toOpaque()
        registry = wl_display_get_registry(c)
        wl_registry_add_listener(registry, &WaylandScreen.registryListener, me)
        wl_display_roundtrip(c)    // the globals (outputs bound as they are announced)…
        wl_display_roundtrip(c)    // …and each output's geometry, name and done
        changed = false
        return wl_display_get_fd(c)
    }

    func pending() -> [ScreenOutput]? { current }

    func disconnect() {
        for (o, v) in outputs {
            if let x = v.xdg { wl_proxy_destroy(x) }
            wl_proxy_destroy(o)
        }
        outputs = [:]
        if let m = xdgManager { wl_proxy_destroy(m) }
        xdgManager = nil
        if let r = registry { wl_registry_destroy(r) }
        if let c = connection { wl_display_disconnect(c) }
        registry = nil; connection = nil
    }

    func receive() throws(FocusError) -> [ScreenOutput]? {
        guard let c = connection else { throw FocusError("not connected") }
        while wl_display_prepare_read(c) != 0 { _ = wl_display_dispatch_pending(c) }
        if wl_display_read_events(c) < 0 || wl_display_dispatch_pending(c) < 0 || wl_display_get_error(c) != 0 {
            let e = SystemError(code: wl_display_get_error(c))
            throw FocusError(e == .brokenPipe || e.code == 0 ? "the compositor closed the connection" : "Wayland error: \(e)")
        }
        _ = wl_display_flush(c)
        guard changed else { return nil }
        changed = false
        return current
    }

    /// The outputs in the order the compositor announced them; an output of a compositor older
    /// than wl_output version 4 has no name ("output N").
    var current: [ScreenOutput] {
        outputs.values.filter(\.seen).sorted { $0.globalName < $1.globalName }.map { o in
            // The protocol counts counterclockwise (WL_OUTPUT_TRANSFORM_90: "90 degrees
            // counter-clockwise"); ScreenOutput counts clockwise, as sway's `transform` does.
            let t = Int(o.transform) & 7
            return ScreenOutput(name: o.name ?? "output \(o.globalName)", rotation: ((4 - t % 4) % 4) * 90, flipped: t >= 4)
        }
    }

    // MARK: listeners (C callbacks; `data` is the backend)

    private static func me(_ data: UnsafeMutableRawPointer?) -> WaylandScreen {
        Unmanaged<WaylandScreen>.fromOpaque(data!).takeUnretainedValue()
    }

    nonisolated(unsafe) static var registryListener = wl_registry_listener(
        global: { data, registry, name, interface, version in
            guard let interface else { return }
            let b = me(data)
            switch String(cString: interface) {
            case "wl_output":
                guard let bound = wl_registry_bind(registry, name, withUnsafePointer(to: wl_output_interface) { $0 }, min(version, 4)) else { return }
                let output = OpaquePointer(bound)
                b.outputs[output] = Output(globalName: name)
                wl_output_add_listener(output, &WaylandScreen.outputListener, data)
                if version < 4 { b.askXdgName(output, data) }
            case "zxdg_output_manager_v1" where version >= 2:
                guard b.xdgManager == nil, let bound = wl_registry_bind(registry, name, gestured_xdg_output_manager_interface(), min(version, 3)) else { return }
                b.xdgManager = OpaquePointer(bound)
                for o in b.outputs.keys { b.askXdgName(o, data) }
            default: return
            }
        },
        global_remove: { data, _, name in
            let b = me(data)
            for (o, v) in b.outputs where v.globalName == name {
                b.outputs[o] = nil
                if let x = v.xdg { wl_proxy_destroy(x) }
                wl_proxy_destroy(o)
                b.changed = true
            }
        })

    /// Asks xdg-output for the output's name, once the manager is known; wl_output version 4
    /// says it itself, so this is only for older outputs.
    private func askXdgName(_ output: OpaquePointer, _ data: UnsafeMutableRawPointer?) {
        guard let m = xdgManager, let v = outputs[output], v.xdg == nil,
              wl_proxy_get_version(output) < 4, let x = zxdg_output_manager_v1_get_xdg_output(m, output) else { return }
        outputs[output]?.xdg = x
        zxdg_output_v1_add_listener(x, &WaylandScreen.xdgOutputListener, data)
    }

    /// xdg-output's name of an output: held with the output's other pending values; version 3
    /// closes it with the output's `done`, versions 1 and 2 with their own `done`.
    nonisolated(unsafe) static var xdgOutputListener = zxdg_output_v1_listener(
        logical_position: { _, _, _, _ in },
        logical_size: { _, _, _, _ in },
        done: { data, x in
            let b = me(data)
            guard let x, let o = b.outputs.first(where: { $0.value.xdg == x })?.key else { return }
            b.outputDone(o)
        },
        name: { data, x, name in
            let b = me(data)
            guard let x, let name, let o = b.outputs.first(where: { $0.value.xdg == x })?.key else { return }
            b.outputs[o]?.pendingName = String(cString: name)
        },
        description: { _, _, _ in })

    private func outputDone(_ o: OpaquePointer) {
        guard var v = outputs[o] else { return }
        let before = (v.name, v.transform, v.seen)
        if let n = v.pendingName { v.name = n }
        if let t = v.pendingTransform { v.transform = t }
        v.pendingName = nil; v.pendingTransform = nil; v.seen = true
        outputs[o] = v
        if before != (v.name, v.transform, v.seen) { changed = true }
    }

    nonisolated(unsafe) static var outputListener = wl_output_listener(
        geometry: { data, o, _, _, _, _, _, _, _, transform in
            guard let o else { return }
            me(data).outputs[o]?.pendingTransform = transform
        },
        mode: { _, _, _, _, _, _ in },
        done: { data, o in
            guard let o else { return }
            me(data).outputDone(o)
        },
        scale: { _, _, _ in },
        name: { data, o, name in
            guard let o, let name else { return }
            me(data).outputs[o]?.pendingName = String(cString: name)
        },
        description: { _, _, _ in })
}
