@testable import FocusTracking
import GestureWire
import Testing

/// The compositor's touchscreen mapping in the choice of output, GNOME's setting matched to
/// DisplayConfig's monitors, and the dconf database reader (TouchscreenMapping.swift,
/// GnomeTouchscreenMapping.swift, DconfDatabase.swift). The real files and replies are in
/// GnomeTouchscreenMappingSessionTests (a real Mutter, dconf-service and gsettings).
@Suite struct TouchscreenMappingTests {
    static func device(inputID: String? = "04f3:0732", node: String = "/dev/input/event7", output: String? = nil) -> WireDevice {
        var d = WireDevice(id: 1, name: "ELAN", kind: .touchscreen, node: node, widthMillimeters: 300,
                           heightMillimeters: 170, sizeKnown: true, slots: 10, contactProtocol: "B")
        d.inputID = inputID; d.output = output
        return d
    }

    static let outputs = [ScreenOutput(name: "eDP-1", rotation: 90), ScreenOutput(name: "HDMI-A-1", rotation: 180)]

    @Test func test_theCompositorsMapping_comesBeforeUdevAndTheBuiltInPanel() {
        let m = TouchscreenMapping(rules: [.init(inputID: "04f3:0732", output: "HDMI-A-1", origin: "GNOME setting")])
        let chosen = ScreenChoice.output(for: Self.device(output: "eDP-1"), among: Self.outputs, mapping: m)
        #expect(chosen?.0.name == "HDMI-A-1" && chosen?.why == "GNOME setting")
        // Another device: the rule does not fit, the built-in panel decides.
        #expect(ScreenChoice.output(for: Self.device(inputID: "1234:abcd"), among: Self.outputs, mapping: m)?.why == "the built-in panel")
        // The mapped output is not there: udev's WL_OUTPUT decides.
        let gone = TouchscreenMapping(rules: [.init(inputID: "04f3:0732", output: "DP-3", origin: "GNOME setting")])
        #expect(ScreenChoice.output(for: Self.device(output: "HDMI-A-1"), among: Self.outputs, mapping: gone)?.why == "udev WL_OUTPUT")
    }

    @Test func test_aRuleByNode_fitsOnlyThatNode() {
        let m = TouchscreenMapping(rules: [.init(node: "event7", output: "HDMI-A-1", origin: "KWin")])
        #expect(m.rule(for: Self.device(node: "/dev/input/event7")) != nil)
        #expect(m.rule(for: Self.device(node: "/dev/input/event70")) == nil)
        #expect(m.rule(for: Self.device(node: "replay:event7")) == nil)
    }

    static let monitors = [
        GnomeTouchscreenMapping.Monitor(connector: "DP-1", vendor: "DEL", product: "DELL U2720Q", serial: "ABC"),
        GnomeTouchscreenMapping.Monitor(connector: "DP-2", vendor: "DEL", product: "DELL U2720Q", serial: "ABC"),
        GnomeTouchscreenMapping.Monitor(connector: "eDP-1", vendor: "BOE", product: "0x0a2b", serial: "0x00000000"),
    ]

    @Test func test_gnomesSetting_namesTheConnectorOfItsEdid() {
        let m = GnomeTouchscreenMapping.mapping([("04f3:0732", ["BOE", "0x0a2b", "0x00000000"])], Self.monitors)
        #expect(m.rules == [.init(inputID: "04f3:0732", output: "eDP-1", origin: "GNOME setting touchscreens/04f3:0732 output")])
        #expect(m.notes.isEmpty)
    }

    /// GNOME 45 on may add the connector: it tells twins (two monitors with one EDID) apart.
    @Test func test_aFourthValue_tellsTwinsApart() {
        let m = GnomeTouchscreenMapping.mapping([("04f3:0732", ["DEL", "DELL U2720Q", "ABC", "DP-2"])], Self.monitors)
        #expect(m.rules.map(\.output) == ["DP-2"])
        let three = GnomeTouchscreenMapping.mapping([("04f3:0732", ["DEL", "DELL U2720Q", "ABC"])], Self.monitors)
        #expect(three.rules.map(\.output) == ["DP-1"])
    }

    @Test func test_automaticShortAndAbsentSettings_nameNothing() {
        let m = GnomeTouchscreenMapping.mapping([("1111:2222", ["", "", ""]), ("3333:4444", ["DEL"]),
                                                 ("5555:6666", ["GSM", "LG", "1"])], Self.monitors)
        #expect(m.rules.isEmpty)
        #expect(m.notes == ["GNOME's touchscreens/3333:4444 output holds 1 strings, not [vendor, product, serial]: ignored",
                            "GNOME maps touchscreen 5555:6666 to the monitor GSM LG 1, which is not connected"])
    }

    /// GVariant's `as`, by the GVariant specification: "a\0bc\0", then the ends 2 and 5.
    @Test func test_aStringArray_decodes() {
        #expect(DconfDatabase.stringArray([0x61, 0, 0x62, 0x63, 0, 2, 5]) == ["a", "bc"])
        #expect(DconfDatabase.stringArray([]) == [])
        #expect(DconfDatabase.stringArray([0, 0, 0, 1, 2, 3]) == ["", "", ""])
        #expect(DconfDatabase.stringArray([0x61, 0x62, 2]) == nil)      // no zero byte
        #expect(DconfDatabase.stringArray([0x61, 0, 9]) == nil)         // an end past the data
    }

    /// A GVDB file laid out by gvdb-format.h (little-endian): the 24-byte header, the root hash
    /// table (no bloom words, one bucket, 24-byte items), then the keys and values.
    static func gvdb(_ items: [(key: String, parent: UInt32, type: Character, value: [UInt8])]) -> [UInt8] {
        func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        let tableStart = 24, tableEnd = tableStart + 8 + 4 + 24 * items.count
        var out = Array("GVariant".utf8) + le32(0) + le32(0) + le32(UInt32(tableStart)) + le32(UInt32(tableEnd))
        out += le32(0) + le32(1) + le32(0)
        var data: [UInt8] = [], at = tableEnd
        for item in items {
            let key = Array(item.key.utf8)
            let keyStart = at + data.count
            data += key
            let valueStart = at + data.count
            data += item.value
            out += le32(0) + le32(item.parent) + le32(UInt32(keyStart))
            out += [UInt8(key.count & 0xFF), UInt8(key.count >> 8), UInt8(ascii: item.type.unicodeScalars.first!), 0]
            out += item.type == "v" ? le32(UInt32(valueStart)) + le32(UInt32(valueStart + item.value.count)) : le32(0) + le32(0)
        }
        return out + data
    }

    /// ['x', 'y'] as a variant: the array, a zero byte, its type `as`.
    static let xy: [UInt8] = [0x78, 0, 0x79, 0, 2, 4, 0, 0x61, 0x73]

    static let file = gvdb([
        ("/", 0xFFFF_FFFF, "L", []),
        ("org/gnome/desktop/peripherals/touchscreens/", 0, "L", []),
        ("04f3:0732/", 1, "L", []),
        ("output", 2, "v", xy),
        ("looped", 4, "v", xy),             // its own parent
        ("outside", 99, "v", xy),           // a parent past the table
        ("number", 2, "v", [7, 0, 0, 0, 0, 0x75]),   // uint32 7: not a string array
    ])

    @Test func test_aGvdbFile_givesItsStringArraysByFullKey() throws {
        let db = try DconfDatabase(Self.file)
        #expect(db.strings("/org/gnome/desktop/peripherals/touchscreens/04f3:0732/output") == ["x", "y"])
        #expect(db.strings("/org/gnome/desktop/peripherals/touchscreens/04f3:0732/number") == nil)
        #expect(db.keys.count == 2, "the looped and the broken items have no name: \(db.keys.keys.sorted())")
    }

    @Test func test_notAGvdbFile_isAnError() {
        #expect(throws: FocusError.self) { try DconfDatabase(Array("[org/gnome]\nkey=1\n".utf8)) }
        var swapped = Self.file
        swapped[8] = 1    // version 1
        #expect(throws: FocusError.self) { try DconfDatabase(swapped) }
    }

    /// Every truncation and every byte set to 0xFF: an error or some keys, never a crash or a hang.
    @Test func test_damagedFiles_neverCrash() {
        var survived = 0
        for n in 0..<Self.file.count {
            if (try? DconfDatabase(Array(Self.file[0..<n]))) != nil { survived += 1 }
            var b = Self.file
            b[n] = 0xFF
            if let db = try? DconfDatabase(b) { for k in db.keys.keys { _ = db.strings(k) } }
        }
        #expect(survived < Self.file.count)
    }
}
