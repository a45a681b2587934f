/// The life stage of one touch within a frame (UIKit's vocabulary).
public enum TouchPhase: String, Hashable, Sendable {
    case began, moved, stationary, ended, cancelled
    /// Still on the surface after this frame.
    public var isActive: Bool { self == .began || self == .moved || self == .stationary }
}

/// What touches the surface.
public enum TouchTool: String, Hashable, Sendable {
    case finger, pen, palm
}

/// One contact in a frame. Positions are millimetres from the surface's top-left corner.
public struct Touch: Hashable, Sendable {
    /// Stable for the touch's life and unique within the decoder's lifetime (never reused).
    public var id: Int
    /// Protocol-B slot, or the contact's index for protocol A / single-touch.
    public var slot: Int
    public var phase: TouchPhase
    public var x: Millimeters
    public var y: Millimeters
    /// ABS_MT_PRESSURE / ABS_PRESSURE in device units, where the device reports it.
    public var pressure: Int32?
    /// ABS_MT_TOUCH_MAJOR in millimetres where known.
    public var majorAxis: Millimeters?
    public var tool: TouchTool

    public init(id: Int, slot: Int, phase: TouchPhase, x: Millimeters, y: Millimeters,
                pressure: Int32? = nil, majorAxis: Millimeters? = nil, tool: TouchTool = .finger) {
        self.id = id; self.slot = slot; self.phase = phase; self.x = x; self.y = y
        self.pressure = pressure; self.majorAxis = majorAxis; self.tool = tool
    }
}

/// One decoded SYN_REPORT: an immutable value.
public struct TouchFrame: Hashable, Sendable {
    public struct Flags: OptionSet, Hashable, Sendable {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The first frame after SYN_DROPPED: state was resynchronized, gestures in flight must cancel.
        public static let resynchronized = Flags(rawValue: 1 << 0)
        /// Positions are a bounding box (INPUT_PROP_SEMI_MT), not real contacts.
        public static let semiMT = Flags(rawValue: 1 << 1)
        /// The device went away: every touch in this frame is cancelled.
        public static let deviceRemoved = Flags(rawValue: 1 << 2)
    }

    public var time: Instant
    /// Touches that began, moved, stayed, ended or were cancelled in this frame. Ended and
    /// cancelled touches appear exactly once, in the frame where they left.
    public var touches: [Touch]
    /// Fingers on the surface after this frame. May exceed the active positioned touches
    /// (BTN_TOOL_DOUBLETAP…QUINTTAP on devices with fewer slots; QUINTTAP counts as 5).
    public var fingerCount: Int
    public var flags: Flags
    /// A physical button of the surface is held after this frame (BTN_LEFT of a clickpad pressed
    /// down, or any BTN_LEFT/RIGHT/MIDDLE of a touchpad with buttons). Touchscreens never set it.
    public var buttonDown: Bool

    public init(time: Instant, touches: [Touch], fingerCount: Int, flags: Flags = [], buttonDown: Bool = false) {
        self.time = time; self.touches = touches; self.fingerCount = fingerCount; self.flags = flags
        self.buttonDown = buttonDown
    }

    /// Touches still on the surface after this frame (began, moved, stationary).
    public var activeTouches: [Touch] { touches.filter { $0.phase.isActive } }
}
