#if canImport(Glibc)
import Glibc
#endif
import GestureDaemon
import Testing

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
            #expect(error.errno == ENOENT)
            #expect(error.description.hasSuffix("(is the daemon running? `systemctl status gestured` or pass --socket)"))
        }
    }
}
