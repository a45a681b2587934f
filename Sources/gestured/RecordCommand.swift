import GestureConfig
import GestureDaemon
import CommandArguments
import GestureCore
import GestureRecording
import LinuxInput
import LinuxSystem

private let recordHelp = """
    usage: gestured record [DEVICE] [-o FILE] [--seconds N] [--html OUT.html]

    Records a touch device's events as an EVEMU 1.3 one-file recording (what `gestured replay`,
    `gestured run --replay` and evemu-play read). DEVICE is a node (/dev/input/event5) or a
    name; without it, the only touch device is used (several: they are listed, pick one).
    Timestamps start at 0 with the first event. Every batch is written as it arrives, so
    stopping with Ctrl-C loses nothing.

      -o, --output FILE   write to FILE instead of standard output
      --seconds N         stop after N seconds of recording (default: until interrupted)
      --html OUT.html     when the recording ends (Ctrl-C, --seconds, unplug), also write the
                          page `gestured replay --html` makes of it (needs -o)
    Attach the file to a bug report: it holds the device description and what your fingers did.

    """

private let recordSyntax = CommandSyntax(command: "gestured record", help: recordHelp, options: [
    .value("--output", "-o"), .value("--seconds"), .value("--html", needs: "a file"),
], positionals: 1, unknown: "unexpected argument")

func recordMain(_ arguments: [String]) -> Int32 {
    var device: String?
    var output: String?, html: String?
    var seconds: Double?
    let parsed = recordSyntax.parse(arguments)
    for argument in parsed.arguments {
        switch argument {
        case .value("--output", let v): output = v
        case .value("--html", let v): html = v
        case .value("--seconds", let v):
            guard let s = Double(v), s > 0 else { return recordSyntax.invalid("--seconds expects a positive number, got '\(v)'").report() }
            seconds = s
        // Standard input is no device.
        case .positional("-"): return recordSyntax.unknownWord("-").report()
        case .positional(let p): device = p
        default: fatalError("gestured bug: record's syntax has no \(argument)")
        }
    }
    if let stop = parsed.stop { return stop.report() }
    if html != nil && output == nil { return recordSyntax.invalid("--html needs -o FILE (the page is made from the file)").report() }

    guard let node = chooseDevice(device) else { return 1 }
    let evdev: EvdevDevice
    do { evdev = try EvdevDevice(path: node) } catch {
        eprint("gestured record: \(error)")
        return 1
    }
    var fd = FileDescriptor.standardOutput
    if let output {
        do { fd = try FileDescriptor.open(output, .createOrTruncate(permissions: 0o644)) } catch {
            eprint("gestured record: cannot write \(output): \(error)"); return 1
        }
    }
    defer { if fd != .standardOutput { fd.close() } }
    guard writeRecording(fd, EvemuWriter.header(evdev.description)) else { return 1 }
    eprint("gestured record: recording \(TextEscaping.escaped(evdev.description.name)) (\(node)); Ctrl-C stops")

    let status = recordEvents(evdev, to: fd, seconds: seconds, stopOnSignal: html != nil)
    guard status == 0, let html, let output else { return status }
    return writeReplayPage(recording: output, descriptionPath: nil, config: Config(), to: html, command: "gestured record")
}

/// Copies the device's events to `fd` until `seconds` pass, the device goes, or (when
/// `stopOnSignal`) SIGINT or SIGTERM arrives; 0 when the recording is complete.
private func recordEvents(_ evdev: EvdevDevice, to fd: FileDescriptor, seconds: Double?, stopOnSignal: Bool) -> Int32 {
    let signals = stopOnSignal ? try? SignalFD(catching: [.interrupt, .terminate]) : nil
    var origin: Instant?
    let end = seconds.map { MonotonicClock.now() + .microseconds(Int64($0 * 1_000_000)) }
    while true {
        var timeoutMs: Int32 = -1
        if let end {
            let left = end - MonotonicClock.now()
            if left <= .zero { return 0 }
            timeoutMs = Int32(clamping: max(1, (left.totalMicroseconds + 999) / 1000))
        }
        // EINTR, an error or a timeout: look at the clock again.
        var entries = [Poll.Entry(evdev.fd, .readable), Poll.Entry(signals?.descriptor ?? Poll.skipped, .readable)]
        guard let n = try? Poll.wait(&entries, timeoutMilliseconds: timeoutMs), n > 0 else { continue }
        if signals?.next() != nil {
            eprint("gestured record: stopped; the recording is complete")
            return 0
        }
        guard !entries[0].returned.isEmpty else { continue }
        let result = evdev.readAvailable()
        var text = ""
        for var e in result.events {
            if origin == nil { origin = e.time }
            e.time = .zero + (e.time - origin!)
            text += EvemuWriter.eventLine(e)
        }
        guard writeRecording(fd, text) else { return 1 }
        switch result.status {
        case .drained, .more: continue
        case .deviceGone, .ended:
            eprint("gestured record: the device was unplugged; the recording is complete")
            return 0
        case .failed(let error):
            eprint("gestured record: read failed: \(error)")
            return 1
        }
    }
}

/// Resolves a DEVICE argument (node path or name) or picks the only touch device.
func chooseDevice(_ wanted: String?, command: String = "gestured record") -> String? {
    if let wanted, wanted.hasPrefix("/") { return wanted }
    let monitor: DeviceMonitor
    do { monitor = try DeviceMonitor() } catch {
        eprint("\(command): cannot list input devices: \(error)")
        return nil
    }
    var candidates: [(node: String, name: String)] = []
    for case .added(let dev) in monitor.enumerate() {
        let name = (try? EvdevDevice(path: dev.node))?.description.name ?? dev.name ?? "?"
        candidates.append((dev.node, name))
    }
    if let wanted {
        if let hit = candidates.first(where: { $0.name == wanted }) { return hit.node }
        eprint("\(command): no touch device named '\(wanted)'")
    } else if candidates.count == 1 {
        return candidates[0].node
    } else if candidates.isEmpty {
        eprint("\(command): no touchscreen or touchpad found; name a node, e.g. \(command) /dev/input/event5")
        return nil
    } else {
        eprint("\(command): several touch devices; pick one:")
    }
    for c in candidates { eprint("  \(c.node)  \(TextEscaping.escaped(c.name))") }
    return nil
}

/// Writes recording text; says why when the write fails.
private func writeRecording(_ fd: FileDescriptor, _ text: String) -> Bool {
    do { try fd.writeAll(Array(text.utf8)) } catch {
        eprint("gestured record: write failed: \(error)")
        return false
    }
    return true
}
