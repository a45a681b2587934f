/// A kind of gesture. A struct with static members: the set may grow.
public struct GestureKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String { didSet { code = Self.code(of: rawValue) } }
    /// 1 + the index of a known kind's name in `names`, 0 for any other name, renewed with
    /// `rawValue`: two known kinds are compared by it, without a string comparison (a gesture is
    /// checked against every binding, subscription and unbound kind).
    private var code: UInt8

    public init(rawValue: String) { self.rawValue = rawValue; code = Self.code(of: rawValue) }

    private static let names = ["tap", "doubleTap", "longPress", "swipe", "pan", "pinch", "rotate", "edgeSwipe"]
    private static func code(of name: String) -> UInt8 {
        guard let i = names.firstIndex(of: name) else { return 0 }
        return UInt8(i + 1)
    }

    /// Known kinds by their code; other names (the set may grow) by name.
    @inline(__always)
    public static func == (a: GestureKind, b: GestureKind) -> Bool {
        a.code != 0 || b.code != 0 ? a.code == b.code : a.rawValue == b.rawValue
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    public static let tap = GestureKind(rawValue: "tap")
    public static let doubleTap = GestureKind(rawValue: "doubleTap")
    public static let longPress = GestureKind(rawValue: "longPress")
    public static let swipe = GestureKind(rawValue: "swipe")
    public static let pan = GestureKind(rawValue: "pan")
    public static let pinch = GestureKind(rawValue: "pinch")
    public static let rotate = GestureKind(rawValue: "rotate")
    public static let edgeSwipe = GestureKind(rawValue: "edgeSwipe")
    public static let all: [GestureKind] = [.tap, .doubleTap, .longPress, .swipe, .pan, .pinch, .rotate, .edgeSwipe]
    /// Discrete kinds produce one `recognized` event; the others go began → changed* → ended|cancelled.
    public var isDiscrete: Bool { self == .tap || self == .doubleTap || self == .swipe }
    public var description: String { rawValue }
}

public enum GesturePhase: String, Hashable, Sendable, CaseIterable {
    case recognized, began, changed, ended, cancelled
}

public struct GestureDirection: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let up = GestureDirection(rawValue: "up")
    public static let down = GestureDirection(rawValue: "down")
    public static let left = GestureDirection(rawValue: "left")
    public static let right = GestureDirection(rawValue: "right")
    public static let upLeft = GestureDirection(rawValue: "upLeft")
    public static let upRight = GestureDirection(rawValue: "upRight")
    public static let downLeft = GestureDirection(rawValue: "downLeft")
    public static let downRight = GestureDirection(rawValue: "downRight")
    /// Pinch: fingers together (scale < 1) / apart (scale > 1).
    public static let `in` = GestureDirection(rawValue: "in")
    public static let out = GestureDirection(rawValue: "out")
    /// Rotate, with y growing downward.
    public static let clockwise = GestureDirection(rawValue: "clockwise")
    public static let counterclockwise = GestureDirection(rawValue: "counterclockwise")
    public static let all: [GestureDirection] = [.up, .down, .left, .right, .upLeft, .upRight, .downLeft,
                                                  .downRight, .in, .out, .clockwise, .counterclockwise]
    public var description: String { rawValue }
}

public enum Edge: String, Hashable, Sendable, CaseIterable {
    case left, right, top, bottom
}

/// One gesture event, as recognizers produce it and subscribers receive it.
/// Optional fields are present where meaningful for the kind and phase.
public struct GestureEvent: Hashable, Sendable {
    public var kind: GestureKind
    public var phase: GesturePhase
    /// One id per gesture: every event of a continuous gesture shares it. Unique per arena.
    public var id: UInt64
    public var fingers: Int
    public var direction: GestureDirection?
    public var edge: Edge?
    /// Device time of the frame (or deadline) that produced the event.
    public var time: Instant
    /// Translation of the centroid since the gesture began, mm (x right, y down).
    public var dxMillimeters: Millimeters?
    public var dyMillimeters: Millimeters?
    /// Translation since the previous event of this gesture, mm.
    public var stepDxMillimeters: Millimeters?
    public var stepDyMillimeters: Millimeters?
    /// Distance travelled (swipe, edge swipe: inward distance), mm.
    public var distanceMillimeters: Millimeters?
    public var velocityMillimetersPerSecond: Double?
    /// Pinch: current span over the span at begin.
    public var scale: Double?
    /// Rotate: cumulative angle, degrees, positive clockwise (y down).
    public var rotationDegrees: Degrees?
    /// Centroid position as a fraction of the surface (0…1 from the top-left).
    public var x: Double?
    public var y: Double?

    public init(kind: GestureKind, phase: GesturePhase, id: UInt64, fingers: Int, time: Instant,
                direction: GestureDirection? = nil, edge: Edge? = nil,
                dxMillimeters: Millimeters? = nil, dyMillimeters: Millimeters? = nil,
                stepDxMillimeters: Millimeters? = nil, stepDyMillimeters: Millimeters? = nil,
                distanceMillimeters: Millimeters? = nil, velocityMillimetersPerSecond: Double? = nil,
                scale: Double? = nil, rotationDegrees: Degrees? = nil, x: Double? = nil, y: Double? = nil) {
        self.kind = kind; self.phase = phase; self.id = id; self.fingers = fingers; self.time = time
        self.direction = direction; self.edge = edge
        self.dxMillimeters = dxMillimeters; self.dyMillimeters = dyMillimeters
        self.stepDxMillimeters = stepDxMillimeters; self.stepDyMillimeters = stepDyMillimeters
        self.distanceMillimeters = distanceMillimeters
        self.velocityMillimetersPerSecond = velocityMillimetersPerSecond
        self.scale = scale; self.rotationDegrees = rotationDegrees; self.x = x; self.y = y
    }
}
