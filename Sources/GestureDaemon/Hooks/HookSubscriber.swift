import GestureConfig
import GestureCore
import GestureWire

/// Hands gestures to the HookRunner (which matches bindings and runs them on its own thread).
/// Lives on the daemon's loop thread.
final class HookSubscriber: GestureSubscriber {
    let runner: HookRunner
    /// The kinds some binding with a command names. A gesture of any other kind matches no
    /// binding and changes no binding's `every:` progress, so it is not handed over: the runner
    /// takes a lock and walks every binding for each gesture, and an unbound pan or pinch makes
    /// one a frame.
    private var boundKinds: [GestureKind]

    /// `kinds`: the binding plan's `hookKinds`.
    init(_ runner: HookRunner, kinds: [GestureKind]) {
        self.runner = runner
        boundKinds = kinds
    }

    /// The config was reloaded (the runner has the new bindings already).
    func kindsChanged(_ kinds: [GestureKind]) {
        boundKinds = kinds
        interestChanged?()
    }

    var wantedKinds: GestureKindSet { GestureKindSet(boundKinds) }
    var interestChanged: (() -> Void)?

    func receive(_ m: BusMessage) {
        guard case .gesture(let g, let d) = m else { return }
        receive(g, from: d)
    }

    func receive(_ g: GestureEvent, from d: WireDevice) {
        guard boundKinds.contains(g.kind) else { return }
        runner.handle(g, device: device.of(d))
    }

    private var device = HookDevice.Cache()
}

extension HookDevice {
    /// The hook view of the last device a gesture came from, made once per device instead of
    /// once per gesture (copying its name and node each time). A device's id names one session,
    /// whose name, kind and node never change.
    struct Cache {
        private var last: HookDevice?

        mutating func of(_ d: WireDevice) -> HookDevice {
            if let last, last.id == d.id { return last }
            let made = HookDevice(id: d.id, name: d.name, kind: d.kind, node: d.node)
            last = made
            return made
        }
    }
}
