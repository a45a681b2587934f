/// A dconf database file (the user's settings, `~/.config/dconf/user`), read directly: dconf's
/// own clients read it the same way, and dconf-service rewrites it whole on every change before
/// it sends `ca.desrt.dconf.Writer.Notify` on the session bus. The file is GVDB (GLib's
/// gvdb-format.h): a header, then a hash table of items whose keys are chained to their parent
/// item (`/org/` + `gnome/` + …); a value item holds a serialized GVariant of type `v`. Only
/// what the touchscreen settings need is decoded: a little-endian file, and string-array values.
struct DconfDatabase {
    private let bytes: [UInt8]
    /// Every value item: its full key and where its serialized variant lies.
    private(set) var keys: [String: Range<Int>] = [:]

    /// The largest file read (a user database holds a few kilobytes to a few hundred).
    static let maximumBytes = 16 << 20
    /// The deepest key read, in path components.
    static let maximumDepth = 256

    init(_ bytes: [UInt8]) throws(FocusError) {
        self.bytes = bytes
        guard bytes.count >= 24, Array(bytes[0..<8]) == Array("GVariant".utf8) else {
            throw FocusError("not a GVDB file (no GVariant signature; a big-endian file is not read)")
        }
        guard u32(8) == 0 else { throw FocusError("GVDB version \(u32(8)), only version 0 is known") }
        let root = try pointer(16)
        try readTable(root)
    }

    private func u32(_ at: Int) -> UInt32 {
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt32.self) }
    }

    private func u16(_ at: Int) -> UInt16 {
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt16.self) }
    }

    /// A gvdb_pointer (start, end) at `at`, checked against the file.
    private func pointer(_ at: Int) throws(FocusError) -> Range<Int> {
        let start = Int(u32(at)), end = Int(u32(at + 4))
        guard start <= end, end <= bytes.count else { throw FocusError("a GVDB pointer \(start)…\(end) outside the file") }
        return start..<end
    }

    /// The root hash table: header (bloom words, buckets), bloom filter, buckets, then 24-byte items.
    private mutating func readTable(_ r: Range<Int>) throws(FocusError) {
        guard r.count >= 8 else { throw FocusError("a GVDB hash table of \(r.count) bytes") }
        let bloomWords = Int(u32(r.lowerBound) & ((1 << 27) - 1)), buckets = Int(u32(r.lowerBound + 4))
        let itemsStart = r.lowerBound + 8 + 4 * (bloomWords + buckets)
        guard itemsStart <= r.upperBound else { throw FocusError("a GVDB hash table larger than its region") }
        let count = (r.upperBound - itemsStart) / 24
        var parents: [Int] = [], types: [UInt8] = [], values: [Range<Int>?] = [], own: [String] = []
        for i in 0..<count {
            let at = itemsStart + 24 * i
            let parent = u32(at + 4), keyStart = Int(u32(at + 8)), keySize = Int(u16(at + 12))
            guard keyStart + keySize <= bytes.count else { throw FocusError("a GVDB key outside the file") }
            own.append(String(decoding: bytes[keyStart..<keyStart + keySize], as: UTF8.self))
            parents.append(parent == 0xFFFF_FFFF ? -1 : Int(parent))
            types.append(bytes[at + 14])
            values.append(bytes[at + 14] == UInt8(ascii: "v") ? try pointer(at + 16) : nil)
        }
        // A full key is its parents' keys and its own (dconf chains one item per path
        // component). A chain deeper than `maximumDepth` (a loop) or reaching outside the table
        // is broken: such an item has no name.
        for i in 0..<count where types[i] == UInt8(ascii: "v") {
            var chain = [i], p = parents[i]
            while p >= 0, p < count, chain.count <= Self.maximumDepth { chain.append(p); p = parents[p] }
            guard p < 0, chain.count <= Self.maximumDepth, let v = values[i] else { continue }
            keys[chain.reversed().map { own[$0] }.joined()] = v
        }
    }

    /// The string array stored under `key`; nil when the key is absent or holds something else.
    func strings(_ key: String) -> [String]? {
        guard let r = keys[key] else { return nil }
        // A variant: the child's bytes, a zero byte, the child's type string.
        let v = bytes[r]
        guard let zero = v.lastIndex(of: 0), String(decoding: v[(zero + 1)...], as: UTF8.self) == "as" else { return nil }
        return Self.stringArray(Array(v[v.startIndex..<zero]))
    }

    /// GVariant's `as`: the strings (each with its zero byte), then one framing offset per
    /// element, each the end of its element, of 1, 2, 4 or 8 bytes as the container's size needs.
    static func stringArray(_ a: [UInt8]) -> [String]? {
        if a.isEmpty { return [] }
        let size = a.count <= 0xFF ? 1 : a.count <= 0xFFFF ? 2 : a.count <= 0xFFFF_FFFF ? 4 : 8
        func offset(_ at: Int) -> Int {
            var v = 0
            for k in 0..<size { v |= Int(a[at + k]) << (8 * k) }
            return v
        }
        guard a.count >= size else { return nil }
        let tableStart = offset(a.count - size)
        guard tableStart >= 0, tableStart <= a.count, (a.count - tableStart) % size == 0 else { return nil }
        let n = (a.count - tableStart) / size
        var out: [String] = [], start = 0
        for i in 0..<n {
            let end = offset(tableStart + i * size)
            guard start < end, end <= tableStart, a[end - 1] == 0 else { return nil }
            out.append(String(decoding: a[start..<end - 1], as: UTF8.self))
            start = end
        }
        return out
    }
}
