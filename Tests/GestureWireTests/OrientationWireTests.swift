import GestureCore
@testable import GestureWire
import Testing

/// The `orientation` request and the orientation the device lines carry (docs/PROTOCOL.md).
@Suite struct OrientationWireTests {
    @Test func test_anOrientationRequest_roundTrips() throws {
        let r = OrientationRequest(device: 3, rotation: 270, flipped: true, source: "sway output \"eDP-1\"")
        guard case .orientation(let back) = try WireDecoder.clientRequest(WireEncoder.orientation(r)) else {
            Issue.record("not an orientation request"); return
        }
        #expect(back == r)
    }

    @Test(arguments: [
        (#"{"type":"orientation","rotation":90}"#, "\"device\""),
        (#"{"type":"orientation","device":1,"rotation":45}"#, "0, 90, 180 or 270"),
        (#"{"type":"orientation","device":1}"#, "\"rotation\""),
        (#"{"type":"orientation","device":1,"rotation":90,"flipped":"yes"}"#, "\"flipped\""),
        (#"{"type":"orientation","device":1,"rotation":90,"source":7}"#, "\"source\""),
    ])
    func test_aBadRequest_saysWhichKey(line: String, names: String) {
        #expect {
            _ = try WireDecoder.clientRequest(line)
        } throws: { error in
            (error as? WireError)?.reason.contains(names) == true
        }
    }

    /// The vendor:product ids listen matches GNOME's per-touchscreen settings by: from the
    /// device's description, Mutter's `%.4x` form, absent when the description has none (0:0).
    @Test func test_deviceLines_carryTheInputID() throws {
        let elan = DeviceDescription(name: "ELAN", bustype: 3, vendor: 0x04F3, product: 0x732)
        let d = WireDevice(id: 5, node: "/dev/input/event9", description: elan)
        #expect(d.inputID == "04f3:0732")
        #expect(WireEncoder.deviceChanged(d).contains(#""input_id":"04f3:0732""#))
        guard case .deviceChanged(let back) = try WireDecoder.serverMessage(WireEncoder.deviceChanged(d)) else {
            Issue.record("not deviceChanged"); return
        }
        #expect(back.inputID == "04f3:0732")
        let unknown = WireDevice(id: 6, node: "replay:x", description: DeviceDescription(name: "EP0430M09", bustype: 0x18))
        #expect(unknown.inputID == nil && !WireEncoder.deviceChanged(unknown).contains("input_id"))
    }

    @Test func test_aTooLongSource_isRefused() {
        let line = WireEncoder.orientation(OrientationRequest(device: 1, rotation: 90, source: String(repeating: "x", count: 201)))
        #expect(throws: WireError.self) { _ = try WireDecoder.clientRequest(line) }
    }

    @Test func test_deviceLines_carryTheOrientation() throws {
        var d = WireDevice(id: 2, name: "panel", kind: .touchscreen, node: "/dev/input/event4", widthMillimeters: 100,
                           heightMillimeters: 200, sizeKnown: true, slots: 10, contactProtocol: "B")
        d.orientation = WireOrientation(matrix: "0 1 0 -1 0 1", summary: "rotated 270°",
                                        sources: ["screen rotated 270°: sway output HEADLESS-1 transform 90"])
        d.output = "HEADLESS-1"
        guard case .deviceChanged(let back) = try WireDecoder.serverMessage(WireEncoder.deviceChanged(d)) else {
            Issue.record("not deviceChanged"); return
        }
        #expect(back == d)
        guard case .hello(_, _, let devices) = try WireDecoder.serverMessage(WireEncoder.hello(daemonVersion: "1", devices: [d])) else {
            Issue.record("not hello"); return
        }
        #expect(devices == [d])
        // monitor says it; listen remembers the changed device.
        let text = MonitorText.describe(.deviceChanged(d)) ?? ""
        #expect(text.hasPrefix("~ device 2:") && text.contains("rotated 270°") && text.contains("sway output HEADLESS-1"))
        var lines = ListenLines()
        _ = lines.handle(.deviceChanged(d), socket: "s", bindings: 0)
        #expect(lines.byId[2]?.orientation.summary == "rotated 270°")
    }
}
