import Synchronization

/// The names of an open set (gesture kinds, directions) as small numbers, so that a value naming
/// one is plain memory: a `GestureEvent` holds no reference, copies without retaining anything,
/// and compares kinds by number. The known names are 1…n in their order; a name met later (a
/// newer daemon's kind in a line a client reads, a test's) is added once, for the process's
/// life, up to `capacity` of them, past which every new name is number 0, named "unknown".
final class NameTable: Sendable {
    static let capacity = 4_096
    private let known: [String]
    private let others = Mutex<[String]>([])

    init(_ known: [String]) { self.known = known }

    func code(of name: String) -> UInt16 {
        if let i = known.firstIndex(of: name) { return UInt16(i + 1) }
        return others.withLock { list in
            if let i = list.firstIndex(of: name) { return UInt16(known.count + 1 + i) }
            guard list.count < Self.capacity else { return 0 }
            list.append(name)
            return UInt16(known.count + list.count)
        }
    }

    func name(of code: UInt16) -> String {
        if code == 0 { return "unknown" }
        let i = Int(code) - 1
        if i < known.count { return known[i] }
        return others.withLock { $0[i - known.count] }
    }
}
