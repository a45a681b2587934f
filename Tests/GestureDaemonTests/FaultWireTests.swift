// Fault tests for the socket protocol's decoder, replaying what the wire fuzz target found
// (Tests/Fuzz/crashers). A client of the daemon (`gestured listen`, `gestured monitor`) decodes
// every server line: a bad line must become a WireError, never a crash. Exit tests run the decode
// in a child process so a trap fails the test instead of the whole run.
import Testing
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
}
