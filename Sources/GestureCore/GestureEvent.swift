/// A kind of gesture. A struct with static members: the set may grow. Stored as its number in
/// a `NameTable`, so two kinds compare (against every binding, subscription and unbound kind)
/// without a string comparison and a gesture event copies as plain memory.
public struct GestureKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    @usableFromInline let code: UInt16

    private init(code: UInt16) { self.code = code }
    public init(rawValue: String) { code = Self.names.code(of: rawValue) }
    public var rawValue: String { Self.names.name(of: code) }
    /// Its number in the table (GestureKindSet's bit).
    @inlinable var number: UInt16 { code }

    // By number: RawRepresentable's defaults would compare and hash the names.
    @inline(__always)
    public static func == (a: GestureKind, b: GestureKind) -> Bool { a.code == b.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    private static let names = NameTable(["tap", "doubleTap", "longPress", "swipe", "pan", "pinch", "rotate", "edgeSwipe"])

    public static var tap: GestureKind { GestureKind(code: 1) }
    public static var doubleTap: GestureKind { GestureKind(code: 2) }
    public static var longPress: GestureKind { GestureKind(code: 3) }
    public static var swipe: GestureKind { GestureKind(code: 4) }
    public static var pan: GestureKind { GestureKind(code: 5) }
    public static var pinch: GestureKind { GestureKind(code: 6) }
    public static var rotate: GestureKind { GestureKind(code: 7) }
    public static var edgeSwipe: GestureKind { GestureKind(code: 8) }
    public static let all: [GestureKind] = [.tap, .doubleTap, .longPress, .swipe, .pan, .pinch, .rotate, .edgeSwipe]
    /// Discrete kinds produce one `recognized` event; the others go began → changed* → ended|cancelled.
    public var isDiscrete: Bool { self == .tap || self == .doubleTap || self == .swipe }
    public var description: String { rawValue }
}

public enum GesturePhase: String, Hashable, Sendable, CaseIterable {
    case recognized, began, changed, ended, cancelled
}

/// A gesture's direction: an open set, stored as its number in a `NameTable` (see `GestureKind`).
public struct GestureDirection: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    private let code: UInt16

    private init(code: UInt16) { self.code = code }
    public init(rawValue: String) { code = Self.names.code(of: rawValue) }
    public var rawValue: String { Self.names.name(of: code) }

    // By number: RawRepresentable's defaults would compare and hash the names.
    @inline(__always)
    public static func == (a: GestureDirection, b: GestureDirection) -> Bool { a.code == b.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    private static let names = NameTable(["up", "down", "left", "right", "upLeft", "upRight", "downLeft", "downRight",
                                          "in", "out", "clockwise", "counterclockwise"])

    public static var up: GestureDirection { GestureDirection(code: 1) }
    public static var down: GestureDirection { GestureDirection(code: 2) }
    public static var left: GestureDirection { GestureDirection(code: 3) }
    public static var right: GestureDirection { GestureDirection(code: 4) }
    public static var upLeft: GestureDirection { GestureDirection(code: 5) }
    public static var upRight: GestureDirection { GestureDirection(code: 6) }
    public static var downLeft: GestureDirection { GestureDirection(code: 7) }
    public static var downRight: GestureDirection { GestureDirection(code: 8) }
    /// Pinch: fingers together (scale < 1) / apart (scale > 1).
    public static var `in`: GestureDirection { GestureDirection(code: 9) }
    public static var out: GestureDirection { GestureDirection(code: 10) }
    /// Rotate, with y growing downward.
    public static var clockwise: GestureDirection { GestureDirection(code: 11) }
    public static var counterclockwise: GestureDirection { GestureDirection(code: 12) }
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
