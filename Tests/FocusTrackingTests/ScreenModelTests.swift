@testable import FocusTracking
import GestureWire
import Testing

/// Which output a touchscreen shows on, and the transforms' names (ScreenModel.swift).
@Suite struct ScreenModelTests {
    static func device(output: String? = nil) -> WireDevice {
        var d = WireDevice(id: 1, name: "panel", kind: .touchscreen, node: "/dev/input/event3", widthMillimeters: 200,
                           heightMillimeters: 100, sizeKnown: true, slots: 10, contactProtocol: "B")
        d.output = output
        return d
    }

    @Test(arguments: [("normal", 0, false), ("90", 90, false), ("180", 180, false), ("270", 270, false),
                      ("flipped", 0, true), ("flipped-90", 90, true), ("flipped-270", 270, true)])
    func test_swaysTransformNames(name: String, rotation: Int, flipped: Bool) {
        let t = ScreenOutput.transform(name)
        #expect(t?.rotation == rotation && t?.flipped == flipped)
        #expect(ScreenOutput(name: "x", rotation: rotation, flipped: flipped).transformName == name)
    }

    @Test func test_unknownTransformNames_areNil() {
        for bad in ["45", "flipped-45", "upside", "flippednormal"] { #expect(ScreenOutput.transform(bad) == nil, "\(bad)") }
    }

    @Test func test_udevsOutput_winsOverTheBuiltInPanel() {
        let outputs = [ScreenOutput(name: "eDP-1", rotation: 90), ScreenOutput(name: "HDMI-A-1", rotation: 0)]
        #expect(ScreenChoice.output(for: Self.device(output: "HDMI-A-1"), among: outputs)?.0.name == "HDMI-A-1")
        // WL_OUTPUT names an output that is not there (unplugged): nothing is guessed.
        #expect(ScreenChoice.output(for: Self.device(output: "DP-2"), among: outputs) == nil)
    }

    @Test func test_withoutUdev_theBuiltInPanel_thenTheOnlyOutput() {
        let laptop = [ScreenOutput(name: "HDMI-A-1", rotation: 0), ScreenOutput(name: "eDP-1", rotation: 270)]
        #expect(ScreenChoice.output(for: Self.device(), among: laptop).map { ($0.0.name, $0.why) } ?? ("", "") == ("eDP-1", "the built-in panel"))
        let tablet = [ScreenOutput(name: "DSI-1", rotation: 90)]
        #expect(ScreenChoice.output(for: Self.device(), among: tablet)?.0.rotation == 90)
        let headless = [ScreenOutput(name: "HEADLESS-1", rotation: 180)]
        #expect(ScreenChoice.output(for: Self.device(), among: headless)?.why == "the only output")
        // Two external screens and no word from udev: which one is unknown.
        let two = [ScreenOutput(name: "DP-1", rotation: 0), ScreenOutput(name: "DP-2", rotation: 90)]
        #expect(ScreenChoice.output(for: Self.device(), among: two) == nil)
        // An inactive output does not count.
        let off = [ScreenOutput(name: "eDP-1", rotation: 90, active: false), ScreenOutput(name: "DP-1", rotation: 0)]
        #expect(ScreenChoice.output(for: Self.device(), among: off)?.0.name == "DP-1")
    }

    /// sway's get_outputs reply, trimmed from a real sway 1.7 (`swaymsg -t get_outputs -r`).
    @Test func test_swaysOutputs_areRead() throws {
        let reply = #"[{"id":3,"type":"output","name":"HEADLESS-1","active":true,"transform":"90","scale":1.0},{"name":"eDP-1","active":false,"transform":"flipped-180"},{"transform":"normal"}]"#
        let outputs = try SwayScreen.outputs(Array(reply.utf8))
        #expect(outputs == [ScreenOutput(name: "HEADLESS-1", rotation: 90), ScreenOutput(name: "eDP-1", rotation: 180, flipped: true, active: false)])
        #expect(throws: FocusError.self) { _ = try SwayScreen.outputs(Array("{}".utf8)) }
    }
}
