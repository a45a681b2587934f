import FocusTracking
import GestureCore
import GestureWire
import LinuxSystem
import Synchronization

/// listen's part in turning touchscreens with the screen: it knows the daemon's devices (from
/// the connection) and the session's outputs (from `ScreenTracker`, on its own thread), and sends
/// an `orientation` request for each touchscreen whose output's transform is not the one it last
/// sent on this connection. Every line to the daemon goes through `send` here, so the emit
/// requests of the main thread and these never interleave.
final class OrientationRelay: Sendable {
    /// The connection's send, which is not Sendable itself: only ever called under the lock.
    struct Sender: @unchecked Sendable { let send: (String) -> Bool }

    private struct State {
        var sender: Sender?
        var devices: [Int: WireDevice] = [:]
        var outputs: [ScreenOutput]?
        /// The compositor's own touchscreen-to-output mapping, where it exposes one.
        var mapping: TouchscreenMapping?
        /// Per device id: the output, its transform and why it was chosen, last sent on this connection.
        var sent: [Int: (output: ScreenOutput, why: String)] = [:]
    }

    private let state = Mutex(State())
    private let log: @Sendable (String) -> Void

    init(log: @escaping @Sendable (String) -> Void) { self.log = log }

    /// A new connection: the devices come with its hello; everything is sent again.
    func connected(_ send: @escaping (String) -> Bool) {
        let sender = Sender(send: send)
        state.withLock { $0 = State(sender: sender, outputs: $0.outputs, mapping: $0.mapping) }
    }

    func disconnected() { state.withLock { $0.sender = nil; $0.devices = [:]; $0.sent = [:] } }

    /// Sends a line on the current connection; false without one or when the daemon is gone.
    func send(_ line: String) -> Bool { state.withLock { $0.sender?.send(line) ?? false } }

    /// The device lines of the connection.
    func handle(_ m: ServerMessage) {
        state.withLock { s in
            switch m {
            case .hello(_, _, let devices): s.devices = Dictionary(devices.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
            case .deviceAdded(let d), .deviceChanged(let d): s.devices[d.id] = d
            case .deviceRemoved(let d): s.devices[d.id] = nil; s.sent[d.id] = nil
            default: return
            }
            reconcile(&s)
        }
    }

    /// The session's outputs changed.
    func screens(_ outputs: [ScreenOutput]) {
        state.withLock { s in
            s.outputs = outputs
            reconcile(&s)
        }
    }

    /// The compositor's touchscreen mapping changed.
    func mapping(_ m: TouchscreenMapping) {
        state.withLock { s in
            s.mapping = m
            reconcile(&s)
        }
    }

    private func reconcile(_ s: inout State) {
        guard let sender = s.sender, let outputs = s.outputs else { return }
        for d in s.devices.values.sorted(by: { $0.id < $1.id }) where d.kind == .touchscreen {
            guard let (output, why) = ScreenChoice.output(for: d, among: outputs, mapping: s.mapping) else { continue }
            if let last = s.sent[d.id], last.output == output, last.why == why { continue }
            let request = OrientationRequest(device: d.id, rotation: output.rotation, flipped: output.flipped,
                                             source: "\(output.name) transform \(output.transformName), \(why)")
            guard sender.send(WireEncoder.orientation(request)) else { return }
            s.sent[d.id] = (output, why)
            log("screen: device \(d.id) '\(TextEscaping.escaped(d.name))' shows on \(TextEscaping.escaped(output.name)) (\(why)): transform \(output.transformName)")
        }
    }
}

/// `gestured listen --print-screen`: the outputs and their transforms as the compositor pushes
/// them, until interrupted (no daemon needed).
func printScreenChanges() -> Int32 {
    let mapping = TouchscreenMappingTracker(environment: BackendSelection.processEnvironment(), log: { eprint("gestured listen: " + $0) }) { m in
        writeAll(1, "touchscreens: \(m.summary)\n")
    }
    let tracker = ScreenTracker(environment: BackendSelection.processEnvironment(), log: { eprint("gestured listen: " + $0) }) { outputs in
        mapping.refresh()
        let text = outputs.map { o in
            "\(o.name): transform \(o.transformName)\(o.isBuiltIn ? " (built-in)" : "")\(o.active ? "" : " (inactive)")"
        }.joined(separator: "; ")
        writeAll(1, "outputs: \(text.isEmpty ? "none" : text)\n")
    }
    guard tracker.start() else { return 1 }
    mapping.start()
    CurrentProcess.waitForSignals()
}
