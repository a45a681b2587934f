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
    /// The ABS codes left out, a bit each (bit n: code n; ABS codes end at 0x3f).
    public let skippedAxisBits: UInt64
    /// The EV_MSC codes left out: all of them or none (nothing of EV_MSC is read).
    public let skippedMiscBits: UInt64

    /// What the decoder of `device` reads: per contact protocol (SlotContacts,
    /// AnonymousContacts, SingleTouchContact) the position, pressure, touch major, tool type
    /// and tracking id of a contact, and the slot on protocol B. A device with no position axes
    /// gets everything (`none`).
    public init(_ device: DeviceDescription) {
        let kept: [UInt16]
        switch device.contactProtocol {
        case .slots:
            kept = [AbsCode.mtSlot, AbsCode.mtTrackingId, AbsCode.mtPositionX, AbsCode.mtPositionY,
                    AbsCode.mtPressure, AbsCode.mtTouchMajor, AbsCode.mtToolType]
        case .anonymous:
            kept = [AbsCode.mtTrackingId, AbsCode.mtPositionX, AbsCode.mtPositionY,
                    AbsCode.mtPressure, AbsCode.mtTouchMajor, AbsCode.mtToolType]
        case .singleTouch:
            kept = [AbsCode.x, AbsCode.y, AbsCode.pressure]
        case .none:
            self = .none; return
        }
        var bits = UInt64.max
        for code in kept { bits &= ~(1 << UInt64(code)) }
        self.init(skippedAxisBits: bits, skippedMiscBits: .max)
    }

    private init(skippedAxisBits: UInt64, skippedMiscBits: UInt64) {
        self.skippedAxisBits = skippedAxisBits; self.skippedMiscBits = skippedMiscBits
    }

    /// Every event kept.
    public static let none = ReadMask(skippedAxisBits: 0, skippedMiscBits: 0)

    public var masksAnything: Bool { skippedAxisBits != 0 || skippedMiscBits != 0 }

    /// The ABS codes kept; nil: all of them.
    public var axes: Set<UInt16>? {
        skippedAxisBits == 0 ? nil : Set((0..<64).filter { skippedAxisBits & (1 << UInt64($0)) == 0 }.map(UInt16.init))
    }

    /// Whether EV_MSC is kept.
    public var miscellaneous: Bool { skippedMiscBits == 0 }

    /// Whether the event is left out: its type picks the skipped-code bits (none for a type the
    /// mask does not cover), its code one of them. The one test of the mask: the reader asks it
    /// of every record (LinuxInput's `readEvents`), `filtered` of every recorded event.
    @inlinable @inline(__always)
    public func skips(type: UInt16, code: UInt16) -> Bool {
        // EV_ABS as the likely case: most records of a touch device are.
        if _fastPath(type == EventType.abs) { return code < 64 && skippedAxisBits & (1 &<< UInt64(code)) != 0 }
        return type == EventType.msc && code < 64 && skippedMiscBits & (1 &<< UInt64(code)) != 0
    }

    /// The axes of `device` the mask holds back: their values in a reader's state stay those
    /// at open until it asks the kernel again (an exclusive device's clone needs them current).
    public func maskedAxes(of device: DeviceDescription) -> [UInt16] {
        device.axes.filter { skips(type: EventType.abs, code: $0) }.sorted()
    }

    /// `events` with what the mask leaves out left out (every SYN event kept).
    public func filtered(_ events: [InputEvent]) -> [InputEvent] {
        events.filter { !skips(type: $0.type, code: $0.code) }
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
