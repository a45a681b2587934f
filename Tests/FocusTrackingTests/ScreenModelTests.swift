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

    /// RandR's rotation bits (randrproto: Rotate_0 1, Rotate_90 2, Rotate_180 4, Rotate_270 8,
    /// Reflect_X 16, Reflect_Y 32), counterclockwise as xrandr names them: `-o left` is
    /// Rotate_90, a quarter turn counterclockwise, which is 270 clockwise.
    static let randrRotations: [(UInt16, Int, Bool)] = [
        (1, 0, false), (2, 270, false), (4, 180, false), (8, 90, false),
        (1 | 16, 0, true), (2 | 16, 270, true), (1 | 32, 180, true), (8 | 32, 270, true), (1 | 16 | 32, 180, false),
    ]

    @Test(arguments: randrRotations)
    func test_randrRotations(bits: UInt16, rotation: Int, flipped: Bool) {
        let t = X11Screen.transform(bits)
        #expect(t.rotation == rotation && t.flipped == flipped, "bits \(bits)")
    }

    /// Which backend a session's environment picks: Wayland first, sway's IPC, X11 last (a
    /// Wayland session's DISPLAY is Xwayland's).
    @Test func test_backendPrecedence() {
        func pick(_ e: [String: String]) -> String? { ScreenTracker.backend(e)?.name }
        #expect(pick(["WAYLAND_DISPLAY": "wayland-1", "SWAYSOCK": "/s", "DISPLAY": ":0"]) == "Wayland wl_output")
        #expect(pick(["SWAYSOCK": "/s", "DISPLAY": ":0"]) == "sway")
        #expect(pick(["DISPLAY": ":0"]) == "X11 RandR")
        #expect(pick(["DISPLAY": "", "WAYLAND_DISPLAY": ""]) == nil)
    }
}
