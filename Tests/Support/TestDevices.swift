import GestureCore

/// Devices the unit tests share, one per decoding path: protocol B touchscreen and touchpad,
/// protocol A, single-touch. Units are chosen so millimetres are easy to read: 10 units per mm.
public enum TestDevices {
    public static let mtAxes: [UInt16: AbsInfo] = [
        AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9),
        AbsCode.mtTrackingId: AbsInfo(minimum: 0, maximum: 65535),
        // 100 units from the minimum per 10 mm; x 100…1100 = 100 mm, y 0…500 = 50 mm.
        AbsCode.mtPositionX: AbsInfo(minimum: 100, maximum: 1100, resolution: 10),
        AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 500, resolution: 10),
        AbsCode.mtPressure: AbsInfo(minimum: 0, maximum: 255),
        AbsCode.mtToolType: AbsInfo(minimum: 0, maximum: 2),
    ]

    /// A protocol-B touchscreen with 10 slots and BTN_TOUCH.
    public static let screen = DeviceDescription(
        name: "test screen", properties: [InputProperty.direct],
        codes: [EventType.key: [KeyCode.btnTouch]], absInfo: mtAxes)

    /// A protocol-B touchpad with 2 slots and BTN_TOOL_FINGER…QUINTTAP.
    public static func touchpad(semiMT: Bool = false) -> DeviceDescription {
        var axes = mtAxes
        axes[AbsCode.mtSlot] = AbsInfo(minimum: 0, maximum: 1)
        return DeviceDescription(
            name: "test pad", properties: semiMT ? [InputProperty.pointer, InputProperty.semiMT] : [InputProperty.pointer],
            codes: [EventType.key: [KeyCode.btnTouch, KeyCode.btnToolFinger, KeyCode.btnToolDoubleTap,
                                    KeyCode.btnToolTripleTap, KeyCode.btnToolQuadTap, KeyCode.btnToolQuintTap]],
            absInfo: axes)
    }

    /// Protocol A: MT positions, no slots.
    public static let anonymous = DeviceDescription(
        name: "test protocol A", properties: [InputProperty.direct],
        codes: [EventType.key: [KeyCode.btnTouch]],
        absInfo: [AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
                  AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 1000, resolution: 10)])

    /// Single-touch: ABS_X/ABS_Y and BTN_TOUCH.
    public static let single = DeviceDescription(
        name: "test single", properties: [InputProperty.direct],
        codes: [EventType.key: [KeyCode.btnTouch]],
        absInfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
                  AbsCode.y: AbsInfo(minimum: 0, maximum: 1000, resolution: 10)])

    // MARK: builders: every test and fuzz device is one of these, with its own axes.

    /// An axis: `axis(0, 4095, 16)` is 0…4095 at 16 units per mm (0: resolution unknown).
    public static func axis(_ minimum: Int32, _ maximum: Int32, _ resolution: Int32 = 0) -> AbsInfo {
        AbsInfo(minimum: minimum, maximum: maximum, resolution: resolution)
    }

    /// BTN_TOUCH and BTN_TOOL_FINGER…QUINTTAP, in that order (an array: fuzz inputs pick by index).
    public static let fingerKeys: [UInt16] = [KeyCode.btnTouch, KeyCode.btnToolFinger, KeyCode.btnToolDoubleTap,
                                              KeyCode.btnToolTripleTap, KeyCode.btnToolQuadTap, KeyCode.btnToolQuintTap]

    /// A protocol-B device: ABS_MT_SLOT 0…`slots`−1, ABS_MT_TRACKING_ID 0…65535 (unless
    /// `trackingIds` is false), ABS_MT_POSITION_X/Y `x`/`y`, and `axes` besides. A touchscreen
    /// (INPUT_PROP_DIRECT, BTN_TOUCH) unless told otherwise.
    public static func slots(_ name: String, slots: Int32, x: AbsInfo, y: AbsInfo, trackingIds: Bool = true,
                             properties: Set<UInt16> = [InputProperty.direct], keys: Set<UInt16> = [KeyCode.btnTouch],
                             axes: [UInt16: AbsInfo] = [:], vendor: UInt16 = 0, product: UInt16 = 0) -> DeviceDescription {
        var all = axes
        all[AbsCode.mtSlot] = axis(0, slots - 1)
        if trackingIds { all[AbsCode.mtTrackingId] = axis(0, 65535) }
        return anonymous(name, x: x, y: y, properties: properties, keys: keys, axes: all, vendor: vendor, product: product)
    }

    /// A protocol-A device (MT positions, no slots), `axes` besides; a touchscreen unless told otherwise.
    public static func anonymous(_ name: String, x: AbsInfo, y: AbsInfo, properties: Set<UInt16> = [InputProperty.direct],
                                 keys: Set<UInt16> = [KeyCode.btnTouch], axes: [UInt16: AbsInfo] = [:],
                                 vendor: UInt16 = 0, product: UInt16 = 0) -> DeviceDescription {
        var all = axes
        all[AbsCode.mtPositionX] = x
        all[AbsCode.mtPositionY] = y
        return device(name, properties: properties, keys: keys, axes: all, vendor: vendor, product: product)
    }

    /// A single-touch device (ABS_X/ABS_Y), `axes` besides; a touchscreen unless told otherwise.
    public static func singleTouch(_ name: String, x: AbsInfo, y: AbsInfo, properties: Set<UInt16> = [InputProperty.direct],
                                   keys: Set<UInt16> = [KeyCode.btnTouch], axes: [UInt16: AbsInfo] = [:]) -> DeviceDescription {
        var all = axes
        all[AbsCode.x] = x
        all[AbsCode.y] = y
        return device(name, properties: properties, keys: keys, axes: all)
    }

    /// No EV_KEY at all when `keys` is empty (as a device without keys reports it).
    private static func device(_ name: String, properties: Set<UInt16>, keys: Set<UInt16>, axes: [UInt16: AbsInfo],
                               vendor: UInt16 = 0, product: UInt16 = 0) -> DeviceDescription {
        DeviceDescription(name: name, vendor: vendor, product: product, properties: properties,
                          codes: keys.isEmpty ? [:] : [EventType.key: keys], absInfo: axes)
    }
}

/// The scenario tests' standard geometries: sizes in mm, `resolution` units per mm, the
/// surface starting at 0 (scenario positions are mm from the top-left).
public enum ScenarioDevices {
    /// A protocol-B touchpad (ABS_X/Y mirror the MT axes) with BTN_TOOL_* up to five fingers.
    public static func touchpad(width: Int32 = 100, height: Int32 = 70, resolution: Int32 = 40, semiMT: Bool = false,
                                slots: Int32 = 5, touchMajor: Bool = false, pressureMaximum: Int32? = nil) -> DeviceDescription {
        let x = TestDevices.axis(0, width * resolution, resolution)
        let y = TestDevices.axis(0, height * resolution, resolution)
        var axes = [AbsCode.x: x, AbsCode.y: y]
        if touchMajor { axes[AbsCode.mtTouchMajor] = TestDevices.axis(0, 60 * resolution) }
        if let p = pressureMaximum { axes[AbsCode.mtPressure] = TestDevices.axis(0, p) }
        return TestDevices.slots(semiMT ? "Test SemiMT Touchpad" : "Test Touchpad", slots: slots, x: x, y: y,
                                 properties: semiMT ? [InputProperty.pointer, InputProperty.semiMT] : [InputProperty.pointer],
                                 keys: Set(TestDevices.fingerKeys), axes: axes)
    }

    /// A protocol-B touchscreen with 10 slots (ABS_X/Y mirror the MT axes); resolution 0: unknown.
    public static func touchscreen(width: Int32 = 300, height: Int32 = 200, resolution: Int32 = 10) -> DeviceDescription {
        let x = TestDevices.axis(0, width * Swift.max(1, resolution), resolution)
        let y = TestDevices.axis(0, height * Swift.max(1, resolution), resolution)
        return TestDevices.slots("Test Touchscreen", slots: 10, x: x, y: y, axes: [AbsCode.x: x, AbsCode.y: y])
    }
}
