// `gestured-bench --serve SOCKET CONFIG`: the real daemon (GestureDaemon.Daemon, its epoll loop, bus and
// socket server) in a child process, reading one synthetic touchscreen from its standard input —
// 16-byte records, the PipeDeviceSource format. The parent writes events into that pipe and reads
// gesture lines from the socket like any client, so figures include the pipe hop, the decoder, the
// recognizers, JSON encoding and the socket write; the child's RSS is the daemon's own.
import GestureCore
import GestureDaemon
import LinuxSystem

/// The child side: runs until SIGTERM.
func serveMain(socketPath: String, configPath: String) -> Int32 {
    var options = DaemonOptions()
    options.configPath = configPath
    options.socketPath = socketPath
    options.discoverDevices = false
    let daemon: Daemon
    do { daemon = try Daemon(options: options) } catch {
        note("daemon: \(error.description)"); return 1
    }
    daemon.add(PipeDeviceSource(description: syntheticDevice, node: "bench:stdin", reading: .standardInput))
    return daemon.run()
}

/// Encodes events as PipeDeviceSource records.
func pipeRecords(_ events: [InputEvent]) -> [UInt8] {
    var b: [UInt8] = []
    b.reserveCapacity(events.count * 16)
    for e in events {
        withUnsafeBytes(of: e.time.microseconds.littleEndian) { b.append(contentsOf: $0) }
        withUnsafeBytes(of: e.type.littleEndian) { b.append(contentsOf: $0) }
        withUnsafeBytes(of: e.code.littleEndian) { b.append(contentsOf: $0) }
        withUnsafeBytes(of: e.value.littleEndian) { b.append(contentsOf: $0) }
    }
    return b
}

/// CLOCK_MONOTONIC in microseconds: the daemon reads device timestamps on that clock.
func monotonicMicroseconds() -> Int64 { Int64(nowNanoseconds() / 1000) }

/// The parent's handle on a `--serve` child: the write end of its device pipe and its socket.
struct ServedDaemon {
    let child: Child
    let devicePipe: FileDescriptor
    let socketPath: String
    let directory: String

    /// `socketConfig`: lines of the config's `socket:` section; `fileLimit`: RLIMIT_NOFILE of the
    /// child (soft and hard).
    static func start(socketConfig: String = "  queue_limit: 256\n  max_clients: 1000\n  max_clients_per_uid: 1000\n",
                      fileLimit: Int? = nil) -> ServedDaemon? {
        guard let me = siblingExecutable("gestured-bench") else { return nil }
        let dir = makeTemporaryDirectory()
        let config = dir + "/config.yaml"
        writeFile(config, "log:\n  level: warning\nsocket:\n" + socketConfig)
        // Close-on-exec both ends: posix_spawn's dup2 gives the child its stdin all the same.
        guard let pipe = try? FileDescriptor.pipe() else { return nil }
        let sock = dir + "/gestured.sock"
        let argv = fileLimit.map { ["/bin/sh", "-c", "ulimit -n \($0) && exec \"$0\" \"$@\"", me] } ?? [me]
        guard let child = Child.spawn(argv + ["--serve", sock, config], stdinFD: pipe.readEnd, stderrTo: dir + "/daemon.log") else {
            return nil
        }
        pipe.readEnd.close()
        for _ in 0..<500 {   // up to 5 s for the socket to appear
            if FileSystem.exists(sock) { break }
            if child.exited() != nil { break }
            MonotonicClock.sleep(for: .milliseconds(10))
        }
        guard FileSystem.exists(sock) else {
            note("daemon did not start: \(readSmallFile(dir + "/daemon.log") ?? "")")
            child.stop(); return nil
        }
        return ServedDaemon(child: child, devicePipe: pipe.writeEnd, socketPath: sock, directory: dir)
    }

    func send(_ events: [InputEvent]) {
        try? devicePipe.writeAll(pipeRecords(events))
    }

    func stop() { devicePipe.close(); child.stop() }
}
