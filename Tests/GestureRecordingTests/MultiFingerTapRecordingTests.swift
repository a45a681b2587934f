import GestureCore
import GestureRecording
import GestureTestSupport
import Testing

/// Real multi-finger taps stay taps now that fingers moving together past the pan slop fail the
/// tap: measured from the recordings' frames (not by the recognizer), how far all of a tap's
/// fingers went the same way, and the taps the people made.
@Suite struct MultiFingerTapRecordingTests {
    /// Per touch sequence (first finger down to all up): the most fingers, and the largest
    /// shared travel of any frame with 2+ contacts — the least displacement from its landing of
    /// any contact, projected on the direction of their mean displacement (mm).
    struct Sequence { var fingers = 0; var sharedTravel = 0.0 }

    static func sequences(_ file: String) throws -> (sequences: [Sequence], taps: [GestureEvent], device: DeviceDescription) {
        let recording = try RecordingLoader.load(path: ReplayFixtures.directory.appendingPathComponent(file).path)
        var pipeline = GesturePipeline(device: recording.description)
        var frames: [TouchFrame] = []
        var taps: [GestureEvent] = []
        let emit: (GesturePipeline.Output) -> Void = { output in
            switch output {
            case .frame(let f): frames.append(f)
            case .gesture(let g) where g.kind == .tap: taps.append(g)
            default: break
            }
        }
        for e in recording.events { pipeline.feed(e, emit) }
        pipeline.finish(emit)
        var out: [Sequence] = []
        var current: Sequence?
        var landed: [Int: (x: Double, y: Double)] = [:]
        for f in frames {
            let active = f.touches.filter { $0.phase.isActive && $0.tool == .finger }
            if current == nil {
                guard !active.isEmpty else { continue }
                current = Sequence(); landed = [:]
            }
            for t in active where t.phase == .began || landed[t.id] == nil { landed[t.id] = (t.x, t.y) }
            current!.fingers = max(current!.fingers, f.fingerCount, active.count)
            if active.count >= 2 {
                let d = active.map { t in (x: t.x - landed[t.id]!.x, y: t.y - landed[t.id]!.y) }
                let mx = d.map(\.x).reduce(0, +) / Double(d.count), my = d.map(\.y).reduce(0, +) / Double(d.count)
                let length = (mx * mx + my * my).squareRoot()
                if length > 0 {
                    let shared = d.map { ($0.x * mx + $0.y * my) / length }.min()!
                    current!.sharedTravel = max(current!.sharedTravel, shared)
                }
            }
            if active.isEmpty { out.append(current!); current = nil }
        }
        return (out, taps, recording.description)
    }

    /// The recordings of multi-finger taps on surfaces that report each contact (semi-MT pads
    /// report a box, whose motion a tap ignores), with the taps the person made.
    @Test(arguments: [
        ("touchpad-protoA-bcm5974-1f-move-2f-swipe-left-3f-swipe-right-4f-taps__whot-evemu.evemu", 4, 2),
        ("touchscreen-wacom-isdv4-2finger-tap__whot-evemu-devices.events", 2, 1),
    ])
    func realMultiFingerTaps_shareLittleTravel_andStayTaps(file: String, fingers: Int, count: Int) throws {
        let (sequences, taps, device) = try Self.sequences(file)
        let tapSequences = sequences.filter { $0.fingers == fingers }
        #expect(tapSequences.count >= count, "\(sequences)")
        let slop = Thresholds.defaults(for: device).panSlop(fingers: fingers)
        for s in tapSequences.suffix(count) {
            // Half the slop: a margin, not a near miss (the bcm5974 taps share 0.5 mm at most).
            #expect(s.sharedTravel < slop / 2, "\(file): a \(fingers)-finger tap's fingers went \(s.sharedTravel) mm the same way")
        }
        #expect(taps.filter { $0.fingers == fingers }.count == count, "\(taps.map(summary))")
    }
}
