import GestureWire

/// niri: its IPC socket (`NIRI_SOCKET`), sent the request `"EventStream"`; it answers
/// `{"Ok":"Handled"}` and then one JSON event per line. The backend keeps the window list from
/// `WindowsChanged`, `WindowOpenedOrChanged` and `WindowClosed`, and the focus from
/// `WindowFocusChanged` (`{"id": null}`: no window) and each window's `is_focused`.
final class NiriBackend: FocusBackend {
    let kind = FocusBackendKind.niri
    let socketPath: String
    private var stream: UnixStream?
    private var lines = LineSplitter(maximumLineBytes: 4 << 20)
    private var warnings: [String] = []
    private var windows: [Int: FocusedWindow] = [:]
    private var focusedID: Int?

    init(socketPath: String) { self.socketPath = socketPath }

    var endpoint: String { "NIRI_SOCKET \(socketPath)" }

    func connect() throws(FocusError) -> Int32 {
        guard !socketPath.isEmpty else { throw FocusError("NIRI_SOCKET is not set") }
        let s = try UnixStream.connect(socketPath)
        try s.write(Array("\"EventStream\"\n".utf8))
        stream = s
        lines = LineSplitter(maximumLineBytes: 4 << 20)
        windows = [:]; focusedID = nil
        return s.fd
    }

    func disconnect() { stream = nil }

    func takeWarnings() -> [String] { defer { warnings = [] }; return warnings + lines.takeLongLineWarning() }

    func receive() throws(FocusError) -> [FocusChange] {
        guard let s = stream else { throw FocusError("not connected") }
        var out: [FocusChange] = []
        for line in try lines.feed(s) {
            guard let o = try? JSON.parse(line) as? [String: Any] else {
                warnings.append("skipped a niri line that is not a JSON object"); continue
            }
            if let err = o["Err"] { throw FocusError("niri refused the event stream: \(err)") }
            if let c = try apply(o) { out.append(c) }
        }
        return out
    }

    /// Applies one event; the focus after it when the event can change it.
    private func apply(_ o: [String: Any]) throws(FocusError) -> FocusChange? {
        if let e = o.object("WindowsChanged") {
            windows = [:]; focusedID = nil
            for case let w as [String: Any] in (e["windows"] as? [Any]) ?? [] { remember(w) }
            return focus
        }
        if let e = o.object("WindowOpenedOrChanged"), let w = e.object("window") {
            remember(w)
            return focus
        }
        if let e = o.object("WindowClosed"), let id = (e["id"] as? Double).map({ Int($0) }) {
            windows[id] = nil
            if focusedID == id { focusedID = nil }
            return focus
        }
        if let e = o.object("WindowFocusChanged") {
            if let id = e["id"] as? Double { focusedID = Int(id) }
            else if e["id"] is JSONNull { focusedID = nil }
            else { warnings.append("skipped a WindowFocusChanged without a numeric id"); return nil }
            return focus
        }
        return nil
    }

    private func remember(_ w: [String: Any]) {
        guard let id = (w["id"] as? Double).map({ Int($0) }) else { warnings.append("a niri window without an id"); return }
        windows[id] = FocusedWindow(appID: w.string("app_id") ?? "", title: w.string("title") ?? "")
        if w["is_focused"] as? Bool == true { focusedID = id } else if focusedID == id { focusedID = nil }
    }

    private var focus: FocusChange {
        guard let id = focusedID else { return .nothing }
        return .window(windows[id] ?? FocusedWindow(appID: "", title: ""))
    }
}
