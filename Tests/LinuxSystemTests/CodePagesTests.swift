#if canImport(Glibc)
import Glibc
#endif
@testable import LinuxSystem
import Testing

/// `CodePages`: which mappings a drop may touch, and a real drop in this process.
@Suite struct CodePagesTests {
    static let smaps = """
    55d0c0000000-55d0c0400000 r-xp 00010000 08:01 1234 /usr/bin/gestured
    Size:               4096 kB
    Rss:                3200 kB
    Anonymous:             0 kB
    55d0c0400000-55d0c0500000 r--p 00410000 08:01 1234 /usr/bin/gestured
    Rss:                 400 kB
    Anonymous:             0 kB
    55d0c0500000-55d0c0510000 rw-p 00510000 08:01 1234 /usr/bin/gestured
    Rss:                  64 kB
    Anonymous:            64 kB
    7f0000000000-7f0000100000 r-xp 00028000 08:01 99 /usr/lib/x86_64-linux-gnu/libc.so.6
    Rss:                 900 kB
    Anonymous:             0 kB
    7f0000200000-7f0000210000 r-xp 00000000 08:01 77 /opt/patched lib.so
    Rss:                  64 kB
    Anonymous:             8 kB
    7ffc00000000-7ffc00002000 r-xp 00000000 00:00 0 [vdso]
    Rss:                   4 kB
    Anonymous:             0 kB
    """

    /// Only file-backed r-xp and r--p mappings (not rw-p data, not the vdso); a mapping with
    /// pages of its own is reported with them (and left alone by the drop); a path with a space
    /// is kept whole.
    @Test func codeMappings_areTheFilesExecutableAndReadOnlySegments() {
        let m = CodePages.codeMappings(Self.smaps)
        #expect(m.map(\.0.path) == ["/usr/bin/gestured", "/usr/bin/gestured", "/usr/lib/x86_64-linux-gnu/libc.so.6", "/opt/patched lib.so"])
        #expect(m.map(\.rss) == [3200, 400, 900, 64])
        #expect(m.map(\.0.anonymousKilobytes) == [0, 0, 0, 8])
        #expect(m[0].0.start == 0x55d0c0000000 && m[0].0.end == 0x55d0c0400000)
    }

    /// The String-split parse the byte reader replaced, as the reference.
    static func reference(_ smaps: String) -> [(start: UInt, end: UInt, path: String, anonymous: Int, rss: Int)] {
        var out: [(start: UInt, end: UInt, path: String, anonymous: Int, rss: Int)] = []
        var current: (start: UInt, end: UInt, path: String, anonymous: Int)?
        var rss = 0
        func flush() { if let c = current { out.append((c.start, c.end, c.path, c.anonymous, rss)) }; current = nil; rss = 0 }
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.contains("-") && !first.hasSuffix(":") {
                flush()
                let range = first.split(separator: "-")
                guard fields.count >= 6, fields[1] == "r-xp" || fields[1] == "r--p", fields[5].hasPrefix("/"), range.count == 2,
                      let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16) else { continue }
                current = (start, end, fields[5...].joined(separator: " "), 0)
            } else if current != nil, fields.count >= 2, let kb = Int(fields[1]) {
                if first == "Rss:" { rss = kb }
                if first == "Anonymous:" { current!.anonymous = kb }
            }
        }
        flush()
        return out
    }

    /// This process's own smaps, hundreds of mappings, read both ways.
    @Test func codeMappings_ofThisProcess_matchTheReference() throws {
        let text = String(decoding: try FileContents.bytes(of: "/proc/self/smaps", maximumBytes: 8 << 20), as: UTF8.self)
        let m = CodePages.codeMappings(text)
        let r = Self.reference(text)
        #expect(m.count == r.count && m.count > 5)
        for (a, b) in zip(m, r) {
            #expect(a.0.start == b.start && a.0.end == b.end && a.0.path == b.path && a.0.anonymousKilobytes == b.anonymous && a.rss == b.rss)
        }
    }

    /// The drop puts this module's own file last; it must find it among the mappings, and it is
    /// the file this test runs from (the test executable, or a library of it).
    @Test func ownPath_isTheFileHoldingThisModulesCode() throws {
        let text = String(decoding: try FileContents.bytes(of: "/proc/self/smaps", maximumBytes: 8 << 20), as: UTF8.self)
        let mappings = CodePages.codeMappings(text).map(\.0)
        let own = try #require(CodePages.ownPath(mappings))
        #expect(mappings.contains { $0.path == own && $0.path.hasPrefix("/") })
        #expect(!own.hasSuffix("libc.so.6"))
        let exe = String(decoding: try FileContents.bytes(of: "/proc/self/maps", maximumBytes: 8 << 20), as: UTF8.self)
        #expect(exe.contains(own))
        // Nothing found where no mapping holds the code.
        #expect(CodePages.ownPath(mappings.filter { $0.path != own }) == nil)
    }

    /// A mapping loses what lies inside the kept range, and only that.
    @Test func pieces_cutTheKeptRangeOut() {
        let kept: Range<UInt> = 0x2000..<0x5000
        #expect(CodePages.pieces(0x1000..<0x8000, keeping: kept) == [0x1000..<0x2000, 0x5000..<0x8000])
        #expect(CodePages.pieces(0x3000..<0x8000, keeping: kept) == [0x5000..<0x8000])
        #expect(CodePages.pieces(0x1000..<0x4000, keeping: kept) == [0x1000..<0x2000])
        #expect(CodePages.pieces(0x2000..<0x5000, keeping: kept).isEmpty)
        #expect(CodePages.pieces(0x6000..<0x8000, keeping: kept) == [0x6000..<0x8000])
        #expect(CodePages.pieces(0x1000..<0x2000, keeping: kept) == [0x1000..<0x2000])
        #expect(CodePages.pieces(0x1000..<0x2000, keeping: nil) == [0x1000..<0x2000])
    }

    /// The hot range lies in this process's own code, whole pages.
    @Test func hotCode_isWholePagesOfThisModulesCode() throws {
        let hot = try #require(CodePages.hotCode)
        #expect(hot.lowerBound % 4096 == 0 && hot.upperBound % 4096 == 0 && !hot.isEmpty)
        let text = String(decoding: try FileContents.bytes(of: "/proc/self/smaps", maximumBytes: 8 << 20), as: UTF8.self)
        let mappings = CodePages.codeMappings(text).map(\.0)
        let own = try #require(CodePages.ownPath(mappings))
        #expect(mappings.contains { $0.path == own && $0.start <= hot.lowerBound && hot.upperBound <= $0.end })
    }

    private func codeRss() throws -> Int {
        let text = String(decoding: try FileContents.bytes(of: "/proc/self/smaps", maximumBytes: 8 << 20), as: UTF8.self)
        return CodePages.codeMappings(text).reduce(0) { $0 + $1.rss }
    }

    /// In this very process: the code's resident pages go, and the process runs on (they come
    /// back from the page cache as it touches them).
    @Test func dropUnused_shrinksTheResidentCode_andTheProcessRunsOn() throws {
        let before = try codeRss()
        let dropped = CodePages.dropUnused()
        let after = try codeRss()
        #expect(dropped > 0, "nothing dropped (code resident before: \(before) kB)")
        #expect(after < before, "code resident \(before) kB before the drop, \(after) kB after")
        // Code that ran before the drop runs again.
        #expect(CodePages.codeMappings(Self.smaps).count == 4)
    }
}
