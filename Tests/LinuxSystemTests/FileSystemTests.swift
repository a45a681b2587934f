#if canImport(Glibc)
import Glibc
#endif
import Testing
import LinuxSystem

/// lstat, unlink, chown, chmod and getgrnam on real files, directories, links and sockets in a
/// fresh temporary directory.
@Suite struct FileSystemTests {
    private func touch(_ path: String, mode: mode_t = 0o644) {
        let fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, mode)
        precondition(fd >= 0)
        close(fd)
    }

    @Test func test_status_tellsKindsApart_linkNotFollowed() throws {
        let dir = Scratch.directory()
        let file = dir + "/f", link = dir + "/l", sock = dir + "/s"
        touch(file)
        #expect(symlink(file, link) == 0)
        let socket = try UnixSocket.open(.stream)
        defer { socket.close() }
        try socket.bind(to: UnixAddress(path: sock)!)
        #expect(try FileStatus(ofLink: file).kind == .regular)
        #expect(try FileStatus(ofLink: dir).kind == .directory)
        #expect(try FileStatus(ofLink: link).kind == .symbolicLink)
        #expect(try FileStatus(ofLink: sock).kind == .socket)
        #expect(try FileStatus(ofLink: "/dev/null").kind == .characterDevice)
        for p in [file, link, sock] { try FileSystem.remove(p) }
        try? FileSystem.remove(dir)   // a directory is not unlinked
        #expect(rmdir(dir) == 0)
    }

    @Test func test_status_missingPath_throwsNoSuchFile() {
        #expect(throws: SystemError.noSuchFile) { try FileStatus(ofLink: "/nonexistent/linuxsystem-test") }
    }

    @Test func test_remove_missingPath_throwsNoSuchFile_directoryIsDirectory() throws {
        let dir = Scratch.directory()
        defer { rmdir(dir) }
        #expect(throws: SystemError.noSuchFile) { try FileSystem.remove(dir + "/none") }
        #expect(throws: SystemError.isDirectory) { try FileSystem.remove(dir) }
    }

    @Test func test_changePermissions_andGroup_showInStatus() throws {
        let dir = Scratch.directory()
        let file = dir + "/f"
        touch(file)
        defer { unlink(file); rmdir(dir) }
        try FileSystem.changePermissions(file, to: 0o660)
        var status = try FileStatus(ofLink: file)
        #expect(status.permissions == 0o660)
        #expect(status.ownerUID == getuid())
        try FileSystem.changeGroup(file, to: getgid())
        status = try FileStatus(ofLink: file)
        #expect(status.ownerGID == getgid())
        #expect(throws: SystemError.noSuchFile) { try FileSystem.changePermissions(dir + "/none", to: 0o600) }
    }

    @Test func test_groupID_knownAndUnknownGroups() {
        #expect(Accounts.groupID(named: "root") == 0)
        #expect(Accounts.groupID(named: "no-such-group-linuxsystem") == nil)
    }

    /// The umask is process-wide: changed in a child process (an exit test), so that no other test
    /// of this process creates a file (or a socket, SocketServer sets its own mask) meanwhile.
    @Test func test_fileCreationMask_appliesToNewFiles_andReturnsThePrevious() async {
        await #expect(processExitsWith: .success) {
            let dir = Scratch.directory()
            let path = dir + "/masked"
            _ = CurrentProcess.setFileCreationMask(0o077)
            let during = CurrentProcess.setFileCreationMask(0o077)
            let fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, mode_t(0o666))
            guard fd >= 0 else { exit(3) }
            close(fd)
            let permissions = try? FileStatus(ofLink: path).permissions
            unlink(path); rmdir(dir)
            exit(during == 0o077 && permissions == 0o600 ? 0 : 1)
        }
    }
}
