// Fault tests for hooks: children that hang, that leave a grandchild holding their output pipe,
// and a flood of gestures against a cooldown. The daemon must never wait on a child, must reap
// everything it started, and must not leak file descriptors.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LinuxSystem
import Testing
import GestureConfig
import GestureCore
import GestureDaemon

@Suite(.serialized) struct FaultHookTests {
    static let device = HookDevice(id: 1, name: "fault device", kind: .touchscreen, node: "/dev/input/event99")
    static func gesture(_ n: Int) -> GestureEvent {
        GestureEvent(kind: .tap, phase: .recognized, id: UInt64(n), fingers: 1, time: Instant(microseconds: Int64(n)))
    }
    static func binding(_ command: String, cooldown: Duration = .zero, timeout: Duration? = nil) -> Binding {
        var b = Binding(gesture: .tap, phase: .recognized, command: command)
        b.cooldown = cooldown
        b.timeout = timeout
        return b
    }

    static func openFDs() -> Int {
        guard let d = opendir("/proc/self/fd") else { return -1 }
        defer { closedir(d) }
        var n = 0
        while readdir(d) != nil { n += 1 }
        return n
    }

    static func monotonicMs() -> Int64 { MonotonicClock.now().microseconds / 1000 }

    /// Waits (up to `ms`) until `condition` holds on the runner's statistics.
    static func wait(_ runner: HookRunner, ms: Int64 = 5000, _ condition: (HookStatistics) -> Bool) -> HookStatistics {
        let end = monotonicMs() + ms
        var s = runner.statistics
        while !condition(s) && monotonicMs() < end { usleep(5000); s = runner.statistics }
        return s
    }

    static func tempDir() -> String {
        var template = Array("/tmp/gestured-fault.XXXXXX".utf8CString)
        return String(cString: template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!)! })
    }

    /// The pid a hook wrote to `file` (waits up to 5 s for it).
    static func pid(in file: String) -> Int32? {
        for _ in 0..<500 {
            if let text = try? String(contentsOfFile: file, encoding: .utf8), text.hasSuffix("\n"),
               let pid = Int32(text.filter(\.isNumber)) { return pid }
            usleep(10_000)
        }
        return nil
    }

    static func alive(_ pid: Int32) -> Bool { kill(pid, 0) == 0 }

    /// Issue 16 finding 6: `sleep 30 & echo started` — the shell exits at once, its background
    /// sleep outlived timeout_ms and the daemon, and did not count against max_concurrent. Now
    /// the hook lives as long as its process group: it still counts, and its timeout kills the
    /// whole group. Another hook is not held up meanwhile.
    @Test func test_hookWithBackgroundChild_countsUntilItsGroupEnds_andTimeoutKillsTheGroup() throws {
        let dir = Self.tempDir()
        let pidFile = dir + "/grandchild.pid"
        var limits = HookLimits(); limits.killAfter = .milliseconds(200)
        let runner = HookRunner(limits: limits, log: { _, _ in })
        #expect(runner.run(Self.binding("sleep 30 & echo $! > \(pidFile)", timeout: .milliseconds(800)),
                           event: Self.gesture(1), device: Self.device))
        let grandchild = try #require(Self.pid(in: pidFile))
        #expect(Self.alive(grandchild))
        // Another hook runs and finishes while the first one's group lives on.
        #expect(runner.run(Self.binding("true"), event: Self.gesture(2), device: Self.device))
        let during = Self.wait(runner) { $0.exited >= 1 }
        #expect(during.exited == 1 && during.running == 1, "the background sleep must still count: \(during)")
        // The timeout ends the whole group, and the hook with it.
        let after = Self.wait(runner) { $0.running == 0 }
        #expect(after.running == 0 && after.exited == 2 && after.terminated >= 1, "\(after)")
        #expect(!Self.alive(grandchild), "the background sleep outlived the hook's timeout")
        runner.shutdown()
        if Self.alive(grandchild) { kill(grandchild, SIGKILL) }
        unlink(pidFile); rmdir(dir)
    }

    /// Issue 26: `setsid` takes a child out of the hook's process group; it is still the hook's
    /// (its GESTURED_HOOK marker): it counts while it lives, the timeout kills it, and once this
    /// process has adopted it, its zombie is reaped here by its pid (kill(pid, 0) answers for a
    /// zombie, so "not alive" means reaped).
    @Test func test_setsidChild_countsIsKilledAtTheTimeout_andIsReaped() throws {
        let dir = Self.tempDir()
        let pidFile = dir + "/setsid.pid"
        var limits = HookLimits(); limits.killAfter = .milliseconds(200)
        let runner = HookRunner(limits: limits, log: { _, _ in })
        #expect(runner.run(Self.binding("setsid sleep 30 & echo $! > \(pidFile)", timeout: .milliseconds(1500)),
                           event: Self.gesture(1), device: Self.device))
        let child = try #require(Self.pid(in: pidFile))
        usleep(700_000)   // the shell has long exited; the setsid'd sleep runs on
        let during = runner.statistics
        #expect(during.running == 1 && during.exited == 0 && Self.alive(child), "the setsid'd sleep must still count: \(during)")
        let after = Self.wait(runner) { $0.running == 0 }
        #expect(after.running == 0 && after.exited == 1 && after.terminated == 1, "\(after)")
        #expect(!Self.alive(child), "the setsid'd sleep outlived the hook's timeout, or its zombie was left")
        runner.shutdown()
        if Self.alive(child) { kill(child, SIGKILL); var status: Int32 = 0; waitpid(child, &status, 0) }
        unlink(pidFile); rmdir(dir)
    }

    /// Finding 6: background children count against max_concurrent (325 orphans at cap 8).
    @Test func test_backgroundChildren_countAgainstTheCap() {
        var limits = HookLimits(); limits.maxConcurrent = 2; limits.killAfter = .milliseconds(100)
        let runner = HookRunner(limits: limits, log: { _, _ in })
        for i in 1...5 {
            _ = runner.run(Self.binding("sleep 30 &", timeout: .seconds(2)), event: Self.gesture(i), device: Self.device)
            usleep(100_000)   // each shell has exited before the next gesture
        }
        let s = runner.statistics
        #expect(s.started == 2 && s.droppedAtCap == 3, "\(s)")
        runner.shutdown()
        #expect(runner.statistics.running == 0)
    }

    /// Finding 6: the daemon stopping (shutdown) kills a hook's background children too.
    @Test func test_shutdown_killsBackgroundChildren() throws {
        let dir = Self.tempDir()
        let pidFile = dir + "/grandchild.pid"
        var limits = HookLimits(); limits.killAfter = .milliseconds(200)
        let runner = HookRunner(limits: limits, log: { _, _ in })
        #expect(runner.run(Self.binding("sleep 30 & echo $! > \(pidFile)", timeout: .seconds(60)),
                           event: Self.gesture(1), device: Self.device))
        let grandchild = try #require(Self.pid(in: pidFile))
        usleep(100_000)
        runner.shutdown()
        #expect(!Self.alive(grandchild), "the background sleep outlived the runner")
        if Self.alive(grandchild) { kill(grandchild, SIGKILL) }
        unlink(pidFile); rmdir(dir)
    }

    /// Finding 9: drops at the cap were logged once per 10 s window, so a burst that ended inside
    /// the window was reported as 1. Every drop is now in some log line (the rest at shutdown).
    @Test func test_dropsAtTheCap_areAllReported() {
        let lines = LogLines()
        var limits = HookLimits(); limits.maxConcurrent = 1; limits.killAfter = .milliseconds(100)
        let runner = HookRunner(limits: limits, log: { _, m in lines.append(m) })
        for i in 1...200 { _ = runner.run(Self.binding("sleep 5", timeout: .seconds(1)), event: Self.gesture(i), device: Self.device) }
        runner.shutdown()
        let reported = lines.all.filter { $0.contains("dropped") }.compactMap { line -> Int? in
            let words = line.split(separator: " ")
            guard let i = words.firstIndex(where: { $0.hasPrefix("gesture(s)") }), i > 0 else { return nil }
            return Int(words[i - 1]) ?? (i > 1 && words[i - 1] == "more" ? Int(words[i - 2]) : nil)
        }.reduce(0, +)
        #expect(reported == 199, "\(lines.all.filter { $0.contains("dropped") })")
    }

    @Test func test_hangingHooks_doNotDelayOthers_andAreEndedByTheirTimeout() {
        var limits = HookLimits()
        limits.maxConcurrent = 8
        limits.killAfter = .milliseconds(200)
        let runner = HookRunner(limits: limits, log: { _, _ in })
        // Two hooks that hang (one ignores SIGTERM), then quick ones behind them.
        #expect(runner.run(Self.binding("sleep 30", timeout: .milliseconds(300)), event: Self.gesture(1), device: Self.device))
        #expect(runner.run(Self.binding("trap '' TERM; while :; do sleep 1; done", timeout: .milliseconds(300)),
                           event: Self.gesture(2), device: Self.device))
        let start = Self.monotonicMs()
        for i in 0..<5 { #expect(runner.run(Self.binding("true"), event: Self.gesture(10 + i), device: Self.device)) }
        let quick = Self.wait(runner) { $0.exited >= 5 }
        #expect(quick.exited >= 5, "quick hooks did not finish while two hooks hang")
        let ended = Self.wait(runner) { $0.running == 0 }
        #expect(ended.running == 0)
        #expect(ended.terminated + ended.killed >= 2)
        #expect(ended.killed >= 1, "the hook that ignores SIGTERM was not killed")
        #expect(Self.monotonicMs() - start < 5000)
        runner.shutdown()
    }

    @Test func test_thousandGesturesInASecond_againstACooldown_startOnlyOnePerCooldown() {
        let runner = HookRunner(limits: HookLimits(), log: { _, _ in })
        let binding = Self.binding("true", cooldown: .milliseconds(100))
        let start = Self.monotonicMs()
        var accepted = 0
        for i in 0..<1000 {
            if runner.run(binding, event: Self.gesture(i), device: Self.device) { accepted += 1 }
            usleep(1000)
        }
        let elapsed = Self.monotonicMs() - start
        let s = Self.wait(runner) { $0.running == 0 && $0.started == accepted }
        // At most one start per 100 ms window of the measured time (+1 for the first).
        #expect(accepted >= 1)
        #expect(accepted <= Int(elapsed / 100) + 1, "\(accepted) hooks started in \(elapsed) ms with a 100 ms cooldown")
        #expect(s.started == accepted)
        #expect(s.skippedInCooldown == 1000 - accepted)
        #expect(s.running == 0)
        runner.shutdown()
    }

    /// Runs in a child process of its own (an exit test): the fd count and `waitpid(-1)` see only
    /// this runner's work, not the fds and children of suites running in parallel.
    @Test func test_manyHooks_leaveNoFileDescriptorsOrChildrenBehind() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let runner = HookRunner(limits: HookLimits(), log: { _, _ in })
            // Warm up (the worker thread's own fds), then measure.
            _ = runner.run(FaultHookTests.binding("echo warm"), event: FaultHookTests.gesture(0), device: FaultHookTests.device)
            _ = FaultHookTests.wait(runner) { $0.exited >= 1 && $0.running == 0 }
            let before = FaultHookTests.openFDs()
            var started = 1
            for round in 0..<40 {
                for i in 0..<5 {
                    if runner.run(FaultHookTests.binding("echo out \(i); echo err \(i) >&2"),
                                  event: FaultHookTests.gesture(round * 10 + i), device: FaultHookTests.device) {
                        started += 1
                    }
                }
                _ = FaultHookTests.wait(runner) { $0.exited + $0.failedToStart >= started && $0.running == 0 }
            }
            let s = FaultHookTests.wait(runner) { $0.exited + $0.failedToStart >= started && $0.running == 0 }
            var status: Int32 = 0
            let unreaped = waitpid(-1, &status, WNOHANG) > 0
            let after = FaultHookTests.openFDs()
            runner.shutdown()
            if started != 201 || s.exited != started || after != before || unreaped {
                print("hooks started \(started)/201, exited \(s.exited), fds before \(before) after \(after), unreaped child: \(unreaped)")
                exit(1)
            }
        }
        if let result, result.exitStatus != .exitCode(0) {
            Issue.record("the child said: \(String(decoding: result.standardOutputContent, as: UTF8.self))")
        }
    }
}

/// Log lines collected from the runner's thread.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ l: String) { lock.lock(); lines.append(l); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}
