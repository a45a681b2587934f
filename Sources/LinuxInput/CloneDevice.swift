import GestureCore

/// The uinput twin of an exclusive device: same name, bus, vendor, product, version, properties,
/// axes (range, resolution, fuzz), keys and slots — so udev's hwdb and the compositor's libinput
/// give it the same quirks and settings — carrying gestured's mark in `phys`
/// (`gestured-virtual/clone`) so that gestured's own discovery never opens it.
/// A touchscreen clone also gets ABS_MT_TOOL_TYPE (finger…palm) when the real one lacks it: the
/// daemon ends a claimed touch as a palm, which libinput turns into a touch cancel.
/// `deinit` destroys it; if the process dies, closing /dev/uinput does.
public final class CloneDevice {
    public static let role = "clone"
    public let device: UInputDevice
    /// What the clone declares (the real description, plus ABS_MT_TOOL_TYPE where added).
    public let description: DeviceDescription

    public init(of real: DeviceDescription, addPalmTool: Bool) throws(InputError) {
        var d = real
        if addPalmTool && !d.hasAxis(AbsCode.mtToolType) {
            d.codes[EventType.abs, default: []].insert(AbsCode.mtToolType)
            d.absInfo[AbsCode.mtToolType] = AbsInfo(minimum: 0, maximum: MTToolType.palm)
        }
        description = d
        device = try UInputDevice(description: d, name: real.name, phys: "\(VirtualDeviceMark.physPrefix)/\(CloneDevice.role)")
    }

    public var devnode: String? { device.devnode }

    /// The clone's state right after creation: no contact, no key, axes at their absinfo values.
    public func initialState(slotCount: Int) -> EvdevState {
        var s = EvdevState(slotCount: slotCount)
        for (code, info) in description.absInfo where code != AbsCode.mtSlot && !EvdevState.slotCodes.contains(code) {
            s.setAxis(code, info.value)
        }
        return s
    }
}
