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
