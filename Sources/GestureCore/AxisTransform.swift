/// Where the device's position axes point relative to the picture: a panel mounted rotated or
/// mirrored (config: `devices: - rotation: 90, invert_x: true`), the panel's calibration from udev
/// (`LIBINPUT_CALIBRATION_MATRIX`), and the screen's orientation in the session.
///
/// It is an affine map of 0…1 coordinates in libinput's calibration-matrix layout,
/// `x' = a·x + b·y + c`, `y' = d·x + e·y + f` (y down), restricted to maps that keep the axes
/// apart: quarter turns, mirrors, and per-axis scales and offsets. Such a map works on single
/// events, before decoding: ABS_X/ABS_Y and ABS_MT_POSITION_X/Y swap codes for a quarter turn and
/// are mirrored, scaled and moved inside their absinfo range, and the description's axes swap the
/// same way, so the decoder, the edge zones and the 0…1 positions all see the surface as the user
/// does. A value that lands outside the picture (a calibration that trims the panel) is held at
/// the picture's edge.
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

    /// One event as the transformed device would send it. `device` is the *original* description.
    public func apply(_ event: InputEvent, device: DeviceDescription) -> InputEvent {
        guard event.type == EventType.abs, !isIdentity else { return event }
        let isX = event.code == AbsCode.x || event.code == AbsCode.mtPositionX
        let isY = event.code == AbsCode.y || event.code == AbsCode.mtPositionY
        guard isX || isY else { return event }
        let mt = event.code == AbsCode.mtPositionX || event.code == AbsCode.mtPositionY
        var e = event
        if swaps {
            e.code = mt ? (isX ? AbsCode.mtPositionY : AbsCode.mtPositionX) : (isX ? AbsCode.y : AbsCode.x)
        }
        // The coefficient and offset of the output axis this value lands on.
        let m = matrix
        let (scale, offset) = swaps ? (isX ? (m[3], m[5]) : (m[1], m[2])) : (isX ? (m[0], m[2]) : (m[4], m[5]))
        guard let info = device.absInfo[event.code] else { return e }
        // Kept in the original axis's range (Int64: no overflow on full-range axes).
        let lo = Int64(info.minimum), hi = Int64(info.maximum), v = Int64(event.value)
        if scale == 1 && offset == 0 { return e }
        if scale == -1 && offset == 1 { e.value = Int32(clamping: lo + hi - v); return e }
        guard hi > lo else { return e }
        let span = Double(hi - lo)
        let f = min(1, max(0, scale * (Double(v - lo) / span) + offset))
        e.value = Int32(clamping: lo + Int64((f * span).rounded()))
        return e
    }

    /// A device's state at open as the transformed device would report it: slot positions and
    /// the single-touch axes move like their events. `device` is the *original* description.
    public func apply(_ state: EvdevState, device: DeviceDescription) -> EvdevState {
        guard !isIdentity else { return state }
        func moved(_ code: UInt16, _ value: Int32) -> InputEvent {
            apply(InputEvent(time: .zero, type: EventType.abs, code: code, value: value), device: device)
        }
        var out = state
        for s in 0..<state.slotCount {
            for e in [moved(AbsCode.mtPositionX, state.value(slot: s, code: AbsCode.mtPositionX)),
                      moved(AbsCode.mtPositionY, state.value(slot: s, code: AbsCode.mtPositionY))] {
                out.set(slot: s, code: e.code, e.value)
            }
        }
        for code in [AbsCode.x, AbsCode.y] { out.removeAxis(code) }
        for code in [AbsCode.x, AbsCode.y] {
            if let v = state.axes[code] { let e = moved(code, v); out.setAxis(e.code, e.value) }
        }
        return out
    }
}
