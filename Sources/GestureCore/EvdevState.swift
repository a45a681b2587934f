/// The state an evdev device holds, as a reader of its events knows it: the current slot, every
/// slot's ABS_MT_* values, keys down and the other absolute axes. The one model of a device's
/// state: what libevdev reads at open (the decoder's start, touches already down hidden until
/// they lift), after SYN_DROPPED, and what an exclusive device's gate knows. The kernel drops an event whose
/// value equals what it holds, so two devices fed the same events only stay alike if they start
/// alike: `ExclusiveGate` keeps one of these for the real device and one for its clone, and when
/// they differ it writes `diff(to:)` instead of the kernel's frame.
public struct EvdevState: Hashable, Sendable {
    /// ABS_MT_TOUCH_MAJOR … ABS_MT_TOOL_Y: the per-slot codes (ABS_MT_SLOT itself excluded).
    public static let slotCodes: ClosedRange<UInt16> = AbsCode.mtTouchMajor...AbsCode.mtToolY
    static let trackingIndex = Int(AbsCode.mtTrackingId - AbsCode.mtTouchMajor)

    public private(set) var currentSlot = 0
    /// slots[s][code - ABS_MT_TOUCH_MAJOR]; a fresh slot has tracking id -1, everything else 0.
    public private(set) var slots: [[Int32]]
    /// EV_KEY codes whose value is not 0.
    public private(set) var keys: [UInt16: Int32] = [:]
    /// EV_ABS values outside the MT range.
    public private(set) var axes: [UInt16: Int32] = [:]

    public init(slotCount: Int) {
        var fresh = [Int32](repeating: 0, count: EvdevState.slotCodes.count)
        fresh[EvdevState.trackingIndex] = -1
        slots = Array(repeating: fresh, count: max(0, slotCount))
    }

    public var slotCount: Int { slots.count }

    public func value(slot: Int, code: UInt16) -> Int32 { slots[slot][Int(code - AbsCode.mtTouchMajor)] }
    public mutating func set(slot: Int, code: UInt16, _ v: Int32) { slots[slot][Int(code - AbsCode.mtTouchMajor)] = v }
    public mutating func setKey(_ code: UInt16, _ v: Int32) { if v == 0 { keys[code] = nil } else { keys[code] = v } }
    public mutating func setAxis(_ code: UInt16, _ v: Int32) { axes[code] = v }
    public mutating func removeAxis(_ code: UInt16) { axes[code] = nil }
    public mutating func setCurrentSlot(_ s: Int) { if s >= 0 && s < slots.count { currentSlot = s } }

    /// Slots with a contact (tracking id ≥ 0).
    public var activeSlots: [Int] { slots.indices.filter { slots[$0][EvdevState.trackingIndex] >= 0 } }

    /// Fingers on the device: the larger of the active slots and the BTN_TOOL_* count (a touchpad
    /// with 2 slots says 3 fingers by BTN_TOOL_TRIPLETAP), at least 1 while BTN_TOUCH is down.
    public var fingerCount: Int {
        var n = activeSlots.count
        for (code, fingers) in KeyCode.fingerCountTools where keys[code] != nil { n = max(n, fingers) }
        if n == 0 && keys[KeyCode.btnTouch] != nil { n = 1 }
        return n
    }

    /// Takes one event as the kernel's input core does (EV_KEY repeats and other types change nothing).
    public mutating func apply(_ e: InputEvent) {
        switch e.type {
        case EventType.abs:
            if e.code == AbsCode.mtSlot { setCurrentSlot(Int(e.value)) }
            else if EvdevState.slotCodes.contains(e.code) { if !slots.isEmpty { set(slot: currentSlot, code: e.code, e.value) } }
            else { axes[e.code] = e.value }
        case EventType.key where e.value != 2: setKey(e.code, e.value)
        default: break
        }
    }

    /// The events (one or two frames, each ending in SYN_REPORT, all stamped `time`) that take a
    /// device in this state to `target`. A slot whose contact changed identity is lifted in a
    /// frame of its own first (a reader must see the old contact end). Values of a slot without a
    /// contact in `target` are left as they are, except its tracking id: nobody reads them and
    /// they are brought over when a contact lands there. Ends on `target`'s current slot.
    public func diff(to target: EvdevState, codes: Set<UInt16>, time: Instant) -> [InputEvent] {
        var out: [InputEvent] = []
        var slot = currentSlot
        func ev(_ type: UInt16, _ code: UInt16, _ v: Int32) { out.append(InputEvent(time: time, type: type, code: code, value: v)) }
        func select(_ s: Int) { if s != slot { ev(EventType.abs, AbsCode.mtSlot, Int32(s)); slot = s } }
        let t = EvdevState.trackingIndex
        let n = min(slots.count, target.slots.count)
        // Contacts that changed identity: lifted first, in a frame of their own.
        let relifted = (0..<n).filter { slots[$0][t] >= 0 && target.slots[$0][t] >= 0 && slots[$0][t] != target.slots[$0][t] }
        if !relifted.isEmpty {
            for s in relifted { select(s); ev(EventType.abs, AbsCode.mtTrackingId, -1) }
            ev(EventType.syn, SynCode.report, 0)
        }
        for s in 0..<n {
            let want = target.slots[s]
            if want[t] != (relifted.contains(s) ? -1 : slots[s][t]) { select(s); ev(EventType.abs, AbsCode.mtTrackingId, want[t]) }
            guard want[t] >= 0 else { continue }
            for code in EvdevState.slotCodes where code != AbsCode.mtTrackingId && codes.contains(code) {
                let i = Int(code - AbsCode.mtTouchMajor)
                if want[i] != slots[s][i] { select(s); ev(EventType.abs, code, want[i]) }
            }
        }
        if n > 0 { select(target.currentSlot) }
        for code in Set(keys.keys).union(target.keys.keys).sorted() where keys[code] != target.keys[code] {
            ev(EventType.key, code, target.keys[code] ?? 0)
        }
        for (code, v) in target.axes.sorted(by: { $0.key < $1.key }) where axes[code] != v { ev(EventType.abs, code, v) }
        ev(EventType.syn, SynCode.report, 0)
        return out
    }

    /// This state after `events` (written in order to a device in this state).
    public func applying(_ events: [InputEvent]) -> EvdevState {
        var s = self
        for e in events { s.apply(e) }
        return s
    }
}
