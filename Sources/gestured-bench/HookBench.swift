// hook_spawn_ms: from asking for a bound `/bin/true` hook to having reaped its exit.
#if canImport(Glibc)
import Glibc
#endif
import LinuxSystem

/// Spawns `/bin/sh -c /bin/true` the way a binding's command runs (the command goes through the
/// shell) and waits for it; returns per-run milliseconds.
func measureHookSpawnDirect(runs: Int) -> [Double]? {
    var samples: [Double] = []
    samples.reserveCapacity(runs)
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup("/bin/true"), nil]
    defer { for p in argv { free(p) } }
    for _ in 0..<runs {
        let start = nowNanoseconds()
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ)
        guard rc == 0 else { note("posix_spawn /bin/sh: \(SystemError(code: rc))"); return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && SystemError.last == .interrupted {}
        samples.append(Double(nowNanoseconds() - start) / 1_000_000)
    }
    return samples
}
