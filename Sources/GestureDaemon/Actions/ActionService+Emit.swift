import GestureConfig
import GestureCore
import GestureWire
import LinuxSystem

extension ActionService {
    /// How long an emit that needed new keys waits after the keyboard is re-made with them: a
    /// compositor misses what a device sends before it has opened it.
    static let newDeviceSettle: Duration = .milliseconds(300)

    /// Answers an `emit` request: the peer is checked against `policy`, names against the
    /// kernel's, then the keys and click are played. The reply names what was wrong.
    func emit(_ r: EmitRequest, peer: PeerCredentials, policy: EmitPolicy) -> String {
        if let why = policy.refusal(for: peer) {
            if let suppressed = refusalLog.allow(now: MonotonicClock.now()) {
                log.notice("actions: \(why) (pid \(peer.pid))\(suppressed > 0 ? " (\(suppressed) refusals not logged)" : "")")
            }
            return WireEncoder.error(why)
        }
        // The first allowed request starts following the lock; start() reads LockedHint before
        // it returns, so no request is decided on a state not yet known.
        if !lockTried { followSessionLock() }
        if locked && !r.whenLocked {
            return WireEncoder.error("emit refused: the seat's session is locked (a binding with when_locked: true may still send)")
        }
        var chords: [KeyChord] = []
        for text in r.keys {
            switch KeyNames.chord(text) {
            case .success(let c): chords.append(c)
            case .failure(.unknown(let name, let suggestion, _)):
                return WireEncoder.error("emit: unknown key '\(name)' in '\(text)'" + (suggestion.map { " (did you mean '\($0)'?)" } ?? ""))
            case .failure:
                return WireEncoder.error("emit: '\(text)' is not a chord like \"ctrl+alt+Right\"")
            }
        }
        var button: ButtonAction?
        if let b = r.button {
            guard let pb = PointerButton(rawValue: b.lowercased()) else {
                return WireEncoder.error("emit: unknown button '\(b)' (left, right, middle, back or forward)")
            }
            button = ButtonAction(button: pb, atTouch: r.at != nil)
        }
        let grown = grow(keys: Set(chords.flatMap(\.codes)), pointer: button != nil)
        if let problem = uinputUnavailable {
            return WireEncoder.error("emit: the daemon has no virtual devices: \(problem.description)")
        }
        perform(keys: chords, hold: .microseconds(Int64(r.keyHoldMilliseconds * 1000)),
                delay: .microseconds(Int64(r.keyDelayMilliseconds * 1000)), button: button,
                at: (r.at?.x, r.at?.y), deviceId: r.at?.device, delayFirst: grown ? Self.newDeviceSettle : .zero)
        return WireEncoder.ok("emit")
    }
}
