// Fault tests for the socket protocol's decoder, replaying what the wire fuzz target found
// (Tests/Fuzz/crashers). A client of the daemon (`gestured listen`, `gestured monitor`) decodes
// every server line: a bad line must become a WireError, never a crash. Exit tests run the decode
// in a child process so a trap fails the test instead of the whole run.
import Testing
import GestureCore
import GestureWire

@Suite struct FaultWireTests {
    /// Tests/Fuzz/crashers/wire-negative-gesture-id: `"id":-1` in a gesture line trapped in
    /// `UInt64(int(obj["id"]) ?? 0)`; it is now a WireError.
    @Test func test_serverMessage_withNegativeGestureId_doesNotCrash() async {
        await #expect(processExitsWith: .success) {
            _ = try? WireDecoder.serverMessage(#"{"type":"gesture","gesture":"pan","phase":"began","id":-1,"fingers":1}"#)
        }
        #expect(throws: WireError.self) {
            try WireDecoder.serverMessage(#"{"type":"gesture","gesture":"pan","phase":"began","id":-1,"fingers":1}"#)
        }
    }

    /// Numbers where the protocol wants small integers: huge, fractional, negative. Each must
    /// decode or throw.
    static let outOfRange = [
        #"{"type":"gesture","gesture":"tap","phase":"recognized","id":1e300,"fingers":1}"#,
        #"{"type":"gesture","gesture":"tap","phase":"recognized","id":1,"fingers":-5}"#,
        #"{"type":"gesture","gesture":"tap","phase":"recognized","id":1,"fingers":1e300}"#,
        #"{"type":"dropped","count":-1}"#,
        #"{"type":"dropped","count":1e300}"#,
        #"{"type":"hello","protocol":1e300,"version":"0","devices":[{"id":-1,"slots":-1,"size_mm":[-1,1e309]}]}"#,
        #"{"type":"subscribe","fingers":[-1, 1e300, 2.5]}"#,
    ]

    @Test func test_decoders_withOutOfRangeNumbers_doNotCrash() async {
        await #expect(processExitsWith: .success) {
            for line in FaultWireTests.outOfRange {
                _ = try? WireDecoder.serverMessage(line)
                _ = try? WireDecoder.clientRequest(line)
            }
        }
    }

    /// Issue 16 finding 7: lines a hostile server (anyone who creates the socket path first) sends.
    /// `"time": 1e300` trapped in `Int64(t * 1e6)`, `1e400` read as infinity, and `"size_mm":
    /// [1e300, …]` trapped in monitor's `Int(width.rounded())`.
    static let hostile = [
        #"{"type":"gesture","gesture":"tap","phase":"recognized","id":1,"fingers":1,"time":1e300}"#,
        #"{"type":"gesture","gesture":"tap","phase":"recognized","id":1,"fingers":1,"time":1e400}"#,
        #"{"type":"gesture","gesture":"tap","phase":"recognized","id":1,"fingers":1,"time":-1e19}"#,
        #"{"type":"gesture","gesture":"pan","phase":"changed","id":1,"fingers":2,"time":1,"dx_mm":1e400}"#,
        #"{"type":"frame","time":1e400,"fingers":1}"#,
        #"{"type":"deviceAdded","device":{"id":1,"name":"x","size_mm":[1e300,1e300]}}"#,
        #"{"type":"hello","protocol":1,"version":"0","devices":[{"id":1,"name":"x","size_mm":[-1e300,5]}]}"#,
    ]

    @Test func test_serverMessage_withNonFiniteOrHugeNumbers_throws() async {
        await #expect(processExitsWith: .success) {
            for line in FaultWireTests.hostile { _ = try? WireDecoder.serverMessage(line) }
        }
        for line in FaultWireTests.hostile {
            #expect(throws: WireError.self, "\(line)") { try WireDecoder.serverMessage(line) }
        }
    }

    /// Monitor's and listen's own line handling (not only the decoder): a hostile line becomes a
    /// `??` line or a log line, never a trap.
    @Test func test_clientLineHandling_withHostileLines_survives() async {
        await #expect(processExitsWith: .success) {
            var listen = ListenLines()
            for line in FaultWireTests.hostile + FaultWireTests.outOfRange {
                _ = MonitorText.line(for: line, json: false)
                _ = MonitorText.line(for: line, json: true)
                _ = listen.handle(line, socket: "s", bindings: 1)
            }
        }
        let text = MonitorText.line(for: FaultWireTests.hostile[0], json: false) ?? ""
        #expect(text.hasPrefix("?? gesture: \"time\""), "\(text)")
        var listen = ListenLines()
        guard case .log(let why) = listen.handle(FaultWireTests.hostile[5], socket: "s", bindings: 1) else {
            Issue.record("a device with a 1e300 mm side must be reported, not used"); return
        }
        #expect(why.contains("size_mm"))
    }

    /// Issue 16 finding 8: control characters in outside text reach the terminal escaped.
    @Test func test_monitorText_escapesControlCharactersInNamesAndRawLines() {
        let d = WireDevice(id: 1, name: "pad\n[forged] gestured: \u{1b}[2J", kind: .touchpad, node: "/dev/x",
                           widthMillimeters: 100, heightMillimeters: 60, sizeKnown: true, slots: 5, contactProtocol: "B")
        let added = MonitorText.line(for: WireEncoder.deviceAdded(d), json: false) ?? ""
        #expect(added.contains(#"'pad\n[forged] gestured: \x1b[2J'"#), "\(added)")
        #expect(!added.contains("\n") && !added.contains("\u{1b}"))
        let raw = MonitorText.line(for: "{\"type\":\"x\u{1b}[31m\"}", json: true) ?? ""
        #expect(raw == #"{"type":"x\x1b[31m"}"#)
        #expect(TextEscaping.escaped("a\tb\\c\u{7f}\u{9b}é") == #"a\tb\\c\x7f\u{9b}é"#)
    }
}
