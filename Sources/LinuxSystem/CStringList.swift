/// NUL-terminated strings in one byte buffer: posix_spawn's argv and envp, built from bytes and
/// handed over as the pointer array C wants, without a strdup or a Swift String per string (a
/// hook's environment is remade for every run).
public struct CStringList: Sendable {
    public private(set) var bytes: [UInt8] = []
    private var starts: [Int] = []

    public init() {}

    /// Each of `strings`, cut at its first NUL as C would read it.
    public init(_ strings: [String]) {
        for s in strings { begin(); add(s); end() }
    }

    public var count: Int { starts.count }

    /// Starts a string: `add` its bytes, then `end` it.
    public mutating func begin() { starts.append(bytes.count) }
    public mutating func end() { bytes.append(0) }

    public mutating func add(_ s: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    public mutating func add(_ b: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: b) }

    public mutating func add(_ s: String) {
        var s = s
        s.withUTF8 { add($0) }
    }

    public mutating func add(byte: UInt8) { bytes.append(byte) }

    /// Each NUL added since `from` (inside the string being built) made a space.
    public mutating func replaceNULs(from: Int) {
        for i in from..<bytes.count where bytes[i] == 0 { bytes[i] = UInt8(ascii: " ") }
    }

    /// Every string of `other`, after these.
    public mutating func append(contentsOf other: CStringList) {
        let base = bytes.count
        bytes.append(contentsOf: other.bytes)
        starts.append(contentsOf: other.starts.map { $0 + base })
    }

    /// The strings as Swift Strings (tests, logs), each up to its NUL.
    public var strings: [String] {
        starts.map { s in String(decoding: bytes[s..<(bytes[s...].firstIndex(of: 0) ?? bytes.count)], as: UTF8.self) }
    }

    /// A pointer to each string, then nil, valid only inside `body`.
    public func withPointers<R>(_ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) throws -> R) rethrows -> R {
        try bytes.withUnsafeBufferPointer { b in
            try withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<CChar>?.self, capacity: starts.count + 1) { p in
                for (i, s) in starts.enumerated() {
                    p[i] = UnsafeMutableRawPointer(mutating: b.baseAddress! + s).assumingMemoryBound(to: CChar.self)
                }
                p[starts.count] = nil
                return try body(UnsafePointer(p.baseAddress!))
            }
        }
    }
}
