import GestureCore
import LinuxSystem

/// A touch device found by the monitor.
public struct DiscoveredDevice: Hashable, Sendable {
    /// /dev/input/eventN.
    public var node: String
    public var kind: DeviceKind
    /// The device's /sys path (udev mode only).
    public var syspath: String?
    /// The kernel's device name when known.
    public var name: String?
    /// udev's `LIBINPUT_CALIBRATION_MATRIX` (six numbers, libinput's layout), as written.
    public var calibrationMatrix: String?
    /// udev's `WL_OUTPUT`: the output (connector name) the touchscreen is mapped to.
    public var output: String?

    public init(node: String, kind: DeviceKind, syspath: String? = nil, name: String? = nil,
                calibrationMatrix: String? = nil, output: String? = nil) {
        self.node = node; self.kind = kind; self.syspath = syspath; self.name = name
        self.calibrationMatrix = calibrationMatrix; self.output = output
    }
}

/// What changed in /dev/input.
public enum DeviceChange: Hashable, Sendable {
    /// A touchscreen or touchpad appeared (or was there at enumeration).
    case added(DiscoveredDevice)
    /// A device reported by `.added` went away.
    case removed(node: String)
    /// An event node that is not a touch device (keyboard, mouse…): log at debug level.
    case ignored(node: String, reason: String)
    /// A node that could not be opened to classify it (inotify mode), e.g. EACCES.
    case unavailable(node: String, error: InputError)
}

/// Finds touchscreens and touchpads and follows hotplug.
///
/// udev mode (udevd running: /run/udev/control exists): a netlink monitor on subsystem "input" is
/// created and enabled *before* enumerating, so nothing added in between is lost; duplicates are
/// removed; `event*` nodes with ID_INPUT_TOUCHSCREEN or ID_INPUT_TOUCHPAD are kept.
/// inotify mode (no udevd: containers, initramfs): inotify on /dev/input (IN_CREATE, IN_DELETE,
/// IN_ATTRIB for permission changes), each new node opened once and classified from its
/// capabilities the way udev's input_id does (`DeviceDescription.kind`).
///
/// Put `fd` in the event loop; call `enumerate()` once, then `drain()` on each wakeup.
public final class DeviceMonitor {
    public enum Mode: String, Hashable, Sendable {
        case udev
        case inotify
    }

    /// The active discovery mode (log it).
    public let mode: Mode
    /// Readable when changes are queued.
    public let fd: Int32
    /// The directory watched in inotify mode (default /dev/input).
    public let inputDirectory: String

    private var udev: OpaquePointer?
    private var monitor: OpaquePointer?
    private var inotify: Inotify?
    /// Nodes reported as `.added` and not yet removed.
    private(set) public var known: [String: DiscoveredDevice] = [:]
    /// inotify mode: nodes that could not be opened yet (retried on IN_ATTRIB).
    private var unavailable: Set<String> = []

    /// True when udevd is running (its control socket exists).
    public static var udevdRunning: Bool { CInput.exists("/run/udev/control") }

    /// - Parameter mode: nil chooses udev when udevd is running, inotify otherwise.
    public init(mode: Mode? = nil, inputDirectory: String = "/dev/input") throws(InputError) {
        let mode = mode ?? (DeviceMonitor.udevdRunning ? .udev : .inotify)
        self.mode = mode
        self.inputDirectory = inputDirectory
        switch mode {
        case .udev:
            guard let u = CInput.udevNew() else { throw InputError(operation: "udev_new", error: .outOfMemory) }
            switch CInput.udevMonitorInput(u) {
            case .success(let m):
                udev = u; monitor = m; fd = CInput.udevMonitorFd(m)
            case .failure(let e):
                CInput.udevUnref(u)
                throw e
            }
        case .inotify:
            let watcher: Inotify
            do { watcher = try Inotify() } catch { throw InputError(operation: "inotify_init1", error: error) }
            do { try watcher.watch(inputDirectory, for: [.created, .deleted, .attributesChanged, .movedIn, .movedOut]) } catch {
                watcher.descriptor.close()
                throw InputError(operation: "inotify_add_watch", path: inputDirectory, error: error)
            }
            inotify = watcher
            fd = watcher.descriptor.rawValue
        }
    }

    deinit {
        if let monitor { CInput.udevMonitorUnref(monitor) }
        if let udev { CInput.udevUnref(udev) }
        inotify?.descriptor.close()
    }

    /// The devices present now (call once, after init: the monitor is already listening).
    public func enumerate() -> [DeviceChange] {
        switch mode {
        case .udev:
            guard let udev else { return [] }
            switch CInput.udevEnumerateInput(udev) {
            case .success(let devices):
                // Not yet processed by udevd: its "add" will come through the monitor.
                return devices.filter(\.initialized).flatMap { consider($0, action: "add") }
            case .failure(let e):
                return [.unavailable(node: "udev enumerate", error: e)]
            }
        case .inotify:
            let names = (FileContents.names(inDirectory: inputDirectory) ?? []).filter { $0.hasPrefix("event") }
                .sorted { (Int($0.dropFirst(5)) ?? 0) < (Int($1.dropFirst(5)) ?? 0) }
            return names.compactMap { probe(inputDirectory + "/" + $0) }
        }
    }

    /// Everything that changed since the last call (empty when nothing is queued).
    public func drain() -> [DeviceChange] {
        var changes: [DeviceChange] = []
        switch mode {
        case .udev:
            guard let monitor else { return [] }
            while let info = CInput.udevMonitorReceive(monitor) {
                changes += consider(info, action: info.action ?? "add")
            }
        case .inotify:
            for event in inotify?.read() ?? [] {
                let name = event.name
                if event.events.contains(.queueOverflow) {
                    changes += rescan()
                    continue
                }
                guard name.hasPrefix("event") else { continue }
                let node = inputDirectory + "/" + name
                if !event.events.isDisjoint(with: [.deleted, .movedOut]) {
                    unavailable.remove(node)
                    if known.removeValue(forKey: node) != nil { changes.append(.removed(node: node)) }
                } else if !event.events.isDisjoint(with: [.created, .movedIn]) {
                    if let c = probe(node) { changes.append(c) }
                } else if event.events.contains(.attributesChanged), unavailable.contains(node) {
                    if let c = probe(node) { changes.append(c) }
                }
            }
        }
        return changes
    }

    // MARK: udev

    /// What one udev event changes. udevd delivers the events of unrelated devices in any order,
    /// so when a device is unplugged and the next one gets its node, the old device's "remove"
    /// may come after the new one's "add". A node is therefore matched with its syspath: an "add"
    /// at a node known for another syspath removes the old device first (it is gone, or its node
    /// would not be free), and a "remove" for a syspath no longer at that node changes nothing.
    func consider(_ info: CInput.UdevInfo, action: String) -> [DeviceChange] {
        guard info.sysname.hasPrefix("event"), let node = info.devnode else { return [] }
        if action == "remove" {
            guard known[node]?.syspath == info.syspath else { return [] }
            known[node] = nil
            return [.removed(node: node)]
        }
        guard action == "add" || action == "change" || action == "bind" else { return [] }
        // A late event for a device already gone (its sysfs directory too): its phys could not be
        // read, so it would pass for a real touchscreen even when it was one of gestured's own
        // clones, and its node may already belong to the next device, whose own event follows.
        if info.phys == nil && !CInput.exists(info.syspath) { return [] }
        var changes: [DeviceChange] = []
        if let old = known[node], old.syspath != info.syspath {
            known[node] = nil
            changes.append(.removed(node: node))
        }
        if VirtualDeviceMark.isGestureds(phys: info.phys) {
            return changes + (known[node] != nil ? [] : [.ignored(node: node, reason: VirtualDeviceMark.ignoredReason(info.name))])
        }
        let kind: DeviceKind
        if info.properties["ID_INPUT_TOUCHSCREEN"] == "1" { kind = .touchscreen }
        else if info.properties["ID_INPUT_TOUCHPAD"] == "1" { kind = .touchpad }
        else {
            if known[node] != nil { return changes }
            let tags = info.properties.filter { $0.value == "1" }.keys.sorted().joined(separator: " ")
            return changes + [.ignored(node: node, reason: "not a touchscreen or touchpad (udev: \(tags.isEmpty ? "no ID_INPUT_*" : tags))\(info.name.map { ", \"\($0)\"" } ?? "")")]
        }
        let device = DiscoveredDevice(node: node, kind: kind, syspath: info.syspath, name: info.name,
                                      calibrationMatrix: info.properties["LIBINPUT_CALIBRATION_MATRIX"],
                                      output: info.properties["WL_OUTPUT"])
        if known[node] == device { return changes } // duplicate (enumeration raced the monitor)
        known[node] = device
        return changes + [.added(device)]
    }

    // MARK: inotify

    private func probe(_ node: String) -> DeviceChange? {
        if known[node] != nil { return nil }
        let description: DeviceDescription
        let phys: String?
        do {
            let device = try EvdevDevice(path: node)
            description = device.description; phys = device.phys
        } catch {
            if error.isDeviceGone { return nil }
            let first = unavailable.insert(node).inserted
            return first || !error.isPermissionDenied ? .unavailable(node: node, error: error) : nil
        }
        unavailable.remove(node)
        if VirtualDeviceMark.isGestureds(phys: phys) {
            return .ignored(node: node, reason: VirtualDeviceMark.ignoredReason(description.name))
        }
        let kind = description.kind
        guard kind == .touchscreen || kind == .touchpad else {
            return .ignored(node: node, reason: "not a touchscreen or touchpad (capabilities: \(kind)), \"\(TextEscaping.escaped(description.name))\"")
        }
        let device = DiscoveredDevice(node: node, kind: kind, name: description.name)
        known[node] = device
        return .added(device)
    }

    private func rescan() -> [DeviceChange] {
        let present = Set((FileContents.names(inDirectory: inputDirectory) ?? []).filter { $0.hasPrefix("event") }.map { inputDirectory + "/" + $0 })
        var changes: [DeviceChange] = []
        for node in known.keys.sorted() where !present.contains(node) {
            known.removeValue(forKey: node); changes.append(.removed(node: node))
        }
        for node in present.sorted() { if let c = probe(node) { changes.append(c) } }
        return changes
    }
}
