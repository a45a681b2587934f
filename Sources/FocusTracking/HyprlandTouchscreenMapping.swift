import GestureWire

/// Hyprland's touchscreen mapping: the option `input:touchdevice:output`, which maps every touch
/// device to one output (`[[Auto]]`, its default, or empty: Hyprland's own choice), asked with
/// `j/getoption input:touchdevice:output` on the command socket (`.socket.sock`, found as
/// HyprlandBackend finds its sockets). The reply's `str` holds it in both of Hyprland's shapes:
/// `{"option", "int", "float", "str", "data", "set"}` before hyprlang (0.33) and `{"option",
/// "str", "set"}` after. Read again on the event socket's `configreloaded>>`, when the config
/// (and so the option) may have changed. A per-device `device { name = …; output = … }` is not
/// in getoption's reach, so it is not followed.
final class HyprlandTouchscreenMapping: TouchscreenMappingSource {
    private let directories: [String]
    private var directory = ""
    private var stream: UnixStream?
    private var lines = LineSplitter(maximumLineBytes: 1 << 20)
    private var initial: TouchscreenMapping?
    static let option = "input:touchdevice:output"

    init(_ env: [String: String]) { directories = HyprlandBackend.socketDirectories(env) }

    var name: String { "Hyprland" }
    var endpoint: String { directory + "/.socket.sock" }

    func connect() throws(FocusError) -> Int32 {
        let (s, dir) = try HyprlandBackend.connectEvents(directories)
        stream = s
        directory = dir
        lines = LineSplitter(maximumLineBytes: 1 << 20)
        initial = try ask()
        return s.fd
    }

    func disconnect() { stream = nil }

    func pending() -> TouchscreenMapping? { defer { initial = nil }; return initial }

    func receive() throws(FocusError) -> TouchscreenMapping? {
        guard let s = stream else { throw FocusError("not connected") }
        var reload = false
        for line in try lines.feed(s) where line.starts(with: Array("configreloaded>>".utf8)) { reload = true }
        return reload ? try ask() : nil
    }

    /// One request on the command socket, which Hyprland answers and closes.
    private func ask() throws(FocusError) -> TouchscreenMapping {
        let s = try UnixStream.connect(directory + "/.socket.sock")
        try s.write(Array("j/getoption \(Self.option)".utf8))
        return Self.mapping(try s.readToEnd(limit: 1 << 16))
    }

    static func mapping(_ reply: [UInt8]) -> TouchscreenMapping {
        guard let o = try? JSON.parse(reply) as? [String: Any] else {
            let text = String(decoding: reply.prefix(120), as: UTF8.self)
            return TouchscreenMapping(notes: ["Hyprland's reply to getoption \(option) is not a JSON object: \(text)"])
        }
        guard let value = o.string("str") else {
            return TouchscreenMapping(notes: ["Hyprland's reply to getoption \(option) has no \"str\""])
        }
        let output = value.trimmingSpaces
        if output.isEmpty || output.lowercased() == "[[auto]]" { return TouchscreenMapping() }
        return TouchscreenMapping(rules: [.init(output: output, origin: "Hyprland \(option)")])
    }
}

private extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s = s.dropFirst() }
        while s.last?.isWhitespace == true { s = s.dropLast() }
        return String(s)
    }
}
