#if canImport(Glibc)
import Glibc
#endif
import GestureConfig
import GestureDaemon
import Foundation
import Testing
import LinuxSystem

/// errno as a typed error: the named cases are what real calls fail with, and the text is the
/// system's own.
@Suite struct SystemErrorTests {
    @Test func test_last_namesWhatARealCallFailedWith() {
        #expect(open("/nonexistent-gestured-test/x", O_RDONLY) == -1)
        let missing = SystemError.last
        #expect(missing == .noSuchFile)
        #expect(missing != .permissionDenied)
        #expect(missing.description == String(cString: strerror(ENOENT)))

        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        var byte: UInt8 = 0
        #expect(read(fds[0], &byte, 1) == -1)
        #expect(SystemError.last == .wouldBlock)

        #expect(waitpid(1, nil, WNOHANG) == -1)   // pid 1 is nobody's child here; -1 would reap other tests' children
        #expect(SystemError.last == .noChild)
    }

    @Test func test_namedCases_matchInSwitches() {
        func name(_ e: SystemError) -> String {
            switch e {
            case .interrupted: "interrupted"
            case .wouldBlock: "would block"
            case .noDevice: "no device"
            default: "other \(e.code)"
            }
        }
        #expect(name(SystemError(code: EINTR)) == "interrupted")
        #expect(name(SystemError(code: EWOULDBLOCK)) == "would block")
        #expect(name(SystemError(code: ENODEV)) == "no device")
        #expect(name(SystemError(code: EIO)) == "other \(EIO)")
    }

    @Test func test_connectError_toAMissingSocket_saysWhyWithAHint() {
        do {
            _ = try DaemonConnection(path: "/nonexistent-gestured-test/gestured.sock")
            Issue.record("connected to a socket that does not exist")
        } catch {
            #expect(error.error == .noSuchFile)
            #expect(error.description.hasSuffix("(is the daemon running? `systemctl status gestured` or pass --socket)"))
        }
    }
}

/// The loaders' one read of the disk, and the errors they make of its failures.
@Suite struct FileContentsTests {
    @Test func test_bytes_readsAWholeFile_andRefusesMoreThanTheLimit() throws {
        let dir = TestPaths.tempDirectory()
        defer { unlink(dir + "/f"); rmdir(dir) }
        let text = String(repeating: "0123456789", count: 10_000)
        try text.write(toFile: dir + "/f", atomically: false, encoding: .utf8)
        #expect(try FileContents.bytes(of: dir + "/f", maximumBytes: 100_000) == Array(text.utf8))
        #expect(throws: FileContents.Failure.tooLarge) { try FileContents.bytes(of: dir + "/f", maximumBytes: 99_999) }
    }

    /// `prefix` cuts a longer file short instead of refusing it (/proc/PID/environ), and reads a
    /// shorter one whole, across more than one read's buffer.
    @Test func test_prefix_cutsALongerFileShort_andReadsAShorterOneWhole() throws {
        let dir = TestPaths.tempDirectory()
        defer { unlink(dir + "/f"); rmdir(dir) }
        let text = Array(String(repeating: "0123456789", count: 10_000).utf8)
        try Data(text).write(to: URL(fileURLWithPath: dir + "/f"))
        #expect(try FileContents.prefix(of: dir + "/f", maximumBytes: 99_999) == Array(text[..<99_999]))
        #expect(try FileContents.prefix(of: dir + "/f", maximumBytes: 70_000) == Array(text[..<70_000]))
        #expect(try FileContents.prefix(of: dir + "/f", maximumBytes: 1 << 20) == text)
        #expect(try FileContents.prefix(of: dir + "/f", maximumBytes: 0) == [])
        #expect(throws: FileContents.Failure.open(.noSuchFile)) { try FileContents.prefix(of: "/nonexistent/f", maximumBytes: 10) }
    }

    @Test func test_bytes_namesTheStepThatFailed() {
        #expect(throws: FileContents.Failure.open(.noSuchFile)) { try FileContents.bytes(of: "/nonexistent/f", maximumBytes: 10) }
        #expect(throws: FileContents.Failure.read(.isDirectory)) { try FileContents.bytes(of: "/tmp", maximumBytes: 10) }
    }

    @Test func test_configLoad_ofADirectoryOrAMissingFile_saysWhichWithAHint() {
        for (path, hint) in [("/tmp", "that is a directory, not a file"),
                             ("/nonexistent/gestured.yaml", "no such file; `gestured check --config FILE` names another")] {
            do {
                _ = try Config.load(path: path)
                Issue.record("\(path) loaded")
            } catch {
                #expect(error.diagnostics.first?.hint == hint, "\(error)")
                #expect(error.diagnostics.first?.message == "cannot read the file")
            }
        }
    }
}
