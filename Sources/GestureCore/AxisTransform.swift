/// Where the device's position axes point relative to the picture: a panel mounted rotated or
/// mirrored (config: `devices: - rotation: 90, invert_x: true`), the panel's calibration from udev
/// (`LIBINPUT_CALIBRATION_MATRIX`), and the screen's orientation in the session.
///
/// It is an affine map of 0…1 coordinates in libinput's calibration-matrix layout,
/// `x' = a·x + b·y + c`, `y' = d·x + e·y + f` (y down), restricted to maps that keep the axes
/// apart: quarter turns, mirrors, and per-axis scales and offsets. Such a map works on each axis
/// alone: the decoder keeps the device's values in its own units (`EvdevState`) and maps a
/// touch's position as it makes the touch (`AxisScale`, through `pictureAxes`): x and y swap for
/// a quarter turn and are mirrored, scaled and moved inside their absinfo range, and the
/// description's axes swap the same way, so the recognizers, the edge zones and the 0…1 positions
/// all see the surface as the user does. A value that lands outside the picture (a calibration
/// that trims the panel) is held at the picture's edge.
///
/// `rotationDegrees` is clockwise, y down: with 90 the point the device reports at its top-left
/// corner comes out at the top-right (libinput's `0 -1 1 1 0 0`). Inversions apply after the
/// rotation, on the new axes.
public struct AxisTransform: Hashable, Sendable {
    /// a, b, c, d, e, f as above; b = d = 0 or a = e = 0.
    public let matrix: [Double]

    public static let identity = AxisTransform(checked: [1, 0, 0, 0, 1, 0])

    /// `rotationDegrees` is one of 0, 90, 180, 270 (others are taken modulo 360 and rounded down
    /// to a quarter turn; the config rejects them before this point).
    public init(rotationDegrees: Int, invertX: Bool = false, invertY: Bool = false) {
        let r = ((rotationDegrees % 360) + 360) % 360
        var m: [Double]
        switch r - r % 90 {
        case 90: m = [0, -1, 1, 1, 0, 0]
        case 180: m = [-1, 0, 1, 0, -1, 1]
        case 270: m = [0, 1, 0, -1, 0, 1]
        default: m = [1, 0, 0, 0, 1, 0]
        }
        if invertX { m = [-m[0], -m[1], 1 - m[2], m[3], m[4], m[5]] }
        if invertY { m = [m[0], m[1], m[2], -m[3], -m[4], 1 - m[5]] }
        self.init(checked: m)
    }

    private init(checked m: [Double]) { matrix = m.map { $0 == 0 ? 0 : $0 } }   // no −0 in comparisons

    /// Why a calibration matrix cannot be used as given.
    public enum CalibrationProblem: Hashable, Sendable, CustomStringConvertible {
        case notSixNumbers(String)
        case flattensAnAxis
        /// It turns by an angle that is not a quarter turn, or shears: the nearest axis-aligned
        /// map is used instead.
        case notAxisAligned

        public var description: String {
            switch self {
            case .notSixNumbers(let s): "'\(s)' is not six numbers"
            case .flattensAnAxis: "it maps a whole axis to one line"
            case .notAxisAligned: "it turns by other than a quarter turn or shears; the nearest quarter turn is used"
            }
        }
    }

    /// A calibration matrix as udev's `LIBINPUT_CALIBRATION_MATRIX` writes it ("a b c d e f",
    /// separated by spaces). Nil with a problem when it cannot be used at all; a transform with
    /// `.notAxisAligned` when only its nearest axis-aligned part is used.
    public static func calibration(_ text: String) -> (AxisTransform?, CalibrationProblem?) {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        let numbers = parts.compactMap { Double($0) }.filter(\.isFinite)
        guard parts.count == 6, numbers.count == 6 else { return (nil, .notSixNumbers(text)) }
        var m = numbers
        var problem: CalibrationProblem?
        let straight = abs(m[0]) + abs(m[4]), crossed = abs(m[1]) + abs(m[3])
        if straight >= crossed {
            if m[1] != 0 || m[3] != 0 { problem = .notAxisAligned; m[1] = 0; m[3] = 0 }
            guard m[0] != 0, m[4] != 0 else { return (nil, .flattensAnAxis) }
        } else {
            if m[0] != 0 || m[4] != 0 { problem = .notAxisAligned; m[0] = 0; m[4] = 0 }
            guard m[1] != 0, m[3] != 0 else { return (nil, .flattensAnAxis) }
        }
        return (AxisTransform(checked: m), problem)
    }

    /// The map from the panel to the picture when the screen shows its picture turned
    /// `clockwiseDegrees` clockwise (sway's and wlroots' `transform 90`) and, for `flipped`,
    /// mirrored left to right before turning: the inverse of what the screen does to the picture.
    public static func screen(clockwiseDegrees: Int, flipped: Bool = false) -> AxisTransform {
        AxisTransform(rotationDegrees: 360 - clockwiseDegrees, invertX: flipped)
    }

    /// `self`, then `next`.
    public func then(_ next: AxisTransform) -> AxisTransform {
        let p = matrix, q = next.matrix
        return AxisTransform(checked: [
            q[0] * p[0] + q[1] * p[3], q[0] * p[1] + q[1] * p[4], q[0] * p[2] + q[1] * p[5] + q[2],
            q[3] * p[0] + q[4] * p[3], q[3] * p[1] + q[4] * p[4], q[3] * p[2] + q[4] * p[5] + q[5],
        ])
    }

    /// The map back: `then(inverse)` is the identity.
    public var inverse: AxisTransform {
        let m = matrix
        if swaps { return AxisTransform(checked: [0, 1 / m[3], -m[5] / m[3], 1 / m[1], 0, -m[2] / m[1]]) }
        return AxisTransform(checked: [1 / m[0], 0, -m[2] / m[0], 0, 1 / m[4], -m[5] / m[4]])
    }

    public var isIdentity: Bool { matrix == [1, 0, 0, 0, 1, 0] }

    /// Swap X and Y codes (quarter turns).
    private var swaps: Bool { matrix[0] == 0 }

    /// The quarter turn, clockwise, and mirror this map makes, ignoring scales and offsets: what
    /// changes the meaning of a direction. 0, 90, 180 or 270.
    public var rotationDegrees: Int { orientation.degrees }
    public var invertX: Bool { orientation.invertX }
    public var invertY: Bool { orientation.invertY }

    /// From the signs of the two non-zero coefficients (see `init(rotationDegrees:…)`).
    private var orientation: (degrees: Int, invertX: Bool, invertY: Bool) {
        let m = matrix
        if swaps {
            switch (m[1] < 0, m[3] < 0) {
            case (true, false): return (90, false, false)
            case (false, true): return (270, false, false)
            case (false, false): return (90, true, false)
            case (true, true): return (90, false, true)
            }
        }
        switch (m[0] < 0, m[4] < 0) {
        case (false, false): return (0, false, false)
        case (true, true): return (180, false, false)
        case (true, false): return (0, true, false)
        case (false, true): return (0, false, true)
        }
    }

    /// Only a quarter turn and mirrors: no scale or offset other than the mirrors' own.
    public var isOrientationOnly: Bool {
        let o = orientation
        return self == AxisTransform(rotationDegrees: o.degrees, invertX: o.invertX, invertY: o.invertY)
    }

    /// The six numbers as udev's property writes them, shortest form.
    public var matrixText: String {
        matrix.map { v in
            let r = (v * 1_000_000).rounded() / 1_000_000
            return r == r.rounded() ? String(Int(r)) : String(r)
        }.joined(separator: " ")
    }

    /// "rotated 90°, x inverted", "as the device reports", or the matrix when it also scales.
    public var summary: String {
        if isIdentity { return "as the device reports" }
        guard isOrientationOnly else { return "matrix \(matrixText)" }
        let o = orientation
        var parts: [String] = []
        if o.degrees != 0 { parts.append("rotated \(o.degrees)°") }
        if o.invertX { parts.append("x inverted") }
        if o.invertY { parts.append("y inverted") }
        return parts.joined(separator: ", ")
    }

    /// A 0…1 point of the device to the picture (not held inside 0…1).
    public func map(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let m = matrix
        return (m[0] * x + m[1] * y + m[2], m[3] * x + m[4] * y + m[5])
    }

    /// A 0…1 point of the picture back to the device.
    public func unmap(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let m = matrix
        if swaps { return ((y - m[5]) / m[3], (x - m[2]) / m[1]) }
        return ((x - m[2]) / m[0], (y - m[5]) / m[4])
    }

    /// The description as the transformed events describe it: X and Y absinfo swapped for
    /// quarter turns. Ranges are kept, so mapped values stay inside them.
    public func apply(to device: DeviceDescription) -> DeviceDescription {
        guard swaps else { return device }
        var d = device
        for (x, y) in [(AbsCode.x, AbsCode.y), (AbsCode.mtPositionX, AbsCode.mtPositionY)] {
            let ax = device.absInfo[x], ay = device.absInfo[y]
            d.absInfo[x] = ay
            d.absInfo[y] = ax
            if ay == nil { d.absInfo[x] = nil }
            if ax == nil { d.absInfo[y] = nil }
        }
        return d
    }

    /// How one of the picture's position axes takes its value from the device's: from which of
    /// the device's axes, and the integer map inside that axis's absinfo range (a mirror exactly,
    /// a calibration's scale and offset rounded to the nearest unit and held inside the range).
    /// The decoder works in the device's units and maps a touch's position through these
    /// (`AxisScale`).
    public struct PictureAxis: Hashable, Sendable {
        /// The value comes from the device's y axis (a quarter turn).
        public let fromY: Bool
        /// 0: unchanged, 1: mirrored, 2: scaled and moved.
        let kind: UInt8
        let lo: Int64, hi: Int64
        let scale: Double, offset: Double

        @inline(__always)
        public func value(_ v: Int32) -> Int32 {
            switch kind {
            case 0: return v
            case 1: return Int32(clamping: lo + hi - Int64(v))
            default:
                // Kept in the original axis's range (Int64: no overflow on full-range axes).
                let span = Double(hi - lo)
                let f = Swift.min(1, Swift.max(0, scale * (Double(Int64(v) - lo) / span) + offset))
                return Int32(clamping: lo + Int64((f * span).rounded()))
            }
        }
    }

    /// The picture's x and y axes of `device` (its own description), whose position codes are `x`
    /// and `y` (ABS_MT_POSITION_X/Y, or ABS_X/Y for a single-touch device).
    public func pictureAxes(_ device: DeviceDescription, x: UInt16, y: UInt16) -> (x: PictureAxis, y: PictureAxis) {
        if swaps { return (axisMap(fromX: false, device.absInfo[y]), axisMap(fromX: true, device.absInfo[x])) }
        return (axisMap(fromX: true, device.absInfo[x]), axisMap(fromX: false, device.absInfo[y]))
    }

    /// The map of a value of the device's x (or y) axis, described by `info`, onto the picture's
    /// axis it lands on.
    private func axisMap(fromX isX: Bool, _ info: AbsInfo?) -> PictureAxis {
        // The coefficient and offset of the output axis this value lands on.
        let m = matrix
        let (scale, offset) = swaps ? (isX ? (m[3], m[5]) : (m[1], m[2])) : (isX ? (m[0], m[2]) : (m[4], m[5]))
        func axis(_ kind: UInt8) -> PictureAxis {
            PictureAxis(fromY: !isX, kind: kind, lo: Int64(info?.minimum ?? 0), hi: Int64(info?.maximum ?? 0), scale: scale, offset: offset)
        }
        guard let info else { return axis(0) }
        if scale == 1 && offset == 0 { return axis(0) }
        if scale == -1 && offset == 1 { return axis(1) }
        guard info.maximum > info.minimum else { return axis(0) }
        return axis(2)
    }
}
