import CommandArguments
import GestureConfig
import GestureCore
import GestureInsight
import LinuxSystem

let explainUsage = """
    usage: gestured explain [--from S] [--to S] [--config FILE] [--device-description DESC] FILE

    Replays a recording and says, for each touch sequence (from a first finger landing to the
    last lift), which gestures were recognized and, for every recognizer, the measurement that
    decided it against its threshold, with the config key to change:

      tap: the contact lasted 230 ms, over tap_timeout_ms 180
      swipe: 3 fingers moved 14.2 mm of the 20 mm needed (swipe_minimum_distance_mm 20), then lifted

    The thresholds are the daemon's for the recording's device: its kind's defaults, the
    config's `thresholds:` for the kind and every matching `devices:` rule. Every gesture kind
    is recognized, as in `gestured replay` (the daemon waits for a double tap only where one is
    bound, so it may report two taps where explain reports a double tap). The measurements
    are taken over all the fingers of the sequence but touchpad edge palms (said in a note); a
    contact the daemon sets aside as resting or a thumb is counted in them.

      --from S, --to S           only sequences overlapping S…S seconds since the first event
      --config FILE              the config to take thresholds from (default \(Config.defaultPath);
                                 a missing default file means the built-in defaults)
      --device-description DESC  the evemu .desc describing the device of a bare .events file
      -h, --help                 this text

    Exit status: 0, 1 for a bad config, 2 for a malformed recording or bad arguments.

    """

let explainSyntax = CommandSyntax(command: "gestured explain", help: explainUsage, options: [
    .value("--from", needs: "seconds"), .value("--to", needs: "seconds"), .value("--config", "-c", needs: "a file"),
    .value("--device-description", needs: "a file"),
], positionals: 1, surplus: { "gestured explain: one recording at a time (got '\($0)' and '\($1)')\n" })

func explainMain(_ arguments: [String]) -> Int32 {
    var from: Duration?, to: Duration?
    var configPath: String?, descPath: String?, file: String?
    let parsed = explainSyntax.parse(arguments)
    for argument in parsed.arguments {
        switch argument {
        case .value(let name, let v) where name == "--from" || name == "--to":
            guard let d = parseSeconds(v) else {
                return explainSyntax.invalid("\(name) expects seconds since the recording's start, got '\(v)'").report()
            }
            if name == "--from" { from = d } else { to = d }
        case .value("--config", let v): configPath = v
        case .value("--device-description", let v): descPath = v
        case .positional(let p): file = p
        default: fatalError("gestured bug: explain's syntax has no \(argument)")
        }
    }
    if let stop = parsed.stop { return stop.report() }
    guard let file else { eprint(explainUsage, terminator: ""); return 2 }
    guard let config = loadInsightConfig(configPath, command: "gestured explain") else { return 1 }
    let run: InsightRun
    do { run = try InsightRun(path: file, descriptionPath: descPath, config: config) } catch {
        eprint("recording error: \(error)")
        return 2
    }
    for d in run.diagnostics { eprint(d) }
    let spans = GestureSpan.collect(run.events)
    let all = Explainer.explain(run.collector.sequences, spans: spans, thresholds: run.thresholds, device: run.device)
    var out = OutputBuffer()
    out.line("\(TextEscaping.escaped(run.device.name)): \(run.device.kind.rawValue), \(Words.mm(run.device.size.width)) × \(Words.mm(run.device.size.height)) mm\(run.device.sizeKnown ? "" : " (size unknown: nominal)"); thresholds from \(TextEscaping.escaped(config.file))")
    var shown = 0
    for e in all {
        let start = e.sequence.start - run.origin, end = e.sequence.end - run.origin
        if let from, end < from { continue }
        if let to, start > to { continue }
        out.line("")
        out.text += e.text(origin: run.origin)
        shown += 1
    }
    if shown == 0 { out.line("no touch sequence\(from != nil || to != nil ? " in that time" : "")") }
    out.flush()
    return 0
}
