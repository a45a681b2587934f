// Every C call of LinuxInput goes through this file: libevdev, libevdev-uinput, libudev and the
// evdev records read from a device's fd (open, read, write, close and inotify go through LinuxSystem). Callers elsewhere
// in the module see Swift types, optional results and SystemError values, never a C pointer they
// must free.
import CLibevdev
import CLibudev
import GestureCore
import LinuxSystem

enum CInput {
    // MARK: system calls

    /// open(2) for reading, non-blocking, close-on-exec.
    static func openReadOnly(_ path: String) -> Result<Int32, SystemError> {
        Result { () throws(SystemError) in try FileDescriptor.open(path, .readOnlyNonBlocking).rawValue }
    }
    static func close(_ fd: Int32) { FileDescriptor(rawValue: fd).close() }
    static func exists(_ path: String) -> Bool { FileSystem.exists(path) }

    // MARK: libevdev

    /// libevdev_new_from_fd; the handle or the error.
    static func evdevNew(fd: Int32) -> Result<OpaquePointer, InputError> {
        var dev: OpaquePointer?
        let rc = libevdev_new_from_fd(fd, &dev)
        guard rc == 0, let dev else { return .failure(InputError(operation: "libevdev_new_from_fd", error: SystemError(negated: rc))) }
        return .success(dev)
    }
    static func evdevFree(_ dev: OpaquePointer) { libevdev_free(dev) }
    static func evdevSetMonotonic(_ dev: OpaquePointer) -> Int32 { libevdev_set_clock_id(dev, MonotonicClock.clockID) }

    /// Builds the DeviceDescription of an open libevdev handle (or one made by `evdevNew()`).
    static func evdevDescription(_ dev: OpaquePointer) -> DeviceDescription {
        var properties = Set<UInt16>()
        for p in 0...UInt32(InputProperty.max) where libevdev_has_property(dev, p) == 1 { properties.insert(UInt16(p)) }
        var codes: [UInt16: Set<UInt16>] = [:]
        var absInfo: [UInt16: AbsInfo] = [:]
        for type in 0...UInt32(EventType.max) where libevdev_has_event_type(dev, type) == 1 {
            var set = Set<UInt16>()
            let max = libevdev_event_type_get_max(type)
            if max >= 0 {
                for code in 0...UInt32(max) where libevdev_has_event_code(dev, type, code) == 1 {
                    set.insert(UInt16(code))
                    if type == UInt32(EventType.abs), let a = libevdev_get_abs_info(dev, code) {
                        absInfo[UInt16(code)] = AbsInfo(value: a.pointee.value, minimum: a.pointee.minimum,
                                                        maximum: a.pointee.maximum, fuzz: a.pointee.fuzz,
                                                        flat: a.pointee.flat, resolution: a.pointee.resolution)
                    }
                }
            }
            codes[UInt16(type)] = set
        }
        let name = libevdev_get_name(dev).map { String(cString: $0) } ?? ""
        return DeviceDescription(name: name, bustype: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(dev)),
                                 vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(dev)),
                                 product: UInt16(truncatingIfNeeded: libevdev_get_id_product(dev)),
                                 version: UInt16(truncatingIfNeeded: libevdev_get_id_version(dev)),
                                 properties: properties, codes: codes, absInfo: absInfo)
    }

    /// Slots whose ABS_MT_TRACKING_ID is ≥ 0 right now.
    /// The device's state now, from a libevdev handle made for the purpose on `fd` (its ioctls read
    /// every axis, MT slot and key; the handle is freed before returning). Slots only for a
    /// protocol-B device. EvdevDevice uses it after SYN_DROPPED: its own handle never sees the
    /// events, so what that one holds is the state at open.
    static func evdevQueryState(fd: Int32, _ d: DeviceDescription) -> Result<EvdevState, InputError> {
        switch evdevNew(fd: fd) {
        case .failure(let e): return .failure(e)
        case .success(let dev):
            defer { libevdev_free(dev) }
            return .success(evdevState(dev, d))
        }
    }

    /// The whole state a libevdev handle holds (no slots on a device without protocol-B slots):
    /// at open, the state the decoder starts from; on a fresh handle, the state now.
    static func evdevState(_ dev: OpaquePointer, _ d: DeviceDescription) -> EvdevState {
        let n = Int(max(0, libevdev_get_num_slots(dev)))
        var state = EvdevState(slotCount: n)
        for s in 0..<n {
            for code in EvdevState.slotCodes where d.hasAxis(code) {
                state.set(slot: s, code: code, libevdev_get_slot_value(dev, UInt32(s), UInt32(code)))
            }
        }
        if n > 0 { state.setCurrentSlot(Int(libevdev_get_current_slot(dev))) }
        for key in d.keys { state.setKey(key, libevdev_get_event_value(dev, UInt32(EventType.key), UInt32(key))) }
        for axis in d.codes[EventType.abs] ?? [] where axis != AbsCode.mtSlot && !EvdevState.slotCodes.contains(axis) {
            state.setAxis(axis, libevdev_get_event_value(dev, UInt32(EventType.abs), UInt32(axis)))
        }
        return state
    }

    /// EVIOCGRAB through libevdev: 0 or a negative errno (-EBUSY: another process holds it).
    static func evdevGrab(_ dev: OpaquePointer, _ grab: Bool) -> Int32 {
        libevdev_grab(dev, grab ? LIBEVDEV_GRAB : LIBEVDEV_UNGRAB)
    }

    static func evdevPhys(_ dev: OpaquePointer) -> String? { libevdev_get_phys(dev).map { String(cString: $0) } }

    /// libevdev's own key name table: the EV_KEY code of `KEY_…`/`BTN_…`, or nil.
    static func keyCode(named name: String) -> UInt16? {
        let c = libevdev_event_code_from_name(UInt32(EventType.key), name)
        return c >= 0 ? UInt16(c) : nil
    }
    static func keyName(_ code: UInt16) -> String? {
        libevdev_event_code_get_name(UInt32(EventType.key), UInt32(code)).map { String(cString: $0) }
    }
    static var keyMax: UInt16 { UInt16(libevdev_event_type_get_max(UInt32(EventType.key))) }

    static func evdevValue(_ dev: OpaquePointer, type: UInt16, code: UInt16) -> Int32 {
        libevdev_get_event_value(dev, UInt32(type), UInt32(code))
    }

    // MARK: libevdev-uinput

    /// Creates a uinput device with the capabilities of `d` (named `name`). Returns the handle and
    /// the libevdev template (to free after destroying the device) or an error.
    /// With `phys`, /dev/uinput is opened here (UI_SET_PHYS needs the fd before creation) and the
    /// returned `fd` must be closed after `uinputDestroy`; otherwise libevdev manages it (-1).
    static func uinputCreate(_ d: DeviceDescription, name: String, phys: String? = nil) -> Result<(uinput: OpaquePointer, template: OpaquePointer, fd: Int32), InputError> {
        guard let dev = libevdev_new() else { return .failure(InputError(operation: "libevdev_new", error: .outOfMemory)) }
        libevdev_set_name(dev, name)
        if let phys { libevdev_set_phys(dev, phys) }
        libevdev_set_id_bustype(dev, Int32(d.bustype)); libevdev_set_id_vendor(dev, Int32(d.vendor))
        libevdev_set_id_product(dev, Int32(d.product)); libevdev_set_id_version(dev, Int32(d.version))
        for p in d.properties { _ = libevdev_enable_property(dev, UInt32(p)) }
        for (type, codes) in d.codes.sorted(by: { $0.key < $1.key }) {
            // EV_REP needs delay/period data and is synthesized by the kernel; skip it.
            if type == EventType.rep { continue }
            _ = libevdev_enable_event_type(dev, UInt32(type))
            for code in codes.sorted() {
                if type == EventType.abs {
                    let a = d.absInfo[code] ?? AbsInfo(minimum: 0, maximum: 0)
                    var info = input_absinfo(value: a.value, minimum: a.minimum, maximum: a.maximum,
                                             fuzz: a.fuzz, flat: a.flat, resolution: a.resolution)
                    _ = libevdev_enable_event_code(dev, UInt32(type), UInt32(code), &info)
                } else {
                    _ = libevdev_enable_event_code(dev, UInt32(type), UInt32(code), nil)
                }
            }
        }
        var fd = LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue
        if let phys {
            do { fd = try FileDescriptor.open("/dev/uinput", .readWrite).rawValue } catch {
                libevdev_free(dev)
                return .failure(InputError(operation: "open", path: "/dev/uinput", error: error))
            }
            if gestured_uinput_set_phys(fd, phys) < 0 {
                let e = SystemError.last
                FileDescriptor(rawValue: fd).close(); libevdev_free(dev)
                return .failure(InputError(operation: "ioctl(UI_SET_PHYS)", path: "/dev/uinput", error: e))
            }
        }
        var uidev: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(dev, fd, &uidev)
        guard rc == 0, let uidev else {
            libevdev_free(dev)
            if phys != nil { FileDescriptor(rawValue: fd).close() }
            return .failure(InputError(operation: "libevdev_uinput_create_from_device", path: "/dev/uinput", error: SystemError(negated: rc)))
        }
        return .success((uidev, dev, phys != nil ? fd : -1))
    }
    static func uinputDevnode(_ u: OpaquePointer) -> String? { libevdev_uinput_get_devnode(u).map { String(cString: $0) } }
    static func uinputSyspath(_ u: OpaquePointer) -> String? { libevdev_uinput_get_syspath(u).map { String(cString: $0) } }
    static func uinputWrite(_ u: OpaquePointer, type: UInt16, code: UInt16, value: Int32) -> Int32 {
        libevdev_uinput_write_event(u, UInt32(type), UInt32(code), value)
    }
    static func uinputDestroy(_ u: OpaquePointer, template: OpaquePointer, fd: Int32 = -1) {
        libevdev_uinput_destroy(u); libevdev_free(template)
        if fd >= 0 { FileDescriptor(rawValue: fd).close() }
    }

    // MARK: libudev

    static func udevNew() -> OpaquePointer? { udev_new() }
    static func udevUnref(_ u: OpaquePointer) { _ = udev_unref(u) }

    /// A netlink monitor on subsystem "input", receiving. Returns it or an error.
    static func udevMonitorInput(_ u: OpaquePointer) -> Result<OpaquePointer, InputError> {
        guard let mon = udev_monitor_new_from_netlink(u, "udev") else {
            let e = SystemError.last
            return .failure(InputError(operation: "udev_monitor_new_from_netlink", error: e.code == 0 ? .outOfMemory : e))
        }
        var rc = udev_monitor_filter_add_match_subsystem_devtype(mon, "input", nil)
        if rc >= 0 { rc = udev_monitor_enable_receiving(mon) }
        guard rc >= 0 else {
            _ = udev_monitor_unref(mon)
            return .failure(InputError(operation: "udev_monitor_enable_receiving", error: SystemError(negated: rc)))
        }
        return .success(mon)
    }
    static func udevMonitorFd(_ m: OpaquePointer) -> Int32 { udev_monitor_get_fd(m) }
    static func udevMonitorUnref(_ m: OpaquePointer) { _ = udev_monitor_unref(m) }

    /// What we need of a udev device, copied out so no udev_device outlives the call.
    struct UdevInfo {
        var action: String?
        var sysname: String
        var syspath: String
        var devnode: String?
        var initialized: Bool
        var properties: [String: String]
        var name: String?
        /// The input device's `phys` (gestured's own virtual devices carry a mark there).
        var phys: String?
    }

    private static let interestingProperties = [
        "ID_INPUT", "ID_INPUT_TOUCHSCREEN", "ID_INPUT_TOUCHPAD", "ID_INPUT_TABLET", "ID_INPUT_KEYBOARD",
        "ID_INPUT_KEY", "ID_INPUT_MOUSE", "ID_INPUT_JOYSTICK", "ID_INPUT_POINTINGSTICK", "ID_INPUT_ACCELEROMETER",
        "ID_INPUT_SWITCH",
        // Touch geometry libinput takes from udev: the panel's calibration, and the output it shows on.
        "LIBINPUT_CALIBRATION_MATRIX", "WL_OUTPUT",
    ]

    private static func info(_ d: OpaquePointer) -> UdevInfo {
        var props: [String: String] = [:]
        for key in interestingProperties {
            if let v = udev_device_get_property_value(d, key) { props[key] = String(cString: v) }
        }
        var name: String?, phys: String?
        if let parent = udev_device_get_parent_with_subsystem_devtype(d, "input", nil) {
            name = udev_device_get_sysattr_value(parent, "name").map { String(cString: $0) }
            phys = udev_device_get_sysattr_value(parent, "phys").map { String(cString: $0) }
        }
        return UdevInfo(action: udev_device_get_action(d).map { String(cString: $0) },
                        sysname: udev_device_get_sysname(d).map { String(cString: $0) } ?? "",
                        syspath: udev_device_get_syspath(d).map { String(cString: $0) } ?? "",
                        devnode: udev_device_get_devnode(d).map { String(cString: $0) },
                        initialized: udev_device_get_is_initialized(d) == 1,
                        properties: props, name: name, phys: phys)
    }

    /// Receives one device from the monitor (nil when nothing is queued).
    static func udevMonitorReceive(_ m: OpaquePointer) -> UdevInfo? {
        guard let d = udev_monitor_receive_device(m) else { return nil }
        defer { _ = udev_device_unref(d) }
        return info(d)
    }

    /// Enumerates the devices of subsystem "input".
    static func udevEnumerateInput(_ u: OpaquePointer) -> Result<[UdevInfo], InputError> {
        guard let e = udev_enumerate_new(u) else { return .failure(InputError(operation: "udev_enumerate_new", error: .outOfMemory)) }
        defer { _ = udev_enumerate_unref(e) }
        var rc = udev_enumerate_add_match_subsystem(e, "input")
        if rc >= 0 { rc = udev_enumerate_scan_devices(e) }
        guard rc >= 0 else { return .failure(InputError(operation: "udev_enumerate_scan_devices", error: SystemError(negated: rc))) }
        var out: [UdevInfo] = []
        var entry = udev_enumerate_get_list_entry(e)
        while let current = entry {
            if let path = udev_list_entry_get_name(current), let d = udev_device_new_from_syspath(u, path) {
                out.append(info(d))
                _ = udev_device_unref(d)
            }
            entry = udev_list_entry_get_next(current)
        }
        return .success(out)
    }

}

// MARK: - struct input_event

extension CInput {
    static let inputEventStride = MemoryLayout<input_event>.stride
}

extension EvdevDevice {
    /// One read(2) of struct input_event records straight from the fd into `records` (the event
    /// stream does not go through libevdev: docs/ARCHITECTURE.md, "Reading evdev"; no library
    /// call per event): puts the events it returned after those already in `events` (or in place
    /// of them, with `replacing`) and says how many (`readCapacity`: the buffer filled, more may
    /// be queued; fewer: the kernel had no more complete frames). `.wouldBlock`: nothing was
    /// queued (`events` is then emptied too when `replacing`). `count` is the records read;
    /// those `readMask` leaves out are not put in `events`. The records become `InputEvent`s
    /// in `converted` and reach the caller's array in one copy: not an `append` per event (a
    /// capacity and uniqueness check each), and no emptying first. `dropped`: the index in
    /// `events` of the first SYN_DROPPED among them (noted while converting, looked for after).
    func readEvents(appendingTo events: inout [InputEvent], replacing: Bool = false) -> Result<(count: Int, dropped: Int?), SystemError> {
        let bytes: Int
        do { bytes = try fd.read(into: records) } catch {
            if replacing { events.removeAll(keepingCapacity: true) }
            return .failure(error)
        }
        let count = bytes / CInput.inputEventStride
        let raw = records.bindMemory(to: input_event.self)
        // Whether a SYN_DROPPED is among them: its index is looked for only then.
        var sawDropped = false
        // What `readMask` leaves out is not converted: only the type and code of a skipped
        // record are read.
        let mask = readMask
        let first = raw.baseAddress!, out = converted.baseAddress!
        var kept = 0
        for i in 0..<count {
            let r = first + i
            let type = r.pointee.type, code = r.pointee.code
            if mask.skips(type: type, code: code) { continue }
            // The kernel's timeval: seconds since boot, microseconds below a million.
            let time = Instant(microseconds: Int64(r.pointee.time.tv_sec) &* 1_000_000 &+ Int64(r.pointee.time.tv_usec))
            (out + kept).initialize(to: InputEvent(time: time, type: type, code: code, value: r.pointee.value))
            kept &+= 1
            if type == EventType.syn && code == SynCode.dropped { sawDropped = true }
        }
        let read = UnsafeBufferPointer(start: converted.baseAddress, count: kept)
        let start = replacing ? 0 : events.count
        if replacing { events.replaceSubrange(events.indices, with: read) } else { events.append(contentsOf: read) }
        let dropped = !sawDropped ? nil
            : read.firstIndex(where: { $0.type == EventType.syn && $0.code == SynCode.dropped }).map { start + $0 }
        return .success((count, dropped))
    }
}

extension UInputDevice {
    /// Writes whole frames in one write(2) on the uinput fd (the kernel stamps them). 0 or -errno.
    func writeRecords(_ events: [InputEvent]) -> Int32 {
        let fd = FileDescriptor(rawValue: libevdev_uinput_get_fd(uinput))
        var raw = [input_event](repeating: input_event(), count: events.count)
        for (i, e) in events.enumerated() { raw[i].type = e.type; raw[i].code = e.code; raw[i].value = e.value }
        let size = MemoryLayout<input_event>.stride * raw.count
        var done = 0
        while done < size {
            let written = raw.withUnsafeBytes { bytes in
                Result { () throws(SystemError) in try fd.write(UnsafeRawBufferPointer(rebasing: bytes[done..<size])) }
            }
            switch written {
            case .success(let n): done += n
            case .failure(let error): return -error.code
            }
        }
        return 0
    }
}
