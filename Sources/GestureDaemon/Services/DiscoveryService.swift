import GestureConfig
import GestureCore
import LinuxInput
import LinuxSystem

/// Real devices: udev (or inotify on /dev/input) reports nodes; each touch device the plan does
/// not ignore is opened as an `EvdevDevice` and handed to the sessions (exclusive ones get their
/// grab and clone there); removals end their session.
final class DiscoveryService: DaemonService {
    let name = "discovery"
    private let loop: EventLoop
    private let log: Logger
    private let sessions: DeviceSessions
    private var monitor: DeviceMonitor?

    init(loop: EventLoop, log: Logger, sessions: DeviceSessions) {
        self.loop = loop; self.log = log; self.sessions = sessions
    }

    /// A monitor that cannot start is logged, not fatal: `--replay` sources still work.
    func start() throws(DaemonError) {
        do {
            let m = try DeviceMonitor()
            monitor = m
            log.info("devices: discovery through \(m.mode == .udev ? "udev (enumerate + monitor)" : "inotify on \(m.inputDirectory) (udevd is not running)")")
            loop.add(FileDescriptor(rawValue: m.fd), priority: .first) { [unowned self] _ in self.apply(m.drain()) }
            apply(m.enumerate())
        } catch {
            log.error("devices: cannot watch for devices: \(error.description); only --replay sources will work")
        }
    }

    func stop() {
        guard let m = monitor else { return }
        loop.remove(FileDescriptor(rawValue: m.fd))
        monitor = nil
    }

    private func apply(_ changes: [DeviceChange]) {
        for change in changes {
            switch change {
            case .added(let d): open(d)
            case .removed(let node):
                if let s = sessions.session(node: node) { sessions.end(s, reason: "removed") }
            case .ignored(let node, let reason): log.debug("devices: \(node) ignored: \(reason)")
            case .unavailable(let node, let error): log.warning("devices: \(node): \(error.description)")
            }
        }
    }

    private func open(_ d: DiscoveredDevice) {
        // An open node again: udev changed it (a new calibration matrix or output).
        if let open = sessions.session(node: d.node) { return sessions.udevChanged(open, d) }
        let source: EvdevDevice
        do { source = try EvdevDevice(path: d.node) } catch {
            log.warning("devices: cannot open \(d.node): \(error.description)")
            return
        }
        if VirtualDeviceMark.isGestureds(phys: source.phys) {
            // udev's view can be stale (a late event for a device already gone): the node opened
            // is what counts, and gestured never reads its own devices.
            log.info("devices: \(d.node) is \(VirtualDeviceMark.ignoredReason(source.description.name)); not opened")
            source.close()
            return
        }
        let settings = sessions.plan.device(source.description).settings
        if settings.ignore {
            log.info("devices: \(d.node) '\(TextEscaping.escaped(source.description.name))' ignored by the config")
            source.close()
            return
        }
        let s = sessions.add(source, discovered: d)
        if settings.exclusive { sessions.startExclusive(s, settings: settings) }
    }
}
