/// A set of gesture kinds, one bit each: a membership test per gesture without hashing, for the
/// daemon's bus (`GestureBus.wants`). A kind numbered past the bits (the set of kinds grows at
/// run time, `NameTable`) is in every set but the empty one: never filtered out by mistake.
public struct GestureKindSet: Equatable, Sendable {
    public private(set) var bits: UInt16

    public init() { bits = 0 }

    public init<S: Sequence>(_ kinds: S) where S.Element == GestureKind {
        bits = 0
        for k in kinds { insert(k) }
    }

    public static let all = GestureKindSet(bits: .max)
    public static let none = GestureKindSet()

    private init(bits: UInt16) { self.bits = bits }

    public var isEmpty: Bool { bits == 0 }

    /// Inlinable: the daemon's bus asks it for every gesture, once and again per subscriber.
    @inlinable @inline(__always)
    public func contains(_ kind: GestureKind) -> Bool {
        let n = kind.number
        return n < 16 ? bits & (1 << n) != 0 : bits != 0
    }

    public mutating func insert(_ kind: GestureKind) {
        let n = kind.number
        bits |= n < 16 ? 1 << n : .max
    }

    public mutating func formUnion(_ other: GestureKindSet) { bits |= other.bits }
}
