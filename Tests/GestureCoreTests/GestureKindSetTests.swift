import GestureCore
import Testing

/// GestureKindSet: one bit a kind; a kind outside the bits is in every non-empty set.
@Suite struct GestureKindSetTests {
    @Test func membership() {
        var s = GestureKindSet([.tap, .rotate])
        #expect(s.contains(.tap) && s.contains(.rotate) && !s.contains(.pan) && !s.contains(.edgeSwipe))
        s.insert(.edgeSwipe)
        s.formUnion(GestureKindSet([.pan]))
        #expect(GestureKind.all.filter { s.contains($0) } == [.tap, .pan, .rotate, .edgeSwipe])
        #expect(GestureKind.all.allSatisfy { GestureKindSet.all.contains($0) && !GestureKindSet.none.contains($0) })
        #expect(GestureKindSet.none.isEmpty && !s.isEmpty)
        #expect(GestureKindSet(GestureKind.all).bits == GestureKindSet(GestureKind.all.reversed()).bits)
    }

    /// Kinds the set of kinds grew by at run time have bits while they fit, and past them are in
    /// every set but the empty one: never filtered out while anything is wanted.
    @Test func aKindPastTheBits_isInEveryNonEmptySet() {
        let grown = (0..<10).map { GestureKind(rawValue: "kindSetTestsGrown\($0)") }
        let first = grown[0], last = grown[9]           // at least 8 + 10 = 18th in the table
        #expect(!GestureKind.all.contains(first))
        #expect(GestureKindSet([first]).contains(first) && GestureKindSet.all.contains(first))
        #expect(GestureKindSet([.tap]).contains(last) && GestureKindSet.all.contains(last))
        #expect(!GestureKindSet.none.contains(last) && !GestureKindSet.none.contains(first))
    }
}
