import GestureWire

/// Hyprland: its event socket (`.socket2.sock` under `$XDG_RUNTIME_DIR/hypr/SIGNATURE/`, or
/// `/tmp/hypr/SIGNATURE/` before Hyprland 0.40), one `EVENT>>DATA` line per event. Focus is
/// `activewindow>>CLASS,TITLE` (`activewindow>>,` when no window has it). The window focused at
/// connection time comes from one `j/activewindow` request on the command socket (`.socket.sock`).
final class HyprlandBackend: FocusBackend {
    let kind = FocusBackendKind.hyprland
    private let directories: [String]
    private var stream: UnixStream?
    private var lines = LineSplitter(maximumLineBytes: 1 << 20)
    private var warnings: [String] = []
    private(set) var endpoint = ""

    init(_ env: [String: String]) { directories = Self.socketDirectories(env) }

    /// Where this Hyprland instance's sockets may be: $XDG_RUNTIME_DIR/hypr/SIGNATURE (0.40 on),
    /// then /tmp/hypr/SIGNATURE (before); none without HYPRLAND_INSTANCE_SIGNATURE.
    static func socketDirectories(_ env: [String: String]) -> [String] {
        guard let sig = env["HYPRLAND_INSTANCE_SIGNATURE"], !sig.isEmpty else { return [] }
        var dirs: [String] = []
        if let run = env["XDG_RUNTIME_DIR"], !run.isEmpty { dirs.append("\(run)/hypr/\(sig)") }
        dirs.append("/tmp/hypr/\(sig)")
        return dirs
    }

    func connect() throws(FocusError) -> Int32 {
        let (s, dir) = try Self.connectEvents(directories)
        stream = s
        lines = LineSplitter(maximumLineBytes: 1 << 20)
        endpoint = dir + "/.socket2.sock"
        initial = initialFocus(dir)
        return s.fd
    }

    /// The event socket (`.socket2.sock`) of the first of `directories` that answers, and that
    /// directory; every failure said when none does.
    static func connectEvents(_ directories: [String]) throws(FocusError) -> (UnixStream, String) {
        guard !directories.isEmpty else { throw FocusError("HYPRLAND_INSTANCE_SIGNATURE is not set") }
        var errors: [String] = []
        for dir in directories {
            do { return (try UnixStream.connect(dir + "/.socket2.sock"), dir) } catch { errors.append(error.description) }
        }
        throw FocusError(errors.joined(separator: "; "))
    }

    func disconnect() { stream = nil }

    func takeWarnings() -> [String] { defer { warnings = [] }; return warnings + lines.takeLongLineWarning() }

    func receive() throws(FocusError) -> [FocusChange] {
        guard let s = stream else { throw FocusError("not connected") }
        var out: [FocusChange] = []
        for line in try lines.feed(s) {
            let text = String(decoding: line, as: UTF8.self)
            guard text.hasPrefix("activewindow>>") else { continue }
            out.append(HyprlandBackend.parse(activeWindow: String(text.dropFirst("activewindow>>".count))))
        }
        return out
    }

    private var initial: FocusChange?

    func pending() -> [FocusChange] { defer { initial = nil }; return initial.map { [$0] } ?? [] }

    /// Once per connection: the window focused now.
    private func initialFocus(_ dir: String) -> FocusChange? {
        do {
            let s = try UnixStream.connect(dir + "/.socket.sock")
            try s.write(Array("j/activewindow".utf8))
            let reply = try s.readToEnd(limit: 1 << 20)
            guard let o = try? JSON.parse(reply) as? [String: Any] else {
                warnings.append("Hyprland's j/activewindow reply is not a JSON object"); return nil
            }
            guard let cls = o.string("class") else { return .nothing }   // `{}`: no window
            return .window(FocusedWindow(appID: cls, instance: o.string("initialClass") ?? "", title: o.string("title") ?? ""))
        } catch {
            warnings.append("cannot ask Hyprland for the focused window: \(error.description)")
            return nil
        }
    }

    /// `CLASS,TITLE`: the class has no comma, the title may.
    static func parse(activeWindow data: String) -> FocusChange {
        guard let comma = data.firstIndex(of: ",") else {
            return data.isEmpty ? .nothing : .window(FocusedWindow(appID: data, title: ""))
        }
        let cls = String(data[..<comma]), title = String(data[data.index(after: comma)...])
        if cls.isEmpty && title.isEmpty { return .nothing }
        return .window(FocusedWindow(appID: cls, title: title))
    }
}
