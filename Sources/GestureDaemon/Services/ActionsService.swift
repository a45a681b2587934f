import GestureCore
import GestureConfig

/// Key and click bindings, and the socket's `emit` requests: the `ActionService` (virtual
/// devices through uinput, made before any device opens so the compositor has them first).
final class ActionsService: DaemonService {
    let name = "actions"
    let actions: ActionService
    private let bus: GestureBus
    private let socket: SocketService
    private var plan: BindingPlan

    init(loop: EventLoop, log: Logger, bus: GestureBus, socket: SocketService, plan: BindingPlan) {
        actions = ActionService(loop: loop, log: log)
        self.bus = bus; self.socket = socket; self.plan = plan
    }

    func start() throws(DaemonError) {
        actions.configure(plan)
        bus.subscribe(actions)
        socket.server?.onEmit = { [unowned self] request, peer in
            self.actions.emit(request, peer: peer, policy: EmitPolicy(config: self.plan.config.actions))
        }
    }

    func apply(_ plan: BindingPlan) {
        self.plan = plan
        actions.configure(plan)
    }

    /// Every key and button held is released; the virtual devices go away.
    func stop() { actions.stop() }
}
