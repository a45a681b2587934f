// idle_rss_kb and idle_wakeups_per_s of `gestured run` with no devices.
#if canImport(Glibc)
import Glibc
#endif
import LinuxSystem

/// The `gestured` executable built next to this bench (same .build/<config>/ directory).
func siblingExecutable(_ name: String) -> String? {
    var buf = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buf, buf.count - 1)
    guard n > 0 else { return nil }
    var path = String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    while let last = path.last, last != "/" { path.removeLast() }
    path += name
    return access(path, X_OK) == 0 ? path : nil
}

/// A child process the bench started; killed and reaped on `stop()`.
struct Child {
    var pid: pid_t
    static func spawn(_ argv: [String], env: [String]? = nil, stdinFD: Int32? = nil, stdoutTo: String = "/dev/null",
                      stderrTo: String = "/dev/null") -> Child? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdinFD { posix_spawn_file_actions_adddup2(&actions, stdinFD, 0) }
        else { posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) }
        posix_spawn_file_actions_addopen(&actions, 1, stdoutTo, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrTo, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let cargs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for p in cargs { free(p) } }
        var pid: pid_t = 0
        let rc: Int32
        if let env {
            let cenv: [UnsafeMutablePointer<CChar>?] = env.map { strdup($0) } + [nil]
            defer { for p in cenv { free(p) } }
            rc = posix_spawn(&pid, argv[0], &actions, nil, cargs, cenv)
        } else {
            rc = posix_spawn(&pid, argv[0], &actions, nil, cargs, environ)
        }
        guard rc == 0 else { note("spawn \(argv[0]): \(SystemError(code: rc))"); return nil }
        return Child(pid: pid)
    }
    /// Exit status if the child already ended (reaps it), nil while it runs.
    func exited() -> Int32? {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == pid ? status : nil
    }
    func stop() {
        kill(pid, SIGTERM)
        for _ in 0..<200 {
            if exited() != nil { return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}

func sleepSeconds(_ s: Double) {
    var ts = timespec(tv_sec: Int(s), tv_nsec: Int((s - Double(Int(s))) * 1e9))
    var left = timespec()
    while nanosleep(&ts, &left) != 0 && SystemError.last == .interrupted { ts = left }
}

/// A private directory under /tmp for a daemon's config and socket.
func makeTemporaryDirectory() -> String {
    var template = Array("/tmp/gestured-bench.XXXXXX".utf8CString)
    let p = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    return p.map { String(cString: $0) } ?? "/tmp"
}

func writeFile(_ path: String, _ text: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return }
    _ = text.withCString { write(fd, $0, strlen($0)) }
    close(fd)
}
