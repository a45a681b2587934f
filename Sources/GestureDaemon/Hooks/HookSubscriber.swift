import GestureConfig
import GestureCore
import GestureWire

/// Hands gestures to the HookRunner (which matches bindings and runs them on its own thread).
/// Lives on the daemon's loop thread.
final class HookSubscriber: GestureSubscriber {
    let runner: HookRunner
    /// The kinds some binding with a command names. A gesture of any other kind matches no
    /// binding and changes no binding's `every:` progress, so it is not handed over: the runner's
    /// lock and matcher cost about 400 instructions a gesture, on every frame of a pan that no
    /// binding wants (callgrind, issue 13).
    private var boundKinds: [GestureKind]

    /// `kinds`: the binding plan's `hookKinds`.
    init(_ runner: HookRunner, kinds: [GestureKind]) {
        self.runner = runner
        boundKinds = kinds
    }

    /// The config was reloaded (the runner has the new bindings already).
    func kindsChanged(_ kinds: [GestureKind]) { boundKinds = kinds }

    func receive(_ m: BusMessage) {
        guard case .gesture(let g, let d) = m else { return }
        receive(g, from: d)
    }

    /// The last gesture's device: building a `HookDevice` (and destroying it) for every gesture
    /// cost about 260 instructions (callgrind). Device ids are never reused within a run.
    private var device: HookDevice?

    func receive(_ g: GestureEvent, from d: WireDevice) {
        guard boundKinds.contains(g.kind) else { return }
        if device?.id != d.id { device = HookDevice(id: d.id, name: d.name, kind: d.kind, node: d.node) }
        runner.handle(g, device: device!)
    }
}
