import GestureCore
import LinuxSystem

/// A virtual input device made through uinput (libevdev_uinput_create_from_device) with the
/// capabilities of a `DeviceDescription` — e.g. the header of a real recording. Used by the kernel
/// tests and the bench to put real-looking devices in /dev/input. `deinit` destroys the device
/// (the kernel then sends the udev "remove").
public final class UInputDevice {
    /// The /dev/input/eventN node the kernel made (nil if libevdev could not find it).
    public let devnode: String?
    /// The /sys/devices/virtual/input/inputN path.
    public let syspath: String?
    public let name: String

    let uinput: OpaquePointer
    private let template: OpaquePointer
    /// /dev/uinput opened here (for `phys`), or -1 when libevdev manages it.
    private let fd: Int32

    /// Needs write access to /dev/uinput (root) and a kernel with uinput.
    /// `phys` sets the device's physical path (VirtualDeviceMark.phys marks gestured's own).
    public init(description: DeviceDescription, name: String? = nil, phys: String? = nil) throws(InputError) {
        let name = name ?? description.name
        switch CInput.uinputCreate(description, name: name, phys: phys) {
        case .success(let (u, t, fd)):
            uinput = u; template = t; self.fd = fd
        case .failure(let e):
            throw e
        }
        self.name = name
        self.devnode = CInput.uinputDevnode(uinput)
        self.syspath = CInput.uinputSyspath(uinput)
    }

    deinit { CInput.uinputDestroy(uinput, template: template, fd: fd) }

    /// Writes one event (its time is ignored: the kernel stamps it).
    public func write(type: UInt16, code: UInt16, value: Int32) throws(InputError) {
        let rc = CInput.uinputWrite(uinput, type: type, code: code, value: value)
        guard rc == 0 else { throw InputError(operation: "libevdev_uinput_write_event", path: devnode, error: SystemError(negated: rc)) }
    }

    /// Writes whole frames (each ending in SYN_REPORT) in one system call.
    public func write(frames events: [InputEvent]) throws(InputError) {
        guard !events.isEmpty else { return }
        let rc = writeRecords(events)
        guard rc == 0 else { throw InputError(operation: "write", path: devnode, error: SystemError(negated: rc)) }
    }

    public func write(_ event: InputEvent) throws(InputError) {
        try write(type: event.type, code: event.code, value: event.value)
    }
}
