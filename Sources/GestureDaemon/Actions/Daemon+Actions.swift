import GestureConfig
import GestureWire

extension Config {
    /// The bindings that run a command (a binding may only send keys or click).
    var commandBindings: [Binding] { bindings.filter { !$0.command.isEmpty } }
}

extension Daemon {
    /// Starts the key and click actions: virtual devices for the config's bindings, before any
    /// device is opened (so the compositor has them before the first gesture).
    func startActions(server: SocketServer) {
        let a = ActionService(loop: loop, log: log)
        a.configure(config)
        setActions(a)
        bus.subscribe(a)
    }
}
