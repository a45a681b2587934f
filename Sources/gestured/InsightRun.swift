import GestureConfig
import GestureCore
import GestureInsight
import GestureRecording
import LinuxSystem

/// A recording replayed for `explain`, `tune` and `replay --html`: the device as decoded, the
/// thresholds the daemon would use for it, every frame cut into touch sequences, the gestures.
struct InsightRun {
    var device: DeviceDescription
    var thresholds: Thresholds
    var collector = SequenceCollector()
    var events: [GestureEvent] = []
    var diagnostics: [String] = []
    var origin: Instant

    /// Replays `path` with the thresholds `config` gives its device (its kind's overrides and
    /// every matching device rule), the axes rotated as the config says, every kind bound as
    /// `gestured replay` does.
    init(path: String, descriptionPath: String?, config: Config, thresholds override: Thresholds? = nil) throws(RecordingError) {
        let descPath = descriptionPath ?? RecordingLoader.siblingDescription(for: path)
        let r = try RecordingLoader.load(path: path, descriptionPath: descPath)
        let settings = config.settings(for: r.description)
        let transform = AxisTransform(rotationDegrees: settings.rotation, invertX: settings.invertX, invertY: settings.invertY)
        thresholds = override ?? settings.thresholds
        var pipeline = GesturePipeline(device: r.description, transform: transform, thresholds: thresholds)
        device = pipeline.device
        origin = r.startTime
        var collector = SequenceCollector(), events: [GestureEvent] = [], diagnostics: [String] = []
        let emit: (GesturePipeline.Output) -> Void = { output in
            switch output {
            case .frame(let f): collector.add(f)
            case .gesture(let g): events.append(g)
            case .diagnostic(let d): diagnostics.append(d)
            }
        }
        for e in r.events { pipeline.feed(e, emit) }
        pipeline.finish(emit)
        collector.finish()
        self.collector = collector; self.events = events; self.diagnostics = diagnostics
    }
}

/// Loads `--config FILE`, or the daemon's default file (missing: the built-in defaults); a bad
/// file is reported with its diagnostics.
func loadInsightConfig(_ path: String?, command: String) -> Config? {
    do { return try Config.load(path: path) } catch {
        eprint(error.description)
        eprint("\(command): the config has errors; `gestured check --config \(path ?? Config.defaultPath)` lists them")
        return nil
    }
}

/// "1.5" as seconds since the recording's start.
func parseSeconds(_ v: String) -> Duration? {
    guard let s = Double(v), s.isFinite, s >= 0 else { return nil }
    return .microseconds(Int64((s * 1_000_000).rounded()))
}
