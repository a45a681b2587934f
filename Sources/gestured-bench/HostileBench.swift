// hostile_*: the daemon under hostile clients (issue 26), through a `--serve` child fed synthetic
// pans. How late gesture lines get while another client floods newlines; the daemon's RSS with
// 300 and 3 000 connections that never read, and after they leave (default caps, and caps raised
// so that all 300 are admitted); its CPU while out of descriptors with clients still arriving.
import LinuxSystem
import Synchronization

/// A flag set by one thread and polled by another.
final class StopFlag: @unchecked Sendable {
    private let lock = Mutex(false)
    var isSet: Bool { lock.withLock { $0 } }
    func set() { lock.withLock { $0 = true } }
}

func benchHostile(quick: Bool) {
    floodLateness(iterations: quick ? 30 : 200)
    stalledClients(counts: quick ? [300] : [300, 3000])
    cpuAtTheFileLimit(seconds: quick ? 2 : 5)
}

/// Pan-began latency (as socket_latency_us measures it), quiet and while one client writes
/// newlines as fast as it can.
private func floodLateness(iterations: Int) {
    guard let daemon = ServedDaemon.start() else { return unavailable("hostile_flood_latency_us_p50", "no daemon child") }
    defer { daemon.stop() }
    guard let reader = SocketClient(path: daemon.socketPath), reader.waitForLine(containing: "\"hello\"", timeoutMs: 2000) != nil,
          let flooder = SocketClient(path: daemon.socketPath, nonBlocking: false) else {
        return unavailable("hostile_flood_latency_us_p50", "clients could not connect")
    }
    let quiet = panLatencies(daemon, reader, iterations: iterations, firstID: 1, timeoutMs: 200)
    let stop = StopFlag()
    let fd = flooder.fd
    let thread = try? SystemThread.start {
        let newlines = [UInt8](repeating: 10, count: 65536)
        while !stop.isSet { if (try? newlines.withUnsafeBytes({ try fd.send($0) })) == nil { break } }
    }
    let flooded = panLatencies(daemon, reader, iterations: iterations, firstID: 50_000, timeoutMs: 200)
    stop.set()
    thread?.join()
    guard !quiet.samples.isEmpty, !flooded.samples.isEmpty else {
        return unavailable("hostile_flood_latency_us_p50", "no gesture line arrived")
    }
    report("hostile_quiet_latency_us_p50", percentile(quiet.samples, 50), "us", digits: 1)
    report("hostile_flood_latency_us_p50", percentile(flooded.samples, 50), "us", digits: 1)
    report("hostile_flood_latency_us_p95", percentile(flooded.samples, 95), "us", digits: 1)
    report("hostile_flood_lost_gestures", Double(flooded.lost), "gestures", digits: 0)
}

/// Pans streamed for `seconds` (the stalled clients' queues fill up).
private func streamPans(_ daemon: ServedDaemon, seconds: Double, firstID: Int) {
    let end = nowNanoseconds() + UInt64(seconds * 1e9)
    var id = firstID
    while nowNanoseconds() < end {
        let probe = PanProbe(trackingID: Int32(id)); id += 1
        daemon.send(probe.down(at: monotonicMicroseconds()))
        for step in 1...20 { MonotonicClock.sleep(for: .microseconds(8000)); daemon.send(probe.move(step, at: monotonicMicroseconds())) }
        daemon.send(probe.lift(at: monotonicMicroseconds()))
    }
}

private func stalledClients(counts: [Int]) {
    for (label, caps) in [("default_caps", "  queue_limit: 256\n"), ("raised_caps", "  max_clients: 5000\n  max_clients_per_uid: 5000\n")] {
        for n in counts where !(label == "raised_caps" && n > 300) {
            guard let daemon = ServedDaemon.start(socketConfig: caps) else {
                unavailable("hostile_stalled_\(n)_\(label)_rss_kb", "no daemon child"); continue
            }
            let before = residentKilobytes(pid: daemon.child.pid) ?? -1
            var clients: [SocketClient] = []
            for _ in 0..<n {
                guard let c = SocketClient(path: daemon.socketPath) else { break }
                c.fd.setReceiveBufferSize(4096)
                clients.append(c)
            }
            streamPans(daemon, seconds: 3, firstID: 1)
            let with = residentKilobytes(pid: daemon.child.pid) ?? -1
            clients.removeAll()
            streamPans(daemon, seconds: 1, firstID: 10_000)
            let after = residentKilobytes(pid: daemon.child.pid) ?? -1
            daemon.stop()
            report("hostile_stalled_\(n)_\(label)_rss_kb_before", Double(before), "kB", digits: 0)
            report("hostile_stalled_\(n)_\(label)_rss_kb", Double(with), "kB", digits: 0)
            report("hostile_stalled_\(n)_\(label)_rss_kb_after", Double(after), "kB", digits: 0)
        }
    }
}

/// CPU ticks of a process (utime + stime, /proc/PID/stat).
private func cpuTicks(_ pid: Int32) -> Int {
    guard let stat = readSmallFile("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return 0 }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    return fields.count > 12 ? (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) : 0
}

private func cpuAtTheFileLimit(seconds: Double) {
    guard let daemon = ServedDaemon.start(socketConfig: "  max_clients: 1000\n  max_clients_per_uid: 1000\n", fileLimit: 48) else {
        return unavailable("hostile_fd_limit_cpu_percent", "no daemon child")
    }
    defer { daemon.stop() }
    var clients: [SocketClient] = []
    for _ in 0..<120 { if let c = SocketClient(path: daemon.socketPath) { clients.append(c) } }
    sleepSeconds(0.5)
    let t0 = cpuTicks(daemon.child.pid), n0 = nowNanoseconds()
    sleepSeconds(seconds)
    let ticks = cpuTicks(daemon.child.pid) - t0
    let elapsed = Double(nowNanoseconds() - n0) / 1e9
    let log = readSmallFile(daemon.directory + "/daemon.log") ?? ""
    report("hostile_fd_limit_cpu_percent", Double(ticks) / elapsed, "%", digits: 1)   // 100 ticks a second
    report("hostile_fd_limit_log_lines", Double(log.split(separator: "\n").count), "lines", digits: 0)
}
