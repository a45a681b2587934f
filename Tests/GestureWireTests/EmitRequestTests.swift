import GestureWire
import Testing

@Suite struct EmitRequestTests {
    @Test func test_emitRoundTrips_throughTheEncoderAndDecoder() throws {
        var e = EmitRequest()
        e.keys = ["ctrl+c", "ctrl+v"]; e.keyDelayMilliseconds = 50; e.button = "right"
        e.at = (device: 3, x: 0.25, y: 0.75); e.whenLocked = true
        let line = WireEncoder.emit(e)
        guard case .emit(let back) = try WireDecoder.clientRequest(line) else { Issue.record("not an emit: \(line)"); return }
        #expect(back == e)
        #expect(back.at?.device == 3 && back.at?.x == 0.25 && back.whenLocked)
    }

    @Test func test_oneChordAsAString_isAccepted() throws {
        guard case .emit(let e) = try WireDecoder.clientRequest(#"{"type":"emit","keys":"super+Right"}"#) else { Issue.record("not emit"); return }
        #expect(e.keys == ["super+Right"] && e.button == nil && !e.whenLocked)
    }

    @Test(arguments: [
        (#"{"type":"emit"}"#, "emit needs \"keys\" or \"button\""),
        (#"{"type":"emit","keys":[1]}"#, "keys: expected strings, got a number"),
        (#"{"type":"emit","button":"right","at":{"device":1,"x":2,"y":0}}"#, "at: expected {\"device\": ID, \"x\": 0…1, \"y\": 0…1}"),
        (#"{"type":"emit","keys":"a","key_delay_ms":-1}"#, "key_delay_ms: expected milliseconds 0…10000"),
        (#"{"type":"emit","keys":"a","when_locked":"yes"}"#, "when_locked: expected true or false"),
    ])
    func test_badEmit_isAnErrorWithTheReason(line: String, reason: String) {
        #expect(throws: WireError(reason)) { _ = try WireDecoder.clientRequest(line) }
    }
}
