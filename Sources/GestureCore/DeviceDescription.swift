/// One absolute axis as the kernel describes it (`struct input_absinfo`).
/// `resolution` is in units per millimetre for position axes (0 = unknown).
public struct AbsInfo: Hashable, Sendable {
    public var value: Int32
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    public var resolution: Int32

    public init(value: Int32 = 0, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0,
                resolution: Int32 = 0) {
        self.value = value; self.minimum = minimum; self.maximum = maximum
        self.fuzz = fuzz; self.flat = flat; self.resolution = resolution
    }

    /// The axis span |maximum − minimum| (an inverted axis, minimum above maximum, spans the same
    /// distance), saturating at Int32.max for an Int32.min…Int32.max axis.
    public var range: Int32 { Int32(clamping: (Int64(maximum) - Int64(minimum)).magnitude) }
    /// The exact span |maximum − minimum| in device units, as a Double (never wraps).
    public var span: Double { (Double(maximum) - Double(minimum)).magnitude }
    public func clamp(_ v: Int32) -> Int32 { Swift.min(Swift.max(v, minimum), maximum) }
    public func contains(_ v: Int32) -> Bool { v >= minimum && v <= maximum }
}

/// What kind of surface a device is. A struct with static members: it may grow.
public struct DeviceKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let touchscreen = DeviceKind(rawValue: "touchscreen")
    public static let touchpad = DeviceKind(rawValue: "touchpad")
    public static let other = DeviceKind(rawValue: "other")
    public var description: String { rawValue }
}

/// How a device reports contacts.
public enum ContactProtocol: String, Hashable, Sendable {
    /// Multitouch protocol B: slots and tracking ids.
    case slots = "B"
    /// Multitouch protocol A: anonymous contacts separated by SYN_MT_REPORT.
    case anonymous = "A"
    /// ABS_X/ABS_Y + BTN_TOUCH only.
    case singleTouch = "single-touch"
    /// No position axes at all.
    case none = "none"
}

/// A device's identity and capabilities: what libevdev reports for an open node, what the
/// header of an evemu recording holds. Everything the core needs to decode and scale events.
public struct DeviceDescription: Hashable, Sendable {
    public var name: String
    public var bustype: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    /// INPUT_PROP_* bits set.
    public var properties: Set<UInt16>
    /// Supported codes per event type (EV_KEY → keys, EV_ABS → axes, …). A type with no codes but
    /// present (EV_SYN, EV_MSC…) maps to its codes or an empty set.
    public var codes: [UInt16: Set<UInt16>]
    /// absinfo for every supported EV_ABS code.
    public var absInfo: [UInt16: AbsInfo]

    public init(name: String, bustype: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0,
                version: UInt16 = 0, properties: Set<UInt16> = [], codes: [UInt16: Set<UInt16>] = [:],
                absInfo: [UInt16: AbsInfo] = [:]) {
        self.name = name; self.bustype = bustype; self.vendor = vendor; self.product = product
        self.version = version; self.properties = properties; self.codes = codes; self.absInfo = absInfo
        for code in absInfo.keys { self.codes[EventType.abs, default: []].insert(code) }
        if !absInfo.isEmpty { self.codes[EventType.syn, default: []].insert(SynCode.report) }
    }

    public var keys: Set<UInt16> { codes[EventType.key] ?? [] }
    public var axes: Set<UInt16> { codes[EventType.abs] ?? [] }
    public func has(type: UInt16, code: UInt16) -> Bool { codes[type]?.contains(code) ?? false }
    public func hasKey(_ code: UInt16) -> Bool { has(type: EventType.key, code: code) }
    public func hasAxis(_ code: UInt16) -> Bool { absInfo[code] != nil }
    public func hasProperty(_ p: UInt16) -> Bool { properties.contains(p) }

    public var isSemiMT: Bool { hasProperty(InputProperty.semiMT) }

    /// The most protocol-B slots gestured tracks: libevdev's own limit (MAX_SLOTS, 256). Real
    /// panels have at most a few dozen; the ABS_MT_SLOT maximum comes from a recording's header or
    /// from whoever created a uinput device, and 2147483647 must not size an allocation.
    public static let maximumSlotCount = 256

    /// Number of protocol-B slots (ABS_MT_SLOT maximum + 1, at most `maximumSlotCount`), 0
    /// without slots. Events for slots beyond the cap are reported and ignored by the decoder.
    public var slotCount: Int {
        guard let slot = absInfo[AbsCode.mtSlot] else { return 0 }
        return Swift.min(Swift.max(0, Int(slot.maximum) + 1), Self.maximumSlotCount)
    }

    /// The ABS_MT_SLOT maximum + 1 the device claims, when it exceeds `maximumSlotCount`.
    public var excessSlotCount: Int? {
        guard let slot = absInfo[AbsCode.mtSlot], Int(slot.maximum) + 1 > Self.maximumSlotCount else { return nil }
        return Int(slot.maximum) + 1
    }

    public var contactProtocol: ContactProtocol {
        if hasAxis(AbsCode.mtPositionX) && hasAxis(AbsCode.mtPositionY) {
            return hasAxis(AbsCode.mtSlot) ? .slots : .anonymous
        }
        if hasAxis(AbsCode.x) && hasAxis(AbsCode.y) { return .singleTouch }
        return .none
    }

    /// The most fingers the device can report (slots, or BTN_TOOL_* counts beyond them).
    public var maximumFingerCount: Int {
        var n = Swift.max(slotCount, contactProtocol == .none ? 0 : 1)
        for (code, fingers) in KeyCode.fingerCountTools where hasKey(code) { n = Swift.max(n, fingers) }
        return n
    }

    /// The axes that carry contact positions: MT axes when present, else ABS_X/ABS_Y.
    public var positionAxes: (x: AbsInfo, y: AbsInfo)? {
        if let x = absInfo[AbsCode.mtPositionX], let y = absInfo[AbsCode.mtPositionY] { return (x, y) }
        if let x = absInfo[AbsCode.x], let y = absInfo[AbsCode.y] { return (x, y) }
        return nil
    }

    /// Classified the way udev's input_id builtin does: INPUT_PROP_DIRECT with touch → touchscreen;
    /// BTN_TOOL_FINGER without DIRECT and without a pen → touchpad.
    public var kind: DeviceKind {
        guard positionAxes != nil else { return .other }
        let hasPen = hasKey(KeyCode.btnToolPen) || hasKey(KeyCode.btnStylus)
        let hasFinger = hasKey(KeyCode.btnToolFinger)
        let hasTouch = hasKey(KeyCode.btnTouch) || hasAxis(AbsCode.mtPositionX)
        if hasProperty(InputProperty.direct) {
            return hasTouch ? .touchscreen : .other
        }
        if hasFinger && !hasPen { return .touchpad }
        // A tablet's touch half without INPUT_PROP_DIRECT and with MT axes acts as a touchpad.
        if hasFinger && hasAxis(AbsCode.mtPositionX) { return .touchpad }
        if hasTouch && !hasPen && hasAxis(AbsCode.mtPositionX) { return .touchscreen }
        return .other
    }

    /// True when both position axes carry a resolution, so millimetres are real.
    public var sizeKnown: Bool {
        guard let (x, y) = positionAxes else { return false }
        return x.resolution > 0 && y.resolution > 0
    }

    /// Units per millimetre on each position axis. Without a resolution a touchpad is assumed to be
    /// 69 × 50 mm (libinput's rule); any other device is given a nominal scale that makes its shorter
    /// axis 100 mm (square units), and `sizeKnown` is false so thresholds use fractions of the range.
    public var unitsPerMillimeter: (x: Double, y: Double) {
        guard let (x, y) = positionAxes else { return (1, 1) }
        if x.resolution > 0 && y.resolution > 0 { return (Double(x.resolution), Double(y.resolution)) }
        let rx = Swift.max(1, x.span), ry = Swift.max(1, y.span)
        if kind == .touchpad { return (rx / 69, ry / 50) }
        let scale = Swift.min(rx, ry) / 100
        return (scale, scale)
    }

    /// The surface size in millimetres (nominal when `sizeKnown` is false).
    public var size: (width: Millimeters, height: Millimeters) {
        guard let (x, y) = positionAxes else { return (0, 0) }
        let upm = unitsPerMillimeter
        return (x.span / upm.x, y.span / upm.y)
    }
}
