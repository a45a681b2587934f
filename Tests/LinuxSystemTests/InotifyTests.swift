#if canImport(Glibc)
import Glibc
#endif
import Testing
import LinuxSystem

/// inotify on a real directory: creations, renames in and out, attribute changes and deletions
/// come back as events with their names; nothing queued reads as empty.
@Suite struct InotifyTests {
    @Test func test_watch_reportsCreateAttribMoveAndDelete_withNames() throws {
        let dir = Scratch.directory()
        defer { rmdir(dir) }
        let watcher = try Inotify()
        defer { watcher.descriptor.close() }
        try watcher.watch(dir, for: [.created, .deleted, .attributesChanged, .movedIn, .movedOut])
        #expect(watcher.read().isEmpty)

        let fd = open(dir + "/event7", O_CREAT | O_WRONLY | O_CLOEXEC, mode_t(0o600))
        close(fd)
        chmod(dir + "/event7", 0o660)
        rename(dir + "/event7", dir + "/../moved-out-\(getpid())")
        rename(dir + "/../moved-out-\(getpid())", dir + "/event8")
        unlink(dir + "/event8")

        let got = watcher.read().map { e -> String in
            let kinds: [(Inotify.Events, String)] = [(.created, "create"), (.attributesChanged, "attrib"), (.movedOut, "out"),
                                                     (.movedIn, "in"), (.deleted, "delete")]
            return kinds.filter { e.events.contains($0.0) }.map(\.1).joined(separator: "+") + " " + e.name
        }
        #expect(got == ["create event7", "attrib event7", "out event7", "in event8", "delete event8"])
        #expect(watcher.read().isEmpty)
    }

    @Test func test_watch_ofAMissingDirectory_throwsNoSuchFile() throws {
        let watcher = try Inotify()
        defer { watcher.descriptor.close() }
        #expect(throws: SystemError.noSuchFile) { try watcher.watch("/nonexistent-inotify-test", for: .created) }
    }
}
