#if canImport(Glibc)
import Glibc
#endif
import Testing
import LinuxSystem

/// open(2) on real files, the receive timeout on a real socket, posix_spawn of real programs.
@Suite struct OpenAndSpawnTests {
    private func readAll(_ fd: FileDescriptor) throws -> [UInt8] {
        var out: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try fd.read(into: $0) }
            if n == 0 { return out }
            out += chunk[..<n]
        }
    }

    @Test func test_open_createTruncateThenRead_roundTrips() throws {
        let dir = Scratch.directory(), path = dir + "/f"
        defer { unlink(path); rmdir(dir) }
        for text in ["a longer first text", "short"] {
            let w = try FileDescriptor.open(path, .createOrTruncate(permissions: 0o600))
            try w.writeAll(Array(text.utf8))
            #expect(fcntl(w.rawValue, F_GETFD) & FD_CLOEXEC != 0)
            w.close()
        }
        let r = try FileDescriptor.open(path, .readOnly)
        defer { r.close() }
        #expect(try readAll(r) == Array("short".utf8))
        #expect(try FileStatus(of: path).permissions == 0o600)
        #expect(FileSystem.exists(path) && FileSystem.isWritable(path))
        #expect(!FileSystem.exists(dir + "/none"))
    }

    @Test func test_open_createNew_refusesAnExistingFileAndALink() throws {
        let dir = Scratch.directory(), path = dir + "/new", link = dir + "/link"
        defer { unlink(path); unlink(link); rmdir(dir) }
        let fd = try FileDescriptor.open(path, .createNew(permissions: 0o600))
        fd.close()
        #expect(throws: SystemError(code: EEXIST)) { try FileDescriptor.open(path, .createNew(permissions: 0o600)) }
        #expect(symlink(dir + "/target", link) == 0)
        #expect(throws: SystemError(code: EEXIST)) { try FileDescriptor.open(link, .createNew(permissions: 0o600)) }
        #expect(!FileSystem.exists(dir + "/target"), "a link must not be followed to create its target")
    }

    @Test func test_receive_dontWait_onABlockingSocket_throwsWouldBlock() throws {
        try Scratch.withConnectedClient { client in
            var buffer = [UInt8](repeating: 0, count: 16)
            #expect(throws: SystemError.wouldBlock) {
                _ = try buffer.withUnsafeMutableBytes { try client.receive(into: $0, dontWait: true) }
            }
        }
    }

    @Test func test_open_missingFile_throwsNoSuchFile() {
        #expect(throws: SystemError.noSuchFile) { try FileDescriptor.open("/nonexistent/linuxsystem", .readOnly) }
    }

    @Test func test_statusOf_followsTheLink() throws {
        let dir = Scratch.directory()
        defer { unlink(dir + "/l"); rmdir(dir) }
        #expect(symlink("/dev/null", dir + "/l") == 0)
        #expect(try FileStatus(of: dir + "/l").kind == .characterDevice)
        #expect(try FileStatus(ofLink: dir + "/l").kind == .symbolicLink)
    }

    @Test func test_receiveTimeout_givesUpWithWouldBlock() throws {
        try Scratch.withConnectedClient { client in
            client.setReceiveTimeout(.milliseconds(50))
            var buffer = [UInt8](repeating: 0, count: 16)
            #expect(throws: SystemError.wouldBlock) { _ = try buffer.withUnsafeMutableBytes { try client.receive(into: $0) } }
        }
    }

    @Test func test_program_capturesStandardOutput_andExitStatus() throws {
        let pipe = try FileDescriptor.pipe()
        let pid = try ChildSpawn.program(["/bin/sh", "-c", "echo out; echo err >&2; exit 3"],
                                         stdout: .descriptor(pipe.writeEnd), closing: pipe.readEnd)
        pipe.writeEnd.close()
        defer { pipe.readEnd.close() }
        #expect(try readAll(pipe.readEnd) == Array("out\n".utf8))
        #expect(try ChildSpawn.wait(pid) == .exited(status: 3))
        #expect(throws: SystemError.noChild) { try ChildSpawn.wait(pid) }
    }

    @Test func test_program_missingExecutable_throws() throws {
        let pipe = try FileDescriptor.pipe()
        defer { pipe.readEnd.close(); pipe.writeEnd.close() }
        #expect(throws: SystemError.noSuchFile) { _ = try ChildSpawn.program(["/nonexistent/linuxsystem"], stdout: .descriptor(pipe.writeEnd)) }
    }

    @Test func test_restoreDefault_unblocksAndResetsTheDisposition() {
        let usr2 = Signal(rawValue: SIGUSR2)
        signal(SIGUSR2, SIG_IGN)
        var set = sigset_t(); sigemptyset(&set); sigaddset(&set, SIGUSR2)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        CurrentProcess.restoreDefault([usr2])
        var mask = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &mask)
        #expect(sigismember(&mask, SIGUSR2) == 0)
        var action = sigaction()
        sigaction(SIGUSR2, nil, &action)
        #expect(unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == 0)   // SIG_DFL
    }
}
