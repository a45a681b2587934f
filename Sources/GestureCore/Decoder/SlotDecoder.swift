/// Turns a device's raw evdev events into `TouchFrame`s, one per SYN_REPORT.
///
/// Handles, per docs/RECORDINGS.md "What the decoder handles":
/// - **Protocol B** (slots): the current slot is implicit (slot 0, or the slot the device was on when
///   opened) and ABS_MT_SLOT arrives only when it changes. ABS_MT_TRACKING_ID −1→id begins a touch,
///   id→−1 ends it, id→id′ ends one and begins another, −1→−1 is ignored, and axis updates on a free
///   slot are remembered as state without making a touch.
/// - **Protocol A** (SYN_MT_REPORT packets, no slots): contacts are matched to the previous frame's by
///   ABS_MT_TRACKING_ID when the device sends one, otherwise by nearest position; a frame with no
///   packet (or only empty packets) means every contact lifted.
/// - **Single-touch** devices (ABS_X/ABS_Y + BTN_TOUCH).
/// - **Semi-MT** (INPUT_PROP_SEMI_MT): the two slots are a bounding box; frames carry `.semiMT`.
/// - **BTN_TOOL_DOUBLETAP…QUINTTAP**: `fingerCount` follows them beyond the positioned touches
///   (QUINTTAP counts as 5).
/// - **MT_TOOL_PALM**: the touch is cancelled (or never begins) and stays ignored for its life.
/// - **SYN_DROPPED**: the events after it up to the next SYN_REPORT are the resync delta (what
///   libevdev's LIBEVDEV_READ_FLAG_SYNC delivers); that SYN_REPORT yields one `.resynchronized` frame.
/// - **Out-of-range values** are clamped to absinfo and reported as "kernel bug:" lines,
///   rate-limited per axis (one line per 10 s of device time, with a count of the suppressed ones).
/// - **Touches down at open** (given as the device's `EvdevState` then) are ignored until they lift.
///
/// The decoder holds the device's one `EvdevState`, in the device's own units: every event is
/// written into it (values clamped into their absinfo range), and the contact protocols read
/// their contacts' values from it: `SlotContacts` (B), `AnonymousContacts` (A: its packets are
/// no device state, the kernel keeps none for them) and `SingleTouchContact`, each keeping only
/// its bookkeeping (touch ids, suppressed, moved, last position). One `AxisScale` turns a
/// contact's raw position into millimetres from the picture's top-left, through the device's
/// `AxisTransform` (quarter turns, mirrors, calibration). Touch ids are unique and never reused
/// within one decoder. An ended or cancelled touch appears exactly once. The per-event path
/// works on fixed arrays only.
public struct SlotDecoder: Sendable {
    /// The device as it sends events (its own axes).
    public let device: DeviceDescription
    /// From the device's axes to the picture's: what touches are measured in.
    public let transform: AxisTransform
    /// The device's state: every value its events set, in its own units (see EvdevState).
    public private(set) var state: EvdevState
    public let contactProtocol: ContactProtocol
    public let isSemiMT: Bool

    private let scale: AxisScale
    /// Clamp ranges for ABS codes 0…0x3f; a code without absinfo has the whole Int32 range, so
    /// nothing is out of it. One array of pairs, not one of minima and one of maxima: one bounds
    /// check and one load an event.
    private var absRange: [ClosedRange<Int32>]
    private let hasTouchKey: Bool
    /// BTN_TOOL_* counts are touchpad semantics; touchscreens (N-Trig sends BTN_TOOL_DOUBLETAP for a
    /// single finger) count positioned touches only.
    private let usesToolCounts: Bool

    // MARK: - Diagnostics (out-of-range values, rate-limited per axis)

    /// BTN_LEFT/RIGHT/MIDDLE held (bits 0–2); reported in frames of touchpads only.
    private var buttonMask: UInt8 = 0

    // MARK: - State

    private var ctx = DecoderContext()
    private var resyncing = false
    private var frameTime = Instant.zero
    /// Touches in the previous frame: the next frame's array is sized from it.
    private var lastTouchCount = 0
    /// Positioned touches still on the surface after the previous frame (the watchdog's concern).
    private var activeAfterFrame = 0
    /// Touches down but hidden from gestures (down at open, palms) after the previous frame.
    private var hiddenAfterFrame = 0
    /// The touches array of the last frame made: once every holder of that frame has let go of
    /// it, the next frame is assembled in the same buffer instead of a new allocation.
    private var frameBuffer: [Touch] = []

    // MARK: - The contact protocols (only the device's own one is ever fed)

    private var slotContacts: SlotContacts
    private var anonymousContacts: AnonymousContacts
    private var singleContact: SingleTouchContact

    // MARK: - Init

    /// A decoder for `device` (its own description, as it sends events) starting from its state
    /// at open (nil: nothing down, slot 0, as a recording starts), whose touches are measured in
    /// the picture's axes after `transform`.
    public init(device: DeviceDescription, transform: AxisTransform = .identity, initialState: EvdevState? = nil) {
        self.device = device
        self.transform = transform
        ctx.reportPrefix = Array("kernel bug: \(TextEscaping.escaped(device.name)): ".utf8)
        contactProtocol = device.contactProtocol
        isSemiMT = device.isSemiMT
        scale = AxisScale(device, transform: transform)
        let picture = AxisPicture(device, transform: transform)
        // Protocol B's slots are state. A slot's position never sent is held as the axis minimum,
        // never outside the surface; its touch is placed at the picture's minimum on that axis
        // (`AxisScale.position`, the slot's `xKnown`/`yKnown`).
        let slotCount = contactProtocol == .slots ? Swift.max(1, device.slotCount) : 0
        var state = EvdevState(slotCount: slotCount, from: initialState ?? EvdevState(slotCount: 0))
        for s in Swift.min(initialState?.slotCount ?? 0, slotCount)..<slotCount {
            state.set(slot: s, code: AbsCode.mtPositionX, scale.rawXMin); state.set(slot: s, code: AbsCode.mtPositionY, scale.rawYMin)
        }
        let initialState = initialState ?? EvdevState(slotCount: 0)
        absRange = Array(repeating: Int32.min...Int32.max, count: 64)
        var inverted: [String] = []
        for (code, info) in device.absInfo where code < 64 && code != AbsCode.mtSlot && code != AbsCode.mtTrackingId {
            absRange[Int(code)] = Swift.min(info.minimum, info.maximum)...Swift.max(info.minimum, info.maximum)
            if info.minimum > info.maximum {
                inverted.append("kernel bug: \(TextEscaping.escaped(device.name)): \(EventCodes.name(type: EventType.abs, code: code)) minimum \(info.minimum) above maximum \(info.maximum), treated as \(info.maximum)…\(info.minimum)")
            }
        }
        if let claimed = device.excessSlotCount {
            inverted.append("kernel bug: \(TextEscaping.escaped(device.name)): ABS_MT_SLOT maximum \(claimed - 1) claims \(claimed) slots, only the first \(DeviceDescription.maximumSlotCount) are tracked")
        }
        hasTouchKey = device.hasKey(KeyCode.btnTouch)
        usesToolCounts = device.kind != .touchscreen

        for (code, fingers) in KeyCode.fingerCountTools where initialState.isDown(code) {
            ctx.toolMask |= 1 << UInt8(fingers - 1)
        }
        ctx.touchKey = initialState.isDown(KeyCode.btnTouch)
        ctx.diagnostics = inverted
        ctx.leaving.reserveCapacity(8)
        self.state = state
        slotContacts = SlotContacts(device: device, scale: scale, picture: picture, state: state, knownSlots: initialState.slotCount,
                                    currentSlotValid: initialState.slotCount == 0 || initialState.currentSlot < slotCount)
        anonymousContacts = AnonymousContacts(device: device, scale: scale, picture: picture,
                                              ignoreUntilLift: contactProtocol == .anonymous && (ctx.touchKey || ctx.toolMask != 0))
        singleContact = SingleTouchContact(device: device, scale: scale, picture: picture, initialState: initialState)
    }

    // MARK: - Public API

    /// A touch is on the surface after the last frame (positioned, or BTN_TOUCH still held).
    public var isTouched: Bool { activeAfterFrame > 0 || ctx.touchKey }

    /// Feeds one event; returns the frame it completes (at SYN_REPORT), nil otherwise.
    public mutating func decode(_ event: InputEvent) -> TouchFrame? {
        // ABS first: most events of a frame are axis values (a switch tested SYN and KEY first).
        if event.type == EventType.abs {
            absEvent(event)
            return nil
        }
        switch event.type {
        case EventType.key:
            keyEvent(code: event.code, value: event.value)
            return nil
        case EventType.syn:
            switch event.code {
            case SynCode.report:
                frameTime = event.time
                return makeFrame()
            case SynCode.mtReport:
                if contactProtocol == .anonymous { anonymousContacts.endPacket(&ctx) }
                return nil
            case SynCode.dropped:
                resyncing = true
                return nil
            default:
                return nil
            }
        default:
            return nil
        }
    }

    /// The device went away: every touch still on the surface is cancelled, in one frame flagged
    /// `.deviceRemoved`. Nil when nothing was on the surface.
    public mutating func deviceRemoved(at time: Instant) -> TouchFrame? {
        var touches = ctx.leaving
        ctx.leaving.removeAll(keepingCapacity: true)
        switch contactProtocol {
        case .slots: slotContacts.removeAll(into: &touches, &state)
        case .anonymous: anonymousContacts.removeAll(into: &touches)
        case .singleTouch: singleContact.removeAll(into: &touches, state)
        case .none: break
        }
        ctx.toolMask = 0; ctx.touchKey = false
        activeAfterFrame = 0
        guard !touches.isEmpty else { return nil }
        var flags: TouchFrame.Flags = [.deviceRemoved]
        if isSemiMT { flags.insert(.semiMT) }
        return TouchFrame(time: time, touches: touches, fingerCount: 0, flags: flags)
    }

    /// After the last frame nothing touches the device: no contact (shown or hidden), no
    /// BTN_TOUCH, BTN_TOOL_* or button held, no resync pending. Read between frames only.
    public var isIdle: Bool {
        activeAfterFrame == 0 && hiddenAfterFrame == 0 && !ctx.touchKey && ctx.toolMask == 0 && buttonMask == 0 && !resyncing
    }

    /// How long without frames, with BTN_TOUCH released, before `checkStuckTouches(at:)` ends the
    /// touches still on the surface.
    public static let stuckTouchTimeout: Duration = .seconds(2)

    /// When the stuck-touch watchdog wants `checkStuckTouches(at:)`: `stuckTouchTimeout` after the
    /// last frame, while BTN_TOUCH is released (on a device that has it) and touches are still on
    /// the surface. Nil when nothing can be stuck. `GesturePipeline` folds it into its deadlines.
    public var nextDeadline: Instant? {
        guard hasTouchKey, !ctx.touchKey, activeAfterFrame > 0 else { return nil }
        let (due, overflow) = frameTime.microseconds.addingReportingOverflow(Self.stuckTouchTimeout.totalMicroseconds)
        return Instant(microseconds: overflow ? Int64.max : due)
    }

    /// The stuck-touch watchdog: when no frame came for `stuckTouchTimeout` while BTN_TOUCH is
    /// released (on a device that has it) but touches are still on the surface (a lost tracking-id
    /// −1), ends them in one frame and reports a "kernel bug:" line. Nil when nothing is stuck.
    /// Only touches already reported end, and only between frames (no pending events for them).
    public mutating func checkStuckTouches(at now: Instant) -> TouchFrame? {
        guard let due = nextDeadline, due <= now else { return nil }
        // Looked at once per quiet spell: whatever is found now, the deadline is spent.
        activeAfterFrame = 0
        var touches: [Touch] = []
        switch contactProtocol {
        case .slots: slotContacts.endStuck(into: &touches, &state)
        case .anonymous: anonymousContacts.endStuck(into: &touches)
        case .singleTouch, .none: return nil   // BTN_TOUCH released already ends a single touch
        }
        guard !touches.isEmpty else { return nil }
        ctx.diagnose("kernel bug: \(TextEscaping.escaped(device.name)): \(touches.count) touch(es) still down \(Self.stuckTouchTimeout) after BTN_TOUCH was released, ended")
        frameTime = now
        lastTouchCount = 0
        var flags: TouchFrame.Flags = []
        if isSemiMT { flags.insert(.semiMT) }
        return TouchFrame(time: now, touches: touches, fingerCount: 0, flags: flags)
    }

    /// Takes `other`'s values of `codes` into the device's state: the axes a reader's
    /// `ReadMask` held back, once it reads them again (an exclusive device's clone starts from
    /// this state). Touches and frames are untouched.
    public mutating func adoptAxes(_ codes: [UInt16], from other: EvdevState) {
        state.adopt(codes, from: other)
    }

    /// There are "kernel bug:" lines to drain.
    public var hasDiagnostics: Bool { @inline(__always) get { !ctx.diagnostics.isEmpty } }

    /// "kernel bug:" lines collected since the last call.
    public mutating func drainDiagnostics() -> [String] {
        defer { ctx.diagnostics.removeAll() }
        return ctx.diagnostics
    }

    // MARK: - Events

    private mutating func absEvent(_ event: InputEvent) {
        let code = event.code
        var value = event.value
        ctx.eventTime = event.time
        if code < 64 {
            let range = absRange[Int(code)]
            if value < range.lowerBound || value > range.upperBound { value = outOfRange(code, value, range) }
        }
        switch contactProtocol {
        // Codes below ABS_MT_SLOT (ABS_X, ABS_PRESSURE… the single-touch emulation most MT
        // devices also send) mean nothing to protocol B: only state.
        case .slots:
            if code >= AbsCode.mtSlot && code <= AbsCode.mtToolY { slotContacts.abs(code: code, value: value, &state, &ctx) }
            else { state.setAxis(code, value) }
        case .anonymous:
            if code >= AbsCode.mtSlot && code <= AbsCode.mtToolY { anonymousContacts.abs(code: code, value: value) }
            else { state.setAxis(code, value) }
        case .singleTouch: singleContact.abs(code: code, value: value, &state)
        case .none: state.setAxis(code, value)
        }
    }

    /// A value outside its axis range: reported (rate-limited) and clamped. Kept out of line: the
    /// message made `absEvent` save six registers and set up a frame for every event.
    @inline(never)
    private mutating func outOfRange(_ code: UInt16, _ value: Int32, _ range: ClosedRange<Int32>) -> Int32 {
        let lo = range.lowerBound, hi = range.upperBound
        ctx.diagnoseLimited(code: code) { t in
            if let name = EventCodes.absName(code) { t.add(name) } else { t.add("ABS_"); t.add(Int(code)) }
            t.add(" "); t.add(value); t.add(" outside "); t.add(lo); t.add("…"); t.add(hi); t.add(", clamped")
        }
        return value < lo ? lo : hi
    }

    private mutating func keyEvent(code: UInt16, value: Int32) {
        // A repeat (2) changes no state, as in the kernel's input core.
        if value != 2 { state.setKey(code, value) }
        let down = value != 0
        let bit: UInt8
        switch code {
        case KeyCode.btnTouch: ctx.touchKey = down; return
        case KeyCode.btnToolFinger: bit = 1 << 0
        case KeyCode.btnToolDoubleTap: bit = 1 << 1
        case KeyCode.btnToolTripleTap: bit = 1 << 2
        case KeyCode.btnToolQuadTap: bit = 1 << 3
        case KeyCode.btnToolQuintTap: bit = 1 << 4
        case KeyCode.btnLeft, KeyCode.btnRight, KeyCode.btnMiddle:
            let b: UInt8 = code == KeyCode.btnLeft ? 1 : code == KeyCode.btnRight ? 2 : 4
            if down { buttonMask |= b } else { buttonMask &= ~b }
            return
        default: return
        }
        if down { ctx.toolMask |= bit } else { ctx.toolMask &= ~bit }
    }

    /// Fingers according to BTN_TOOL_*: the highest one held.
    private var toolFingerCount: Int {
        ctx.toolMask == 0 ? 0 : 8 - ctx.toolMask.leadingZeroBitCount
    }

    // MARK: - Frames

    private mutating func makeFrame() -> TouchFrame {
        var touches: [Touch] = []
        swap(&touches, &frameBuffer)
        touches.removeAllKeepingBuffer()
        touches.reserveCapacity(ctx.leaving.count + lastTouchCount + 2)
        if !ctx.leaving.isEmpty {
            touches.append(contentsOf: ctx.leaving)
            ctx.leaving.removeAllKeepingBuffer()
        }
        let counts: (active: Int, hidden: Int)
        switch contactProtocol {
        case .slots: counts = slotContacts.frame(into: &touches, &state, &ctx)
        case .anonymous: counts = anonymousContacts.frame(into: &touches, &ctx)
        case .singleTouch: counts = singleContact.frame(into: &touches, &state, &ctx)
        case .none: counts = (0, 0)
        }
        // BTN_TOOL_* may count fingers beyond the positioned touches; touches we hide (palms,
        // down at open) are not fingers for gestures.
        var fingers = counts.active
        if usesToolCounts && (counts.active > 0 || counts.hidden == 0) {
            let fromTools = toolFingerCount - counts.hidden
            if fromTools > fingers { fingers = fromTools }
        }
        // A touchpad that reports a tool count while no positioned contact is down (hover, or the
        // last frame of a lift) is not a touch.
        if counts.active == 0 && contactProtocol != .none && !ctx.touchKey && ctx.toolMask != 0 && fingers > 0 {
            fingers = 0
        }
        lastTouchCount = touches.count
        activeAfterFrame = counts.active
        hiddenAfterFrame = counts.hidden
        var flags: TouchFrame.Flags = []
        if resyncing { flags.insert(.resynchronized); resyncing = false }
        if isSemiMT { flags.insert(.semiMT) }
        frameBuffer = touches
        return TouchFrame(time: frameTime, touches: touches, fingerCount: fingers, flags: flags,
                          buttonDown: usesToolCounts && buttonMask != 0)
    }
}
