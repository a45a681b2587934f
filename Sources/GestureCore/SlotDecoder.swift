/// Turns a device's raw evdev events into `TouchFrame`s, one per SYN_REPORT.
///
/// Handles, per DESIGN.md "Input details":
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
/// - **Touches down at open** (given through `InitialState`) are ignored until they lift.
///
/// Positions are millimetres from the top-left (axis minimum) using the device's
/// `unitsPerMillimeter`. Touch ids are unique and never reused within one decoder. An ended or
/// cancelled touch appears exactly once. The per-event path works on fixed arrays only.
public struct SlotDecoder: Sendable {
    /// The state of one protocol-B slot as libevdev reports it at open (libevdev_get_slot_value).
    public struct SlotValues: Hashable, Sendable {
        public var trackingId: Int32
        public var x: Int32
        public var y: Int32
        public var pressure: Int32
        public var touchMajor: Int32
        public var toolType: Int32
        public init(trackingId: Int32 = -1, x: Int32 = 0, y: Int32 = 0, pressure: Int32 = 0,
                    touchMajor: Int32 = 0, toolType: Int32 = MTToolType.finger) {
            self.trackingId = trackingId; self.x = x; self.y = y; self.pressure = pressure
            self.touchMajor = touchMajor; self.toolType = toolType
        }
    }

    /// What the device looked like when it was opened. Touches already down are ignored until they
    /// lift. A recording starts from `.empty`.
    public struct InitialState: Hashable, Sendable {
        /// The slot the device's events refer to until the first ABS_MT_SLOT (ABS_MT_SLOT's value).
        public var currentSlot: Int
        /// Per-slot values, index = slot. Missing slots are free.
        public var slots: [SlotValues]
        /// Keys held at open (BTN_TOUCH, BTN_TOOL_*…).
        public var keysDown: Set<UInt16>
        /// Current values of the single-touch axes (ABS_X, ABS_Y, ABS_PRESSURE) at open.
        public var absValues: [UInt16: Int32]

        public init(currentSlot: Int = 0, slots: [SlotValues] = [], keysDown: Set<UInt16> = [],
                    absValues: [UInt16: Int32] = [:]) {
            self.currentSlot = currentSlot; self.slots = slots; self.keysDown = keysDown
            self.absValues = absValues
        }

        /// Nothing down, slot 0: the start of a recording.
        public static let empty = InitialState()
    }

    public let device: DeviceDescription
    public let contactProtocol: ContactProtocol
    public let isSemiMT: Bool

    // MARK: - Geometry, precomputed

    private let xMin: Int32, yMin: Int32
    private let xScale: Double, yScale: Double   // mm per unit
    private let hasPressure: Bool, hasMajor: Bool
    /// Clamp ranges for ABS codes 0…0x3f (min > max = no absinfo, not clamped).
    private var absMin: [Int32]
    private var absMax: [Int32]

    // MARK: - Diagnostics

    private var diagnostics: [String] = []
    private var lastReportMicroseconds: [Int64]
    private var suppressedReports: [Int]
    private static let reportIntervalMicroseconds: Int64 = 10_000_000
    private static let maxDiagnosticsKept = 100

    // MARK: - Shared state

    private var nextTouchId = 1
    /// Touches that ended or were cancelled since the last frame (emitted once, first in the frame).
    private var leaving: [Touch] = []
    private var resyncing = false
    private var toolMask: UInt8 = 0       // bit n = BTN_TOOL_* for n+1 fingers held
    private var touchKey = false          // BTN_TOUCH
    private var frameTime = Instant.zero
    /// Touches in the previous frame: the next frame's array is sized from it.
    private var lastTouchCount = 0
    /// Positioned touches still on the surface after the previous frame (the watchdog's concern).
    private var activeAfterFrame = 0

    // MARK: - Protocol B

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
    private var slots: [Slot]
    private var currentSlot: Int
    private var currentSlotValid = true

    // MARK: - Protocol A

    private struct Contact {
        var x: Int32 = 0, y: Int32 = 0
        var pressure: Int32 = 0, major: Int32 = 0
        var trackingId: Int32 = -1
        var tool: Int32 = MTToolType.finger
        var hasPosition = false
        var hasMajor = false
    }
    private struct Track {
        var contact: Contact
        var touchId: Int
        var slot: Int
        var suppressed: Bool
        var matched = false
    }
    private static let maxAnonymousContacts = 32
    private var packet = Contact()
    private var packetContacts: [Contact] = []
    private var tracks: [Track] = []
    private var sawPacket = false
    private var ignoreAnonymousUntilLift = false
    /// Some protocol-A drivers (bcm5974) keep reporting lifted contacts with ABS_MT_TOUCH_MAJOR 0:
    /// once a device has shown a non-zero major, a zero one means "not touching".
    private var sawNonzeroMajor = false
    private let hasTouchKey: Bool
    /// BTN_TOOL_* counts are touchpad semantics; touchscreens (N-Trig sends BTN_TOOL_DOUBLETAP for a
    /// single finger) count positioned touches only.
    private let usesToolCounts: Bool

    // MARK: - Single-touch

    private var stX: Int32 = 0, stY: Int32 = 0, stPressure: Int32 = 0
    private var stMoved = false
    private var stTouchId = 0
    private var stSuppressed = false
    private let stUsesToolFinger: Bool

    // MARK: - Init

    /// A decoder for `device` starting from `initialState` (`.empty` for recordings).
    public init(device: DeviceDescription, initialState: InitialState = .empty) {
        self.device = device
        contactProtocol = device.contactProtocol
        isSemiMT = device.isSemiMT
        let axes = device.positionAxes ?? (AbsInfo(minimum: 0, maximum: 0), AbsInfo(minimum: 0, maximum: 0))
        // An inverted axis (minimum above maximum: a kernel bug) is measured from its lower end.
        xMin = Swift.min(axes.x.minimum, axes.x.maximum); yMin = Swift.min(axes.y.minimum, axes.y.maximum)
        let xMax = Swift.max(axes.x.minimum, axes.x.maximum), yMax = Swift.max(axes.y.minimum, axes.y.maximum)
        let upm = device.unitsPerMillimeter
        xScale = 1 / upm.x; yScale = 1 / upm.y
        let mt = contactProtocol == .slots || contactProtocol == .anonymous
        hasPressure = device.hasAxis(mt ? AbsCode.mtPressure : AbsCode.pressure)
        hasMajor = mt && device.hasAxis(AbsCode.mtTouchMajor)
        absMin = Array(repeating: 1, count: 64)
        absMax = Array(repeating: 0, count: 64)
        var inverted: [String] = []
        for (code, info) in device.absInfo where code < 64 && code != AbsCode.mtSlot && code != AbsCode.mtTrackingId {
            absMin[Int(code)] = Swift.min(info.minimum, info.maximum)
            absMax[Int(code)] = Swift.max(info.minimum, info.maximum)
            if info.minimum > info.maximum {
                inverted.append("kernel bug: \(device.name): \(EventCodes.name(type: EventType.abs, code: code)) minimum \(info.minimum) above maximum \(info.maximum), treated as \(info.maximum)…\(info.minimum)")
            }
        }
        lastReportMicroseconds = Array(repeating: Int64.min, count: 64)
        suppressedReports = Array(repeating: 0, count: 64)
        stUsesToolFinger = !device.hasKey(KeyCode.btnTouch)
        hasTouchKey = device.hasKey(KeyCode.btnTouch)
        usesToolCounts = device.kind != .touchscreen

        // A position never sent is the axis minimum (the top-left), never outside the surface.
        var fresh = Slot()
        fresh.x = xMin; fresh.y = yMin
        slots = Array(repeating: fresh, count: contactProtocol == .slots ? Swift.max(1, device.slotCount) : 0)
        func clampX(_ v: Int32) -> Int32 { Swift.min(Swift.max(v, xMin), xMax) }
        func clampY(_ v: Int32) -> Int32 { Swift.min(Swift.max(v, yMin), yMax) }
        currentSlot = initialState.currentSlot
        currentSlotValid = currentSlot >= 0 && currentSlot < slots.count
        for (i, v) in initialState.slots.enumerated() where i < slots.count {
            slots[i].trackingId = v.trackingId
            slots[i].x = clampX(v.x); slots[i].y = clampY(v.y); slots[i].pressure = v.pressure
            slots[i].major = v.touchMajor; slots[i].tool = v.toolType
            slots[i].suppressed = v.trackingId >= 0
        }
        for (code, fingers) in KeyCode.fingerCountTools where initialState.keysDown.contains(code) {
            toolMask |= 1 << UInt8(fingers - 1)
        }
        touchKey = initialState.keysDown.contains(KeyCode.btnTouch)
        stX = clampX(initialState.absValues[AbsCode.x] ?? xMin)
        stY = clampY(initialState.absValues[AbsCode.y] ?? yMin)
        stPressure = initialState.absValues[AbsCode.pressure] ?? 0
        if contactProtocol == .singleTouch {
            stSuppressed = stUsesToolFinger ? initialState.keysDown.contains(KeyCode.btnToolFinger) : touchKey
        }
        if contactProtocol == .anonymous {
            ignoreAnonymousUntilLift = touchKey || toolMask != 0
        }
        packet.x = xMin; packet.y = yMin
        diagnostics = inverted
        leaving.reserveCapacity(8)
        packetContacts.reserveCapacity(Self.maxAnonymousContacts)
        tracks.reserveCapacity(Self.maxAnonymousContacts)
    }

    // MARK: - Public API

    /// Feeds one event; returns the frame it completes (at SYN_REPORT), nil otherwise.
    public mutating func decode(_ event: InputEvent) -> TouchFrame? {
        switch event.type {
        case EventType.abs:
            absEvent(event)
            return nil
        case EventType.key:
            keyEvent(code: event.code, down: event.value != 0)
            return nil
        case EventType.syn:
            switch event.code {
            case SynCode.report:
                frameTime = event.time
                return makeFrame()
            case SynCode.mtReport:
                if contactProtocol == .anonymous { endPacket() }
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
        var touches = leaving
        leaving.removeAll(keepingCapacity: true)
        switch contactProtocol {
        case .slots:
            for i in slots.indices {
                if slots[i].trackingId >= 0, slots[i].touchId != 0, !slots[i].suppressed {
                    touches.append(touch(slot: i, phase: .cancelled))
                }
                let (x, y) = (slots[i].x, slots[i].y)
                slots[i] = Slot()
                slots[i].x = x; slots[i].y = y
            }
        case .anonymous:
            for t in tracks where !t.suppressed {
                touches.append(anonymousTouch(t, phase: .cancelled))
            }
            tracks.removeAll()
        case .singleTouch:
            if stTouchId != 0 && !stSuppressed {
                touches.append(singleTouch(phase: .cancelled))
            }
            stTouchId = 0; stSuppressed = false
        case .none:
            break
        }
        toolMask = 0; touchKey = false
        activeAfterFrame = 0
        guard !touches.isEmpty else { return nil }
        var flags: TouchFrame.Flags = [.deviceRemoved]
        if isSemiMT { flags.insert(.semiMT) }
        return TouchFrame(time: time, touches: touches, fingerCount: 0, flags: flags)
    }

    /// How long without frames, with BTN_TOUCH released, before `checkStuckTouches(at:)` ends the
    /// touches still on the surface.
    public static let stuckTouchTimeout: Duration = .seconds(2)

    /// When the stuck-touch watchdog wants `checkStuckTouches(at:)`: `stuckTouchTimeout` after the
    /// last frame, while BTN_TOUCH is released (on a device that has it) and touches are still on
    /// the surface. Nil when nothing can be stuck. `GesturePipeline` folds it into its deadlines.
    public var nextDeadline: Instant? {
        guard hasTouchKey, !touchKey, activeAfterFrame > 0 else { return nil }
        let (due, overflow) = frameTime.microseconds.addingReportingOverflow(Self.stuckTouchTimeout.totalMicroseconds)
        return Instant(microseconds: overflow ? Int64.max : due)
    }

    /// The stuck-touch watchdog: when no frame came for
    /// `stuckTouchTimeout` while BTN_TOUCH is released (on a device that has it) but touches are
    /// still on the surface (a lost tracking-id −1), ends them in one frame and reports a
    /// "kernel bug:" line. Nil when nothing is stuck.
    public mutating func checkStuckTouches(at now: Instant) -> TouchFrame? {
        guard let due = nextDeadline, due <= now else { return nil }
        // Looked at once per quiet spell: whatever is found now, the deadline is spent.
        activeAfterFrame = 0
        var touches: [Touch] = []
        switch contactProtocol {
        case .slots:
            // Only touches already reported, and only between frames (no pending events for them).
            for i in slots.indices where slots[i].trackingId >= 0 && slots[i].touchId != 0 && !slots[i].suppressed {
                touches.append(Touch(id: slots[i].touchId, slot: i, phase: .ended,
                                     x: slots[i].lastXmm, y: slots[i].lastYmm, tool: Self.tool(slots[i].tool)))
                slots[i].trackingId = -1; slots[i].touchId = 0
            }
        case .anonymous:
            for t in tracks where !t.suppressed { touches.append(anonymousTouch(t, phase: .ended)) }
            if !touches.isEmpty { tracks.removeAll(keepingCapacity: true) }
        case .singleTouch, .none:
            return nil   // BTN_TOUCH released already ends a single touch
        }
        guard !touches.isEmpty else { return nil }
        appendDiagnostic("kernel bug: \(device.name): \(touches.count) touch(es) still down \(Self.stuckTouchTimeout) after BTN_TOUCH was released, ended")
        frameTime = now
        lastTouchCount = 0
        var flags: TouchFrame.Flags = []
        if isSemiMT { flags.insert(.semiMT) }
        return TouchFrame(time: now, touches: touches, fingerCount: 0, flags: flags)
    }

    /// "kernel bug:" lines collected since the last call.
    public mutating func drainDiagnostics() -> [String] {
        defer { diagnostics.removeAll() }
        return diagnostics
    }

    // MARK: - Events

    private mutating func absEvent(_ event: InputEvent) {
        let code = event.code
        var value = event.value
        if code < 64 {
            let c = Int(code)
            let lo = absMin[c], hi = absMax[c]
            if lo <= hi && (value < lo || value > hi) {
                report(code: code, value: value, time: event.time, lo: lo, hi: hi)
                value = value < lo ? lo : hi
            }
        }
        switch contactProtocol {
        case .slots: slotAbs(code: code, value: value, time: event.time)
        case .anonymous: anonymousAbs(code: code, value: value)
        case .singleTouch: singleAbs(code: code, value: value)
        case .none: break
        }
    }

    private mutating func keyEvent(code: UInt16, down: Bool) {
        let bit: UInt8
        switch code {
        case KeyCode.btnTouch: touchKey = down; return
        case KeyCode.btnToolFinger: bit = 1 << 0
        case KeyCode.btnToolDoubleTap: bit = 1 << 1
        case KeyCode.btnToolTripleTap: bit = 1 << 2
        case KeyCode.btnToolQuadTap: bit = 1 << 3
        case KeyCode.btnToolQuintTap: bit = 1 << 4
        default: return
        }
        if down { toolMask |= bit } else { toolMask &= ~bit }
    }

    /// Fingers according to BTN_TOOL_*: the highest one held.
    private var toolFingerCount: Int {
        toolMask == 0 ? 0 : 8 - toolMask.leadingZeroBitCount
    }

    private mutating func report(code: UInt16, value: Int32, time: Instant, lo: Int32, hi: Int32) {
        let c = Int(code)
        let last = lastReportMicroseconds[c]
        if last != Int64.min && time.microseconds - last < Self.reportIntervalMicroseconds
            && time.microseconds >= last {
            suppressedReports[c] += 1
            return
        }
        lastReportMicroseconds[c] = time.microseconds
        var line = "kernel bug: \(device.name): \(EventCodes.name(type: EventType.abs, code: code)) \(value) outside \(lo)…\(hi), clamped"
        if suppressedReports[c] > 0 {
            line += " (\(suppressedReports[c]) more since the last report)"
            suppressedReports[c] = 0
        }
        appendDiagnostic(line)
    }

    private mutating func appendDiagnostic(_ line: String) {
        if diagnostics.count < Self.maxDiagnosticsKept { diagnostics.append(line) }
    }

    // MARK: Protocol B

    private mutating func slotAbs(code: UInt16, value: Int32, time: Instant) {
        if code == AbsCode.mtSlot {
            if value >= 0 && Int(value) < slots.count {
                currentSlot = Int(value); currentSlotValid = true
            } else {
                currentSlotValid = false
                appendDiagnostic("kernel bug: \(device.name): ABS_MT_SLOT \(value) outside 0…\(slots.count - 1), its events ignored")
            }
            return
        }
        guard currentSlotValid else { return }
        let s = currentSlot
        switch code {
        case AbsCode.mtTrackingId:
            let old = slots[s].trackingId
            if value < 0 {
                if old >= 0 { endSlot(s) }
                slots[s].trackingId = -1
            } else if value != old {
                if old >= 0 { endSlot(s) }
                slots[s].trackingId = value
                slots[s].touchId = 0
                slots[s].suppressed = false
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
    private mutating func endSlot(_ s: Int) {
        if slots[s].touchId != 0 && !slots[s].suppressed {
            leaving.append(Touch(id: slots[s].touchId, slot: s, phase: .ended,
                                 x: slots[s].lastXmm, y: slots[s].lastYmm,
                                 pressure: hasPressure ? slots[s].pressure : nil,
                                 majorAxis: hasMajor ? Double(slots[s].major) * xScale : nil,
                                 tool: Self.tool(slots[s].tool)))
        }
        slots[s].touchId = 0
        slots[s].suppressed = false
    }

    private static func tool(_ t: Int32) -> TouchTool {
        t == MTToolType.pen ? .pen : t == MTToolType.palm ? .palm : .finger
    }

    private func touch(slot s: Int, phase: TouchPhase) -> Touch {
        let sl = slots[s]
        return Touch(id: sl.touchId, slot: s, phase: phase,
                     x: (Double(sl.x) - Double(xMin)) * xScale, y: (Double(sl.y) - Double(yMin)) * yScale,
                     pressure: hasPressure ? sl.pressure : nil,
                     majorAxis: hasMajor ? Double(sl.major) * xScale : nil,
                     tool: Self.tool(sl.tool))
    }

    private mutating func slotFrame(into touches: inout [Touch]) -> (active: Int, hidden: Int) {
        var active = 0, hidden = 0
        for s in slots.indices where slots[s].trackingId >= 0 {
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
                slots[s].touchId = nextTouchId; nextTouchId += 1
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

    // MARK: Protocol A

    private mutating func anonymousAbs(code: UInt16, value: Int32) {
        switch code {
        case AbsCode.mtPositionX: packet.x = value; packet.hasPosition = true
        case AbsCode.mtPositionY: packet.y = value; packet.hasPosition = true
        case AbsCode.mtPressure: packet.pressure = value
        case AbsCode.mtTouchMajor: packet.major = value; packet.hasMajor = true
        case AbsCode.mtTrackingId: packet.trackingId = value
        case AbsCode.mtToolType: packet.tool = value
        default: break
        }
    }

    private mutating func endPacket() {
        sawPacket = true
        defer { packet = Contact(); packet.x = xMin; packet.y = yMin }
        guard packet.hasPosition else { return }   // an empty packet: no contact
        if hasMajor {
            if packet.major != 0 { sawNonzeroMajor = true } else if sawNonzeroMajor && packet.hasMajor { return }
        }
        if packetContacts.count < Self.maxAnonymousContacts {
            packetContacts.append(packet)
        } else {
            appendDiagnostic("kernel bug: \(device.name): more than \(Self.maxAnonymousContacts) protocol-A contacts in one frame, the rest ignored")
        }
    }

    private func anonymousTouch(_ t: Track, phase: TouchPhase) -> Touch {
        Touch(id: t.touchId, slot: t.slot, phase: phase,
              x: (Double(t.contact.x) - Double(xMin)) * xScale, y: (Double(t.contact.y) - Double(yMin)) * yScale,
              pressure: hasPressure ? t.contact.pressure : nil,
              majorAxis: hasMajor ? Double(t.contact.major) * xScale : nil,
              tool: Self.tool(t.contact.tool))
    }

    private mutating func anonymousFrame(into touches: inout [Touch]) -> (active: Int, hidden: Int) {
        // A packet still open at SYN_REPORT (no closing SYN_MT_REPORT) counts as one.
        if packet.hasPosition { endPacket() }
        // BTN_TOUCH released: whatever packets say, nothing touches.
        let contacts = hasTouchKey && !touchKey ? [] : packetContacts
        packetContacts.removeAll(keepingCapacity: true)
        sawPacket = false

        for i in tracks.indices { tracks[i].matched = false }
        var assignment = [Int](repeating: -1, count: contacts.count)   // contact → track index
        // 1. By tracking id where the device sends one.
        for (ci, c) in contacts.enumerated() where c.trackingId >= 0 {
            if let ti = tracks.firstIndex(where: { !$0.matched && $0.contact.trackingId == c.trackingId }) {
                tracks[ti].matched = true; assignment[ci] = ti
            }
        }
        // 2. The rest (no id) by nearest position, greedily, closest pair first.
        while true {
            var best = Int64.max, bc = -1, bt = -1
            for (ci, c) in contacts.enumerated() where assignment[ci] < 0 && c.trackingId < 0 {
                for ti in tracks.indices where !tracks[ti].matched && tracks[ti].contact.trackingId < 0 {
                    let dx = Int64(c.x) - Int64(tracks[ti].contact.x)
                    let dy = Int64(c.y) - Int64(tracks[ti].contact.y)
                    let d = dx * dx + dy * dy
                    if d < best { best = d; bc = ci; bt = ti }
                }
            }
            if bc < 0 { break }
            tracks[bt].matched = true; assignment[bc] = bt
        }
        // Unmatched tracks lifted.
        var remaining: [Track] = []
        remaining.reserveCapacity(tracks.count + contacts.count)
        var newIndex = [Int](repeating: -1, count: tracks.count)
        for (ti, t) in tracks.enumerated() {
            if t.matched { newIndex[ti] = remaining.count; remaining.append(t); continue }
            if !t.suppressed { touches.append(anonymousTouch(t, phase: .ended)) }
        }
        if contacts.isEmpty { ignoreAnonymousUntilLift = false }
        var active = 0, hidden = 0
        for (ci, c) in contacts.enumerated() {
            if assignment[ci] >= 0 {
                let ri = newIndex[assignment[ci]]
                var t = remaining[ri]
                let moved = t.contact.x != c.x || t.contact.y != c.y
                t.contact = c
                if t.suppressed {
                    hidden += 1
                } else if c.tool == MTToolType.palm {
                    var out = anonymousTouch(t, phase: .cancelled); out.tool = .palm
                    touches.append(out)
                    t.suppressed = true
                    hidden += 1
                } else {
                    touches.append(anonymousTouch(t, phase: moved ? .moved : .stationary))
                    active += 1
                }
                remaining[ri] = t
            } else {
                var used: UInt64 = 0
                for r in remaining where r.slot < 64 { used |= 1 << UInt64(r.slot) }
                let slot = (~used).trailingZeroBitCount
                var t = Track(contact: c, touchId: 0, slot: slot, suppressed: false)
                if ignoreAnonymousUntilLift || c.tool == MTToolType.palm {
                    t.suppressed = true
                    hidden += 1
                } else {
                    t.touchId = nextTouchId; nextTouchId += 1
                    touches.append(anonymousTouch(t, phase: .began))
                    active += 1
                }
                remaining.append(t)
            }
        }
        tracks = remaining
        return (active, hidden)
    }

    // MARK: Single-touch

    private mutating func singleAbs(code: UInt16, value: Int32) {
        switch code {
        case AbsCode.x: if stX != value { stX = value; stMoved = true }
        case AbsCode.y: if stY != value { stY = value; stMoved = true }
        case AbsCode.pressure: stPressure = value
        default: break
        }
    }

    private func singleTouch(phase: TouchPhase) -> Touch {
        Touch(id: stTouchId, slot: 0, phase: phase,
              x: (Double(stX) - Double(xMin)) * xScale, y: (Double(stY) - Double(yMin)) * yScale,
              pressure: hasPressure ? stPressure : nil)
    }

    private mutating func singleFrame(into touches: inout [Touch]) -> (active: Int, hidden: Int) {
        let down = stUsesToolFinger ? toolMask != 0 : touchKey
        defer { stMoved = false }
        if !down {
            if stTouchId != 0 && !stSuppressed { touches.append(singleTouch(phase: .ended)) }
            stTouchId = 0; stSuppressed = false
            return (0, 0)
        }
        if stSuppressed { return (0, 1) }
        if stTouchId == 0 {
            stTouchId = nextTouchId; nextTouchId += 1
            touches.append(singleTouch(phase: .began))
        } else {
            touches.append(singleTouch(phase: stMoved ? .moved : .stationary))
        }
        return (1, 0)
    }

    // MARK: Frames

    private mutating func makeFrame() -> TouchFrame {
        var touches: [Touch] = []
        touches.reserveCapacity(leaving.count + lastTouchCount + 2)
        if !leaving.isEmpty {
            touches.append(contentsOf: leaving)
            leaving.removeAll(keepingCapacity: true)
        }
        let counts: (active: Int, hidden: Int)
        switch contactProtocol {
        case .slots: counts = slotFrame(into: &touches)
        case .anonymous: counts = anonymousFrame(into: &touches)
        case .singleTouch: counts = singleFrame(into: &touches)
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
        if counts.active == 0 && contactProtocol != .none && !touchKey && toolMask != 0 && fingers > 0 {
            fingers = 0
        }
        lastTouchCount = touches.count
        activeAfterFrame = counts.active
        var flags: TouchFrame.Flags = []
        if resyncing { flags.insert(.resynchronized); resyncing = false }
        if isSemiMT { flags.insert(.semiMT) }
        return TouchFrame(time: frameTime, touches: touches, fingerCount: fingers, flags: flags)
    }
}
