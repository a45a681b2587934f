// socket_latency_us_p50/p99 and socket_fanout_*: an event written into the daemon's pipe-backed
// device source → the gesture line read by socket clients, through the real daemon event loop
// (a `gestured-bench --serve` child running GestureDaemon.Daemon).
import GestureCore
import LinuxSystem

/// One finger lands mid-screen (frame 1) and moves right 5 mm a frame until a pan begins (the
/// latency is taken from the frame after which the `began` line arrived); `lift` ends the pan.
struct PanProbe {
    var trackingID: Int32
    func down(at us: Int64) -> [InputEvent] {
        let t = Instant(microseconds: us)
        return [InputEvent(time: t, type: EventType.abs, code: AbsCode.mtSlot, value: 0),
                InputEvent(time: t, type: EventType.abs, code: AbsCode.mtTrackingId, value: trackingID),
                InputEvent(time: t, type: EventType.abs, code: AbsCode.mtPositionX, value: 3000),
                InputEvent(time: t, type: EventType.abs, code: AbsCode.mtPositionY, value: 2000),
                InputEvent(time: t, type: EventType.key, code: KeyCode.btnTouch, value: 1),
                InputEvent(time: t, type: EventType.syn, code: SynCode.report, value: 0)]
    }
    func move(_ step: Int, at us: Int64) -> [InputEvent] {
        let t = Instant(microseconds: us)
        return [InputEvent(time: t, type: EventType.abs, code: AbsCode.mtPositionX, value: 3000 + 100 * Int32(step)),
                InputEvent(time: t, type: EventType.syn, code: SynCode.report, value: 0)]
    }
    func lift(at us: Int64) -> [InputEvent] {
        let t = Instant(microseconds: us)
        return [InputEvent(time: t, type: EventType.abs, code: AbsCode.mtTrackingId, value: -1),
                InputEvent(time: t, type: EventType.key, code: KeyCode.btnTouch, value: 0),
                InputEvent(time: t, type: EventType.syn, code: SynCode.report, value: 0)]
    }
}

let panBegan = "\"gesture\":\"pan\",\"phase\":\"began\""

func benchSocket(quick: Bool) {
    guard let daemon = ServedDaemon.start() else {
        for n in ["socket_latency_us_p50", "socket_latency_us_p99", "socket_fanout_clients",
                  "socket_fanout_latency_us_p99", "socket_fanout_rss_kb"] {
            unavailable(n, "could not start the daemon child (gestured-bench --serve)")
        }
        return
    }
    defer { daemon.stop() }
    let step = latency(daemon, iterations: quick ? 50 : 500)
    fanout(daemon, live: 100, stalled: 10, iterations: quick ? 20 : 200, beganOnStep: step)
}

/// Returns the move step on which the pan began most often (the fanout times that frame).
@discardableResult
private func latency(_ daemon: ServedDaemon, iterations: Int) -> Int {
    guard let client = SocketClient(path: daemon.socketPath),
          client.waitForLine(containing: "\"hello\"", timeoutMs: 2000) != nil else {
        unavailable("socket_latency_us_p50", "no hello from the daemon"); unavailable("socket_latency_us_p99", "no hello")
        return 2
    }
    let (samples, lost, beganOn) = panLatencies(daemon, client, iterations: iterations, firstID: 1, timeoutMs: 50)
    if lost > 0 { note("socket latency: \(lost) of \(iterations) pan gestures never arrived") }
    guard !samples.isEmpty else {
        unavailable("socket_latency_us_p50", "no gesture line arrived"); unavailable("socket_latency_us_p99", "no gesture line arrived")
        return 2
    }
    report("socket_latency_us_p50", percentile(samples, 50), "us", digits: 1)
    report("socket_latency_us_p99", percentile(samples, 99), "us", digits: 1)
    return beganOn.indices.max { beganOn[$0] < beganOn[$1] } ?? 2
}

/// `iterations` pans, each one finger landing and moving 5 mm a frame 4 ms apart until its
/// `began` line arrives: the time from the frame that began it to the line, µs; the pans whose
/// line never came; and how often each move step began the pan.
func panLatencies(_ daemon: ServedDaemon, _ client: SocketClient, iterations: Int, firstID: Int,
                  timeoutMs: Int) -> (samples: [Double], lost: Int, beganOn: [Int]) {
    var beganOn = [Int](repeating: 0, count: 7)
    var samples: [Double] = []
    var lost = 0
    for i in 0..<iterations {
        let probe = PanProbe(trackingID: Int32(firstID + i))
        daemon.send(probe.down(at: monotonicMicroseconds()))
        var arrived = false
        for step in 1...6 {
            MonotonicClock.sleep(for: .microseconds(4000))
            let sent = nowNanoseconds()
            daemon.send(probe.move(step, at: monotonicMicroseconds()))
            if let got = client.waitForLine(containing: panBegan, timeoutMs: timeoutMs) {
                samples.append(Double(got.atNs - sent) / 1000); arrived = true; beganOn[step] += 1; break
            }
        }
        if !arrived { lost += 1 }
        daemon.send(probe.lift(at: monotonicMicroseconds()))
        _ = client.waitForLine(containing: "\"ended\"", timeoutMs: 200)
    }
    return (samples, lost, beganOn)
}

private func fanout(_ daemon: ServedDaemon, live: Int, stalled: Int, iterations: Int, beganOnStep: Int) {
    // Stalled clients: connected, tiny receive buffer, never read.
    var stalledClients: [SocketClient] = []
    for _ in 0..<stalled {
        guard let c = SocketClient(path: daemon.socketPath) else { continue }
        c.fd.setReceiveBufferSize(1024)
        stalledClients.append(c)
    }
    var clients: [SocketClient] = []
    for _ in 0..<live {
        guard let c = SocketClient(path: daemon.socketPath) else { continue }
        clients.append(c)
    }
    for c in clients { _ = c.waitForLine(containing: "\"hello\"", timeoutMs: 2000) }
    guard clients.count == live else {
        unavailable("socket_fanout_clients", "only \(clients.count) of \(live) clients connected"); return
    }
    var samples: [Double] = []
    var missing = 0
    for i in 0..<iterations {
        let probe = PanProbe(trackingID: Int32(100_000 + i))
        daemon.send(probe.down(at: monotonicMicroseconds()))
        // Find the frame that begins the pan with the first client, then time every client on it.
        for step in 1..<max(1, beganOnStep) {
            MonotonicClock.sleep(for: .microseconds(4000))
            daemon.send(probe.move(step, at: monotonicMicroseconds()))
        }
        MonotonicClock.sleep(for: .microseconds(4000))
        let sent = nowNanoseconds()
        daemon.send(probe.move(max(1, beganOnStep), at: monotonicMicroseconds()))
        var waiting = Set(0..<clients.count)
        let deadline = sent + 2_000_000_000
        var pfds = clients.map { Poll.Entry($0.fd, .readable) }
        while !waiting.isEmpty && nowNanoseconds() < deadline {
            guard let n = try? Poll.wait(&pfds, timeoutMilliseconds: 100), n > 0 else { continue }
            let at = nowNanoseconds()
            for (k, p) in pfds.enumerated() where !p.returned.isEmpty && waiting.contains(k) {
                if let lines = clients[k].readLines(timeoutMs: 0), lines.contains(where: { $0.containsText(panBegan) }) {
                    samples.append(Double(at - sent) / 1000)
                    waiting.remove(k)
                    pfds[k].events = []
                }
            }
        }
        missing += waiting.count
        daemon.send(probe.lift(at: monotonicMicroseconds()))
        MonotonicClock.sleep(for: .microseconds(3000))
        for c in clients { _ = c.readLines(timeoutMs: 0) }
    }
    let rss = residentKilobytes(pid: daemon.child.pid) ?? -1
    if missing > 0 { note("socket fanout: \(missing) deliveries to live clients missing") }
    note("socket fanout: \(live) live + \(stalledClients.count) stalled clients, \(iterations) gestures, \(samples.count) deliveries")
    report("socket_fanout_clients", Double(live + stalledClients.count), "clients", digits: 0)
    report("socket_fanout_latency_us_p99", percentile(samples, 99), "us", digits: 1)
    report("socket_fanout_lost_deliveries", Double(missing), "deliveries", digits: 0)
    report("socket_fanout_rss_kb", Double(rss), "kB", digits: 0)
}
