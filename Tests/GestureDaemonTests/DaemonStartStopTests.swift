// Issue 26 item 6, through the real daemon binary: signals it does not use, a second daemon on a
// busy socket, and an abstract socket name.
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

    /// Before: the probe of an existing socket was a blocking connect; with the first daemon's
    /// backlog full (here: it is stopped, and 64+ connections wait) the second daemon hung in it,
    /// its SIGTERM blocked for the signalfd. Now it says another daemon is there and exits.
    @Test func test_secondDaemon_onASocketWithAFullBacklog_exitsWithAClearError() throws {
        let first = try DaemonProcess([])
        defer { first.signal(SIGCONT); _ = first.stop() }
        _ = try TestClient(first.socket)   // listening, not merely bound
        first.signal(SIGSTOP)
        var waiting: [Int32] = []
        defer { for fd in waiting { close(fd) } }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(first.socket.utf8)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b }; raw[bytes.count] = 0 }
        var full = false
        for _ in 0..<1000 {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            let rc = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            if rc != 0 && errno == EAGAIN { close(fd); full = true; break }
            waiting.append(fd)
        }
        #expect(full, "the stopped daemon's backlog never filled (\(waiting.count) connections)")
        let second = try Self.runToEnd(["--socket", first.socket, "--no-discovery", "--config", "/dev/null"], seconds: 10)
        #expect(!second.killed, "the second daemon hung on the busy socket: \(second.stderr)")
        #expect(second.status != 0 && second.stderr.contains("another gestured is listening there"), "\(second)")
    }

    /// Before: `--socket @name` bound an abstract socket, then failed at chmod of a file that is
    /// not there. Now it is refused up front, saying why.
    @Test func test_abstractSocketName_isRefusedWithTheReason() throws {
        let r = try Self.runToEnd(["--socket", "@gestured-test-\(getpid())", "--no-discovery", "--config", "/dev/null"], seconds: 10)
        #expect(!r.killed && r.status != 0, "\(r)")
        #expect(r.stderr.contains("abstract socket names are not supported") && !r.stderr.contains("chmod"), "\(r.stderr)")
    }
}
