import GestureCore
import Testing

/// Gesture kinds and directions are numbers in a name table: known names and names met later
/// round-trip, compare and hash by name, and a gesture event holds no reference.
@Suite struct GestureNameTests {
    @Test func knownKinds_roundTripTheirNames_andEqualTheirStaticMembers() {
        for k in GestureKind.all { #expect(GestureKind(rawValue: k.rawValue) == k) }
        #expect(GestureKind(rawValue: "edgeSwipe") == .edgeSwipe && GestureKind.edgeSwipe.rawValue == "edgeSwipe")
        #expect(Set(GestureKind.all.map(\.rawValue)).count == GestureKind.all.count)
        for d in GestureDirection.all { #expect(GestureDirection(rawValue: d.rawValue) == d) }
        #expect(GestureDirection.counterclockwise.rawValue == "counterclockwise")
    }

    @Test func aNameMetLater_keepsItsName_equalsItself_andNoKnownKind() {
        let a = GestureKind(rawValue: "threeFingerDrag-\(#line)")
        let b = GestureKind(rawValue: "threeFingerDrag-\(#line - 1)")
        #expect(a.rawValue == "threeFingerDrag-\(#line - 2)")
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(!GestureKind.all.contains(a))
        #expect(GestureKind(rawValue: "anotherKind-\(#line)") != a)
        let d = GestureDirection(rawValue: "inward-\(#line)")
        #expect(d.rawValue.hasPrefix("inward-") && d != .in && Set([d, .in, d]).count == 2)
    }

    @Test func kindsHashAndCompareAsTheirNamesDo() {
        let kinds = GestureKind.all + [GestureKind(rawValue: "x-\(#line)")]
        for a in kinds {
            for b in kinds {
                #expect((a == b) == (a.rawValue == b.rawValue), "\(a) \(b)")
                if a == b { #expect(a.hashValue == b.hashValue) }
            }
        }
    }

    /// What the delivery path relies on: copying an event copies bytes, retains nothing.
    @Test func aGestureEvent_isPlainMemory() {
        #expect(_isPOD(GestureEvent.self))
        #expect(_isPOD(GestureKind.self) && _isPOD(GestureDirection.self))
    }
}
