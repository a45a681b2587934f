import Testing
import YAML

/// YAML syntax errors must point at a line that exists (found by the YAML fuzz target: libyaml
/// reports "a: 1\nb" at 3:1, one line past the end).
@Suite struct YAMLMarkTests {
    func errorMark(_ text: String) -> Mark? {
        do { _ = try parseYAML(text); return nil } catch { return error.mark }
    }

    @Test func test_errorAtEndOfInput_pointsAtTheLastLine() {
        let mark = errorMark("a: 1\nb")
        #expect(mark == Mark(line: 2, column: 2))
    }

    @Test func test_errorAtEndOfInputWithFinalNewline_pointsAtTheLastLine() {
        let mark = errorMark("a: 1\nb\n")
        #expect(mark?.line == 2)
    }

    @Test func test_errorInsideTheInput_keepsLibyamlsMark() {
        // A tab cannot start indentation: libyaml reports it where it is.
        let mark = errorMark("a:\n  b: 1\n c: [1, 2\n")
        #expect(mark != nil)
        if let mark { #expect(mark.line >= 2 && mark.line <= 3) }
    }
}

@Suite struct YAMLNodeMarkTests {
    /// Found by the libinput-record fuzz target: the empty document "---" (no newline) gave its
    /// null node a mark on line 2 of a 1-line text.
    @Test func test_emptyDocumentNode_isMarkedOnTheLastLine() throws {
        let node = try parseYAML("---")
        if let node { #expect(node.mark.line == 1) }
        let nested = try #require(try parseYAML("a:\n  b:"))
        #expect(nested["a"]?["b"]?.mark.line ?? 0 <= 2)
    }
}

@Suite struct YAMLNestingTests {
    /// Found by the YAML fuzz target: 20 000 nested "[" took 1.6 s inside libyaml.
    @Test func test_nestingPastTheLimit_isAnError() {
        let deep = String(repeating: "[", count: 20_000)
        #expect(throws: YAMLError.self) { try parseYAML(deep) }
        let ok = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: Never.self) { try parseYAML(ok) }
    }
}
