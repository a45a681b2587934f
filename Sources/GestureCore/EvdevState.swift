/// The state an evdev device holds, as a reader of its events knows it: the current slot, every
/// slot's ABS_MT_* values, keys down and the other absolute axes, in the device's own units. The
/// one model of a device's state: libevdev reads it at open and after SYN_DROPPED; the device's
/// `SlotDecoder` holds it and writes every event into it (touches down at open hidden until they
/// lift), and reads its contacts' values from it; `GesturePipeline` hands it, after each frame, to
/// an exclusive device's gate. The kernel drops an event whose value equals what it holds, so two
/// devices fed the same events only stay alike if they start alike: `ExclusiveGate` keeps one of
/// these for the clone (what was written to it), and when it differs from the real device's it
/// writes `diff(to:)` instead of the kernel's frame.
///
/// Storage is flat and fixed-size, so the decoder's per-event write is an array store: the slots'
/// values in one array, the other axes (every EV_ABS code is below 64, ABS_MAX) in a 64-entry
/// array with a mask of the ones set, keys as a bit set up to KEY_MAX.
public struct EvdevState: Hashable, Sendable {
    /// ABS_MT_TOUCH_MAJOR … ABS_MT_TOOL_Y: the per-slot codes (ABS_MT_SLOT itself excluded).
    public static let slotCodes: ClosedRange<UInt16> = AbsCode.mtTouchMajor...AbsCode.mtToolY
    // Literals, not expressions: a computed static is initialized lazily, behind a check on
    // every per-event read.
    /// ABS_MT_TOUCH_MAJOR (0x30) … ABS_MT_TOOL_Y (0x3d).
    static let codesPerSlot = 14
    /// ABS_MT_TRACKING_ID (0x39) − ABS_MT_TOUCH_MAJOR.
    static let trackingIndex = 9
    static let axisCount = 64
    static let keyWords = 12   // KEY_MAX 0x2ff: 768 bits

    public private(set) var currentSlot = 0
    public let slotCount: Int
    /// slotValues[s * codesPerSlot + code - ABS_MT_TOUCH_MAJOR]; a fresh slot has tracking id −1,
    /// everything else 0.
    private var slotValues: [Int32]
    /// EV_ABS values outside the MT range, by code; `axisMask` bit `code` says one is held.
    private var axisValues: [Int32]
    private var axisMask: UInt64 = 0
    /// EV_KEY codes whose value is not 0, one bit each.
    private var keyBits: [UInt64]

    public init(slotCount: Int) {
        self.slotCount = max(0, slotCount)
        slotValues = [Int32](repeating: 0, count: self.slotCount * EvdevState.codesPerSlot)
        for s in 0..<self.slotCount { slotValues[s * EvdevState.codesPerSlot + EvdevState.trackingIndex] = -1 }
        axisValues = [Int32](repeating: 0, count: EvdevState.axisCount)
        keyBits = [UInt64](repeating: 0, count: EvdevState.keyWords)
    }

    /// `other`'s values in a state of `slotCount` slots (slots beyond `other`'s are fresh).
    public init(slotCount: Int, from other: EvdevState) {
        self.init(slotCount: slotCount)
        let n = min(self.slotCount, other.slotCount) * EvdevState.codesPerSlot
        for i in 0..<n { slotValues[i] = other.slotValues[i] }
        if other.currentSlot < self.slotCount { currentSlot = other.currentSlot }
        axisValues = other.axisValues; axisMask = other.axisMask; keyBits = other.keyBits
    }

    @inline(__always)
    public func value(slot: Int, code: UInt16) -> Int32 {
        slotValues[slot &* EvdevState.codesPerSlot &+ Int(code &- AbsCode.mtTouchMajor)]
    }
    @inline(__always)
    public mutating func set(slot: Int, code: UInt16, _ v: Int32) {
        slotValues[slot &* EvdevState.codesPerSlot &+ Int(code &- AbsCode.mtTouchMajor)] = v
    }
    /// Sets a slot's value and returns the one it replaces: one access on the decoder's path.
    @inline(__always)
    mutating func exchange(slot: Int, code: UInt16, _ v: Int32) -> Int32 {
        let i = slot &* EvdevState.codesPerSlot &+ Int(code &- AbsCode.mtTouchMajor)
        let old = slotValues[i]
        slotValues[i] = v
        return old
    }

    /// A slot's contact as the decoder reads it for a frame, with one range check for the slot.
    @inline(__always)
    func contact(slot s: Int) -> (trackingId: Int32, x: Int32, y: Int32, pressure: Int32, major: Int32, tool: Int32) {
        precondition(s >= 0 && s < slotCount, "gestured bug: EvdevState: slot \(s) of \(slotCount)")
        let b = s &* EvdevState.codesPerSlot
        // Offsets from ABS_MT_TOUCH_MAJOR (0x30): POSITION_X 0x35, POSITION_Y 0x36, TOOL_TYPE
        // 0x37, TRACKING_ID 0x39, PRESSURE 0x3a.
        return slotValues.withUnsafeBufferPointer { p in
            (p[b &+ 9], p[b &+ 5], p[b &+ 6], p[b &+ 10], p[b], p[b &+ 7])
        }
    }

    public mutating func setCurrentSlot(_ s: Int) { if s >= 0 && s < slotCount { currentSlot = s } }

    /// The key is held (its value is not 0).
    @inline(__always)
    public func isDown(_ code: UInt16) -> Bool {
        code < 768 && keyBits[Int(code >> 6)] & (1 << UInt64(code & 63)) != 0
    }
    @inline(__always)
    public mutating func setKey(_ code: UInt16, _ v: Int32) {
        guard code < 768 else { return }
        if v == 0 { keyBits[Int(code >> 6)] &= ~(1 << UInt64(code & 63)) } else { keyBits[Int(code >> 6)] |= 1 << UInt64(code & 63) }
    }
    /// The keys held, in code order.
    public var downKeys: [UInt16] {
        var out: [UInt16] = []
        for w in 0..<EvdevState.keyWords where keyBits[w] != 0 {
            for b in 0..<64 where keyBits[w] & (1 << UInt64(b)) != 0 { out.append(UInt16(w * 64 + b)) }
        }
        return out
    }
    /// The keys held, each with value 1.
    public var keys: [UInt16: Int32] { Dictionary(uniqueKeysWithValues: downKeys.map { ($0, 1) }) }

    /// An EV_ABS value outside the MT range; nil when none was set.
    @inline(__always)
    public func axis(_ code: UInt16) -> Int32? {
        code < 64 && axisMask & (1 << UInt64(code)) != 0 ? axisValues[Int(code)] : nil
    }
    @inline(__always)
    public mutating func setAxis(_ code: UInt16, _ v: Int32) {
        guard code < 64 else { return }
        axisValues[Int(code)] = v; axisMask |= 1 << UInt64(code)
    }
    public mutating func removeAxis(_ code: UInt16) {
        guard code < 64 else { return }
        axisValues[Int(code)] = 0; axisMask &= ~(1 << UInt64(code))
    }
    /// The axes set, by code.
    public var axes: [UInt16: Int32] {
        var out: [UInt16: Int32] = [:]
        for c in 0..<64 where axisMask & (1 << UInt64(c)) != 0 { out[UInt16(c)] = axisValues[c] }
        return out
    }

    /// Slots with a contact (tracking id ≥ 0).
    public var activeSlots: [Int] { (0..<slotCount).filter { value(slot: $0, code: AbsCode.mtTrackingId) >= 0 } }

    /// Fingers on the device: the larger of the active slots and the BTN_TOOL_* count (a touchpad
    /// with 2 slots says 3 fingers by BTN_TOOL_TRIPLETAP), at least 1 while BTN_TOUCH is down.
    public var fingerCount: Int {
        var n = 0
        for s in 0..<slotCount where value(slot: s, code: AbsCode.mtTrackingId) >= 0 { n += 1 }
        for (code, fingers) in KeyCode.fingerCountTools where isDown(code) { n = max(n, fingers) }
        if n == 0 && isDown(KeyCode.btnTouch) { n = 1 }
        return n
    }

    /// Takes one event as the kernel's input core does (EV_KEY repeats and other types change nothing).
    public mutating func apply(_ e: InputEvent) {
        switch e.type {
        case EventType.abs:
            if e.code == AbsCode.mtSlot { setCurrentSlot(Int(e.value)) }
            else if EvdevState.slotCodes.contains(e.code) { if slotCount > 0 { set(slot: currentSlot, code: e.code, e.value) } }
            else { setAxis(e.code, e.value) }
        case EventType.key where e.value != 2: setKey(e.code, e.value)
        default: break
        }
    }

    /// This state after `events` (written in order to a device in this state).
    public func applying(_ events: [InputEvent]) -> EvdevState {
        var s = self
        for e in events { s.apply(e) }
        return s
    }
}

extension EvdevState {
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
        let t = AbsCode.mtTrackingId
        let n = min(slotCount, target.slotCount)
        // Contacts that changed identity: lifted first, in a frame of their own.
        let relifted = (0..<n).filter {
            let a = value(slot: $0, code: t), b = target.value(slot: $0, code: t)
            return a >= 0 && b >= 0 && a != b
        }
        if !relifted.isEmpty {
            for s in relifted { select(s); ev(EventType.abs, t, -1) }
            ev(EventType.syn, SynCode.report, 0)
        }
        for s in 0..<n {
            let want = target.value(slot: s, code: t)
            if want != (relifted.contains(s) ? -1 : value(slot: s, code: t)) { select(s); ev(EventType.abs, t, want) }
            guard want >= 0 else { continue }
            for code in EvdevState.slotCodes where code != t && codes.contains(code) {
                let v = target.value(slot: s, code: code)
                if v != value(slot: s, code: code) { select(s); ev(EventType.abs, code, v) }
            }
        }
        if n > 0 { select(target.currentSlot) }
        for w in 0..<EvdevState.keyWords where keyBits[w] != target.keyBits[w] {
            let changed = keyBits[w] ^ target.keyBits[w]
            for b in 0..<64 where changed & (1 << UInt64(b)) != 0 {
                let code = UInt16(w * 64 + b)
                ev(EventType.key, code, target.isDown(code) ? 1 : 0)
            }
        }
        for c in 0..<64 where target.axisMask & (1 << UInt64(c)) != 0 && axis(UInt16(c)) != target.axisValues[c] {
            ev(EventType.abs, UInt16(c), target.axisValues[c])
        }
        ev(EventType.syn, SynCode.report, 0)
        return out
    }
}
