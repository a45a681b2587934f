/// Single-touch devices (ABS_X/ABS_Y + BTN_TOUCH, or BTN_TOOL_FINGER where there is no
/// BTN_TOUCH): one contact, down while the key is held. A contact down at open is ignored until
/// it lifts. Its position and pressure are the device's `EvdevState` (ABS_X, ABS_Y,
/// ABS_PRESSURE), which `SlotDecoder` holds; this type keeps only its own bookkeeping.
struct SingleTouchContact: Sendable {
    private let scale: AxisScale
    private let picture: AxisPicture
    /// No BTN_TOUCH: BTN_TOOL_* say whether a finger is down.
    private let usesToolFinger: Bool
    private var moved = false
    private var touchId = 0
    private var suppressed = false

    init(device: DeviceDescription, scale: AxisScale, picture: AxisPicture, initialState: EvdevState) {
        self.scale = scale
        self.picture = picture
        usesToolFinger = !device.hasKey(KeyCode.btnTouch)
        if device.contactProtocol == .singleTouch {
            suppressed = initialState.isDown(usesToolFinger ? KeyCode.btnToolFinger : KeyCode.btnTouch)
        }
    }

    /// Writes ABS_X, ABS_Y or ABS_PRESSURE into `state`; a position that changes is motion.
    @inline(__always)
    mutating func abs(code: UInt16, value: Int32, _ state: inout EvdevState) {
        if (code == AbsCode.x || code == AbsCode.y) && state.axis(code) != value { moved = true }
        state.setAxis(code, value)
    }

    private func touch(phase: TouchPhase, _ state: EvdevState) -> Touch {
        let x = state.axis(AbsCode.x), y = state.axis(AbsCode.y)
        let p = scale.position(x ?? scale.rawXMin, y ?? scale.rawYMin, xKnown: x != nil, yKnown: y != nil, picture)
        return Touch(id: touchId, slot: 0, phase: phase, x: p.x, y: p.y,
                     pressure: scale.hasPressure ? state.axis(AbsCode.pressure) ?? 0 : nil)
    }

    /// `state` is only read (inout: no copy, see `SlotContacts.frame`).
    mutating func frame(into touches: inout [Touch], _ state: inout EvdevState, _ ctx: inout DecoderContext) -> (active: Int, hidden: Int) {
        let down = usesToolFinger ? ctx.toolMask != 0 : ctx.touchKey
        defer { moved = false }
        if !down {
            if touchId != 0 && !suppressed { touches.append(touch(phase: .ended, state)) }
            touchId = 0; suppressed = false
            return (0, 0)
        }
        if suppressed { return (0, 1) }
        if touchId == 0 {
            touchId = ctx.newTouchId()
            touches.append(touch(phase: .began, state))
        } else {
            touches.append(touch(phase: moved ? .moved : .stationary, state))
        }
        return (1, 0)
    }

    /// The device went away: the contact, if reported, is cancelled.
    mutating func removeAll(into touches: inout [Touch], _ state: EvdevState) {
        if touchId != 0 && !suppressed { touches.append(touch(phase: .cancelled, state)) }
        touchId = 0; suppressed = false
    }
}
