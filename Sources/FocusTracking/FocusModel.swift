import GestureConfig

/// The focused window as a desktop reports it.
public struct FocusedWindow: Hashable, Sendable {
    /// The Wayland app_id, or the X11 WM_CLASS class (KWin: the desktop file name or class).
    public var appID: String
    /// The X11 WM_CLASS instance (KWin: resourceName), when the desktop gives one.
    public var instance: String
    public var title: String

    public init(appID: String, instance: String = "", title: String) {
        self.appID = appID; self.instance = instance; self.title = title
    }

    /// The ids `app:` is matched against: every non-empty one, without repeats.
    public var ids: [String] {
        var out: [String] = []
        for id in [appID, instance] where !id.isEmpty && !out.contains(id) { out.append(id) }
        return out
    }
}

/// What one backend message says about the focus.
public enum FocusChange: Hashable, Sendable {
    case window(FocusedWindow)
    /// No window has the focus (an empty workspace, the desktop).
    case nothing

    public var appFocus: AppFocus {
        switch self {
        case .window(let w): return .app(ids: w.ids)
        case .nothing: return .nothing
        }
    }
}

/// Why a backend cannot run or stopped: one sentence for the user.
public struct FocusError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// One desktop's way of telling which window has the focus. A backend is used by one thread (the
/// tracker's): `connect` opens it and returns a descriptor to poll for input; `receive` is
/// called when that descriptor is readable and returns what changed, in order; a thrown error
/// means the connection is gone and the tracker reconnects later. Focus changes are pushed by the
/// desktop; no backend polls.
public protocol FocusBackend: AnyObject {
    var kind: FocusBackendKind { get }
    /// Where it connected, for the log (`SWAYSOCK /run/user/1000/sway-ipc.1000.1234.sock`).
    var endpoint: String { get }
    func connect() throws(FocusError) -> Int32
    func receive() throws(FocusError) -> [FocusChange]
    /// Problems that did not break the connection (a malformed message skipped), to log once.
    func takeWarnings() -> [String]
    /// What `connect` already learnt (a backend that asks for the focus while connecting).
    func pending() -> [FocusChange]
    func disconnect()
}

extension FocusBackend {
    public func takeWarnings() -> [String] { [] }
    public func pending() -> [FocusChange] { [] }
}

/// The backends, in the order `auto` tries the ones the session's environment points to.
public enum FocusBackendKind: String, CaseIterable, Hashable, Sendable {
    case hyprland, niri, sway, i3, kwin, gnome, wlr, x11

    /// What the user reads: `--focus-backend NAME` takes these names.
    public var summary: String {
        switch self {
        case .hyprland: return "Hyprland's event socket (HYPRLAND_INSTANCE_SIGNATURE)"
        case .niri: return "niri's event stream (NIRI_SOCKET)"
        case .sway: return "sway's IPC socket (SWAYSOCK)"
        case .i3: return "i3's IPC socket (I3SOCK)"
        case .kwin: return "a KWin script over D-Bus (KDE Plasma)"
        case .gnome: return "the gestured GNOME Shell extension over D-Bus"
        case .wlr: return "wlr-foreign-toplevel-management (WAYLAND_DISPLAY)"
        case .x11: return "X11 _NET_ACTIVE_WINDOW and WM_CLASS (DISPLAY)"
        }
    }
}
