// Issue 26 item 6, through the real daemon binary: signals it does not use.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

@Suite(.serialized) struct DaemonStartStopTests {
    /// `gestured run ARGS` to its end (killed after `seconds`): exit status, stderr, whether it
    /// had to be killed.
    static func runToEnd(_ args: [String], seconds: Double) throws -> (status: Int32, stderr: String, killed: Bool) {
        guard let bin = TestPaths.binary else { throw TestFailure(description: "the gestured binary is not built") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: bin)
        p.arguments = ["run"] + args
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let end = Date().addingTimeInterval(seconds)
        while p.isRunning && Date() < end { usleep(20_000) }
        let killed = p.isRunning
        if killed { kill(p.processIdentifier, SIGKILL) }
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, text, killed)
    }

    /// Before: SIGUSR1, SIGUSR2 and SIGALRM kept their default action and killed the daemon
    /// without a `stopping` line. Now they are logged and ignored, and SIGTERM still stops it.
    @Test func test_signalsTheDaemonDoesNotUse_areIgnored() throws {
        let d = try DaemonProcess([])
        for s in [SIGUSR1, SIGUSR2, SIGALRM] {
            d.signal(s)
            #expect(d.waitForLog("signal \(s) ignored"), "signal \(s); log: \(d.log)")
        }
        #expect(d.process.isRunning, "log: \(d.log)")
        d.signal(SIGTERM)
        #expect(d.waitForLog("stopping (signal \(SIGTERM))"), "log: \(d.log)")
        #expect(d.stop() == 0)
    }
}
