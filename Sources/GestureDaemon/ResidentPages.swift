#if canImport(Glibc)
import Glibc
#endif

/// Start-up touches far more code than streaming runs: the config parser, udev enumeration, the
/// Swift runtime's start-up, the libraries' initializers. Those pages stay mapped (and counted in
/// RSS) for the daemon's life although it never runs them again.
///
/// `release()` unmaps the clean pages of the process's read-only file mappings (MADV_DONTNEED):
/// the pages stay in the page cache, so whatever runs again is mapped back by a minor fault,
/// without I/O (unlike MADV_PAGEOUT, which evicts them from the cache: tried and reverted,
/// docs/PERFORMANCE.md). Writable mappings and read-only ones holding private copies
/// (`Anonymous:` above 0 in smaps, e.g. RELRO pages written by the loader) are left alone:
/// dropping those would lose what was written.
enum ResidentPages {
    /// Returns the resident kB of the mappings released (from smaps, before the call).
    @discardableResult
    static func release() -> Int {
        guard let text = readAll("/proc/self/smaps") else { return 0 }
        var released = 0
        for m in mappings(text) where m.releasable {
            guard let address = UnsafeMutableRawPointer(bitPattern: m.start) else { continue }
            if madvise(address, Int(m.end - m.start), MADV_DONTNEED) == 0 { released += m.rssKB }
        }
        return released
    }

    struct Mapping {
        var start: UInt, end: UInt
        var readOnly: Bool
        var fileBacked: Bool
        var rssKB = 0
        var anonymousKB = 0
        var releasable: Bool { readOnly && fileBacked && anonymousKB == 0 && rssKB > 0 && end > start }
    }

    /// The mappings of a smaps text: `start-end perms offset dev inode [path]` headers followed
    /// by `Key: N kB` lines.
    static func mappings(_ text: [UInt8]) -> [Mapping] {
        var out: [Mapping] = []
        for line in text.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.last == UInt8(ascii: ":") {
                guard !out.isEmpty, fields.count >= 2, let kb = Int(String(decoding: fields[1], as: UTF8.self)) else { continue }
                switch String(decoding: first, as: UTF8.self) {
                case "Rss:": out[out.count - 1].rssKB = kb
                case "Anonymous:": out[out.count - 1].anonymousKB = kb
                default: break
                }
                continue
            }
            let range = first.split(separator: UInt8(ascii: "-"))
            guard fields.count >= 5, range.count == 2, fields[1].count == 4,
                  let start = UInt(String(decoding: range[0], as: UTF8.self), radix: 16),
                  let end = UInt(String(decoding: range[1], as: UTF8.self), radix: 16) else { continue }
            let perms = Array(fields[1])
            let path = fields.count >= 6 ? Array(fields[5]) : []
            out.append(Mapping(start: start, end: end, readOnly: perms[1] != UInt8(ascii: "w"),
                               fileBacked: path.first == UInt8(ascii: "/")))
        }
        return out
    }

    static func readAll(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            text.append(contentsOf: chunk[0..<n])
        }
        return text
    }
}
