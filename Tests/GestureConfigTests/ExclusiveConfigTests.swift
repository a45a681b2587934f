import GestureConfig
import GestureCore
import Testing

/// `exclusive:` and `exclusive_hold_ms:` on a device rule (issue 11).
@Suite struct ExclusiveConfigTests {
    private func pad(_ name: String) -> DeviceDescription {
        DeviceDescription(name: name, vendor: 0x06cb, product: 0x0001,
                          codes: [EventType.key: [KeyCode.btnToolFinger, KeyCode.btnTouch]],
                          absInfo: [AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
                                    AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 700, resolution: 10)])
    }

    @Test func test_exclusive_appliesOnlyToMatchingDevices_laterRulesWin() throws {
        let c = try Config.parse("""
        devices:
          - match: {kind: touchpad}
            exclusive: true
            exclusive_hold_ms: 120
            exclusive_landing_ms: 0
          - match: {name: "Other*"}
            exclusive: false
        """, file: "t")
        let a = c.settings(for: pad("Synaptics TM3053"))
        #expect(a.exclusive && a.exclusiveHold == .milliseconds(120) && a.exclusiveLanding == .zero)
        let b = c.settings(for: pad("Other pad"))
        #expect(!b.exclusive && b.exclusiveHold == .milliseconds(120))
        #expect(!Config().settings(for: pad("x")).exclusive)
        #expect(Config().settings(for: pad("x")).exclusiveHold == DeviceSettings.defaultExclusiveHold)
        #expect(Config().settings(for: pad("x")).exclusiveLanding == .milliseconds(60))
    }

    /// What an exclusive device claims comes from the plan: the daemon's bindings that apply to that
    /// device, and the finger counts they name.
    @Test func test_plan_claimBindings_areTheDaemonsBindingsForTheDevice() throws {
        let c = try Config.parse("""
        bindings:
          - {gesture: swipe, fingers: 3, command: 'a'}
          - {gesture: swipe, fingers: 4, device: {name: "Other*"}, command: 'b'}
          - {gesture: tap, fingers: [2, 5], keys: "ctrl+c"}
        """, file: "t")
        let plan = BindingPlan(c)
        let synaptics = plan.device(pad("Synaptics TM3053")), other = plan.device(pad("Other pad"))
        #expect(synaptics.claimBindings.map(\.command) == ["a", ""])
        #expect(synaptics.claimFingerCounts == [2, 3, 5])
        #expect(other.claimBindings.map(\.command) == ["a", "b", ""])
        #expect(other.claimFingerCounts == [2, 3, 4, 5])
    }

    @Test func test_exclusiveNotABool_isAnErrorWithLineAndColumn() throws {
        var d: [ConfigDiagnostic] = []
        do { _ = try Config.parse("devices:\n  - match: {kind: touchpad}\n    exclusive: yes please\n", file: "t.yaml") }
        catch { d = error.diagnostics }
        #expect(d.count == 1 && d.first?.line == 3 && d.first?.column == 16)
        #expect(d.first?.message.contains("exclusive must be true or false") == true)
    }

    @Test func test_holdOutOfRange_isAnError() throws {
        var d: [ConfigDiagnostic] = []
        do { _ = try Config.parse("devices:\n  - match: {}\n    exclusive_hold_ms: 5000\n", file: "t.yaml") }
        catch { d = error.diagnostics }
        #expect(d.count == 1 && d.first?.line == 3 && d.first?.column == 24)
        #expect(d.first?.message.contains("at most 2000") == true)
    }
}
