#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import GestureDaemon
import LinuxSystem

/// The socket file `SocketServer.listen` creates: its mode and group, what it refuses to
/// replace, the cleanup after a failure, and the /proc fallback for a peer's groups.
@Suite struct SocketFileTests {
    @Test func test_listen_appliesModeAndGroup() throws {
        let dir = TestPaths.tempDirectory()
        let path = dir + "/mode.sock"
        defer { unlink(path); rmdir(dir) }
        var group = [CChar](repeating: 0, count: 256)
        let own = getgrgid(getgid())
        strncpy(&group, own!.pointee.gr_name, 255)
        let fd = try SocketServer.listen(path: path, mode: 0o660, group: String(cString: group))
        defer { fd.close() }
        var st = stat()
        #expect(lstat(path, &st) == 0)
        #expect(st.st_mode & 0o7777 == 0o660)
        #expect(st.st_gid == getgid())
        #expect(st.st_mode & S_IFMT == S_IFSOCK)
    }

    @Test func test_listen_unknownGroup_failsAndLeavesNoFile() {
        let dir = TestPaths.tempDirectory()
        let path = dir + "/group.sock"
        defer { unlink(path); rmdir(dir) }
        #expect(throws: SocketServer.ListenError.self) {
            _ = try SocketServer.listen(path: path, mode: 0o660, group: "no-such-group-gestured")
        }
        #expect(access(path, F_OK) != 0, "a failed listen must remove the socket file it bound")
    }

    @Test func test_listen_regularFileInTheWay_isNotReplaced() throws {
        let dir = TestPaths.tempDirectory()
        let path = dir + "/file.sock"
        defer { unlink(path); rmdir(dir) }
        close(open(path, O_CREAT | O_WRONLY, 0o644))
        do {
            _ = try SocketServer.listen(path: path, mode: 0o600, group: nil)
            Issue.record("listen replaced a regular file")
        } catch {
            #expect(error.description.contains("is not a socket"))
        }
        #expect(access(path, F_OK) == 0, "the regular file must stay")
    }
}
