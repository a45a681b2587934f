import LinuxSystem

/// Picks focus backends from the session's environment.
public enum BackendSelection {
    /// The backends worth trying for this environment, best first, each with the variable that
    /// pointed to it. A desktop-specific one comes before the generic Wayland and X11 ones (an
    /// XWayland DISPLAY sees only X11 windows).
    public static func candidates(_ env: [String: String]) -> [(FocusBackendKind, String)] {
        func has(_ k: String) -> Bool { !(env[k] ?? "").isEmpty }
        let desktop = (env["XDG_CURRENT_DESKTOP"] ?? "").lowercased().split(separator: ":").map(String.init)
        var out: [(FocusBackendKind, String)] = []
        if has("HYPRLAND_INSTANCE_SIGNATURE") { out.append((.hyprland, "HYPRLAND_INSTANCE_SIGNATURE is set")) }
        if has("NIRI_SOCKET") { out.append((.niri, "NIRI_SOCKET is set")) }
        if has("SWAYSOCK") { out.append((.sway, "SWAYSOCK is set")) }
        if has("I3SOCK") { out.append((.i3, "I3SOCK is set")) }
        if desktop.contains("kde") { out.append((.kwin, "XDG_CURRENT_DESKTOP=\(env["XDG_CURRENT_DESKTOP"]!)")) }
        if desktop.contains("gnome") { out.append((.gnome, "XDG_CURRENT_DESKTOP=\(env["XDG_CURRENT_DESKTOP"]!)")) }
        if has("WAYLAND_DISPLAY") { out.append((.wlr, "WAYLAND_DISPLAY is set")) }
        if has("DISPLAY") { out.append((.x11, "DISPLAY is set")) }
        return out
    }

    /// A backend of `kind` for this environment.
    public static func make(_ kind: FocusBackendKind, _ env: [String: String]) -> FocusBackend {
        switch kind {
        case .sway: return SwayBackend(kind: .sway, socketPath: env["SWAYSOCK"] ?? "")
        case .i3: return SwayBackend(kind: .i3, socketPath: env["I3SOCK"] ?? "")
        case .hyprland: return HyprlandBackend(env)
        case .niri: return NiriBackend(socketPath: env["NIRI_SOCKET"] ?? "")
        case .x11: return X11Backend(display: env["DISPLAY"])
        case .wlr: return WlrToplevelBackend(display: env["WAYLAND_DISPLAY"])
        case .kwin: return KWinBackend(busAddress: env["DBUS_SESSION_BUS_ADDRESS"])
        case .gnome: return GnomeBackend(busAddress: env["DBUS_SESSION_BUS_ADDRESS"])
        }
    }

    /// This process's environment.
    public static func processEnvironment() -> [String: String] {
        CurrentProcess.environment
    }
}
