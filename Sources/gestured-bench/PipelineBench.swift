// decode_events_per_s, recognize_frames_per_s, frame_cost_us_p50/p99: synthetic 240 Hz streams
// with 1, 2, 5, 10 fingers and the real recordings in Tests/Fixtures.
import GestureCore

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

/// The recognizers on their own: frames per second over a whole stream, and the cost of each
/// frame (arena.process plus any deadline that fell due), in microseconds.
func benchRecognizers(_ label: String, device: DeviceDescription, frames: [TouchFrame], quick: Bool) {
    guard !frames.isEmpty else { return }
    let thresholds = Thresholds.defaults(for: device)
    let (passes, seconds) = timeRepeated(minimumSeconds: quick ? 0.1 : 1.0) {
        var arena = RecognizerArena(device: device, thresholds: thresholds)
        for frame in frames { blackHole &+= arena.process(frame).count }
    }
    report("recognize_frames_per_s.\(label)", Double(passes * frames.count) / seconds, "frames/s", digits: 0)
}

/// Per-frame cost through a closure that handles one frame's work; samples in microseconds.
func frameCosts(frames: Int, passes: Int, _ oneFrame: (Int) -> Void, reset: () -> Void) -> [Double] {
    var samples: [Double] = []
    samples.reserveCapacity(frames * passes)
    for _ in 0..<passes {
        reset()
        for i in 0..<frames {
            let t0 = nowNanoseconds()
            oneFrame(i)
            samples.append(Double(nowNanoseconds() - t0) / 1000)
        }
    }
    return samples
}

func benchDecodeAndRecognize(quick: Bool) {
    let seconds = quick ? 5 : 60
    for fingers in [1, 2, 5, 10] {
        let label = "synthetic_\(fingers)f"
        let frames = syntheticFrames(fingers: fingers, seconds: seconds)
        unavailable("decode_events_per_s.\(label)", "SlotDecoder has not landed on main")
        benchRecognizers(label, device: syntheticDevice, frames: frames, quick: quick)
        let thresholds = Thresholds.defaults(for: syntheticDevice)
        var arena = RecognizerArena(device: syntheticDevice, thresholds: thresholds)
        let costs = frameCosts(frames: frames.count, passes: quick ? 1 : 3, { i in
            blackHole &+= arena.process(frames[i]).count
        }, reset: { arena = RecognizerArena(device: syntheticDevice, thresholds: thresholds) })
        note("frame_cost.\(label): recognizers only (SlotDecoder has not landed)")
        report("frame_cost_us_p50.\(label)", percentile(costs, 50), "us", digits: 3)
        report("frame_cost_us_p99.\(label)", percentile(costs, 99), "us", digits: 3)
    }
    unavailable("decode_events_per_s.recordings", "SlotDecoder and recording readers have not landed on main")
}
