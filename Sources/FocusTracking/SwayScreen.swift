import GestureWire
import LinuxSystem

/// sway's outputs and their transforms, pushed: subscribed to `output` events, each answered
/// with one `get_outputs` (an event does not carry the outputs). i3 has no transform, so only
/// sway is asked. Messages are framed as in `SwayBackend`.
final class SwayScreen: ScreenBackend {
    let socketPath: String
    private var stream: UnixStream?
    private var buffer: [UInt8] = []
    static let getOutputs: UInt32 = 3, subscribe: UInt32 = 2, outputEvent: UInt32 = 0x8000_0001

    init(socketPath: String) { self.socketPath = socketPath }

    var name: String { "sway" }
    var endpoint: String { "SWAYSOCK \(socketPath)" }

    func connect() throws(FocusError) -> Int32 {
        guard !socketPath.isEmpty else { throw FocusError("SWAYSOCK is not set") }
        let s = try UnixStream.connect(socketPath)
        stream = s
        buffer = []
        try s.write(SwayBackend.frame(SwayScreen.subscribe, #"["output"]"#))
        try s.write(SwayBackend.frame(SwayScreen.getOutputs, ""))
        return s.descriptor.rawValue
    }

    func disconnect() { stream = nil; buffer = [] }

    func pending() -> [ScreenOutput]? { nil }

    func receive() throws(FocusError) -> [ScreenOutput]? {
        guard let s = stream else { throw FocusError("not connected") }
        try s.readAvailable(into: &buffer, maximumBytes: SwayBackend.maximumMessageBytes + 14)
        var latest: [ScreenOutput]?
        var start = 0
        while buffer.count - start >= 14 {
            guard Array(buffer[start..<start + 6]) == SwayBackend.magic else {
                throw FocusError("a message without the i3-ipc header: not a sway socket?")
            }
            let length = Int(u32(at: start + 6)), type = u32(at: start + 10)
            guard length <= SwayBackend.maximumMessageBytes else { throw FocusError("a message of \(length) bytes") }
            guard buffer.count - start - 14 >= length else { break }
            let payload = Array(buffer[start + 14..<start + 14 + length])
            start += 14 + length
            switch type {
            case SwayScreen.getOutputs: latest = try Self.outputs(payload)
            case SwayScreen.outputEvent: try s.write(SwayBackend.frame(SwayScreen.getOutputs, ""))
            case SwayScreen.subscribe:
                if (try? JSON.parse(payload) as? [String: Any])?["success"] as? Bool == false {
                    throw FocusError("sway refused the subscription to output events")
                }
            default: break
            }
        }
        buffer.removeSubrange(0..<start)
        return latest
    }

    private func u32(at i: Int) -> UInt32 {
        buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: i, as: UInt32.self) }
    }

    /// get_outputs' reply: `[{"name": "eDP-1", "active": true, "transform": "90", …}]`. An
    /// output without a transform sway knows is taken as upright.
    static func outputs(_ payload: [UInt8]) throws(FocusError) -> [ScreenOutput] {
        let parsed: Any
        do { parsed = try JSON.parse(payload) } catch { throw FocusError("get_outputs: \(error.description)") }
        guard let list = parsed as? [Any] else { throw FocusError("get_outputs: not a list") }
        return list.compactMap { item in
            guard let o = item as? [String: Any], let name = o.string("name") else { return nil }
            let t = ScreenOutput.transform(o.string("transform") ?? "normal") ?? (0, false)
            return ScreenOutput(name: name, rotation: t.rotation, flipped: t.flipped, active: o["active"] as? Bool ?? true)
        }
    }
}
