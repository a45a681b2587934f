// `gestured-uinput watch [udev|inotify]`: LinuxInput's own test driver. Runs a DeviceMonitor and
// an EvdevDevice per touch device in a poll loop and prints one line per change and per read, so
// the kernel suite can check discovery, hotplug, SYN_DROPPED resync and ENODEV below the daemon.
// Each device's events also go through GesturePipeline (decoder + recognizers, deadlines on
// CLOCK_MONOTONIC, the device's state at open), printed as `gesture NODE {json}`: the kernel path
// of the pipeline without the daemon.
import GestureCore
import GestureWire
import LinuxInput
import LinuxSystem

/// `mode`: "udev" or "inotify" (checked by the caller); nil picks as the daemon does.
/// `readMask`: each device's reads leave out what its decoder never reads, as the daemon's do for
/// a shared device (`ReadMask`); each read line then lists the ABS codes it returned.
@MainActor func watchMain(_ modeName: String?, readMask: Bool = false) -> Int32 {
    let mode: DeviceMonitor.Mode? = modeName.flatMap(DeviceMonitor.Mode.init(rawValue:))
    let monitor: DeviceMonitor
    do { monitor = try DeviceMonitor(mode: mode) } catch { say("error: \(error)"); return 1 }
    say("mode \(monitor.mode.rawValue)")
    var devices: [String: EvdevDevice] = [:]
    var pipelines: [String: GesturePipeline] = [:]

    func emit(_ node: String, _ d: DeviceDescription) -> (GesturePipeline.Output) -> Void {
        let device = GestureJSON.DeviceInfo(d)
        return { output in
            switch output {
            case .gesture(let g): say("gesture \(node) \(GestureJSON.encode(g, device: device, origin: .zero))")
            case .diagnostic(let d): say("diagnostic \(node) \(d)")
            case .frame(let f) where f.flags.contains(.resynchronized): say("resync \(node) \(resyncLine(f, d))")
            case .frame: break
            }
        }
    }
    func removePipeline(_ node: String) {
        guard var r = pipelines.removeValue(forKey: node), let dev = devices[node] else { return }
        r.deviceRemoved(at: MonotonicClock.now(), emit(node, dev.description))
    }

    func apply(_ changes: [DeviceChange]) {
        for change in changes {
            switch change {
            case .added(let d):
                do {
                    let dev = try EvdevDevice(path: d.node)
                    if readMask { dev.readMask = ReadMask(dev.description) }
                    devices[d.node] = dev
                    pipelines[d.node] = GesturePipeline(device: dev.description, initialState: dev.initialState)
                    let slots = dev.initialState.activeSlots.map(String.init).joined(separator: ",")
                    say("added \(d.node) \(d.kind) slots=\(dev.description.slotCount) active=[\(slots)] protocol=\(dev.description.contactProtocol.rawValue) name=\(dev.description.name)")
                } catch {
                    say("open-failed \(d.node) \(error)")
                }
            case .removed(let node):
                removePipeline(node)
                devices[node] = nil
                say("removed \(node)")
            case .ignored(let node, let reason):
                say("ignored \(node) \(reason)")
            case .unavailable(let node, let error):
                say("unavailable \(node) \(error)")
            }
        }
    }
    apply(monitor.enumerate())
    say("enumerated")

    while true {
        let nodes = devices.keys.sorted()
        var fds = [Poll.Entry(FileDescriptor(rawValue: monitor.fd), .readable)]
            + nodes.map { Poll.Entry(devices[$0]!.fd, .readable) }
        let deadline = Instant.earliest(pipelines.values.lazy.map(\.nextDeadline))
        let timeout: Int32 = deadline.map { Int32(clamping: max(0, ($0 - MonotonicClock.now()).totalMicroseconds / 1000 + 1)) } ?? -1
        do { try Poll.wait(&fds, timeoutMilliseconds: timeout) } catch {
            if error == .interrupted { continue }
            say("error: poll: \(error)"); return 1
        }
        // Events queued now happened before `now`: read them first, then fire what is overdue.
        let now = MonotonicClock.now()
        if !fds[0].returned.isEmpty { apply(monitor.drain()) }
        for (i, node) in nodes.enumerated() where !fds[i + 1].returned.isEmpty {
            guard let dev = devices[node] else { continue }
            let r = dev.readAvailable()
            let reports = r.events.filter(\.isSynReport).count
            let dropped = r.events.filter { $0.type == EventType.syn && $0.code == SynCode.dropped }.count
            let status: String
            switch r.status {
            case .drained: status = "drained"
            case .more: status = "more"
            case .ended: status = "ended"
            case .deviceGone: status = "gone"
            case .failed(let e): status = "failed(\(e))"
            }
            let monotonic = r.events.last.map { "\($0.time)" } ?? "-"
            let codes = readMask ? " abs=" + Set(r.events.filter { $0.type == EventType.abs }.map(\.code)).sorted().map { String($0, radix: 16) }.joined(separator: ",") : ""
            say("read \(node) events=\(r.events.count) reports=\(reports) dropped=\(dropped) resyncs=\(r.resyncCount) status=\(status) last=\(monotonic)\(codes)")
            let out = emit(node, dev.description)
            for e in r.events { pipelines[node]?.feed(e, out) }
            if r.status == .deviceGone {
                removePipeline(node)
                devices[node] = nil
                say("gone \(node)")
            }
        }
        for node in pipelines.keys.sorted() {
            guard let dev = devices[node] else { continue }
            pipelines[node]!.advance(to: now, emit(node, dev.description))
        }
    }
}

/// A resynchronized frame's touches as `SLOT:PHASE:X,Y` in device units (the decoder's
/// millimetres taken back through the device's scale), space-separated; `none` without touches.
func resyncLine(_ f: TouchFrame, _ d: DeviceDescription) -> String {
    guard let axes = d.positionAxes, !f.touches.isEmpty else { return "none" }
    let upm = d.unitsPerMillimeter
    return f.touches.map { t in
        let x = Int((t.x * upm.x + Double(min(axes.x.minimum, axes.x.maximum))).rounded())
        let y = Int((t.y * upm.y + Double(min(axes.y.minimum, axes.y.maximum))).rounded())
        return "\(t.slot):\(t.phase.rawValue):\(x),\(y)"
    }.joined(separator: " ")
}
