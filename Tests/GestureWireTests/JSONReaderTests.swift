import Testing
@testable import GestureWire

/// The wire module's own JSON reader (it replaced Foundation's JSONSerialization).
@Suite struct JSONReaderTests {
    func parse(_ s: String) throws -> Any { try JSONReader.parse(Array(s.utf8)) }

    @Test func test_object_withEveryValueKind() throws {
        let v = try #require(try parse(#" {"s":"a\"b\\c\n","n":-1.5e2,"i":42,"t":true,"f":false,"z":null,"a":[1,[2]],"o":{}} "#) as? [String: Any])
        #expect(v["s"] as? String == "a\"b\\c\n")
        #expect(v["n"] as? Double == -150)
        #expect(v["i"] as? Double == 42)
        #expect(v["t"] as? Bool == true && v["f"] as? Bool == false)
        #expect(v["z"] is JSONNull)
        let a = try #require(v["a"] as? [Any])
        #expect(a.count == 2 && (a[1] as? [Any])?.first as? Double == 2)
        #expect((v["o"] as? [String: Any])?.isEmpty == true)
    }

    @Test func test_unicodeEscapes_includingSurrogatePairs() throws {
        #expect(try parse(#""\u00e9\ud83d\ude00""#) as? String == "é😀")
        #expect(try parse("\"caf\u{e9}\"") as? String == "café")
    }

    @Test func test_booleansAreNotNumbers() throws {
        let v = try #require(try parse(#"{"b":true,"n":1}"#) as? [String: Any])
        #expect(WireDecoder.int(v["b"]) == nil)
        #expect(WireDecoder.int(v["n"]) == 1)
    }

    @Test(arguments: ["", "{", "{\"a\":}", "[1,]", "{\"a\" 1}", "tru", "\"abc", "01x", "{\"a\":1} x",
                      "\"\\ud83d\"", "\"a\u{01}b\"", "-", "1.", "1e", String(repeating: "[", count: 100)])
    func test_malformed_isAnError(_ text: String) {
        #expect(throws: JSONReader.Failure.self) { try JSONReader.parse(Array(text.utf8)) }
    }

    @Test func test_wireDecoder_stillDecodesAHelloAndAGesture() throws {
        let hello = try WireDecoder.serverMessage(#"{"type":"hello","protocol":1,"version":"0.1.0","devices":[{"id":1,"name":"pad","kind":"touchpad","node":"/dev/input/event5","size_mm":[100,60],"size_known":true,"slots":5,"protocol":"B"}]}"#)
        guard case .hello(let p, let v, let devices) = hello else { Issue.record("not a hello"); return }
        #expect(p == 1 && v == "0.1.0" && devices.first?.sizeKnown == true && devices.first?.widthMillimeters == 100)
        let g = try WireDecoder.serverMessage(#"{"type":"gesture","gesture":"swipe","phase":"recognized","id":3,"fingers":3,"direction":"left","time":1.5,"device":{"name":"pad","kind":"touchpad"},"dx_mm":-31.2}"#)
        guard case .gesture(let e, let d) = g else { Issue.record("not a gesture"); return }
        #expect(e.fingers == 3 && e.direction == .left && e.dxMillimeters == -31.2 && d.kind == .touchpad)
    }
}
