import GestureConfig
import GestureCore
import GestureWire

/// What one gesture makes `gestured listen` do: the commands it runs itself and the `emit`
/// requests it sends the daemon for `keys:`/`button:` bindings. While the session is locked only
/// bindings with `when_locked: true` act; the others are counted as skipped.
public struct ListenDispatch: Sendable {
    public enum Action: Sendable, Equatable {
        case run(Binding)
        case emit(EmitRequest)
    }

    private var commands: BindingMatcher
    private var actions: BindingMatcher

    /// The plan's command bindings run here; its key and button bindings become `emit`s.
    public init(plan: BindingPlan) {
        commands = BindingMatcher(bindings: plan.commandBindings)
        actions = BindingMatcher(bindings: plan.actionBindings)
    }

    public init(config: Config) { self.init(plan: BindingPlan(config)) }

    /// The actions `event` fires, commands first, each in file order; `skipped`: bindings that
    /// matched but were left out because `locked`.
    public mutating func actions(for event: GestureEvent, device: HookDevice, focus: AppFocus = .unknown,
                                 locked: Bool) -> (fire: [Action], skipped: Int) {
        var fire: [Action] = []
        var skipped = 0
        for i in commands.match(event, device: device, focus: focus) {
            let b = commands.bindings[i]
            if locked && !b.whenLocked { skipped += 1 } else { fire.append(.run(b)) }
        }
        for i in actions.match(event, device: device, focus: focus) {
            let b = actions.bindings[i]
            if locked && !b.whenLocked { skipped += 1; continue }
            fire.append(.emit(EmitRequest(binding: b, gesture: event, deviceId: device.id == 0 ? nil : device.id)))
        }
        return (fire, skipped)
    }
}
