import GestureConfig
import GestureCore

/// The commands of bindings: a `HookRunner` (its own thread starts and watches the children)
/// fed by a `HookSubscriber` on the bus with the kinds the plan's command bindings name.
final class HookService: DaemonService {
    let name = "hooks"
    private let log: Logger
    private let bus: GestureBus
    private let initial: BindingPlan
    private var runner: HookRunner?
    private var subscriber: HookSubscriber?

    init(log: Logger, bus: GestureBus, plan: BindingPlan) { self.log = log; self.bus = bus; initial = plan }

    func start() throws(DaemonError) {
        let logger = log
        let r = HookRunner(bindings: initial.commandBindings, limits: initial.config.hooks, reapsAdoptedChildren: true,
                           logs: { (Logger.Level(rawValue: $0) ?? .info) <= logger.level }) { priority, message in
            logger.log(Logger.Level(rawValue: priority) ?? .info, message)
        }
        let s = HookSubscriber(r, kinds: initial.hookKinds)
        runner = r; subscriber = s
        bus.subscribe(s)
        if !initial.commandBindings.isEmpty { log.info("hooks: \(initial.commandBindings.count) binding(s) with a command") }
    }

    func apply(_ plan: BindingPlan) {
        runner?.update(bindings: plan.commandBindings, limits: plan.config.hooks)
        subscriber?.kindsChanged(plan.hookKinds)
    }

    /// Children still running get their timeout's signals; the worker thread is joined.
    func stop() {
        subscriber?.kindsChanged([])
        runner?.shutdown()
        runner = nil
    }
}
