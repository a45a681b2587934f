// hook_spawn_ms_p50/p99 for a bound /bin/true: from HookRunner.run (what the daemon calls for a
// matching gesture) until the runner has seen the child exit and reaped it.
import GestureConfig
import GestureCore
import GestureDaemon
import LinuxSystem

func benchHooks(quick: Bool) {
    let runs = quick ? 50 : 500
    let runner = HookRunner(limits: HookLimits(), log: { _, _ in })
    defer { runner.shutdown() }
    let binding = Binding(gesture: .tap, phase: .recognized, command: "/bin/true")
    let device = HookDevice(id: 1, name: "bench", kind: .touchscreen, node: "bench")
    var samples: [Double] = []
    for i in 0..<runs {
        let before = runner.statistics.exited
        let start = nowNanoseconds()
        let event = GestureEvent(kind: .tap, phase: .recognized, id: UInt64(i), fingers: 1, time: Instant(microseconds: Int64(i)))
        guard runner.run(binding, event: event, device: device) else { continue }
        let deadline = start + 5_000_000_000
        while runner.statistics.exited == before && nowNanoseconds() < deadline { MonotonicClock.sleep(for: .microseconds(20)) }
        samples.append(Double(nowNanoseconds() - start) / 1_000_000)
    }
    guard !samples.isEmpty else { unavailable("hook_spawn_ms_p50", "HookRunner started no hook"); return }
    report("hook_spawn_ms_p50", percentile(samples, 50), "ms", digits: 3)
    report("hook_spawn_ms_p99", percentile(samples, 99), "ms", digits: 3)
    // For comparison: the bare posix_spawn + waitpid of the same command.
    if let direct = measureHookSpawnDirect(runs: runs) {
        report("hook_spawn_direct_ms_p50", percentile(direct, 50), "ms", digits: 3)
    }
}

/// idle_rss_kb, idle_wakeups_per_s of `gestured run` with no devices.
func benchIdle(quick: Bool) {
    guard let gestured = siblingExecutable("gestured") else {
        unavailable("idle_rss_kb", "no gestured executable next to gestured-bench; build it: swift build -c release")
        unavailable("idle_wakeups_per_s", "no gestured executable next to gestured-bench")
        return
    }
    let dir = makeTemporaryDirectory()
    let config = dir + "/config.yaml"
    writeFile(config, "socket:\n  path: \(dir)/gestured.sock\n")
    guard let child = Child.spawn([gestured, "run", "--config", config], stderrTo: dir + "/stderr") else {
        unavailable("idle_rss_kb", "cannot start \(gestured)")
        unavailable("idle_wakeups_per_s", "cannot start \(gestured)")
        return
    }
    defer { child.stop() }
    sleepSeconds(1)   // settle: startup allocations, device enumeration
    if let status = child.exited() {
        let why = readSmallFile(dir + "/stderr")?.split(separator: "\n").first.map(String.init) ?? ""
        unavailable("idle_rss_kb", "gestured run exited with status \(status): \(why)")
        unavailable("idle_wakeups_per_s", "gestured run exited with status \(status)")
        return
    }
    let window = quick ? 2.0 : 5.0
    guard let before = voluntaryContextSwitches(pid: child.pid) else {
        unavailable("idle_wakeups_per_s", "cannot read /proc/\(child.pid)/task/*/status"); return
    }
    sleepSeconds(window)
    guard let after = voluntaryContextSwitches(pid: child.pid), let rss = residentKilobytes(pid: child.pid) else {
        unavailable("idle_wakeups_per_s", "gestured run went away while idle"); return
    }
    report("idle_rss_kb", Double(rss), "kB", digits: 0)
    report("idle_wakeups_per_s", Double(after - before) / window, "wakeups/s")
}
