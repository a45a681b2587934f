#if canImport(Glibc)
import Glibc
#endif
import CCodeOrder

/// The process's mappings of program code and constants (the executable's and the shared
/// libraries' r-xp and r--p segments: code, read-only data, symbol tables). Pages used once
/// (start-up: the argument parser, the config and YAML reader, udev enumeration, the dynamic
/// linker's symbol lookups) stay mapped, and so counted in the resident set, for the life of the
/// process.
public enum CodePages {
    /// One file-backed code mapping of /proc/self/smaps.
    struct Mapping: Equatable {
        var start: UInt, end: UInt
        var path: String
        /// Pages of it the process itself wrote (copy-on-write), which a drop would lose.
        var anonymousKilobytes: Int
    }

    /// Unmaps the resident pages of every file-backed code mapping that holds nothing but the
    /// file's own contents (`MADV_DONTNEED`): they come back from the page cache on their next use,
    /// so the resident set is again the code the process runs from now on. A private mapping
    /// with a page of its own (`Anonymous:` above 0) is left alone. The hot code (`hotCode`) stays:
    /// the next frame would fault it straight back in, a few page faults charged to the first
    /// gesture after a device opened or a client connected. Returns about the kilobytes dropped.
    ///
    /// Every page touched after a drop comes back with its 64 kB fault-around window, and
    /// destroying the parsed mappings runs the runtime's generic value witnesses and string code,
    /// each in a window of its own. So the ranges are worked out first and the smaps text, the
    /// mappings and their paths are gone before the first `madvise`; then only this loop runs,
    /// over plain numbers, with this module's own file last.
    @discardableResult
    public static func dropUnused() -> Int {
        var ranges: [UInt] = []   // start, length and resident kilobytes, in threes
        var dropped = 0
        do {
            guard let bytes = try? FileContents.bytes(of: "/proc/self/smaps", maximumBytes: 4 << 20) else { return 0 }
            let mappings = codeMappings(bytes).filter { $0.0.anonymousKilobytes == 0 && $0.0.end > $0.0.start }
            let own = ownPath(mappings.map(\.0))
            let hot = hotCode
            ranges.reserveCapacity(3 * mappings.count + 3)
            for last in [false, true] {
                for (m, rss) in mappings where (m.path == own) == last {
                    let parts = pieces(m.start..<m.end, keeping: hot)
                    let kept = (m.end - m.start - parts.reduce(0) { $0 + UInt($1.count) }) / 1024
                    var resident = UInt(rss) > kept ? UInt(rss) - kept : 0   // counted with the first piece
                    for piece in parts {
                        ranges.append(piece.lowerBound); ranges.append(UInt(piece.count)); ranges.append(resident)
                        resident = 0
                    }
                }
            }
        }
        ranges.withUnsafeBufferPointer { r in
            var i = 0
            while i + 2 < r.count {
                if let base = UnsafeMutableRawPointer(bitPattern: r[i]) {
                    if madvise(base, Int(r[i + 1]), MADV_DONTNEED) == 0 { dropped += Int(r[i + 2]) }
                    _ = madvise(base, Int(r[i + 1]), MADV_RANDOM)
                }
                i += 3
            }
        }
        return dropped
    }

    /// The pages between the two marks scripts/gen-order.sh places around the functions a frame
    /// runs (CCodeOrder). A build without the order (tests, debug builds) has them side by side:
    /// a page is kept.
    static var hotCode: Range<UInt>? {
        let begin = address(of: gestured_hot_code_begin), end = address(of: gestured_hot_code_end)
        let page = UInt(4096)
        let from = begin & ~(page - 1), to = (end + page - 1) & ~(page - 1)
        // The order puts begin first and end after a few hundred kB of hot code; anything else
        // is an unordered build.
        guard from < to, to - from <= 4 << 20 else { return nil }
        return from..<to
    }

    /// `range` without the part inside `kept`: up to two pieces (none when all of it is kept).
    static func pieces(_ range: Range<UInt>, keeping kept: Range<UInt>?) -> [Range<UInt>] {
        guard let kept, kept.overlaps(range) else { return [range] }
        var out: [Range<UInt>] = []
        if range.lowerBound < kept.lowerBound { out.append(range.lowerBound..<kept.lowerBound) }
        if kept.upperBound < range.upperBound { out.append(kept.upperBound..<range.upperBound) }
        return out
    }

    /// The file of the mapping that holds this module's code (a mark is linked into the same
    /// file): the executable, or the library LinuxSystem is linked into.
    static func ownPath(_ mappings: [Mapping]) -> String? {
        let code = address(of: gestured_hot_code_begin)
        return mappings.first { $0.start <= code && code < $0.end }?.path
    }

    private static func address(of mark: @convention(c) () -> Void) -> UInt { unsafeBitCast(mark, to: UInt.self) }

    static func codeMappings(_ smaps: String) -> [(Mapping, rss: Int)] { codeMappings(Array(smaps.utf8)) }

    /// The r-xp and r--p mappings of files (path starting with "/") in smaps, with their Rss (kB).
    /// Read as bytes, a line at a time: the smaps of a process runs to thousands of lines, and
    /// the daemon reads its own after once-only work (CodeHandBack).
    static func codeMappings(_ smaps: [UInt8]) -> [(Mapping, rss: Int)] {
        var out: [(Mapping, rss: Int)] = []
        var current: Mapping?
        var rss = 0
        func flush() { if let c = current { out.append((c, rss)) }; current = nil; rss = 0 }
        var start = 0
        while start < smaps.count {
            let end = smaps[start...].firstIndex(of: UInt8(ascii: "\n")) ?? smaps.count
            let line = smaps[start..<end]
            start = end + 1
            guard let first = line.first else { continue }
            if Self.isHex(first) {   // a mapping's header (its fields' lines begin with a capital)
                flush()
                current = Self.header(line)
            } else if current != nil, let kb = Self.kilobytes(line, after: "Rss:") {
                rss = kb
            } else if current != nil, let kb = Self.kilobytes(line, after: "Anonymous:") {
                current!.anonymousKilobytes = kb
            }
        }
        flush()
        return out
    }

    private static func isHex(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "f"))
    }

    /// "START-END PERMS OFFSET DEV INODE PATH": the mapping when it is a file's r-xp or r--p one,
    /// nil for any other header (and for a line that is no header).
    private static func header(_ line: ArraySlice<UInt8>) -> Mapping? {
        var fields: [ArraySlice<UInt8>] = []
        var i = line.startIndex
        while i < line.endIndex && fields.count < 5 {
            while i < line.endIndex && line[i] == UInt8(ascii: " ") { i += 1 }
            let from = i
            while i < line.endIndex && line[i] != UInt8(ascii: " ") { i += 1 }
            if from < i { fields.append(line[from..<i]) }
        }
        while i < line.endIndex && line[i] == UInt8(ascii: " ") { i += 1 }
        let path = line[i...]
        guard fields.count == 5, path.first == UInt8(ascii: "/"),
              fields[1].elementsEqual("r-xp".utf8) || fields[1].elementsEqual("r--p".utf8),
              let dash = fields[0].firstIndex(of: UInt8(ascii: "-")),
              let start = hex(fields[0][..<dash]), let end = hex(fields[0][(dash + 1)...]) else { return nil }
        return Mapping(start: start, end: end, path: String(decoding: path, as: UTF8.self), anonymousKilobytes: 0)
    }

    private static func hex(_ digits: ArraySlice<UInt8>) -> UInt? {
        guard !digits.isEmpty, digits.count <= 16 else { return nil }
        var v: UInt = 0
        for d in digits {
            guard isHex(d) else { return nil }
            v = v << 4 | UInt(d <= UInt8(ascii: "9") ? d - UInt8(ascii: "0") : d - UInt8(ascii: "a") + 10)
        }
        return v
    }

    /// The number of a "NAME:    N kB" line that starts with `name`.
    private static func kilobytes(_ line: ArraySlice<UInt8>, after name: StaticString) -> Int? {
        let n = name.utf8CodeUnitCount
        guard line.count > n, line.prefix(n).elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: n)) else { return nil }
        var v = 0, seen = false
        for b in line.dropFirst(n) {
            if b == UInt8(ascii: " ") { if seen { break } else { continue } }
            guard b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") else { return nil }
            v = v * 10 + Int(b - UInt8(ascii: "0")); seen = true
        }
        return seen ? v : nil
    }
}
