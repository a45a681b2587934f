// idle_rss_kb and idle_wakeups_per_s of `gestured run` with no devices.
import LinuxSystem

/// The `gestured` executable built next to this bench (same .build/<config>/ directory).
func siblingExecutable(_ name: String) -> String? {
    guard let path = CurrentProcess.siblingPath(name) else { return nil }
    return FileSystem.isExecutable(path) ? path : nil
}

/// A child process the bench started; killed and reaped on `stop()`.
struct Child {
    var pid: Int32
    static func spawn(_ argv: [String], env: [String]? = nil, stdinFD: FileDescriptor? = nil, stdoutTo: String = "/dev/null",
                      stderrTo: String = "/dev/null") -> Child? {
        do {
            let pid = try ChildSpawn.program(argv, stdin: stdinFD.map { .descriptor($0) } ?? .null,
                                             stdout: .file(stdoutTo), stderr: .file(stderrTo), environment: env)
            return Child(pid: pid)
        } catch {
            note("spawn \(argv[0]): \(error)"); return nil
        }
    }
    /// The exit status if the child already ended (reaps it; 0 when a signal ended it), nil
    /// while it runs.
    func exited() -> Int32? {
        switch try? ChildSpawn.waitNoHang(pid) {
        case .exited(let status)?: status
        case .signalled?: 0
        case .running?, nil: nil
        }
    }
    func stop() {
        ChildSpawn.signal(pid, .terminate)
        for _ in 0..<200 {
            if exited() != nil { return }
            MonotonicClock.sleep(for: .milliseconds(10))
        }
        ChildSpawn.signal(pid, .kill)
        _ = try? ChildSpawn.wait(pid)
    }
}

func sleepSeconds(_ s: Double) {
    MonotonicClock.sleep(for: .nanoseconds(Int64(s * 1e9)))
}

/// A private directory under /tmp for a daemon's config and socket.
func makeTemporaryDirectory() -> String {
    (try? FileSystem.makeTemporaryDirectory(prefix: "/tmp/gestured-bench.")) ?? "/tmp"
}

func writeFile(_ path: String, _ text: String) {
    guard let fd = try? FileDescriptor.open(path, .createOrTruncate(permissions: 0o644)) else { return }
    try? fd.writeAll(Array(text.utf8))
    fd.close()
}
