/// Single-touch devices (ABS_X/ABS_Y + BTN_TOUCH, or BTN_TOOL_FINGER where there is no
/// BTN_TOUCH): one contact, down while the key is held. A contact down at open is ignored until
/// it lifts.
struct SingleTouchContact: Sendable {
    private let scale: AxisScale
    /// No BTN_TOUCH: BTN_TOOL_* say whether a finger is down.
    private let usesToolFinger: Bool
    private var x: Int32, y: Int32, pressure: Int32
    private var moved = false
    private var touchId = 0
    private var suppressed = false

    init(device: DeviceDescription, scale: AxisScale, initialState: EvdevState) {
        self.scale = scale
        usesToolFinger = !device.hasKey(KeyCode.btnTouch)
        x = scale.clampX(initialState.axes[AbsCode.x] ?? scale.xMin)
        y = scale.clampY(initialState.axes[AbsCode.y] ?? scale.yMin)
        pressure = initialState.axes[AbsCode.pressure] ?? 0
        if device.contactProtocol == .singleTouch {
            suppressed = initialState.keys[usesToolFinger ? KeyCode.btnToolFinger : KeyCode.btnTouch] != nil
        }
    }

    /// ABS_X, ABS_Y and ABS_PRESSURE now (`EvdevState.axes`' form).
    var absValues: [UInt16: Int32] { [AbsCode.x: x, AbsCode.y: y, AbsCode.pressure: pressure] }

    mutating func abs(code: UInt16, value: Int32) {
        switch code {
        case AbsCode.x: if x != value { x = value; moved = true }
        case AbsCode.y: if y != value { y = value; moved = true }
        case AbsCode.pressure: pressure = value
        default: break
        }
    }

    private func touch(phase: TouchPhase) -> Touch {
        Touch(id: touchId, slot: 0, phase: phase, x: scale.x(x), y: scale.y(y),
              pressure: scale.hasPressure ? pressure : nil)
    }

    mutating func frame(into touches: inout [Touch], _ ctx: inout DecoderContext) -> (active: Int, hidden: Int) {
        let down = usesToolFinger ? ctx.toolMask != 0 : ctx.touchKey
        defer { moved = false }
        if !down {
            if touchId != 0 && !suppressed { touches.append(touch(phase: .ended)) }
            touchId = 0; suppressed = false
            return (0, 0)
        }
        if suppressed { return (0, 1) }
        if touchId == 0 {
            touchId = ctx.newTouchId()
            touches.append(touch(phase: .began))
        } else {
            touches.append(touch(phase: moved ? .moved : .stationary))
        }
        return (1, 0)
    }

    /// The device went away: the contact, if reported, is cancelled.
    mutating func removeAll(into touches: inout [Touch]) {
        if touchId != 0 && !suppressed { touches.append(touch(phase: .cancelled)) }
        touchId = 0; suppressed = false
    }
}
