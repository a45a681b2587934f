import GestureWire

/// sway and i3: their IPC socket (`SWAYSOCK`, `I3SOCK`), subscribed to window and workspace
/// events. A focus event carries the window; a closed window or a workspace change asks for the
/// tree once and takes its focused node (a workspace there means no window has the focus).
/// Messages: "i3-ipc", a 32-bit length and a 32-bit type in native byte order, then JSON.
final class SwayBackend: FocusBackend {
    let kind: FocusBackendKind
    let socketPath: String
    private var stream: UnixStream?
    private var buffer: [UInt8] = []
    private var warnings: [String] = []
    /// A larger message is refused, and the connection dropped and made again. A tree is about
    /// 2 KB a window (sway 1.10), so 4 MiB is some 2 000 windows; parsed, a message takes about
    /// ten times its size, and a 60 MB reply took listen to 614 MB.
    static let maximumMessageBytes = 4 << 20

    static let magic = Array("i3-ipc".utf8)
    static let getTree: UInt32 = 4, subscribe: UInt32 = 2
    static let workspaceEvent: UInt32 = 0x8000_0000, windowEvent: UInt32 = 0x8000_0003

    init(kind: FocusBackendKind, socketPath: String) {
        self.kind = kind; self.socketPath = socketPath
    }

    var endpoint: String { "\(kind == .i3 ? "I3SOCK" : "SWAYSOCK") \(socketPath)" }

    func connect() throws(FocusError) -> Int32 {
        guard !socketPath.isEmpty else { throw FocusError("\(kind == .i3 ? "I3SOCK" : "SWAYSOCK") is not set") }
        let s = try UnixStream.connect(socketPath)
        stream = s
        buffer = []
        try send(SwayBackend.subscribe, #"["window","workspace"]"#)
        try send(SwayBackend.getTree, "")
        return s.fd
    }

    func disconnect() { stream = nil; buffer = [] }

    func takeWarnings() -> [String] { defer { warnings = [] }; return warnings }

    static func frame(_ type: UInt32, _ payload: String) -> [UInt8] {
        let body = Array(payload.utf8)
        var out = magic
        withUnsafeBytes(of: UInt32(body.count)) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: type) { out.append(contentsOf: $0) }
        return out + body
    }

    private func send(_ type: UInt32, _ payload: String) throws(FocusError) {
        guard let s = stream else { throw FocusError("not connected") }
        try s.write(SwayBackend.frame(type, payload))
    }

    func receive() throws(FocusError) -> [FocusChange] {
        guard let s = stream else { throw FocusError("not connected") }
        try s.readAvailable(into: &buffer, maximumBytes: SwayBackend.maximumMessageBytes + 14)
        var out: [FocusChange] = []
        var start = 0
        while buffer.count - start >= 14 {
            guard Array(buffer[start..<start + 6]) == SwayBackend.magic else {
                throw FocusError("a message without the i3-ipc header: not a \(kind.rawValue) socket?")
            }
            let length = Int(u32(at: start + 6)), type = u32(at: start + 10)
            guard length <= SwayBackend.maximumMessageBytes else {
                throw FocusError("\(kind.rawValue) sent a message of \(length) bytes, more than the \(SwayBackend.maximumMessageBytes >> 20) MiB taken")
            }
            guard buffer.count - start - 14 >= length else { break }
            let payload = Array(buffer[start + 14..<start + 14 + length])
            start += 14 + length
            try handle(type, payload, into: &out)
        }
        buffer.removeSubrange(0..<start)
        return out
    }

    private func u32(at i: Int) -> UInt32 {
        buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: i, as: UInt32.self) }
    }

    private func handle(_ type: UInt32, _ payload: [UInt8], into out: inout [FocusChange]) throws(FocusError) {
        let json: [String: Any]
        do {
            guard let o = try JSON.parse(payload) as? [String: Any] else {
                if type == SwayBackend.subscribe || type == SwayBackend.getTree, payload.first == UInt8(ascii: "[") { return }
                warnings.append("skipped a \(kind.rawValue) message that is not a JSON object"); return
            }
            json = o
        } catch {
            warnings.append("skipped a malformed \(kind.rawValue) message (\(error.description))")
            return
        }
        switch type {
        case SwayBackend.subscribe:
            if json["success"] as? Bool == false { throw FocusError("\(kind.rawValue) refused the subscription to window events") }
        case SwayBackend.getTree:
            out.append(SwayBackend.focused(in: json) ?? .nothing)
        case SwayBackend.windowEvent:
            let container = json.object("container") ?? [:]
            switch json.string("change") {
            case "focus": out.append(.window(SwayBackend.window(container)))
            case "title", "urgent", "mark":
                if container["focused"] as? Bool == true { out.append(.window(SwayBackend.window(container))) }
            case "close", "move", "floating": try send(SwayBackend.getTree, "")
            default: break
            }
        case SwayBackend.workspaceEvent:
            if ["focus", "empty", "init"].contains(json.string("change") ?? "") { try send(SwayBackend.getTree, "") }
        default: break
        }
    }

    /// The focused node of a tree: a window, or `.nothing` when it is a workspace or output.
    static func focused(in node: [String: Any]) -> FocusChange? {
        if node["focused"] as? Bool == true {
            let type = node.string("type") ?? ""
            return type == "con" || type == "floating_con" ? .window(window(node)) : .nothing
        }
        for key in ["nodes", "floating_nodes"] {
            for child in (node[key] as? [Any]) ?? [] {
                if let c = child as? [String: Any], let hit = focused(in: c) { return hit }
            }
        }
        return nil
    }

    /// sway's native windows have `app_id`; X11 ones (XWayland, and every window under i3) have
    /// `window_properties.class` and `instance`.
    static func window(_ c: [String: Any]) -> FocusedWindow {
        let props = c.object("window_properties") ?? [:]
        let appID = c.string("app_id") ?? props.string("class") ?? ""
        return FocusedWindow(appID: appID, instance: props.string("instance") ?? "",
                             title: c.string("name") ?? props.string("title") ?? "")
    }
}
