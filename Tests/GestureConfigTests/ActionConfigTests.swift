import GestureConfig
import Testing

private func errors(_ text: String) -> [ConfigDiagnostic] {
    do {
        _ = try Config.parse(text, file: "t.yaml")
        Issue.record("expected config errors, got none")
        return []
    } catch {
        return error.diagnostics
    }
}

// Codes from linux/input-event-codes.h, written out here so the test does not read the table it checks.
private let leftCtrl: UInt16 = 29, leftAlt: UInt16 = 56, leftShift: UInt16 = 42, leftMeta: UInt16 = 125
private let rightCtrl: UInt16 = 97, rightAlt: UInt16 = 100, rightMeta: UInt16 = 126
private let right: UInt16 = 106, keyC: UInt16 = 46, keyV: UInt16 = 47, volumeUp: UInt16 = 115, f5: UInt16 = 63

@Suite struct KeyNameTests {
    @Test func test_kernelNames_anyCase_withOrWithoutPrefix() {
        #expect(KeyNames.code(for: "Right") == right)
        #expect(KeyNames.code(for: "RIGHT") == right)
        #expect(KeyNames.code(for: "KEY_RIGHT") == right)
        #expect(KeyNames.code(for: "volumeup") == volumeUp)
        #expect(KeyNames.code(for: "F5") == f5)
        #expect(KeyNames.code(for: "c") == keyC)
        #expect(KeyNames.code(for: "nosuchkey") == nil)
        #expect(KeyNames.code(for: "") == nil)
    }

    @Test func test_modifierAliases_andSides() {
        #expect(KeyNames.code(for: "ctrl") == leftCtrl && KeyNames.code(for: "control") == leftCtrl)
        #expect(KeyNames.code(for: "rctrl") == rightCtrl && KeyNames.code(for: "RightCtrl") == rightCtrl)
        #expect(KeyNames.code(for: "alt") == leftAlt && KeyNames.code(for: "altgr") == rightAlt)
        #expect(KeyNames.code(for: "shift") == leftShift)
        for n in ["super", "logo", "meta", "Super", "leftmeta"] { #expect(KeyNames.code(for: n) == leftMeta, "\(n)") }
        #expect(KeyNames.code(for: "rightsuper") == rightMeta && KeyNames.code(for: "rightmeta") == rightMeta)
    }

    @Test func test_chord_modifiersDownInOrder_keyTapped_modifiersUpInReverse() throws {
        let c = try KeyNames.chord("ctrl+alt+Right").get()
        #expect(c.modifiers == [leftCtrl, leftAlt] && c.key == right)
        let events = c.events.map { "\($0.code)\($0.value == 1 ? "↓" : "↑")" }
        #expect(events == ["29↓", "56↓", "106↓", "106↑", "56↑", "29↑"])
    }

    @Test func test_chord_singleKey_spaces_andRepeatedModifier() throws {
        #expect(try KeyNames.chord("F5").get().events.map(\.code) == [f5, f5])
        let c = try KeyNames.chord(" ctrl + shift + c ").get()
        #expect(c.modifiers == [leftCtrl, leftShift] && c.key == keyC)
        let twice = try KeyNames.chord("ctrl+control+v").get()
        #expect(twice.events.map { "\($0.code):\($0.value)" } == ["29:1", "47:1", "47:0", "29:0"])
    }

    @Test func test_chord_errors() {
        #expect(KeyNames.chord("") == .failure(.empty))
        #expect(KeyNames.chord("ctrl++c") == .failure(.emptyName))
        #expect(KeyNames.chord("ctrl+alt+Rihgt") == .failure(.unknown("Rihgt", suggestion: "right", offset: 9)))
        guard case .failure(.unknown("ctlr", let s, 0)) = KeyNames.chord("ctlr+c") else { Issue.record("ctlr accepted"); return }
        #expect(s == "ctrl")
    }
}

@Suite struct ActionBindingTests {
    @Test func test_keys_oneChordOrAList_withoutCommand() throws {
        let c = try Config.parse("""
        bindings:
          - {gesture: swipe, fingers: 3, direction: right, keys: "ctrl+alt+Right"}
          - gesture: tap
            fingers: 2
            keys: ["ctrl+c", "ctrl+v"]
            key_delay_ms: 50
            key_hold_ms: 20
        """, file: "t")
        #expect(c.bindings[0].keys.map(\.key) == [right] && c.bindings[0].command.isEmpty)
        #expect(c.bindings[1].keys.map(\.key) == [keyC, keyV] && c.bindings[1].keyDelay == .milliseconds(50))
        #expect(c.bindings[1].keyHold == .milliseconds(20) && c.bindings[0].keyHold == .zero)
        #expect(c.bindings[1].keys.allSatisfy { $0.modifiers == [leftCtrl] })
    }

    @Test func test_button_atTouch_whenLocked() throws {
        let c = try Config.parse("""
        bindings:
          - {gesture: longPress, device: {kind: touchscreen}, button: right, at: touch}
          - {gesture: tap, fingers: 3, button: middle, when_locked: true}
          - {gesture: swipe, fingers: 4, keys: "super+Right", command: "echo hi"}
        """, file: "t")
        #expect(c.bindings[0].button == ButtonAction(button: .right, atTouch: true))
        #expect(c.bindings[1].button == ButtonAction(button: .middle) && c.bindings[1].whenLocked)
        #expect(c.bindings[2].command == "echo hi" && c.bindings[2].keys.count == 1 && !c.bindings[2].whenLocked)
        #expect(PointerButton.right.code == 0x111 && PointerButton.back.code == 0x113)
    }

    @Test func test_whenLocked_onACommand_isAcceptedInAListenConfig() throws {
        let text = "bindings:\n  - {gesture: tap, command: \"notify-send hi\", when_locked: true}\n  - {gesture: tap, command: x}\n"
        let c = try Config.parse(text, file: "t", purpose: .listen)
        #expect(c.bindings[0].whenLocked && c.bindings[0].command == "notify-send hi" && !c.bindings[1].whenLocked)
        let d = errors(text)
        #expect(d.count == 1 && d[0].line == 2)
    }

    @Test func test_unknownKeyName_pointsAtTheName_withDidYouMean() {
        let d = errors("bindings:\n  - {gesture: tap, keys: \"ctrl+alt+Rihgt\"}\n")
        // The opening quote is at column 26; R is 9 characters after the character that follows it.
        #expect(d.count == 1 && d[0].line == 2 && d[0].column == 36)
        #expect(d[0].message == "unknown key 'Rihgt' in 'ctrl+alt+Rihgt'" && d[0].hint == "did you mean 'right'?")
        let list = errors("bindings:\n  - gesture: tap\n    keys:\n      - ctrl+c\n      - sheft+v\n")
        #expect(list.count == 1 && list[0].line == 5 && list[0].column == 9 && list[0].hint == "did you mean 'shift'?")
    }

    @Test func test_badButton_badAt_andMisplacedOptions() {
        let d = errors("""
        bindings:
          - {gesture: tap, button: rigth}
          - {gesture: tap, keys: x, at: touch}
          - {gesture: tap, command: x, when_locked: true}
          - {gesture: tap, button: left, at: screen}
          - {gesture: longPress, device: {kind: touchpad}, button: right, at: touch}
        """)
        #expect(d.map(\.line) == [2, 3, 4, 5, 6])
        #expect(d[0].message == "unknown button 'rigth'" && d[0].hint == "did you mean 'right'?")
        #expect(d[1].message == "at: touch only applies with button:")
        #expect(d[2].message == "when_locked only applies with keys: or button: in the daemon's config")
        #expect(d[2].hint?.contains("gestured check --listen") == true)
        #expect(d[4].message == "at: touch needs a touchscreen")
    }

    @Test func test_actionsSection() throws {
        let c = try Config.parse("actions:\n  emit: false\n  active_session: false\n  allowed_uids: [1000, 1001]\n  allowed_gids: 27\n", file: "t")
        #expect(!c.actions.emit && !c.actions.activeSessionUser)
        #expect(c.actions.allowedUIDs == [1000, 1001] && c.actions.allowedGIDs == [27])
        #expect(Config().actions.emit && Config().actions.activeSessionUser)
        let d = errors("actions:\n  allowed_users: [1]\n")
        #expect(d.count == 1 && d[0].hint == "did you mean 'allowed_uids'?")
    }
}
