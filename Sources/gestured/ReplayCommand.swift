import GestureConfig
import GestureDaemon
import CommandArguments
import GestureCore
import GestureRecording
import GestureWire
import LinuxSystem

let replayUsage = """
    usage: gestured replay [--json] [--frames] [--html OUT.html] [--config FILE] [--device-description DESC] FILE|-

    Decodes a recording in virtual time (as fast as possible) and prints each gesture event,
    one per line; with --frames also each touch frame (one per SYN_REPORT).

    FILE is an evemu recording (.evemu, a .desc + .events concatenation, or a bare .events file
    whose .desc sits next to it), a `libinput record` YAML file, or the output of `evtest DEVICE`
    (the whole log, header included, as bug reports paste it); `-` reads standard input.

      --json                     JSON lines (the socket's shape) instead of text
      --frames                   print touch frames too
      --html OUT.html            write a page picturing the recording instead (the surface to
                                 scale with every contact's path, edge zones, a timeline of the
                                 gestures; click the timeline to see the contacts then)
      --config FILE              take the device's thresholds and axis rotation from FILE
                                 (default: the built-in defaults, whatever /etc holds)
      --device-description DESC  the evemu .desc describing the device of a bare .events file
      -h, --help                 this text

    Times are seconds since the recording's first event. Exit status: 0, or 2 for a malformed
    recording or bad arguments (FILE:LINE: what was expected, on standard error).

    """

let replaySyntax = CommandSyntax(command: "gestured replay", help: replayUsage, options: [
    .flag("--json"), .flag("--frames"), .value("--device-description", needs: "a file"),
    .value("--html", needs: "a file"), .value("--config", "-c", needs: "a file"),
], positionals: 1, surplus: { "gestured replay: one recording at a time (got '\($0)' and '\($1)')\n" })

/// Buffered standard output.
struct OutputBuffer {
    var text = ""
    mutating func line(_ s: String) {
        text += s; text += "\n"
        if text.utf8.count >= 1 << 16 { flush() }
    }
    mutating func flush() {
        let bytes = Array(text.utf8)
        text = ""
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { raw in
                Result { () throws(SystemError) in try FileDescriptor.standardOutput.write(raw) }
            }
            guard case .success(let n) = written, n > 0 else { return }
            offset += n
        }
    }
}

func replayMain(_ arguments: [String]) -> Int32 {
    var json = false, frames = false
    var descPath: String?, html: String?, configPath: String?
    var file: String?
    let parsed = replaySyntax.parse(arguments)
    for argument in parsed.arguments {
        switch argument {
        case .flag("--json"): json = true
        case .flag("--frames"): frames = true
        case .value("--device-description", let v): descPath = v
        case .value("--html", let v): html = v
        case .value("--config", let v): configPath = v
        case .positional(let p): file = p
        default: fatalError("gestured bug: replay's syntax has no \(argument)")
        }
    }
    if let stop = parsed.stop { return stop.report() }
    guard let file else { eprint(replayUsage, terminator: ""); return 2 }
    var config = Config()
    if let configPath {
        guard let c = loadInsightConfig(configPath, command: "gestured replay") else { return 1 }
        config = c
    }
    if let html {
        guard file != "-" else { return replaySyntax.invalid("--html needs a recording file, not standard input").report() }
        return writeReplayPage(recording: file, descriptionPath: descPath, config: config, to: html, command: "gestured replay")
    }

    var out = OutputBuffer()
    do {
        try replayStream(file: file, descPath: descPath, config: config, afterChunk: { out.flush() }) { device, origin, output in
            switch output {
            case .frame(let f):
                guard frames else { return }
                out.line(json ? GestureJSON.encode(f, origin: origin) : ReplayText.frame(f, origin: origin))
            case .gesture(let g):
                out.line(json ? GestureJSON.encode(g, device: device, origin: origin) : ReplayText.gesture(g, origin: origin))
            case .diagnostic(let d):
                out.flush()
                eprint(d)
            }
        }
    } catch {
        out.flush()
        eprint("recording error: \(error)")
        return 2
    }
    out.flush()
    return 0
}

/// Replays `file` (`-`: standard input) through the pipeline. Evemu recordings are streamed: a
/// chunk is read, its complete lines decoded and their gestures emitted before the next read, so
/// memory does not grow with the recording and output starts at once. `libinput record` YAML is
/// loaded whole (capped at RecordingLoader.maximumBytes).
func replayStream(file: String, descPath: String?, config: Config = Config(), afterChunk: () -> Void = {},
                  _ emit: (GestureJSON.DeviceInfo, Instant, GesturePipeline.Output) -> Void) throws(RecordingError) {
    let name = file == "-" ? "<stdin>" : file
    let fd: FileDescriptor
    do { fd = file == "-" ? .standardInput : try FileDescriptor.open(file, .readOnly) } catch {
        throw RecordingError(file: name, line: 0, message: "cannot open: \(error)")
    }
    defer { if fd != .standardInput { fd.close() } }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    func read() throws(RecordingError) -> ArraySlice<UInt8> {
        do { return chunk[0..<(try chunk.withUnsafeMutableBytes { try fd.read(into: $0) })] } catch {
            throw RecordingError(file: name, line: 0, message: "cannot read: \(error)")
        }
    }
    var first = try read()
    let head = Array(first)
    if RecordingLoader.isWholeFileFormat(head) {
        // YAML and evtest logs are not line-streamable here: read the rest (capped), replay it whole.
        var bytes = head
        while true {
            let more = try read()
            if more.isEmpty { break }
            guard bytes.count + more.count <= RecordingLoader.maximumBytes else {
                throw RecordingError(file: name, line: 0, message: "larger than \(RecordingLoader.maximumBytes >> 20) MiB; too big to load whole")
            }
            bytes += more
        }
        let given = try descPath.map { p throws(RecordingError) in try loadDescription(p) }
        let r = try RecordingLoader.parseWholeFile(bytes, file: name, description: given)
        let settings = config.settings(for: r.description)
        var p = GesturePipeline(device: r.description, transform: AxisTransform(rotationDegrees: settings.rotation, invertX: settings.invertX, invertY: settings.invertY), thresholds: settings.thresholds)
        let device = GestureJSON.DeviceInfo(p.device)
        for e in r.events { p.feed(e) { emit(device, r.startTime, $0) } }
        p.finish { emit(device, r.startTime, $0) }
        return
    }
    var description = try descPath.map { p throws(RecordingError) in try loadDescription(p) }
    if description == nil && file != "-" && EvemuReader.lacksHeader(Array(first)),
       let sibling = RecordingLoader.siblingDescription(for: file) {
        description = try loadDescription(sibling)
    }
    var stream = EvemuReader.Stream(file: name, description: description)
    var replayer: GesturePipeline?
    var origin = Instant.zero
    var device = GestureJSON.DeviceInfo(name: "", kind: .other)
    func feed(_ d: DeviceDescription, _ e: InputEvent) {
        if replayer == nil {
            let settings = config.settings(for: d)
            replayer = GesturePipeline(device: d, transform: AxisTransform(rotationDegrees: settings.rotation, invertX: settings.invertX, invertY: settings.invertY), thresholds: settings.thresholds)
            origin = e.time; device = GestureJSON.DeviceInfo(replayer!.device)
        }
        replayer?.feed(e) { emit(device, origin, $0) }
    }
    while !first.isEmpty {
        try stream.feed(first, feed)
        afterChunk()
        first = try read()
    }
    try stream.finish(feed)
    replayer?.finish { emit(device, origin, $0) }
}

func loadDescription(_ path: String) throws(RecordingError) -> DeviceDescription {
    try EvemuReader.parseDescription(try RecordingLoader.readAll(path: path, name: path), file: path)
}

/// The human-readable replay lines.
enum ReplayText {
    static func time(_ t: Instant, origin: Instant) -> String {
        var s = ""
        let us = t.microseconds - origin.microseconds
        s += us < 0 ? "-" : ""
        let a = us.magnitude
        let frac = String(a % 1_000_000)
        s += "\(a / 1_000_000).\(String(repeating: "0", count: 6 - frac.count))\(frac)"
        return s
    }

    static func mm(_ v: Double) -> String {
        var s = ""
        GestureJSON.appendFixed(v, decimals: 1, to: &s)
        return s
    }

    static func frame(_ f: TouchFrame, origin: Instant) -> String {
        var s = "\(time(f.time, origin: origin)) frame fingers=\(f.fingerCount)"
        for t in f.touches {
            s += " [\(t.id) \(t.phase.rawValue) slot=\(t.slot) (\(mm(t.x)), \(mm(t.y))) mm"
            if t.tool != .finger { s += " \(t.tool.rawValue)" }
            s += "]"
        }
        if f.flags.contains(.resynchronized) { s += " resynchronized" }
        if f.flags.contains(.semiMT) { s += " semi-mt" }
        if f.flags.contains(.deviceRemoved) { s += " device-removed" }
        return s
    }

    static func gesture(_ g: GestureEvent, origin: Instant) -> String {
        var s = "\(time(g.time, origin: origin)) \(g.kind.rawValue) \(g.phase.rawValue) id=\(g.id) fingers=\(g.fingers)"
        if let d = g.direction { s += " direction=\(d.rawValue)" }
        if let e = g.edge { s += " edge=\(e.rawValue)" }
        func add(_ key: String, _ v: Double?, _ decimals: Int = 1) {
            guard let v, v.isFinite else { return }
            var t = ""
            GestureJSON.appendFixed(v, decimals: decimals, to: &t)
            s += " \(key)=\(t)"
        }
        add("dx_mm", g.dxMillimeters); add("dy_mm", g.dyMillimeters)
        add("distance_mm", g.distanceMillimeters); add("velocity_mm_s", g.velocityMillimetersPerSecond)
        add("scale", g.scale, 3); add("rotation_deg", g.rotationDegrees)
        add("x", g.x, 3); add("y", g.y, 3)
        return s
    }
}
