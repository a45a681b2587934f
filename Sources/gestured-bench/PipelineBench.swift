// decode_events_per_s (SlotDecoder alone), recognize_frames_per_s (RecognizerArena alone, on
// decoded frames), decode_and_recognize_us_per_frame_p50/p99 (the whole GesturePipeline per
// frame) and gestures_recognized: synthetic 240 Hz gestures (1 to 5 moving fingers: swipes,
// pinches, a rotation) and the real recordings in Tests/Fixtures.
import GestureCore
import GestureRecording
import LinuxSystem

/// Keeps results alive so the optimizer cannot drop the work being measured.
nonisolated(unsafe) var blackHole = 0

/// Runs `body` repeatedly until at least `minimumSeconds` have passed; returns (iterations, seconds).
func timeRepeated(minimumSeconds: Double, _ body: () -> Void) -> (Int, Double) {
    let start = nowNanoseconds()
    var n = 0
    var elapsed = 0.0
    repeat {
        body(); n += 1
        elapsed = Double(nowNanoseconds() - start) / 1e9
    } while elapsed < minimumSeconds
    return (n, elapsed)
}

/// One stream's figures: decoder throughput, recognizer throughput (on the decoded frames), and
/// the cost of one frame through both (decode every event of the frame + arena.process).
func benchStream(_ label: String, device: DeviceDescription, events: [InputEvent], expectedKind: GestureKind? = nil,
                 quick: Bool) {
    guard !events.isEmpty else { return }
    let minimum = quick ? 0.1 : 1.0

    // Decoder alone.
    let (decodePasses, decodeSeconds) = timeRepeated(minimumSeconds: minimum) {
        var decoder = SlotDecoder(device: device)
        for e in events { if let f = decoder.decode(e) { blackHole &+= f.touches.count } }
        blackHole &+= decoder.drainDiagnostics().count
    }
    report("decode_events_per_s.\(label)", Double(decodePasses * events.count) / decodeSeconds, "events/s", digits: 0)

    // Recognizers alone, on the frames the decoder made.
    var decoder = SlotDecoder(device: device)
    let frames = events.compactMap { decoder.decode($0) }
    let thresholds = Thresholds.defaults(for: device)
    if let kind = expectedKind {
        // The stream must be recognized as what it is, or the figures measure the idle path.
        var arena = RecognizerArena(device: device, thresholds: thresholds)
        let starts = frames.flatMap { arena.process($0) }.filter { $0.kind == kind && ($0.phase == .began || $0.phase == .recognized) }
        report("gestures_recognized.\(label)", Double(starts.count), "\(kind)", digits: 0)
        if starts.isEmpty { note("\(label): no \(kind) recognized: the figures below measure the idle path") }
    }
    if !frames.isEmpty {
        let (passes, seconds) = timeRepeated(minimumSeconds: minimum) {
            var arena = RecognizerArena(device: device, thresholds: thresholds)
            for frame in frames { blackHole &+= arena.process(frame).count }
        }
        report("recognize_frames_per_s.\(label)", Double(passes * frames.count) / seconds, "frames/s", digits: 0)
    }

    // Per frame, the whole GesturePipeline: the work between one SYN_REPORT and the next.
    var samples: [Double] = []
    samples.reserveCapacity(frames.count * 3)
    for _ in 0..<(quick ? 1 : 3) {
        measureFrames(device: device, events: events, thresholds: thresholds, into: &samples)
    }
    report("decode_and_recognize_us_per_frame_p50.\(label)", percentile(samples, 50), "us", digits: 3)
    report("decode_and_recognize_us_per_frame_p99.\(label)", percentile(samples, 99), "us", digits: 3)
}

/// Feeds `events` through one `GesturePipeline`, appending the cost of each frame (every event
/// since the previous SYN_REPORT, the arena's work and deadlines included) in microseconds.
func measureFrames(device: DeviceDescription, events: [InputEvent], thresholds: Thresholds, into samples: inout [Double]) {
    var pipeline = GesturePipeline(device: device, thresholds: thresholds)
    var outputs = 0
    var t0 = nowNanoseconds()
    for e in events {
        pipeline.feed(e) { _ in outputs &+= 1 }
        if e.isSynReport {
            samples.append(Double(nowNanoseconds() - t0) / 1000)
            t0 = nowNanoseconds()
        }
    }
    blackHole &+= outputs
}

/// Tests/Fixtures of the source tree this bench was built from.
func fixturesDirectory() -> String {
    var path = #filePath
    for _ in 0..<3 { while let last = path.last, last != "/" { path.removeLast() }; path.removeLast() }
    return path + "/Tests/Fixtures"
}

func benchDecodeAndRecognize(quick: Bool) {
    let seconds = quick ? 5 : 60
    for gesture in syntheticGestures {
        let kind = GestureKind(rawValue: String(gesture.name.prefix { $0 != "_" }))
        benchStream(gesture.name, device: syntheticDevice, events: syntheticEvents(gesture, seconds: seconds),
                    expectedKind: kind, quick: quick)
    }
    // The real recordings, all together: every event of every file, each through its own device.
    let dir = fixturesDirectory()
    guard let all = FileContents.names(inDirectory: dir) else { unavailable("decode_events_per_s.recordings", "no \(dir)"); return }
    var names: [String] = []
    for name in all where name.hasSuffix(".evemu") || name.hasSuffix(".events") || name.hasSuffix(".yml") { names.append(name) }
    var recordings: [Recording] = []
    for name in names.sorted() {
        do { recordings.append(try RecordingLoader.load(path: dir + "/" + name)) }
        catch { note("skipping \(name): \(error)") }
    }
    guard !recordings.isEmpty else { unavailable("decode_events_per_s.recordings", "no readable recording in \(dir)"); return }
    benchRecordings(recordings, quick: quick)
}

/// Figures over every real recording: throughput summed, frame costs pooled.
func benchRecordings(_ recordings: [Recording], quick: Bool) {
    let minimum = quick ? 0.1 : 1.0
    let totalEvents = recordings.reduce(0) { $0 + $1.events.count }
    let (passes, seconds) = timeRepeated(minimumSeconds: minimum) {
        for r in recordings {
            var decoder = SlotDecoder(device: r.description)
            for e in r.events { if let f = decoder.decode(e) { blackHole &+= f.touches.count } }
            blackHole &+= decoder.drainDiagnostics().count
        }
    }
    note("recordings: \(recordings.count) files, \(totalEvents) events")
    report("decode_events_per_s.recordings", Double(passes * totalEvents) / seconds, "events/s", digits: 0)
    let decoded: [(DeviceDescription, [TouchFrame])] = recordings.map { r in
        var decoder = SlotDecoder(device: r.description)
        return (r.description, r.events.compactMap { decoder.decode($0) })
    }
    let totalFrames = decoded.reduce(0) { $0 + $1.1.count }
    let (rp, rs) = timeRepeated(minimumSeconds: minimum) {
        for (device, frames) in decoded {
            var arena = RecognizerArena(device: device, thresholds: .defaults(for: device))
            for f in frames { blackHole &+= arena.process(f).count }
        }
    }
    report("recognize_frames_per_s.recordings", Double(rp * totalFrames) / rs, "frames/s", digits: 0)
    var samples: [Double] = []
    for _ in 0..<(quick ? 1 : 3) {
        for r in recordings {
            measureFrames(device: r.description, events: r.events, thresholds: .defaults(for: r.description), into: &samples)
        }
    }
    report("decode_and_recognize_us_per_frame_p50.recordings", percentile(samples, 50), "us", digits: 3)
    report("decode_and_recognize_us_per_frame_p99.recordings", percentile(samples, 99), "us", digits: 3)
}
