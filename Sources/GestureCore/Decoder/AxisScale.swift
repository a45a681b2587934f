/// Device units → millimetres in the picture's axes, written once for every contact protocol.
/// The decoder works in the device's own units (its `EvdevState`); a touch's raw position is
/// clamped into the axis range, carried into the picture by `AxisPicture` unless the device's
/// `AxisTransform` is the identity (a quarter turn swaps the axes, a mirror or a calibration
/// moves the value inside the range of the axis it came from), and measured from the picture's top-left
/// (its axis minimum) with the turned description's `unitsPerMillimeter`. An inverted axis
/// (minimum above maximum: a kernel bug) is measured from its lower end.
struct AxisScale: Sendable {
    /// The device's own position axes (clamp ranges of raw values).
    let rawXMin: Int32, rawYMin: Int32
    let rawXMax: Int32, rawYMax: Int32
    /// Millimetres per unit along the picture's axes.
    let xScale: Double, yScale: Double
    /// ABS_MT_PRESSURE / ABS_PRESSURE and ABS_MT_TOUCH_MAJOR are reported (per protocol).
    let hasPressure: Bool, hasMajor: Bool
    /// The transform is the identity: a raw value is the picture's. The rest of a transform is
    /// `AxisPicture`, kept apart so this stays small: it is read for every touch, in place.
    let identity: Bool

    /// `device` as it sends events; `transform` to the picture.
    init(_ device: DeviceDescription, transform: AxisTransform = .identity) {
        let none = (AbsInfo(minimum: 0, maximum: 0), AbsInfo(minimum: 0, maximum: 0))
        let raw = device.positionAxes ?? none
        rawXMin = Swift.min(raw.x.minimum, raw.x.maximum); rawYMin = Swift.min(raw.y.minimum, raw.y.maximum)
        rawXMax = Swift.max(raw.x.minimum, raw.x.maximum); rawYMax = Swift.max(raw.y.minimum, raw.y.maximum)
        let upm = transform.apply(to: device).unitsPerMillimeter
        xScale = 1 / upm.x; yScale = 1 / upm.y
        let mt = device.contactProtocol == .slots || device.contactProtocol == .anonymous
        hasPressure = device.hasAxis(mt ? AbsCode.mtPressure : AbsCode.pressure)
        hasMajor = mt && device.hasAxis(AbsCode.mtTouchMajor)
        identity = transform.isIdentity
    }

    func clampX(_ v: Int32) -> Int32 { Swift.min(Swift.max(v, rawXMin), rawXMax) }
    func clampY(_ v: Int32) -> Int32 { Swift.min(Swift.max(v, rawYMin), rawYMax) }

    /// A raw position (clamped first) in millimetres from the picture's top-left. A coordinate
    /// the device never sent (`xKnown`/`yKnown` false) is the picture's minimum, whatever the turn.
    @inline(__always)
    func position(_ x: Int32, _ y: Int32, xKnown: Bool, yKnown: Bool, _ picture: AxisPicture) -> (x: Millimeters, y: Millimeters) {
        let cx = clampX(x), cy = clampY(y)
        if identity && xKnown && yKnown { return ((Double(cx) - Double(rawXMin)) * xScale, (Double(cy) - Double(rawYMin)) * yScale) }
        return picture.position(cx, cy, xKnown, yKnown, xScale: xScale, yScale: yScale)
    }

    /// A touch in millimetres from raw values; pressure and major only where the device has them.
    @inline(__always)
    func touch(id: Int, slot: Int, phase: TouchPhase, x: Int32, y: Int32, pressure: Int32, major: Int32,
               tool: Int32, xKnown: Bool, yKnown: Bool, _ picture: AxisPicture) -> Touch {
        let p = position(x, y, xKnown: xKnown, yKnown: yKnown, picture)
        return Touch(id: id, slot: slot, phase: phase, x: p.x, y: p.y,
                     pressure: hasPressure ? pressure : nil,
                     majorAxis: hasMajor ? Double(major) * xScale : nil,
                     tool: Self.tool(tool))
    }

    static func tool(_ t: Int32) -> TouchTool {
        t == MTToolType.pen ? .pen : t == MTToolType.palm ? .palm : .finger
    }
}

/// The device's `AxisTransform` as `AxisScale` applies it to a clamped raw position: a quarter
/// turn swaps the axes, a mirror or a calibration moves the value inside the range of the axis
/// it came from (`AxisTransform.PictureAxis`), and the picture's axes are measured from their
/// minimum (an inverted axis, minimum above maximum, from its lower end).
struct AxisPicture: Sendable {
    /// A quarter turn: the picture's x comes from the device's y.
    let swaps: Bool
    let x: AxisTransform.PictureAxis, y: AxisTransform.PictureAxis
    /// The picture's axes, in the units of the axis each comes from.
    let xMin: Int32, yMin: Int32
    let xMax: Int32, yMax: Int32

    init(_ device: DeviceDescription, transform: AxisTransform = .identity) {
        let none = (AbsInfo(minimum: 0, maximum: 0), AbsInfo(minimum: 0, maximum: 0))
        let axes = transform.apply(to: device).positionAxes ?? none
        xMin = Swift.min(axes.x.minimum, axes.x.maximum); yMin = Swift.min(axes.y.minimum, axes.y.maximum)
        xMax = Swift.max(axes.x.minimum, axes.x.maximum); yMax = Swift.max(axes.y.minimum, axes.y.maximum)
        let mt = device.contactProtocol == .slots || device.contactProtocol == .anonymous
        let codes = mt ? (AbsCode.mtPositionX, AbsCode.mtPositionY) : (AbsCode.x, AbsCode.y)
        (x, y) = transform.pictureAxes(device, x: codes.0, y: codes.1)
        swaps = x.fromY
    }

    /// Out of line: only a turned, mirrored or calibrated device, or a coordinate never sent,
    /// comes here.
    @inline(never)
    func position(_ rx: Int32, _ ry: Int32, _ xKnown: Bool, _ yKnown: Bool, xScale: Double, yScale: Double) -> (x: Millimeters, y: Millimeters) {
        let px = (swaps ? yKnown : xKnown) ? Swift.min(Swift.max(x.value(swaps ? ry : rx), xMin), xMax) : xMin
        let py = (swaps ? xKnown : yKnown) ? Swift.min(Swift.max(y.value(swaps ? rx : ry), yMin), yMax) : yMin
        return ((Double(px) - Double(xMin)) * xScale, (Double(py) - Double(yMin)) * yScale)
    }
}

/// What the contact-protocol decoders share within one `SlotDecoder`: the keys held, touch ids,
/// the touches that left since the last frame, and "kernel bug:" lines.
struct DecoderContext: Sendable {
    /// BTN_TOUCH.
    var touchKey = false
    /// Bit n = BTN_TOOL_* for n+1 fingers held.
    var toolMask: UInt8 = 0
    private var nextTouchId = 1
    /// Touches that ended or were cancelled since the last frame (emitted once, first in the frame).
    var leaving: [Touch] = []
    var diagnostics: [String] = []
    static let maxDiagnosticsKept = 100
    /// Time of the event being decoded (for rate-limited reports).
    var eventTime = Instant.zero
    /// "kernel bug: <the device's name, escaped>: ", what a rate-limited report begins with.
    var reportPrefix: [UInt8] = []
    private var lastReportMicroseconds = [Int64](repeating: Int64.min, count: 64)
    private var suppressedReports = [Int](repeating: 0, count: 64)
    static let reportIntervalMicroseconds: Int64 = 10_000_000

    /// Unique and never reused within the decoder.
    mutating func newTouchId() -> Int {
        defer { nextTouchId += 1 }
        return nextTouchId
    }

    mutating func diagnose(_ line: String) {
        if diagnostics.count < Self.maxDiagnosticsKept { diagnostics.append(line) }
    }

    /// One report per axis `code` per `reportIntervalMicroseconds` of device time, whatever the
    /// values (a flood of bad slot numbers or coordinates is one line per interval, with a count).
    /// Time running backwards (a broken recording) counts as inside the interval, never as a new one.
    /// `text` writes the report after `reportPrefix`, only when it is made.
    mutating func diagnoseLimited(code: UInt16, _ text: (inout TextBytes) -> Void) {
        let c = Int(code) & 63
        let last = lastReportMicroseconds[c]
        if last != Int64.min && (eventTime.microseconds &- last).magnitude < UInt64(Self.reportIntervalMicroseconds) {
            suppressedReports[c] += 1
            return
        }
        lastReportMicroseconds[c] = eventTime.microseconds
        var line = TextBytes(reportPrefix)
        text(&line)
        if suppressedReports[c] > 0 {
            line.add(" ("); line.add(suppressedReports[c]); line.add(" more since the last report)")
            suppressedReports[c] = 0
        }
        diagnose(line.text)
    }
}
