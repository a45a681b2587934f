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
}

/// One event at a time in milliseconds: `ev(1000, EventType.abs, AbsCode.mtTrackingId, 1)`.
public func ev(_ ms: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent {
    InputEvent(time: .milliseconds(ms), type: type, code: code, value: value)
}

/// A protocol-B contact as events at `ms`: slot, tracking id (−1 lifts it), position.
public func contact(_ ms: Int64, slot: Int32, id: Int32, x: Int32? = nil, y: Int32? = nil) -> [InputEvent] {
    var out = [ev(ms, EventType.abs, AbsCode.mtSlot, slot), ev(ms, EventType.abs, AbsCode.mtTrackingId, id)]
    if let x { out.append(ev(ms, EventType.abs, AbsCode.mtPositionX, x)) }
    if let y { out.append(ev(ms, EventType.abs, AbsCode.mtPositionY, y)) }
    return out
}

/// SYN_REPORT at `ms`.
public func syn(_ ms: Int64) -> InputEvent { ev(ms, EventType.syn, SynCode.report, 0) }
