/// Rotation and inversion of a device's position axes, for touchscreens mounted rotated or
/// mirrored relative to the picture (config: `devices: - rotation: 90, invert_x: true`).
///
/// It works on raw events, before decoding: ABS_X/ABS_Y and ABS_MT_POSITION_X/Y swap codes and
/// are mirrored inside their absinfo range, and the description's axes swap the same way, so the
/// decoder, the edge zones and the 0…1 positions all see the surface as the user does.
///
/// `rotationDegrees` is clockwise, y down: with 90 the point the device reports at its top-left
/// corner comes out at the top-right. Inversions apply after the rotation, on the new axes.
public struct AxisTransform: Hashable, Sendable {
    public let rotationDegrees: Int
    public let invertX: Bool
    public let invertY: Bool

    public static let identity = AxisTransform(rotationDegrees: 0)

    /// `rotationDegrees` is one of 0, 90, 180, 270 (others are taken modulo 360 and rounded down
    /// to a quarter turn; the config rejects them before this point).
    public init(rotationDegrees: Int, invertX: Bool = false, invertY: Bool = false) {
        let r = ((rotationDegrees % 360) + 360) % 360
        self.rotationDegrees = r - r % 90
        self.invertX = invertX
        self.invertY = invertY
    }

    public var isIdentity: Bool { rotationDegrees == 0 && !invertX && !invertY }

    /// Swap X and Y codes (90 and 270 degrees).
    private var swaps: Bool { rotationDegrees == 90 || rotationDegrees == 270 }
    /// Mirror the value that ends up on the new X axis / new Y axis.
    private var mirrorNewX: Bool { (rotationDegrees == 90 || rotationDegrees == 180) != invertX }
    private var mirrorNewY: Bool { (rotationDegrees == 180 || rotationDegrees == 270) != invertY }

    /// The description as the transformed events describe it: X and Y absinfo swapped for
    /// quarter turns. Ranges are kept, so mirrored values stay inside them.
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

    /// One event as the rotated device would send it. `device` is the *original* description.
    public func apply(_ event: InputEvent, device: DeviceDescription) -> InputEvent {
        guard event.type == EventType.abs, !isIdentity else { return event }
        let isX = event.code == AbsCode.x || event.code == AbsCode.mtPositionX
        let isY = event.code == AbsCode.y || event.code == AbsCode.mtPositionY
        guard isX || isY else { return event }
        let mt = event.code == AbsCode.mtPositionX || event.code == AbsCode.mtPositionY
        var e = event
        // The axis this value lands on after the rotation.
        let landsOnX = swaps ? isY : isX
        if swaps {
            e.code = mt ? (isX ? AbsCode.mtPositionY : AbsCode.mtPositionX) : (isX ? AbsCode.y : AbsCode.x)
        }
        if landsOnX ? mirrorNewX : mirrorNewY, let info = device.absInfo[event.code] {
            // Mirror inside the original axis's range (Int64: no overflow on full-range axes).
            let mirrored = Int64(info.minimum) + Int64(info.maximum) - Int64(event.value)
            e.value = Int32(clamping: mirrored)
        }
        return e
    }

    /// A device's state at open as the rotated device would report it: slot positions and the
    /// single-touch axes move like their events. `device` is the *original* description.
    public func apply(_ state: SlotDecoder.InitialState, device: DeviceDescription) -> SlotDecoder.InitialState {
        guard !isIdentity else { return state }
        func moved(_ code: UInt16, _ value: Int32) -> InputEvent {
            apply(InputEvent(time: .zero, type: EventType.abs, code: code, value: value), device: device)
        }
        var out = state
        for (i, slot) in state.slots.enumerated() {
            for e in [moved(AbsCode.mtPositionX, slot.x), moved(AbsCode.mtPositionY, slot.y)] {
                if e.code == AbsCode.mtPositionX { out.slots[i].x = e.value } else { out.slots[i].y = e.value }
            }
        }
        out.absValues = [:]
        for (code, value) in state.absValues {
            let e = code == AbsCode.x || code == AbsCode.y ? moved(code, value)
                : InputEvent(time: .zero, type: EventType.abs, code: code, value: value)
            out.absValues[e.code] = e.value
        }
        return out
    }
}
