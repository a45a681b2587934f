import CommandArguments
import GestureConfig
import GestureCore
import GestureInsight
import LinuxInput
import LinuxSystem

let tuneUsage = """
    usage: gestured tune [DEVICE] [--gestures LIST] [--repetitions N] [--config FILE]
           gestured tune --from GESTURE=FILE [--from GESTURE=FILE…] [--config FILE]

    Measures your own gestures and prints the per-device threshold overrides that recognize
    all of them, as a config snippet (`gestured check` accepts it; add it to your config).
    Only thresholds one of your gestures fails are changed, so what the thresholds in force
    keep apart stays apart; a change that would let one of your gestures pass for another is
    printed as a `# conflict:` line.

    On a device (a node such as /dev/input/event5, or a name; without one, the only touch
    device), it asks for N repetitions of each gesture in LIST, one touch sequence each.
    From recordings, GESTURE says what every touch sequence of FILE is: tap, doubleTap (a
    recording of double taps: every other sequence is a second tap), longPress, swipe, pan,
    pinch or rotate.

      --gestures LIST      comma-separated gestures to ask for (default tap,swipe)
      --repetitions N      how many of each (default 5)
      --from GESTURE=FILE  a recording holding only that gesture (repeatable)
      --config FILE        the thresholds in force (default \(Config.defaultPath))
      -h, --help           this text

    """

let tuneSyntax = CommandSyntax(command: "gestured tune", help: tuneUsage, options: [
    .value("--from", needs: "GESTURE=FILE"), .value("--gestures", needs: "a list"), .value("--repetitions", needs: "a number"),
    .value("--config", "-c", needs: "a file"),
], positionals: 1, unknown: "unexpected argument")

private let tunable: [GestureKind] = [.tap, .doubleTap, .longPress, .swipe, .pan, .pinch, .rotate]

func tuneMain(_ arguments: [String]) -> Int32 {
    var sources: [(GestureKind, String)] = []
    var gestures: [GestureKind] = [.tap, .swipe]
    var repetitions = 5
    var configPath: String?, device: String?
    let parsed = tuneSyntax.parse(arguments)
    func kind(_ name: Substring) -> GestureKind? { tunable.first { $0.rawValue == name } }
    for argument in parsed.arguments {
        switch argument {
        case .value("--from", let v):
            let parts = v.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let k = kind(parts[0]) else {
                return tuneSyntax.invalid("--from expects GESTURE=FILE with GESTURE one of \(tunable.map(\.rawValue).joined(separator: ", ")), got '\(v)'").report()
            }
            sources.append((k, String(parts[1])))
        case .value("--gestures", let v):
            var list: [GestureKind] = []
            for name in v.split(separator: ",") {
                guard let k = kind(name) else { return tuneSyntax.invalid("--gestures: unknown gesture '\(name)'").report() }
                list.append(k)
            }
            gestures = list
        case .value("--repetitions", let v):
            guard let n = Int(v), (1...50).contains(n) else { return tuneSyntax.invalid("--repetitions expects 1 to 50, got '\(v)'").report() }
            repetitions = n
        case .value("--config", let v): configPath = v
        case .positional(let p): device = p
        default: fatalError("gestured bug: tune's syntax has no \(argument)")
        }
    }
    if let stop = parsed.stop { return stop.report() }
    if !sources.isEmpty && device != nil { return tuneSyntax.invalid("give a device or --from recordings, not both").report() }
    guard let config = loadInsightConfig(configPath, command: "gestured tune") else { return 1 }

    var samples: [Tuner.Sample] = []
    var description: DeviceDescription?
    var thresholds = Thresholds.touchpadDefaults
    if sources.isEmpty {
        guard let live = tuneLive(device, gestures: gestures, repetitions: repetitions, config: config) else { return 1 }
        (samples, description, thresholds) = live
    }
    for (k, file) in sources {
        let run: InsightRun
        do { run = try InsightRun(path: file, descriptionPath: nil, config: config) } catch {
            eprint("recording error: \(error)")
            return 2
        }
        if let d = description, d.name != run.device.name {
            eprint("gestured tune: \(file) is from '\(TextEscaping.escaped(run.device.name))', not '\(TextEscaping.escaped(d.name))': tune one device at a time")
            return 2
        }
        description = run.device; thresholds = run.thresholds
        samples += tuneSamples(run.collector.sequences, kind: k, thresholds: run.thresholds, device: run.device)
    }
    guard let description, !samples.isEmpty else { eprint("gestured tune: no touch sequence to measure"); return 1 }
    let (proposals, conflicts) = Tuner.propose(samples, thresholds)
    var counts: [(GestureKind, Int)] = []
    for s in samples {
        if let i = counts.firstIndex(where: { $0.0 == s.kind }) { counts[i].1 += 1 } else { counts.append((s.kind, 1)) }
    }
    print(Tuner.snippet(device: description, counts: counts, proposals: proposals, conflicts: conflicts), terminator: "")
    return 0
}

/// The samples of one recording of one gesture: each sequence (edge palms left out, as the
/// daemon does), with the gap before it for second taps.
func tuneSamples(_ sequences: [TouchSequence], kind: GestureKind, thresholds: Thresholds, device: DeviceDescription) -> [Tuner.Sample] {
    var out: [Tuner.Sample] = []
    for (i, seq) in sequences.enumerated() {
        let gap = kind == .doubleTap && i % 2 == 1 ? seq.start - sequences[i - 1].end : nil
        let palms = Explainer.edgePalms(seq, thresholds, device).0
        out.append(Tuner.Sample(kind: kind, measures: SequenceMeasures(seq.without(palms)), gapBefore: gap))
    }
    return out
}

/// Asks for the gestures on a real device and collects their touch sequences.
private func tuneLive(_ wanted: String?, gestures: [GestureKind], repetitions: Int, config: Config)
    -> (samples: [Tuner.Sample], device: DeviceDescription, thresholds: Thresholds)? {
    guard let node = chooseDevice(wanted, command: "gestured tune") else { return nil }
    let evdev: EvdevDevice
    do { evdev = try EvdevDevice(path: node) } catch { eprint("gestured tune: \(error)"); return nil }
    let settings = config.settings(for: evdev.description)
    let transform = AxisTransform(rotationDegrees: settings.rotation, invertX: settings.invertX, invertY: settings.invertY)
    var pipeline = GesturePipeline(device: evdev.description, transform: transform, thresholds: settings.thresholds)
    var samples: [Tuner.Sample] = []
    for k in gestures {
        let count = k == .doubleTap ? repetitions * 2 : repetitions
        eprint("gestured tune: \(k.rawValue), \(repetitions) times on \(TextEscaping.escaped(evdev.description.name)), lifting every finger between them")
        var collector = SequenceCollector()
        while collector.sequences.count < count {
            guard let ready = try? Poll.wait(for: evdev.fd, .readable, timeoutMilliseconds: -1), !ready.isEmpty else { continue }
            let result = evdev.readAvailable()
            pipeline.feed(contentsOf: result.events) { if case .frame(let f) = $0 { collector.add(f) } }
            if case .deviceGone = result.status { eprint("gestured tune: the device was unplugged"); return nil }
            let done = collector.sequences.count
            if done > 0 && done <= count { eprint("  \(done)/\(count)", terminator: "\r") }
        }
        eprint("")
        samples += tuneSamples(Array(collector.sequences.prefix(count)), kind: k, thresholds: settings.thresholds, device: pipeline.device)
    }
    return (samples, pipeline.device, settings.thresholds)
}
