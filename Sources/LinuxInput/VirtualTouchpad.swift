import GestureCore

/// gestured's virtual touchpad: a uinput clickpad that libinput takes for a real touchpad
/// (INPUT_PROP_POINTER and INPUT_PROP_BUTTONPAD, BTN_LEFT, BTN_TOUCH, BTN_TOOL_FINGER up to
/// QUINTTAP, 5 protocol-B slots, ABS_X/ABS_Y and ABS_MT_POSITION_X/Y with a resolution), so the
/// compositor's libinput turns contacts moved on it into GESTURE_SWIPE and GESTURE_PINCH events.
/// Its phys is `gestured-virtual/touchpad`: gestured's own discovery skips it.
///
/// Contacts are given in millimetres from the top-left corner and clamped to the surface. They
/// land together, in one frame, and lift together, in one frame, as a hand on a real touchpad
/// does when every finger counts: libinput never sees one finger alone (which would move the
/// pointer). It never presses BTN_LEFT. `deinit` lifts what is down; if the process dies without
/// that (kill -9), closing /dev/uinput removes the device and the compositor's libinput ends its
/// touches with the device.
public final class VirtualTouchpad {
    public static let role = "touchpad"
    public static let defaultName = "gestured virtual touchpad"
    /// The surface, mm: a large laptop touchpad, so a replayed swipe has room to travel.
    public static let widthMillimeters = 160.0, heightMillimeters = 110.0
    /// Device units per millimetre (the axes' resolution): 1016 dpi.
    public static let unitsPerMillimeter: Int32 = 40
    /// Slots, and the most contacts down at once (BTN_TOOL_QUINTTAP).
    public static let maximumContacts = 5
    static let product: UInt16 = 4

    public let device: UInputDevice
    /// Contacts down now (0 when lifted).
    public var contactCount: Int { positions.count }
    /// Where the contacts are, device units, slot by slot.
    private var positions: [(x: Int32, y: Int32)] = []
    private var nextTrackingID: Int32 = 0
    private var frame: [InputEvent] = []

    static var maximumX: Int32 { Int32(widthMillimeters * Double(unitsPerMillimeter)) }
    static var maximumY: Int32 { Int32(heightMillimeters * Double(unitsPerMillimeter)) }

    public static var deviceDescription: DeviceDescription {
        let x = AbsInfo(minimum: 0, maximum: maximumX, resolution: unitsPerMillimeter)
        let y = AbsInfo(minimum: 0, maximum: maximumY, resolution: unitsPerMillimeter)
        let keys = Set([KeyCode.btnLeft, KeyCode.btnTouch] + KeyCode.fingerCountTools.map(\.code))
        return DeviceDescription(
            name: defaultName, bustype: VirtualDeviceMark.bustype, vendor: VirtualDeviceMark.vendor, product: product,
            version: 1, properties: [InputProperty.pointer, InputProperty.buttonpad],
            codes: [EventType.syn: [SynCode.report], EventType.key: keys],
            absInfo: [AbsCode.x: x, AbsCode.y: y, AbsCode.mtPositionX: x, AbsCode.mtPositionY: y,
                      AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: Int32(maximumContacts - 1)),
                      AbsCode.mtTrackingId: AbsInfo(minimum: 0, maximum: 65535)])
    }

    /// Needs write access to /dev/uinput.
    public init(name: String = VirtualTouchpad.defaultName) throws(InputError) {
        device = try UInputDevice(description: Self.deviceDescription, name: name,
                                  phys: "\(VirtualDeviceMark.physPrefix)/\(Self.role)")
    }

    deinit { try? lift() }

    public var devnode: String? { device.devnode }

    /// The centre of the surface, mm.
    public static var centre: (x: Double, y: Double) { (widthMillimeters / 2, heightMillimeters / 2) }

    /// Puts `points` (mm, at most `maximumContacts`) down in one frame, lifting first whatever is
    /// still down.
    public func land(_ points: [(x: Double, y: Double)]) throws(InputError) {
        if !positions.isEmpty { try lift() }
        let points = points.prefix(Self.maximumContacts)
        guard !points.isEmpty else { return }
        frame.removeAll(keepingCapacity: true)
        for (slot, p) in points.enumerated() {
            let u = Self.units(p)
            add(EventType.abs, AbsCode.mtSlot, Int32(slot))
            add(EventType.abs, AbsCode.mtTrackingId, nextTrackingID)
            nextTrackingID = (nextTrackingID + 1) % 65536
            add(EventType.abs, AbsCode.mtPositionX, u.x)
            add(EventType.abs, AbsCode.mtPositionY, u.y)
            positions.append(u)
        }
        add(EventType.key, KeyCode.btnTouch, 1)
        add(EventType.key, Self.tool(for: points.count), 1)
        add(EventType.abs, AbsCode.x, positions[0].x)
        add(EventType.abs, AbsCode.y, positions[0].y)
        try send()
    }

    /// Moves the contacts down to `points` (as many as landed; extra points are ignored) in one
    /// frame; nothing is written when no contact moves by a device unit.
    public func move(_ points: [(x: Double, y: Double)]) throws(InputError) {
        frame.removeAll(keepingCapacity: true)
        for (slot, p) in zip(positions.indices, points) {
            let u = Self.units(p)
            guard u != positions[slot] else { continue }
            add(EventType.abs, AbsCode.mtSlot, Int32(slot))
            if u.x != positions[slot].x { add(EventType.abs, AbsCode.mtPositionX, u.x) }
            if u.y != positions[slot].y { add(EventType.abs, AbsCode.mtPositionY, u.y) }
            positions[slot] = u
        }
        guard !frame.isEmpty else { return }
        add(EventType.abs, AbsCode.x, positions[0].x)
        add(EventType.abs, AbsCode.y, positions[0].y)
        try send()
    }

    /// Lifts every contact in one frame (nothing when none is down).
    public func lift() throws(InputError) {
        guard !positions.isEmpty else { return }
        let count = positions.count
        positions.removeAll()
        frame.removeAll(keepingCapacity: true)
        for slot in 0..<count {
            add(EventType.abs, AbsCode.mtSlot, Int32(slot))
            add(EventType.abs, AbsCode.mtTrackingId, -1)
        }
        add(EventType.key, KeyCode.btnTouch, 0)
        add(EventType.key, Self.tool(for: count), 0)
        try send()
    }

    /// The BTN_TOOL_* key for `n` contacts.
    static func tool(for n: Int) -> UInt16 {
        KeyCode.fingerCountTools.last { $0.fingers <= max(1, n) }?.code ?? KeyCode.btnToolFinger
    }

    /// mm to device units, clamped to the surface.
    static func units(_ p: (x: Double, y: Double)) -> (x: Int32, y: Int32) {
        func clamp(_ v: Double, _ maximum: Int32) -> Int32 {
            let u = (v * Double(unitsPerMillimeter)).rounded()
            return u.isFinite ? Int32(min(Double(maximum), max(0, u))) : maximum / 2
        }
        return (clamp(p.x, maximumX), clamp(p.y, maximumY))
    }

    private func add(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        frame.append(InputEvent(time: .zero, type: type, code: code, value: value))
    }

    private func send() throws(InputError) {
        add(EventType.syn, SynCode.report, 0)
        try device.write(frames: frame)
    }
}
