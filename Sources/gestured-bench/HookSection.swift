// hook_spawn_ms_p50/p99 for a bound /bin/true.
func benchHooks(quick: Bool) {
    let runs = quick ? 50 : 500
    guard let samples = measureHookSpawnDirect(runs: runs) else {
        unavailable("hook_spawn_ms_p50", "posix_spawn failed"); return
    }
    note("hook_spawn: \(runs) runs of /bin/sh -c /bin/true through posix_spawn (HookRunner has not landed)")
    report("hook_spawn_ms_p50", percentile(samples, 50), "ms", digits: 3)
    report("hook_spawn_ms_p99", percentile(samples, 99), "ms", digits: 3)
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
        unavailable("idle_rss_kb", "gestured run exited with status \(status >> 8): \(why)")
        unavailable("idle_wakeups_per_s", "gestured run exited with status \(status >> 8)")
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
