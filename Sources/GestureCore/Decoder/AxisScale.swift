/// Device units → millimetres, written once for every contact protocol: positions are measured
/// from the surface's top-left (the axis minimum) with the device's `unitsPerMillimeter`; values
/// are clamped into the axis range first. An inverted axis (minimum above maximum: a kernel bug)
/// is measured from its lower end.
struct AxisScale: Sendable {
    let xMin: Int32, yMin: Int32
    let xMax: Int32, yMax: Int32
    /// Millimetres per device unit.
    let xScale: Double, yScale: Double
    /// ABS_MT_PRESSURE / ABS_PRESSURE and ABS_MT_TOUCH_MAJOR are reported (per protocol).
    let hasPressure: Bool, hasMajor: Bool

    init(_ device: DeviceDescription) {
        let axes = device.positionAxes ?? (AbsInfo(minimum: 0, maximum: 0), AbsInfo(minimum: 0, maximum: 0))
        xMin = Swift.min(axes.x.minimum, axes.x.maximum); yMin = Swift.min(axes.y.minimum, axes.y.maximum)
        xMax = Swift.max(axes.x.minimum, axes.x.maximum); yMax = Swift.max(axes.y.minimum, axes.y.maximum)
        let upm = device.unitsPerMillimeter
        xScale = 1 / upm.x; yScale = 1 / upm.y
        let mt = device.contactProtocol == .slots || device.contactProtocol == .anonymous
        hasPressure = device.hasAxis(mt ? AbsCode.mtPressure : AbsCode.pressure)
        hasMajor = mt && device.hasAxis(AbsCode.mtTouchMajor)
    }

    func clampX(_ v: Int32) -> Int32 { Swift.min(Swift.max(v, xMin), xMax) }
    func clampY(_ v: Int32) -> Int32 { Swift.min(Swift.max(v, yMin), yMax) }

    func x(_ v: Int32) -> Millimeters { (Double(v) - Double(xMin)) * xScale }
    func y(_ v: Int32) -> Millimeters { (Double(v) - Double(yMin)) * yScale }

    /// A touch in millimetres from raw values; pressure and major only where the device has them.
    func touch(id: Int, slot: Int, phase: TouchPhase, x: Int32, y: Int32, pressure: Int32, major: Int32,
               tool: Int32) -> Touch {
        Touch(id: id, slot: slot, phase: phase, x: self.x(x), y: self.y(y),
              pressure: hasPressure ? pressure : nil,
              majorAxis: hasMajor ? Double(major) * xScale : nil,
              tool: Self.tool(tool))
    }

    static func tool(_ t: Int32) -> TouchTool {
        t == MTToolType.pen ? .pen : t == MTToolType.palm ? .palm : .finger
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
    mutating func diagnoseLimited(code: UInt16, _ text: @autoclosure () -> String) {
        let c = Int(code) & 63
        let last = lastReportMicroseconds[c]
        if last != Int64.min && (eventTime.microseconds &- last).magnitude < UInt64(Self.reportIntervalMicroseconds) {
            suppressedReports[c] += 1
            return
        }
        lastReportMicroseconds[c] = eventTime.microseconds
        var line = text()
        if suppressedReports[c] > 0 {
            line += " (\(suppressedReports[c]) more since the last report)"
            suppressedReports[c] = 0
        }
        diagnose(line)
    }
}
