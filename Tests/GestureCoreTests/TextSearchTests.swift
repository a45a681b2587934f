import GestureCore
import Testing

/// The stdlib-only substring search that replaces `_StringProcessing`'s `contains`/`firstRange`
/// (the package leaves that module out, see Package.swift).
@Suite struct TextSearchTests {
    @Test func test_rangeOfText_findsTheFirstOccurrence() {
        let s = "touchpad__whot-evemu__x"
        let r = s.rangeOfText("__")
        #expect(r.map { String(s[$0]) } == "__")
        #expect(r.map { s.distance(from: s.startIndex, to: $0.lowerBound) } == 8)
    }

    @Test func test_rangeOfText_afterAPartialMatch_restartsOneCharacterLater() {
        // "aab" inside "aaab": the first attempt at index 0 fails on the third character.
        let s = "xaaab"
        #expect(s.rangeOfText("aab").map { s.distance(from: s.startIndex, to: $0.lowerBound) } == 2)
    }

    @Test func test_rangeOfText_needleLongerThanTheText_orAbsent_isNil() {
        #expect("ab".rangeOfText("abc") == nil)
        #expect("Event: time 1.0, -------------- SYN_REPORT".rangeOfText(" SYN_DROPPED ") == nil)
    }

    @Test func test_containsText_comparesCharacters_asStringContainsDoes() {
        #expect("{\"type\":\"hello\",\"version\":1}".containsText("\"type\":\"hello\""))
        #expect(!"{\"type\":\"error\"}".containsText("\"type\":\"hello\""))
        #expect("abc".containsText(""))
        // A combining accent makes "é" one Character: "e" alone is not in "café" as Characters.
        #expect(!"cafe\u{301}".containsText("e"))
        #expect("cafe\u{301} noir".containsText("\u{E9} noir"))
    }

    @Test func test_rangeOfText_onASubstring_returnsIndicesOfTheBase() {
        let s = "---- SYN_REPORT ----"
        let sub = s.dropFirst(4)
        let r = sub.rangeOfText("SYN")
        #expect(r.map { String(s[$0]) } == "SYN")
    }
}
