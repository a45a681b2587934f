import GestureConfig
import Testing
import LinuxInput

/// GestureConfig's key names are generated from libevdev (scripts/gen-keynames.sh) so that config
/// parsing stays free of C; this checks the generated table against libevdev itself, both ways.
@Suite struct KeyNameTableTests {
    @Test func test_everyTableEntry_isLibevdevsCodeForThatName() {
        #expect(KeyNames.kernelTable.count > 400)
        for (name, code) in KeyNames.kernelTable {
            #expect(KernelKeyNames.code(named: "KEY_" + name.uppercased()) == code, "KEY_\(name.uppercased())")
        }
    }

    @Test func test_everyLibevdevKeyName_isInTheTable() {
        var missing: [String] = []
        for code in 1...KernelKeyNames.maximumCode {
            guard let name = KernelKeyNames.name(of: code), name.hasPrefix("KEY_"), name != "KEY_RESERVED" else { continue }
            if KeyNames.code(for: name) != code { missing.append(name) }
        }
        #expect(missing.isEmpty, "regenerate with scripts/gen-keynames.sh: \(missing)")
    }

    @Test func test_aliases_nameTheModifiersLibevdevNames() {
        #expect(KeyNames.code(for: "ctrl") == KernelKeyNames.code(named: "KEY_LEFTCTRL"))
        #expect(KeyNames.code(for: "super") == KernelKeyNames.code(named: "KEY_LEFTMETA"))
        #expect(KeyNames.code(for: "altgr") == KernelKeyNames.code(named: "KEY_RIGHTALT"))
        #expect(PointerButton.right.code == KernelKeyNames.code(named: "BTN_RIGHT"))
        #expect(PointerButton.back.code == KernelKeyNames.code(named: "BTN_SIDE"))
        #expect(PointerButton.forward.code == KernelKeyNames.code(named: "BTN_EXTRA"))
    }
}
