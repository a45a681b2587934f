import GestureConfig
import GestureCore
import GestureDaemon
import GestureWire
import Testing

private let screen = HookDevice(id: 4, name: "ELAN Touchscreen", kind: .touchscreen, node: "/dev/input/event9")
private func swipe(_ d: GestureDirection, id: UInt64 = 1) -> GestureEvent {
    GestureEvent(kind: .swipe, phase: .recognized, id: id, fingers: 3, time: .zero, direction: d,
                 dxMillimeters: d == .left ? -30 : 30, dyMillimeters: 0)
}

@Suite struct ListenDispatchTests {
    static let yaml = """
    bindings:
      - {gesture: swipe, fingers: 3, direction: right, command: "notify-send right"}
      - {gesture: swipe, fingers: 3, direction: right, keys: "ctrl+alt+Right"}
      - {gesture: swipe, fingers: 3, direction: left, command: "notify-send left", when_locked: true}
      - {gesture: swipe, fingers: 3, direction: left, keys: "F5", when_locked: true}
    """

    private func names(_ fire: [ListenDispatch.Action]) -> [String] {
        fire.map {
            switch $0 {
            case .run(let b): return "run " + b.command
            case .emit(let e): return "emit " + e.keys.joined(separator: ",") + (e.whenLocked ? " when_locked" : "")
            }
        }
    }

    @Test func test_unlocked_everyMatchingBindingActs() throws {
        var d = ListenDispatch(config: try Config.parse(Self.yaml, file: "l.yaml", purpose: .listen))
        let r = d.actions(for: swipe(.right), device: screen, locked: false)
        #expect(names(r.fire) == ["run notify-send right", "emit ctrl+alt+Right"] && r.skipped == 0)
        let l = d.actions(for: swipe(.left, id: 2), device: screen, locked: false)
        #expect(names(l.fire) == ["run notify-send left", "emit F5 when_locked"] && l.skipped == 0)
    }

    @Test func test_locked_onlyWhenLockedBindingsAct_theRestAreCounted() throws {
        var d = ListenDispatch(config: try Config.parse(Self.yaml, file: "l.yaml", purpose: .listen))
        let r = d.actions(for: swipe(.right), device: screen, locked: true)
        #expect(r.fire.isEmpty && r.skipped == 2)
        let l = d.actions(for: swipe(.left, id: 2), device: screen, locked: true)
        #expect(names(l.fire) == ["run notify-send left", "emit F5 when_locked"] && l.skipped == 0)
    }
}
