/// Protocol B (slots): the current slot is implicit (slot 0, or the slot the device was on when
/// opened) and ABS_MT_SLOT arrives only when it changes. ABS_MT_TRACKING_ID −1→id begins a touch,
/// id→−1 ends it, id→id′ ends one and begins another, −1→−1 is ignored, and axis updates on a free
/// slot are remembered as state without making a touch. Touches down at open and palms are
/// suppressed for their tracking id's life.
struct SlotContacts: Sendable {
    private struct Slot {
        var trackingId: Int32 = -1
        var x: Int32 = 0, y: Int32 = 0
        var pressure: Int32 = 0, major: Int32 = 0
        var tool: Int32 = MTToolType.finger
        /// The reported touch id, 0 while not yet reported.
        var touchId = 0
        /// Palm, or down at open: never reported for this tracking id's life.
        var suppressed = false
        var moved = false
        var lastXmm: Double = 0, lastYmm: Double = 0
    }

    private let scale: AxisScale
    private let deviceName: String
    private var slots: [Slot]
    private var currentSlot: Int
    private var currentSlotValid = true
    /// No slot at or above it holds a tracking id: a frame looks at the slots below it only. A
    /// touchscreen has many slots (the 3M 60) and few fingers in the lowest of them, so a scan
    /// of every slot would be most of a frame's decoding. Raised when a slot takes a tracking
    /// id, lowered to just past the last one held as each frame is assembled.
    private var occupiedBound = 0

    init(device: DeviceDescription, scale: AxisScale, initialState: EvdevState) {
        self.scale = scale
        deviceName = TextEscaping.escaped(device.name)
        // A position never sent is the axis minimum (the top-left), never outside the surface.
        var fresh = Slot()
        fresh.x = scale.xMin; fresh.y = scale.yMin
        slots = Array(repeating: fresh, count: device.contactProtocol == .slots ? Swift.max(1, device.slotCount) : 0)
        currentSlot = initialState.currentSlot
        currentSlotValid = currentSlot >= 0 && currentSlot < slots.count
        for i in 0..<Swift.min(initialState.slotCount, slots.count) {
            func v(_ code: UInt16) -> Int32 { initialState.value(slot: i, code: code) }
            let id = v(AbsCode.mtTrackingId)
            slots[i].trackingId = id
            slots[i].x = scale.clampX(v(AbsCode.mtPositionX)); slots[i].y = scale.clampY(v(AbsCode.mtPositionY))
            slots[i].pressure = v(AbsCode.mtPressure); slots[i].major = v(AbsCode.mtTouchMajor); slots[i].tool = v(AbsCode.mtToolType)
            slots[i].suppressed = id >= 0
            if id >= 0 { occupiedBound = i + 1 }
        }
    }

    /// The slots' values and the current slot now, as the device's state (a rebuilt decoder
    /// starts from them: the kernel sends only values that changed).
    var state: EvdevState {
        var s = EvdevState(slotCount: slots.count)
        for (i, slot) in slots.enumerated() {
            s.set(slot: i, code: AbsCode.mtTrackingId, slot.trackingId)
            s.set(slot: i, code: AbsCode.mtPositionX, slot.x); s.set(slot: i, code: AbsCode.mtPositionY, slot.y)
            s.set(slot: i, code: AbsCode.mtPressure, slot.pressure); s.set(slot: i, code: AbsCode.mtTouchMajor, slot.major)
            s.set(slot: i, code: AbsCode.mtToolType, slot.tool)
        }
        s.setCurrentSlot(currentSlot)
        return s
    }

    mutating func abs(code: UInt16, value: Int32, _ ctx: inout DecoderContext) {
        if code == AbsCode.mtSlot {
            if value >= 0 && Int(value) < slots.count {
                currentSlot = Int(value); currentSlotValid = true
            } else {
                currentSlotValid = false
                ctx.diagnoseLimited(code: AbsCode.mtSlot, "kernel bug: \(deviceName): ABS_MT_SLOT \(value) outside 0…\(slots.count - 1), its events ignored")
            }
            return
        }
        guard currentSlotValid else { return }
        let s = currentSlot
        switch code {
        case AbsCode.mtTrackingId:
            let old = slots[s].trackingId
            if value < 0 {
                if old >= 0 { endSlot(s, &ctx) }
                slots[s].trackingId = -1
            } else if value != old {
                if old >= 0 { endSlot(s, &ctx) }
                slots[s].trackingId = value
                slots[s].touchId = 0
                slots[s].suppressed = false
                if s >= occupiedBound { occupiedBound = s + 1 }
            }
        case AbsCode.mtPositionX:
            if slots[s].x != value { slots[s].x = value; slots[s].moved = true }
        case AbsCode.mtPositionY:
            if slots[s].y != value { slots[s].y = value; slots[s].moved = true }
        case AbsCode.mtPressure:
            slots[s].pressure = value
        case AbsCode.mtTouchMajor:
            slots[s].major = value
        case AbsCode.mtToolType:
            slots[s].tool = value
        default:
            break
        }
    }

    /// The slot's touch leaves: reported as ended once, if it was ever reported.
    private mutating func endSlot(_ s: Int, _ ctx: inout DecoderContext) {
        if slots[s].touchId != 0 && !slots[s].suppressed {
            var t = touch(slot: s, phase: .ended)
            t.x = slots[s].lastXmm; t.y = slots[s].lastYmm
            ctx.leaving.append(t)
        }
        slots[s].touchId = 0
        slots[s].suppressed = false
    }

    /// Inlined, so `scale` is read in place rather than copied for every touch.
    @inline(__always)
    private func touch(slot s: Int, phase: TouchPhase) -> Touch {
        let sl = slots[s]
        return scale.touch(id: sl.touchId, slot: s, phase: phase, x: sl.x, y: sl.y,
                           pressure: sl.pressure, major: sl.major, tool: sl.tool)
    }

    /// The frame's touches; counts of positioned touches on the surface and of hidden ones.
    mutating func frame(into touches: inout [Touch], _ ctx: inout DecoderContext) -> (active: Int, hidden: Int) {
        var active = 0, hidden = 0
        var lastHeld = -1
        defer { occupiedBound = lastHeld + 1 }
        for s in 0..<occupiedBound where slots[s].trackingId >= 0 {
            lastHeld = s
            if slots[s].suppressed { hidden += 1; slots[s].moved = false; continue }
            if slots[s].tool == MTToolType.palm {
                if slots[s].touchId != 0 {
                    var t = touch(slot: s, phase: .cancelled)
                    t.tool = .palm
                    touches.append(t)
                }
                slots[s].suppressed = true
                slots[s].moved = false
                hidden += 1
                continue
            }
            let phase: TouchPhase
            if slots[s].touchId == 0 {
                slots[s].touchId = ctx.newTouchId()
                phase = .began
            } else {
                phase = slots[s].moved ? .moved : .stationary
            }
            let t = touch(slot: s, phase: phase)
            slots[s].lastXmm = t.x; slots[s].lastYmm = t.y
            slots[s].moved = false
            touches.append(t)
            active += 1
        }
        return (active, hidden)
    }

    /// The device went away: every reported touch is cancelled; positions are kept as state.
    mutating func removeAll(into touches: inout [Touch]) {
        for i in slots.indices {
            if slots[i].trackingId >= 0, slots[i].touchId != 0, !slots[i].suppressed {
                touches.append(touch(slot: i, phase: .cancelled))
            }
            let (x, y) = (slots[i].x, slots[i].y)
            slots[i] = Slot()
            slots[i].x = x; slots[i].y = y
        }
    }

    /// The watchdog: touches already reported end where they were last reported.
    mutating func endStuck(into touches: inout [Touch]) {
        for i in slots.indices where slots[i].trackingId >= 0 && slots[i].touchId != 0 && !slots[i].suppressed {
            touches.append(Touch(id: slots[i].touchId, slot: i, phase: .ended,
                                 x: slots[i].lastXmm, y: slots[i].lastYmm, tool: AxisScale.tool(slots[i].tool)))
            slots[i].trackingId = -1; slots[i].touchId = 0
        }
    }
}
