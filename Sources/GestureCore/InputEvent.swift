/// One kernel input event (`struct input_event`): what libevdev reads and what recordings hold.
public struct InputEvent: Hashable, Sendable, CustomStringConvertible {
    public var time: Instant
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(time: Instant, type: UInt16, code: UInt16, value: Int32) {
        self.time = time; self.type = type; self.code = code; self.value = value
    }

    public var isSynReport: Bool { type == EventType.syn && code == SynCode.report }

    public var description: String {
        "\(time) \(EventType.name(type)) \(EventCodes.name(type: type, code: code)) \(value)"
    }
}

/// Event types (linux/input-event-codes.h).
public enum EventType {
    public static let syn: UInt16 = 0x00
    public static let key: UInt16 = 0x01
    public static let rel: UInt16 = 0x02
    public static let abs: UInt16 = 0x03
    public static let msc: UInt16 = 0x04
    public static let sw: UInt16 = 0x05
    public static let led: UInt16 = 0x11
    public static let snd: UInt16 = 0x12
    public static let rep: UInt16 = 0x14
    public static let ff: UInt16 = 0x15
    public static let pwr: UInt16 = 0x16
    public static let ffStatus: UInt16 = 0x17
    public static let max: UInt16 = 0x1f

    /// The largest code of each type (the `*_MAX` constants), for bitmask sizes.
    public static func maxCode(_ type: UInt16) -> UInt16 {
        switch type {
        case syn: return 0x0f
        case key: return 0x2ff
        case rel: return 0x0f
        case abs: return 0x3f
        case msc: return 0x07
        case sw: return 0x10
        case led: return 0x0f
        case snd: return 0x07
        case rep: return 0x01
        case ff: return 0x7f
        default: return 0
        }
    }

    public static func name(_ type: UInt16) -> String {
        switch type {
        case syn: return "EV_SYN"
        case key: return "EV_KEY"
        case rel: return "EV_REL"
        case abs: return "EV_ABS"
        case msc: return "EV_MSC"
        case sw: return "EV_SW"
        case led: return "EV_LED"
        case snd: return "EV_SND"
        case rep: return "EV_REP"
        case ff: return "EV_FF"
        default: return "EV_\(type)"
        }
    }
}

public enum SynCode {
    public static let report: UInt16 = 0
    public static let config: UInt16 = 1
    public static let mtReport: UInt16 = 2
    public static let dropped: UInt16 = 3
}

public enum MscCode {
    public static let serial: UInt16 = 0x00
    public static let scan: UInt16 = 0x04
    public static let timestamp: UInt16 = 0x05
}

public enum KeyCode {
    public static let btnLeft: UInt16 = 0x110
    public static let btnRight: UInt16 = 0x111
    public static let btnMiddle: UInt16 = 0x112
    public static let btnToolPen: UInt16 = 0x140
    public static let btnToolRubber: UInt16 = 0x141
    public static let btnToolFinger: UInt16 = 0x145
    public static let btnToolMouse: UInt16 = 0x146
    public static let btnToolQuintTap: UInt16 = 0x148
    public static let btnStylus3: UInt16 = 0x149
    public static let btnTouch: UInt16 = 0x14a
    public static let btnStylus: UInt16 = 0x14b
    public static let btnStylus2: UInt16 = 0x14c
    public static let btnToolDoubleTap: UInt16 = 0x14d
    public static let btnToolTripleTap: UInt16 = 0x14e
    public static let btnToolQuadTap: UInt16 = 0x14f

    /// BTN_TOOL_* finger-count keys and the count each stands for (QUINTTAP means 5 or more).
    public static let fingerCountTools: [(code: UInt16, fingers: Int)] = [
        (btnToolFinger, 1), (btnToolDoubleTap, 2), (btnToolTripleTap, 3),
        (btnToolQuadTap, 4), (btnToolQuintTap, 5),
    ]
}

public enum AbsCode {
    public static let x: UInt16 = 0x00
    public static let y: UInt16 = 0x01
    public static let pressure: UInt16 = 0x18
    public static let distance: UInt16 = 0x19
    public static let toolWidth: UInt16 = 0x1c
    public static let mtSlot: UInt16 = 0x2f
    public static let mtTouchMajor: UInt16 = 0x30
    public static let mtTouchMinor: UInt16 = 0x31
    public static let mtWidthMajor: UInt16 = 0x32
    public static let mtWidthMinor: UInt16 = 0x33
    public static let mtOrientation: UInt16 = 0x34
    public static let mtPositionX: UInt16 = 0x35
    public static let mtPositionY: UInt16 = 0x36
    public static let mtToolType: UInt16 = 0x37
    public static let mtBlobId: UInt16 = 0x38
    public static let mtTrackingId: UInt16 = 0x39
    public static let mtPressure: UInt16 = 0x3a
    public static let mtDistance: UInt16 = 0x3b
    public static let mtToolX: UInt16 = 0x3c
    public static let mtToolY: UInt16 = 0x3d
}

/// ABS_MT_TOOL_TYPE values.
public enum MTToolType {
    public static let finger: Int32 = 0
    public static let pen: Int32 = 1
    public static let palm: Int32 = 2
}

/// INPUT_PROP_* device properties.
public enum InputProperty {
    public static let pointer: UInt16 = 0x00
    public static let direct: UInt16 = 0x01
    public static let buttonpad: UInt16 = 0x02
    public static let semiMT: UInt16 = 0x03
    public static let topButtonpad: UInt16 = 0x04
    public static let pointingStick: UInt16 = 0x05
    public static let accelerometer: UInt16 = 0x06
    public static let max: UInt16 = 0x1f

    public static func name(_ p: UInt16) -> String {
        switch p {
        case pointer: return "INPUT_PROP_POINTER"
        case direct: return "INPUT_PROP_DIRECT"
        case buttonpad: return "INPUT_PROP_BUTTONPAD"
        case semiMT: return "INPUT_PROP_SEMI_MT"
        case topButtonpad: return "INPUT_PROP_TOPBUTTONPAD"
        case pointingStick: return "INPUT_PROP_POINTING_STICK"
        case accelerometer: return "INPUT_PROP_ACCELEROMETER"
        default: return "INPUT_PROP_\(p)"
        }
    }
}

/// Names of the codes this project talks about, for log lines and human-readable output.
public enum EventCodes {
    public static func name(type: UInt16, code: UInt16) -> String {
        switch type {
        case EventType.syn:
            switch code {
            case SynCode.report: return "SYN_REPORT"
            case SynCode.config: return "SYN_CONFIG"
            case SynCode.mtReport: return "SYN_MT_REPORT"
            case SynCode.dropped: return "SYN_DROPPED"
            default: return "SYN_\(code)"
            }
        case EventType.abs:
            return absName(code).map { "\($0)" } ?? "ABS_\(code)"
        case EventType.key:
            return keyNames[code] ?? "KEY_\(code)"
        case EventType.msc:
            switch code {
            case MscCode.serial: return "MSC_SERIAL"
            case MscCode.scan: return "MSC_SCAN"
            case MscCode.timestamp: return "MSC_TIMESTAMP"
            default: return "MSC_\(code)"
            }
        default:
            return "\(EventType.name(type))_\(code)"
        }
    }

    /// An ABS code's name, a literal: a report of an axis out of range while a device streams
    /// names it without a dictionary (and its hashing) or a String.
    static func absName(_ code: UInt16) -> StaticString? {
        switch code {
        case AbsCode.x: "ABS_X"
        case AbsCode.y: "ABS_Y"
        case AbsCode.pressure: "ABS_PRESSURE"
        case AbsCode.distance: "ABS_DISTANCE"
        case AbsCode.toolWidth: "ABS_TOOL_WIDTH"
        case AbsCode.mtSlot: "ABS_MT_SLOT"
        case AbsCode.mtTouchMajor: "ABS_MT_TOUCH_MAJOR"
        case AbsCode.mtTouchMinor: "ABS_MT_TOUCH_MINOR"
        case AbsCode.mtWidthMajor: "ABS_MT_WIDTH_MAJOR"
        case AbsCode.mtWidthMinor: "ABS_MT_WIDTH_MINOR"
        case AbsCode.mtOrientation: "ABS_MT_ORIENTATION"
        case AbsCode.mtPositionX: "ABS_MT_POSITION_X"
        case AbsCode.mtPositionY: "ABS_MT_POSITION_Y"
        case AbsCode.mtToolType: "ABS_MT_TOOL_TYPE"
        case AbsCode.mtBlobId: "ABS_MT_BLOB_ID"
        case AbsCode.mtTrackingId: "ABS_MT_TRACKING_ID"
        case AbsCode.mtPressure: "ABS_MT_PRESSURE"
        case AbsCode.mtDistance: "ABS_MT_DISTANCE"
        case AbsCode.mtToolX: "ABS_MT_TOOL_X"
        case AbsCode.mtToolY: "ABS_MT_TOOL_Y"
        default: nil
        }
    }

    static let keyNames: [UInt16: String] = [
        KeyCode.btnLeft: "BTN_LEFT", KeyCode.btnRight: "BTN_RIGHT", KeyCode.btnMiddle: "BTN_MIDDLE",
        KeyCode.btnToolPen: "BTN_TOOL_PEN", KeyCode.btnToolRubber: "BTN_TOOL_RUBBER",
        KeyCode.btnToolFinger: "BTN_TOOL_FINGER", KeyCode.btnToolMouse: "BTN_TOOL_MOUSE",
        KeyCode.btnToolQuintTap: "BTN_TOOL_QUINTTAP", KeyCode.btnTouch: "BTN_TOUCH",
        KeyCode.btnStylus: "BTN_STYLUS", KeyCode.btnStylus2: "BTN_STYLUS2",
        KeyCode.btnToolDoubleTap: "BTN_TOOL_DOUBLETAP", KeyCode.btnToolTripleTap: "BTN_TOOL_TRIPLETAP",
        KeyCode.btnToolQuadTap: "BTN_TOOL_QUADTAP",
    ]
}
