import GestureConfig
import GestureCore
import GestureInsight
import LinuxSystem

/// Writes `replay --html`'s page for the recording at `path` to `output`; returns the exit
/// status (2 for a malformed recording, 1 when the page cannot be written).
func writeReplayPage(recording path: String, descriptionPath: String?, config: Config, to output: String, command: String) -> Int32 {
    let run: InsightRun
    do { run = try InsightRun(path: path, descriptionPath: descriptionPath, config: config) } catch {
        eprint("recording error: \(error)")
        return 2
    }
    for d in run.diagnostics { eprint(d) }
    var frameTimes: [Instant] = []
    for seq in run.collector.sequences { for f in seq.frames { frameTimes.append(f.time) } }
    let spans = GestureSpan.collect(run.events)
    let page = ReplayPage.render(.init(file: path, device: run.device, thresholds: run.thresholds,
                                       contacts: run.collector.contacts, spans: spans, frameTimes: frameTimes,
                                       origin: run.origin))
    do {
        let fd = try FileDescriptor.open(output, .createOrTruncate(permissions: 0o644))
        defer { fd.close() }
        try fd.writeAll(Array(page.utf8))
    } catch {
        eprint("\(command): cannot write \(output): \(error)")
        return 1
    }
    eprint("\(command): wrote \(output) (\(run.collector.contacts.count) contacts, \(spans.count) gestures)")
    return 0
}
