#if canImport(Glibc)
import Glibc
#endif
@testable import GestureDaemon
import GestureCore
import Testing
import LinuxSystem

/// The hook runner's child supervision on its own: real `/bin/sh` children, their process
/// groups, their output pipes, and the SIGTERM-then-SIGKILL timeout.
@Suite struct ChildProcessTests {
    static func start(_ command: String, timeout: Duration = .seconds(30), killAfter: Duration = .seconds(1)) throws -> ChildProcess {
        try ChildProcess(command: command, environment: CStringList(["PATH=/usr/bin:/bin", "HOOK_TEST=from the environment"]),
                         hookID: 0, label: "test", timeout: timeout, killAfter: killAfter)
    }

    /// Reads both pipes until they are closed, the shell has exited and nothing is left in its
    /// process group (at most 10 s). The group matters: this test process is a subreaper (the
    /// hook runner makes it one), so what a killed shell had just forked is adopted here, and a
    /// zombie left unreaped makes swift-testing's exit-test monitor (`waitid(P_ALL, WNOWAIT)`)
    /// report that zombie forever and never an exit test's child.
    static func finish(_ c: ChildProcess) -> (stdout: [String], stderr: [String], exit: ChildProcess.Exit?) {
        var out: [String] = [], err: [String] = []
        var exit: ChildProcess.Exit?
        _ = waitFor(seconds: 10) {
            out += c.readLines(stdout: true).map(OutputLineBuffer.text)
            err += c.readLines(stdout: false).map(OutputLineBuffer.text)
            if exit == nil { exit = c.reap() }
            return exit != nil && !c.treeAlive() && c.stdout == nil && c.stderr == nil
        }
        c.closeAll()
        return (out, err, exit)
    }

    @Test func test_child_runsTheCommandWithItsEnvironment_andReportsItsOutputAndStatus() throws {
        let c = try Self.start("echo \"$HOOK_TEST\"; echo two; printf 'to stderr\\r\\nlast' >&2; exit 3")
        #expect(c.label == "test pid \(c.pid)")
        let r = Self.finish(c)
        #expect(r.stdout == ["from the environment", "two"])
        #expect(r.stderr == ["to stderr", "last"])
        #expect(r.exit == .status(3))
    }

    @Test func test_child_readsNothingFromStandardInput() throws {
        let c = try Self.start("if read line; then echo got; else echo eof; fi")
        #expect(Self.finish(c).stdout == ["eof"])
    }

    @Test func test_child_killedBySignal_isReportedSo() throws {
        let c = try Self.start("kill -USR1 $$; sleep 5")
        #expect(Self.finish(c).exit == .signal(SIGUSR1))
    }

    @Test func test_child_hasItsOwnProcessGroup_andSignallingItReachesItsBackgroundProcesses() throws {
        let c = try Self.start("sleep 30 & echo $!; wait")
        var lines: [[UInt8]] = []
        #expect(waitFor(seconds: 10) { lines += c.readLines(stdout: true); return !lines.isEmpty })
        let grandchild = try #require(pid_t(OutputLineBuffer.text(lines[0])))
        #expect(getpgid(c.pid) == c.pid && getpgid(grandchild) == c.pid)
        #expect(c.treeAlive())
        c.signalTree(.terminate)
        #expect(waitFor(seconds: 10) { c.reap() != nil || !c.treeAlive() })
        #expect(waitFor(seconds: 10) { !c.treeAlive() }, "the background sleep must end with its group")
        c.closeAll()
    }

    /// A whole-run hang on this branch: `sleep 30` killed with SIGKILL right after dash forked it
    /// left the forked child (still named sh) as an adopted zombie nobody reaped. Here the
    /// background child is certain to exist when the group is killed.
    @Test func test_finish_collectsWhatAKilledShellLeftInItsGroup() throws {
        ChildSpawn.becomeSubreaper()
        let c = try Self.start("sleep 30 & echo $!; wait")
        var lines: [[UInt8]] = []
        #expect(waitFor(seconds: 10) { lines += c.readLines(stdout: true); return !lines.isEmpty })
        let orphan = try #require(pid_t(OutputLineBuffer.text(lines[0])))
        c.signalTree(.kill)
        _ = Self.finish(c)
        // Only this pid is waited for, never -1 (that could take an exit test's child): ECHILD
        // says it was reaped already; its pid back (or 0) says it was left behind.
        let r = waitpid(orphan, nil, WNOHANG)
        #expect(r == -1 && SystemError.last == .noChild, "the killed shell's background child was left: waitpid says \(r)")
    }

    @Test func test_reap_isNilWhileTheShellRuns() throws {
        let c = try Self.start("sleep 30")
        #expect(c.reap() == nil)
        c.signalTree(.kill)
        #expect(Self.finish(c).exit == .signal(SIGKILL))
    }
}

/// The timeout's steps: SIGTERM at the deadline, SIGKILL `killAfter` later, then nothing.
@Suite struct ChildTimeoutTests {
    /// Microseconds after an arbitrary origin.
    func at(_ microseconds: Int64) -> Instant { Instant(microseconds: microseconds) }

    @Test func test_step_terminatesAtTheDeadline_thenKillsAfterKillAfter() {
        var t = ChildTimeout(deadline: at(1000), killAfter: .microseconds(200))
        func step(_ now: Int64) -> ChildTimeout.Step? { t.step(now: at(now)) }
        #expect(t.nextDeadline == at(1000))
        #expect(step(999) == nil)
        #expect(step(1000) == .terminate)
        #expect(t.termSent && !t.killSent && t.nextDeadline == at(1200))
        #expect(step(1199) == nil)
        #expect(step(1300) == .kill)
        #expect(t.nextDeadline == nil)
        #expect(step(5000) == nil)
    }

    @Test func test_stop_terminatesOnce_andTheKillFollows() {
        var t = ChildTimeout(deadline: at(10_000), killAfter: .microseconds(200))
        func step(_ now: Int64) -> ChildTimeout.Step? { t.step(now: at(now)) }
        func stop(_ now: Int64) -> Bool { t.stop(now: at(now)) }
        #expect(stop(50))
        #expect(t.nextDeadline == at(250))
        #expect(!stop(60))
        #expect(step(249) == nil)
        #expect(step(250) == .kill)
    }

    @Test func test_stop_afterATimeout_sendsNoSecondSIGTERM() {
        var t = ChildTimeout(deadline: at(100), killAfter: .microseconds(200))
        func step(_ now: Int64) -> ChildTimeout.Step? { t.step(now: at(now)) }
        func stop(_ now: Int64) -> Bool { t.stop(now: at(now)) }
        #expect(step(100) == .terminate)
        #expect(!stop(150))
        #expect(t.nextDeadline == at(300))
    }

    /// A scan trusts the last scan's strangers only while no pid can have been reused: recent,
    /// and ns_last_pid has not gone down (wrapped).
    @Test func test_hookTree_strangersStillHold_onlyWhileThePidsCannotHaveWrapped() {
        let t0 = Instant(microseconds: 10_000_000)
        let soon = t0 + .milliseconds(100), late = t0 + HookTree.incrementalWindow + .milliseconds(1)
        #expect(HookTree.strangersStillHold(previousScan: t0, now: soon, previousLastPid: 500, lastPid: 700))
        #expect(HookTree.strangersStillHold(previousScan: t0, now: soon, previousLastPid: 500, lastPid: 500))
        #expect(!HookTree.strangersStillHold(previousScan: t0, now: soon, previousLastPid: 500, lastPid: 320), "wrapped")
        #expect(!HookTree.strangersStillHold(previousScan: t0, now: late, previousLastPid: 500, lastPid: 700), "too long ago")
        #expect(!HookTree.strangersStillHold(previousScan: nil, now: soon, previousLastPid: nil, lastPid: 700), "first scan")
        #expect(!HookTree.strangersStillHold(previousScan: t0, now: soon, previousLastPid: 500, lastPid: nil), "unreadable")
    }
}
