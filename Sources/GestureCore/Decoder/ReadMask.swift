/// The events of a device the decoder reads: what a reader may leave out before the pipeline.
/// Every other event would only be written into the device's state and never looked at again:
/// ABS_MT_TOUCH_MINOR, the widths and ABS_MT_ORIENTATION, the single-touch emulation (ABS_X,
/// ABS_Y, ABS_PRESSURE, ABS_TOOL_WIDTH) of a multitouch device, MSC_TIMESTAMP. On the
/// recordings they are 16 % (3M screen), 53 % (bcm5974) and 42 % (hp8470p) of the events.
///
/// The reader (LinuxInput's `EvdevDevice.readMask`) leaves them out as it converts the kernel's
/// records, and keeps every SYN event: a frame whose events were all left out still reaches the
/// pipeline, as a frame in which nothing moved. The kernel could leave them out itself
/// (EVIOCSMASK), but it then drops such a frame (evdev_pass_values), and a frame in which nothing
/// moved counts: the smoothed velocity takes its time (on five fixtures, velocities moved by up
/// to 10 % without them). `filtered(_:)` does to a recorded stream what the reader does; the
/// frames and gestures a pipeline makes of it are those of the whole stream
/// (ReadMaskTests, over every fixture).
///
/// Keys (BTN_TOUCH, BTN_TOOL_*, buttons) and SYN events are kept whole. An exclusive device's
/// reader forwards every event to the clone and reads without a mask.
public struct ReadMask: Equatable, Sendable {
    /// The ABS codes kept; nil: all of them.
    public let axes: Set<UInt16>?
    /// Whether EV_MSC is kept (nothing of it is read).
    public let miscellaneous: Bool

    /// What the decoder of `device` reads: per contact protocol (SlotContacts,
    /// AnonymousContacts, SingleTouchContact) the position, pressure, touch major, tool type
    /// and tracking id of a contact, and the slot on protocol B. A device with no position axes
    /// gets everything (`none`).
    public init(_ device: DeviceDescription) {
        switch device.contactProtocol {
        case .slots:
            axes = [AbsCode.mtSlot, AbsCode.mtTrackingId, AbsCode.mtPositionX, AbsCode.mtPositionY,
                    AbsCode.mtPressure, AbsCode.mtTouchMajor, AbsCode.mtToolType]
        case .anonymous:
            axes = [AbsCode.mtTrackingId, AbsCode.mtPositionX, AbsCode.mtPositionY,
                    AbsCode.mtPressure, AbsCode.mtTouchMajor, AbsCode.mtToolType]
        case .singleTouch:
            axes = [AbsCode.x, AbsCode.y, AbsCode.pressure]
        case .none:
            self = .none; return
        }
        miscellaneous = false
    }

    private init(axes: Set<UInt16>?, miscellaneous: Bool) { self.axes = axes; self.miscellaneous = miscellaneous }

    /// Every event kept.
    public static let none = ReadMask(axes: nil, miscellaneous: true)

    public var masksAnything: Bool { axes != nil || !miscellaneous }

    /// The event is kept.
    @inline(__always)
    public func delivers(type: UInt16, code: UInt16) -> Bool {
        switch type {
        case EventType.abs: code >= 64 || (axes?.contains(code) ?? true)
        case EventType.msc: miscellaneous
        default: true
        }
    }

    /// The axes of `device` the mask holds back: their values in a reader's state stay those
    /// at open until it asks the kernel again (an exclusive device's clone needs them current).
    public func maskedAxes(of device: DeviceDescription) -> [UInt16] {
        guard let axes else { return [] }
        return device.axes.filter { !axes.contains($0) }.sorted()
    }

    /// The ABS codes below 64 the mask leaves out, a bit each (bit n: code n).
    public var skippedAxisBits: UInt64 {
        guard let axes else { return 0 }
        var bits = UInt64.max
        for code in axes where code < 64 { bits &= ~(1 << UInt64(code)) }
        return bits
    }

    /// `events` with what the mask leaves out left out (every SYN event kept).
    public func filtered(_ events: [InputEvent]) -> [InputEvent] {
        events.filter { delivers(type: $0.type, code: $0.code) }
    }
}

extension EvdevState {
    /// Takes `other`'s values of `codes` (ABS codes: per slot for the multitouch ones), for the
    /// axes a read mask held back (`ReadMask.maskedAxes`). Slots beyond either state's are left.
    public mutating func adopt(_ codes: [UInt16], from other: EvdevState) {
        for code in codes {
            if EvdevState.slotCodes.contains(code) {
                for s in 0..<Swift.min(slotCount, other.slotCount) { set(slot: s, code: code, other.value(slot: s, code: code)) }
            } else if let v = other.axis(code) {
                setAxis(code, v)
            } else {
                removeAxis(code)
            }
        }
    }
}
