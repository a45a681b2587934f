#if canImport(Glibc)
import Glibc
#endif
import Testing
import LinuxSystem

/// posix_spawn's redirections and environment with real programs, signals to one process, and
/// the small calls the benchmark makes (executable path, temporary directories, clocks, buffers).
@Suite struct SpawnRedirectionTests {
    @Test func test_program_writesToAFile_withTheGivenEnvironment() throws {
        let dir = try FileSystem.makeTemporaryDirectory(prefix: "/tmp/linuxsystem-spawn.")
        defer { unlink(dir + "/out"); unlink(dir + "/err"); rmdir(dir) }
        #expect(try FileStatus(of: dir).permissions == 0o700)
        let pid = try ChildSpawn.program(["/bin/sh", "-c", "echo \"$ONLY\" \"${HOME:-unset}\"; echo e >&2"],
                                         stdout: .file(dir + "/out"), stderr: .file(dir + "/err"),
                                         environment: ["ONLY=this"])
        #expect(try ChildSpawn.wait(pid) == .exited(status: 0))
        #expect(try FileContents.bytes(of: dir + "/out", maximumBytes: 100) == Array("this unset\n".utf8))
        #expect(try FileContents.bytes(of: dir + "/err", maximumBytes: 100) == Array("e\n".utf8))
    }

    @Test func test_program_stdinFromAPipe_andNullByDefault() throws {
        let input = try FileDescriptor.pipe(), output = try FileDescriptor.pipe()
        defer { output.readEnd.close() }
        let pid = try ChildSpawn.program(["/bin/cat"], stdin: .descriptor(input.readEnd), stdout: .descriptor(output.writeEnd))
        input.readEnd.close(); output.writeEnd.close()
        try input.writeEnd.writeAll(Array("through cat".utf8))
        input.writeEnd.close()
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = try buffer.withUnsafeMutableBytes { try output.readEnd.read(into: $0) }
        #expect(Array(buffer[..<n]) == Array("through cat".utf8))
        #expect(try ChildSpawn.wait(pid) == .exited(status: 0))
        // Standard input defaults to /dev/null: cat ends at once with nothing.
        let empty = try FileDescriptor.pipe()
        defer { empty.readEnd.close() }
        let quiet = try ChildSpawn.program(["/bin/cat"], stdout: .descriptor(empty.writeEnd))
        empty.writeEnd.close()
        #expect(try buffer.withUnsafeMutableBytes { try empty.readEnd.read(into: $0) } == 0)
        #expect(try ChildSpawn.wait(quiet) == .exited(status: 0))
    }

    @Test func test_signal_endsOneProcess_waitNoHangSeesIt() throws {
        let pid = try ChildSpawn.program(["/bin/sleep", "30"], stdout: .null)
        #expect(try ChildSpawn.waitNoHang(pid) == .running)
        // SIGKILL: the test thread may have SIGTERM blocked, and the child inherits the mask.
        ChildSpawn.signal(pid, .kill)
        #expect(try ChildSpawn.wait(pid) == .signalled(SIGKILL))
    }

    @Test func test_executablePath_isThisTestBinary_andExecutable() throws {
        let path = try #require(CurrentProcess.executablePath)
        #expect(path.hasPrefix("/"))
        #expect(FileSystem.isExecutable(path))
        #expect(try FileStatus(of: path).kind == .regular)
        #expect(!FileSystem.isExecutable("/etc/hostname") || getuid() == 0)
    }

    @Test func test_siblingPath_isTheNameInTheExecutablesDirectory() throws {
        let path = try #require(CurrentProcess.executablePath)
        let name = String(path.split(separator: "/").last ?? "")
        let sibling = try #require(CurrentProcess.siblingPath("gestured-listen"))
        #expect(sibling == String(path.dropLast(name.count)) + "gestured-listen")
        #expect(sibling.hasPrefix("/") && !sibling.contains("//"))
    }

    @Test func test_nanoseconds_agreesWithInstant_andNeverGoesBack() {
        let a = MonotonicClock.nanoseconds()
        let instant = MonotonicClock.now()
        let b = MonotonicClock.nanoseconds()
        #expect(a <= b)
        #expect(UInt64(instant.microseconds) >= a / 1000 && UInt64(instant.microseconds) <= b / 1000)
    }

    @Test func test_receiveBufferSize_isWhatTheKernelReports() throws {
        let socket = try UnixSocket.open(.stream)
        defer { socket.close() }
        socket.setReceiveBufferSize(4096)
        var size: Int32 = 0
        var length = socklen_t(4)
        #expect(getsockopt(socket.rawValue, SOL_SOCKET, SO_RCVBUF, &size, &length) == 0)
        #expect(size == 8192)   // Linux doubles the value for its bookkeeping
    }
}
