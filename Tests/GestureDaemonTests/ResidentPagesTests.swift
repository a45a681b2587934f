#if canImport(Glibc)
import Glibc
#endif
@testable import GestureDaemon
import Testing

/// What `ResidentPages.release()` may unmap, from a smaps text of the shape Linux writes, and the
/// real call in this process (which must keep running on the pages it released).
@Suite struct ResidentPagesTests {
    static let smaps = """
    55d0c0000000-55d0c0100000 r--p 00000000 08:01 131 /usr/bin/gestured
    Size:               1024 kB
    Rss:                 800 kB
    Anonymous:             0 kB
    55d0c0100000-55d0c0500000 r-xp 00100000 08:01 131 /usr/bin/gestured
    Rss:                3000 kB
    Anonymous:             0 kB
    55d0c0500000-55d0c0540000 r--p 00500000 08:01 131 /usr/bin/gestured
    Rss:                 256 kB
    Anonymous:           256 kB
    55d0c0540000-55d0c0550000 rw-p 00540000 08:01 131 /usr/bin/gestured
    Rss:                  64 kB
    Anonymous:            64 kB
    55d0c1000000-55d0c1100000 rw-p 00000000 00:00 0 [heap]
    Rss:                 400 kB
    Anonymous:           400 kB
    7f0000000000-7f0000001000 r-xp 00000000 00:00 0 [vdso]
    Rss:                   4 kB
    Anonymous:             0 kB
    7f0000100000-7f0000200000 r-xp 00028000 08:01 99 /usr/lib/x86_64-linux-gnu/libc.so.6
    Rss:                 900 kB
    Anonymous:             0 kB
    7f0000300000-7f0000301000 r--p 00000000 08:01 98 /usr/lib/locale/empty
    Rss:                   0 kB
    Anonymous:             0 kB

    """

    @Test func releasesOnlyCleanReadOnlyFilePages() {
        let maps = ResidentPages.mappings(Array(Self.smaps.utf8))
        #expect(maps.count == 8)
        #expect(maps.map(\.releasable) == [true, true, false, false, false, false, true, false])
        #expect(maps[2].anonymousKB == 256, "RELRO written by the loader stays")
        #expect(maps[1].start == 0x55d0c0100000 && maps[1].end == 0x55d0c0500000 && maps[1].rssKB == 3000)
    }

    @Test func thisProcessKeepsRunningAfterARelease() {
        let released = ResidentPages.release()
        #expect(released > 0, "a Swift test process has clean read-only pages mapped")
        // Code, constants and libc are mapped back on use: work that needs them still works.
        var h = Hasher(); h.combine("after release"); _ = h.finalize()
        #expect(String(describing: [1, 2, 3].map { $0 * 2 }) == "[2, 4, 6]")
        #expect(String(cString: strerror(ENOENT)) == "No such file or directory")
    }
}
