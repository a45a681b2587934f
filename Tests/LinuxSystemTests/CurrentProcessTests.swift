#if canImport(Glibc)
import Glibc
#endif
import Testing
import LinuxSystem

/// The calling process's ids, environment, SIGPIPE disposition, and C strings it must free.
@Suite struct CurrentProcessTests {
    @Test func test_ids_matchTheKernels() {
        #expect(CurrentProcess.id == getpid())
        #expect(CurrentProcess.userID == getuid())
    }

    @Test func test_environmentValue_setAndUnset() {
        setenv("LINUXSYSTEM_TEST_VALUE", "a=b c", 1)
        #expect(CurrentProcess.environmentValue("LINUXSYSTEM_TEST_VALUE") == "a=b c")
        unsetenv("LINUXSYSTEM_TEST_VALUE")
        #expect(CurrentProcess.environmentValue("LINUXSYSTEM_TEST_VALUE") == nil)
    }

    @Test func test_ignoreBrokenPipe_writeToClosedPipeThrowsInsteadOfKilling() throws {
        CurrentProcess.ignore(.brokenPipe)
        // The disposition is now SIG_IGN (a process killed by SIGPIPE would not reach the #expect).
        var old = sigaction()
        sigaction(SIGPIPE, nil, &old)
        #expect(unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self) == 1)   // SIG_IGN
        let p = try FileDescriptor.pipe()
        p.readEnd.close()
        defer { p.writeEnd.close() }
        #expect(throws: SystemError.brokenPipe) { _ = try [UInt8(1)].withUnsafeBytes { try p.writeEnd.write($0) } }
    }

    @Test func test_signalNames_areTheKernelNumbers() {
        #expect(Signal.hangUp.rawValue == SIGHUP && Signal.interrupt.rawValue == SIGINT)
        #expect(Signal.terminate.rawValue == SIGTERM && Signal.kill.rawValue == SIGKILL)
        #expect(Signal.brokenPipe.rawValue == SIGPIPE && Signal.child.rawValue == SIGCHLD)
    }

    @Test func test_cMemory_takesTheTextAndNil() {
        #expect(CMemory.takeString(strdup("seat0 session c2")) == "seat0 session c2")
        #expect(CMemory.takeString(nil) == nil)
    }
}
