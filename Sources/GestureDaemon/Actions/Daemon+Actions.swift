import GestureConfig
import GestureCore
import GestureWire

extension Config {
    /// The bindings that run a command (a binding may only send keys or click).
    public var commandBindings: [Binding] { bindings.filter { !$0.command.isEmpty } }
    /// The bindings that send keys or click.
    public var actionBindings: [Binding] { bindings.filter { !$0.keys.isEmpty || $0.button != nil } }
}

extension Daemon {
    /// Starts the key and click actions: virtual devices for the config's bindings, before any
    /// device is opened (so the compositor has them before the first gesture).
    func startActions(server: SocketServer) {
        let a = ActionService(loop: loop, log: log)
        a.configure(config)
        setActions(a)
        bus.subscribe(a)
        server.onEmit = { [unowned self, unowned a] request, peer in
            a.emit(request, peer: peer, policy: EmitPolicy(config: self.config.actions))
        }
    }
}

extension EmitRequest {
    /// What a `listen` binding with keys:/button: asks the daemon to do for gesture `g` on the
    /// device with daemon id `deviceId`.
    public init(binding b: Binding, gesture g: GestureEvent, deviceId: Int?) {
        self.init()
        keys = b.keys.map(\.text)
        keyDelayMilliseconds = Double(b.keyDelay.totalMicroseconds) / 1000
        keyHoldMilliseconds = Double(b.keyHold.totalMicroseconds) / 1000
        button = b.button?.button.rawValue
        if b.button?.atTouch == true, let id = deviceId, let x = g.x, let y = g.y { at = (id, x, y) }
        whenLocked = b.whenLocked
    }
}
