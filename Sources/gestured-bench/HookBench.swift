// hook_spawn_ms: from asking for a bound `/bin/true` hook to having reaped its exit.
import LinuxSystem

/// Spawns `/bin/sh -c /bin/true` the way a binding's command runs (the command goes through the
/// shell) and waits for it; returns per-run milliseconds.
func measureHookSpawnDirect(runs: Int) -> [Double]? {
    var samples: [Double] = []
    samples.reserveCapacity(runs)
    for _ in 0..<runs {
        let start = nowNanoseconds()
        let pid: Int32
        do { pid = try ChildSpawn.program(["/bin/sh", "-c", "/bin/true"], stdin: .inherited,
                                          stdout: .inherited, stderr: .inherited) } catch {
            note("posix_spawn /bin/sh: \(error)"); return nil
        }
        _ = try? ChildSpawn.wait(pid)
        samples.append(Double(nowNanoseconds() - start) / 1_000_000)
    }
    return samples
}
