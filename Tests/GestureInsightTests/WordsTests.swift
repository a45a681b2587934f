import Testing
@testable import GestureInsight

@Suite struct WordsTests {
    @Test func test_num_dropsTrailingZeros() {
        #expect(Words.num(2) == "2")
        #expect(Words.num(1.30) == "1.3")
        #expect(Words.mm(14.24) == "14.2")
        #expect(Words.num(-0.001) == "0")
        #expect(Words.ms(.milliseconds(230)) == "230")
    }
}
