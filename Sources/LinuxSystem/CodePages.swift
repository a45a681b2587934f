#if canImport(Glibc)
import Glibc
#endif

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
    /// with a page of its own (`Anonymous:` above 0) is left alone. Returns the kilobytes dropped.
    @discardableResult
    public static func dropUnused() -> Int {
        guard let bytes = try? FileContents.bytes(of: "/proc/self/smaps", maximumBytes: 4 << 20) else { return 0 }
        var dropped = 0
        for (m, rss) in codeMappings(String(decoding: bytes, as: UTF8.self)) where m.anonymousKilobytes == 0 {
            guard let base = UnsafeMutableRawPointer(bitPattern: m.start), m.end > m.start else { continue }
            if madvise(base, Int(m.end - m.start), MADV_DONTNEED) == 0 { dropped += rss }
            _ = madvise(base, Int(m.end - m.start), MADV_RANDOM)
        }
        return dropped
    }

    /// The r-xp and r--p mappings of files (path starting with "/") in smaps text, with their Rss (kB).
    static func codeMappings(_ smaps: String) -> [(Mapping, rss: Int)] {
        var out: [(Mapping, rss: Int)] = []
        var current: Mapping?
        var rss = 0
        func flush() { if let c = current { out.append((c, rss)) }; current = nil; rss = 0 }
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.contains("-") && !first.hasSuffix(":") {
                flush()
                let range = first.split(separator: "-")
                guard fields.count >= 6, fields[1] == "r-xp" || fields[1] == "r--p", fields[5].hasPrefix("/"), range.count == 2,
                      let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16) else { continue }
                current = Mapping(start: start, end: end, path: fields[5...].joined(separator: " "), anonymousKilobytes: 0)
            } else if current != nil, fields.count >= 2, let kb = Int(fields[1]) {
                if first == "Rss:" { rss = kb }
                if first == "Anonymous:" { current!.anonymousKilobytes = kb }
            }
        }
        flush()
        return out
    }
}
