import GestureCore

/// How gestured's own uinput devices are told apart from real ones: by their `phys`, which the
/// kernel shows in sysfs (`phys` of the input device) and EVIOCGPHYS, not by their name alone
/// (a name can be anything; a clone of a real device carries the real name).
public enum VirtualDeviceMark {
    /// The `phys` prefix every device gestured makes carries.
    public static let physPrefix = "gestured-virtual"
    /// Bus, vendor and product of the keyboard and pointers (BUS_VIRTUAL; "ge" as the vendor).
    public static let bustype: UInt16 = 0x06, vendor: UInt16 = 0x6765

    public static func isGestureds(phys: String?) -> Bool { phys?.hasPrefix(physPrefix) == true }

    public static func ignoredReason(_ name: String?) -> String {
        "gestured's own virtual device (phys \(physPrefix)…)\(name.map { ", \"\($0)\"" } ?? "")"
    }
}

/// libevdev's key name table, through the LinuxInput bridge (KEY_… and BTN_… names).
public enum KernelKeyNames {
    public static func code(named name: String) -> UInt16? { CInput.keyCode(named: name) }
    public static func name(of code: UInt16) -> String? { CInput.keyName(code) }
    public static var maximumCode: UInt16 { CInput.keyMax }
}

/// A uinput device that sends key (EV_KEY) events and remembers what it holds down, so that
/// `releaseAll()` (called on stop, reload and from `deinit`) lifts every key and button still
/// held. If the process dies without that (kill -9), closing /dev/uinput unregisters the device
/// and the kernel's input core sends a release for every key still down
/// (input_disconnect_device → input_dev_release_keys); the kernel suite checks it.
public final class VirtualKeyDevice {
    public let device: UInputDevice
    /// EV_KEY codes the device declares.
    public let keys: Set<UInt16>
    /// Codes down right now, in press order.
    public private(set) var held: [UInt16] = []

    /// - Parameters:
    ///   - role: a word for the name and phys (`keyboard`, `pointer`, `touch-pointer`).
    ///   - absolute: ABS_X/ABS_Y axes (an absolute pointer), copied from a touchscreen.
    ///   - relative: REL_X/REL_Y (never moved), so udev and libinput take a button-only device
    ///     for the mouse it is.
    public init(role: String, product: UInt16, keys: Set<UInt16>, absolute: (x: AbsInfo, y: AbsInfo)? = nil,
                relative: Bool = false, name: String? = nil) throws(InputError) {
        var codes: [UInt16: Set<UInt16>] = [EventType.syn: [SynCode.report], EventType.key: keys]
        if relative { codes[EventType.rel] = [0, 1] }
        var absInfo: [UInt16: AbsInfo] = [:]
        if let absolute {
            codes[EventType.abs] = [AbsCode.x, AbsCode.y]
            absInfo = [AbsCode.x: absolute.x, AbsCode.y: absolute.y]
        }
        let d = DeviceDescription(name: name ?? "gestured virtual \(role)", bustype: VirtualDeviceMark.bustype,
                                  vendor: VirtualDeviceMark.vendor, product: product, version: 1,
                                  codes: codes, absInfo: absInfo)
        device = try UInputDevice(description: d, phys: "\(VirtualDeviceMark.physPrefix)/\(role)")
        self.keys = keys
    }

    deinit { releaseAll() }

    public var devnode: String? { device.devnode }

    /// Writes key events, each followed by SYN_REPORT (one frame per key change, as a keyboard does).
    public func send(_ events: [(code: UInt16, value: Int32)]) throws(InputError) {
        for e in events where keys.contains(e.code) {
            try device.write(type: EventType.key, code: e.code, value: e.value)
            if e.value != 0 { if !held.contains(e.code) { held.append(e.code) } } else { held.removeAll { $0 == e.code } }
            try device.write(type: EventType.syn, code: SynCode.report, value: 0)
        }
    }

    /// Moves an absolute pointer to (x, y) in device units, in one frame.
    public func move(x: Int32, y: Int32) throws(InputError) {
        try device.write(type: EventType.abs, code: AbsCode.x, value: x)
        try device.write(type: EventType.abs, code: AbsCode.y, value: y)
        try device.write(type: EventType.syn, code: SynCode.report, value: 0)
    }

    /// Releases everything held, most recent first. Errors are ignored: this runs while stopping.
    public func releaseAll() {
        for code in held.reversed() {
            try? device.write(type: EventType.key, code: code, value: 0)
            try? device.write(type: EventType.syn, code: SynCode.report, value: 0)
        }
        held.removeAll()
    }
}
