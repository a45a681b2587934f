/// Protocol B (slots): the current slot is implicit (slot 0, or the slot the device was on when
/// opened) and ABS_MT_SLOT arrives only when it changes. ABS_MT_TRACKING_ID −1→id begins a touch,
/// id→−1 ends it, id→id′ ends one and begins another, −1→−1 is ignored, and axis updates on a free
/// slot are remembered as state without making a touch. Touches down at open and palms are
/// suppressed for their tracking id's life.
///
/// The slots' values (tracking id, position, pressure, major, tool) are the device's `EvdevState`,
/// which `SlotDecoder` holds and hands in: this type writes each event into it and reads a
/// contact's values from it, and keeps only its own bookkeeping per slot.
struct SlotContacts: Sendable {
    private struct Slot {
        /// The reported touch id, 0 while not yet reported.
        var touchId = 0
        /// Palm, or down at open: never reported for this tracking id's life.
        var suppressed = false
        /// `moved`, `xKnown`, `yKnown` bits: the position changed since the last frame; the
        /// device has given this slot an x (y) position, at open or in an event. One byte, so an
        /// event sets what it must in one write.
        var flags: UInt8 = 0
        var moved: Bool { flags & Slot.moved != 0 }
        var xKnown: Bool { flags & Slot.xKnown != 0 }
        var yKnown: Bool { flags & Slot.yKnown != 0 }
        static let moved: UInt8 = 1, xKnown: UInt8 = 2, yKnown: UInt8 = 4
        var lastXmm: Double = 0, lastYmm: Double = 0
    }

    private let scale: AxisScale
    private let picture: AxisPicture
    private var slots: [Slot]
    /// The last ABS_MT_SLOT named a slot that exists; while not, the slot's events are ignored.
    private var currentSlotValid = true
    /// No slot at or above it holds a tracking id: a frame looks at the slots below it only. A
    /// touchscreen has many slots (the 3M 60) and few fingers in the lowest of them, so a scan
    /// of every slot would be most of a frame's decoding. Raised when a slot takes a tracking
    /// id, lowered to just past the last one held as each frame is assembled.
    private var occupiedBound = 0

    /// `state` is the device's state at open (its slots, `slotCount` of them): contacts down then
    /// are suppressed until they lift.
    /// `knownSlots`: how many of the first slots the state at open gave values (their positions
    /// are the device's; the others' were never sent).
    init(device: DeviceDescription, scale: AxisScale, picture: AxisPicture, state: EvdevState, knownSlots: Int, currentSlotValid: Bool) {
        self.scale = scale
        self.picture = picture
        slots = Array(repeating: Slot(), count: state.slotCount)
        self.currentSlotValid = currentSlotValid && state.slotCount > 0
        for i in 0..<Swift.min(knownSlots, slots.count) { slots[i].flags = Slot.xKnown | Slot.yKnown }
        for i in 0..<state.slotCount where state.value(slot: i, code: AbsCode.mtTrackingId) >= 0 {
            slots[i].suppressed = true
            occupiedBound = i + 1
        }
    }

    mutating func abs(code: UInt16, value: Int32, _ state: inout EvdevState, _ ctx: inout DecoderContext) {
        if code == AbsCode.mtSlot {
            if value >= 0 && Int(value) < slots.count {
                state.setCurrentSlot(Int(value)); currentSlotValid = true
            } else {
                currentSlotValid = false
                let last = slots.count - 1
                ctx.diagnoseLimited(code: AbsCode.mtSlot) { t in
                    t.add("ABS_MT_SLOT "); t.add(value); t.add(" outside 0…"); t.add(last); t.add(", its events ignored")
                }
            }
            return
        }
        guard currentSlotValid else { return }
        let s = state.currentSlot
        switch code {
        case AbsCode.mtTrackingId:
            let old = state.value(slot: s, code: code)
            if value < 0 {
                if old >= 0 { endSlot(s, state, &ctx) }
                state.set(slot: s, code: code, -1)
            } else if value != old {
                if old >= 0 { endSlot(s, state, &ctx) }
                state.set(slot: s, code: code, value)
                slots[s].touchId = 0
                slots[s].suppressed = false
                if s >= occupiedBound { occupiedBound = s + 1 }
            }
        // The bookkeeping is written only when it changes: a frame's x and y of one contact
        // usually write it once between them.
        case AbsCode.mtPositionX:
            let old = state.exchange(slot: s, code: code, value)
            let want = old != value ? Slot.moved | Slot.xKnown : Slot.xKnown
            if slots[s].flags & want != want { slots[s].flags |= want }
        case AbsCode.mtPositionY:
            let old = state.exchange(slot: s, code: code, value)
            let want = old != value ? Slot.moved | Slot.yKnown : Slot.yKnown
            if slots[s].flags & want != want { slots[s].flags |= want }
        default:
            state.set(slot: s, code: code, value)
        }
    }

    /// The slot's touch leaves: reported as ended once, if it was ever reported.
    private mutating func endSlot(_ s: Int, _ state: EvdevState, _ ctx: inout DecoderContext) {
        if slots[s].touchId != 0 && !slots[s].suppressed {
            var t = touch(slot: s, phase: .ended, state)
            t.x = slots[s].lastXmm; t.y = slots[s].lastYmm
            ctx.leaving.append(t)
        }
        slots[s].touchId = 0
        slots[s].suppressed = false
    }

    /// Inlined, so `scale` is read in place rather than copied for every touch.
    @inline(__always)
    private func touch(slot s: Int, phase: TouchPhase, _ state: EvdevState) -> Touch {
        touch(slot: s, phase: phase, state.contact(slot: s))
    }

    @inline(__always)
    private func touch(slot s: Int, phase: TouchPhase,
                       _ c: (trackingId: Int32, x: Int32, y: Int32, pressure: Int32, major: Int32, tool: Int32)) -> Touch {
        let sl = slots[s]
        return scale.touch(id: sl.touchId, slot: s, phase: phase, x: c.x, y: c.y, pressure: c.pressure, major: c.major,
                           tool: c.tool, xKnown: sl.xKnown, yKnown: sl.yKnown, picture)
    }

    /// The frame's touches; counts of positioned touches on the surface and of hidden ones.
    /// `state` is only read; inout, so the decoder hands over its own without a copy (a value
    /// argument read from the decoder while it is being changed is copied, its arrays retained).
    mutating func frame(into touches: inout [Touch], _ state: inout EvdevState, _ ctx: inout DecoderContext) -> (active: Int, hidden: Int) {
        var active = 0, hidden = 0
        var lastHeld = -1
        defer { occupiedBound = lastHeld + 1 }
        for s in 0..<occupiedBound {
            let c = state.contact(slot: s)
            guard c.trackingId >= 0 else { continue }
            lastHeld = s
            if slots[s].suppressed { hidden += 1; slots[s].flags &= ~Slot.moved; continue }
            if c.tool == MTToolType.palm {
                if slots[s].touchId != 0 {
                    var t = touch(slot: s, phase: .cancelled, c)
                    t.tool = .palm
                    touches.append(t)
                }
                slots[s].suppressed = true
                slots[s].flags &= ~Slot.moved
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
            let t = touch(slot: s, phase: phase, c)
            slots[s].lastXmm = t.x; slots[s].lastYmm = t.y
            slots[s].flags &= ~Slot.moved
            touches.append(t)
            active += 1
        }
        return (active, hidden)
    }

    /// The device went away: every reported touch is cancelled. Its contacts are gone from the
    /// state (tracking id −1, pressure, major and tool 0); positions are kept.
    mutating func removeAll(into touches: inout [Touch], _ state: inout EvdevState) {
        for i in slots.indices {
            if state.value(slot: i, code: AbsCode.mtTrackingId) >= 0, slots[i].touchId != 0, !slots[i].suppressed {
                touches.append(touch(slot: i, phase: .cancelled, state))
            }
            let known = slots[i].flags & (Slot.xKnown | Slot.yKnown)
            slots[i] = Slot()
            slots[i].flags = known
            state.set(slot: i, code: AbsCode.mtTrackingId, -1)
            for code in [AbsCode.mtPressure, AbsCode.mtTouchMajor, AbsCode.mtToolType] { state.set(slot: i, code: code, 0) }
        }
    }

    /// The watchdog: touches already reported end where they were last reported, and leave the
    /// state (the kernel lost their lift).
    mutating func endStuck(into touches: inout [Touch], _ state: inout EvdevState) {
        for i in slots.indices where state.value(slot: i, code: AbsCode.mtTrackingId) >= 0 && slots[i].touchId != 0 && !slots[i].suppressed {
            touches.append(Touch(id: slots[i].touchId, slot: i, phase: .ended,
                                 x: slots[i].lastXmm, y: slots[i].lastYmm, tool: AxisScale.tool(state.value(slot: i, code: AbsCode.mtToolType))))
            state.set(slot: i, code: AbsCode.mtTrackingId, -1); slots[i].touchId = 0
        }
    }
}
