import GestureCore

/// The whole configuration of gestured: thresholds, device rules, bindings, socket, hook limits
/// and logging. A value: parse it with `Config.parse(_:file:)` or `Config.load(path:)`; the
/// daemon swaps the whole value on reload. `Config()` is the built-in default.
public struct Config: Hashable, Sendable {
    /// Where the daemon reads its config when no `--config` is given.
    public static let defaultPath = "/etc/gestured/config.yaml"

    /// Threshold overrides applied to every device of a kind, before the device rules.
    public var thresholds: [DeviceKind: ThresholdOverrides] = [:]
    /// Device rules, in file order; every matching rule applies, later ones win.
    public var devices: [DeviceRule] = []
    /// Bindings, in file order.
    public var bindings: [Binding] = []
    public var socket = SocketConfig()
    public var hooks = HookLimits()
    public var log = LogConfig()
    /// Who may ask the daemon to send keys and clicks (`emit` on the socket).
    public var actions = ActionsConfig()
    /// The file this config came from ("(defaults)" for the built-in one).
    public var file: String = "(defaults)"

    public init() {}

    /// The device rules that match `device`, in order.
    public func rules(for device: DeviceDescription) -> [DeviceRule] {
        devices.filter { $0.match.matches(device) }
    }

    /// The thresholds for `device`: the defaults for its kind and size
    /// (`Thresholds.defaults(for:)`), then the global overrides for its kind, then every matching
    /// device rule's overrides in file order.
    public func thresholds(for device: DeviceDescription) -> Thresholds {
        var t = Thresholds.defaults(for: device)
        thresholds[device.kind]?.apply(to: &t)
        for rule in rules(for: device) { rule.thresholds.apply(to: &t) }
        return t
    }

    /// Everything the config says about one device: ignored or not, axis rotation and inversion,
    /// and its resolved thresholds.
    public func settings(for device: DeviceDescription) -> DeviceSettings {
        var s = DeviceSettings(thresholds: thresholds(for: device))
        for rule in rules(for: device) {
            if let v = rule.ignore { s.ignore = v }
            if let v = rule.rotation { s.rotation = v }
            if let v = rule.invertX { s.invertX = v }
            if let v = rule.invertY { s.invertY = v }
            if let v = rule.followAccelerometer { s.followAccelerometer = v }
            if let v = rule.exclusive { s.exclusive = v }
            if let v = rule.exclusiveHold { s.exclusiveHold = v }
            if let v = rule.exclusiveLanding { s.exclusiveLanding = v }
        }
        return s
    }
}

/// What the config decides for one device.
public struct DeviceSettings: Hashable, Sendable {
    public var ignore = false
    /// Clockwise rotation of the device's axes, degrees: 0, 90, 180 or 270.
    public var rotation = 0
    public var invertX = false
    public var invertY = false
    /// `orientation: accelerometer`: the daemon turns the device with iio-sensor-proxy's
    /// AccelerometerOrientation on the system bus (no session to tell it).
    public var followAccelerometer = false
    /// Grab the device and hand the compositor a clone fed with everything that is not a bound
    /// gesture (docs/EXCLUSIVE.md).
    public var exclusive = false
    /// How long a new contact of a bound finger count is held back before it is forwarded.
    public var exclusiveHold: Duration = DeviceSettings.defaultExclusiveHold
    public static let defaultExclusiveHold: Duration = .milliseconds(200)
    /// How long a first contact is held back when a larger bound finger count may follow
    /// (re-armed by each finger landing); 0: never (their touches are then ended neutrally).
    public var exclusiveLanding: Duration = DeviceSettings.defaultExclusiveLanding
    public static let defaultExclusiveLanding: Duration = .milliseconds(60)
    public var thresholds: Thresholds
    public init(thresholds: Thresholds) { self.thresholds = thresholds }
}

/// A `devices:` entry.
public struct DeviceRule: Hashable, Sendable {
    public var match = DeviceMatch()
    /// nil: not said by this rule.
    public var ignore: Bool?
    public var thresholds = ThresholdOverrides()
    public var rotation: Int?
    public var invertX: Bool?
    public var invertY: Bool?
    /// `orientation:` accelerometer (true) or session (false).
    public var followAccelerometer: Bool?
    public var exclusive: Bool?
    /// `exclusive_hold_ms:`
    public var exclusiveHold: Duration?
    /// `exclusive_landing_ms:`
    public var exclusiveLanding: Duration?
    /// Where the rule starts in the file.
    public var mark = SourceLocation()
    public init() {}
}

/// Which devices a rule or binding applies to. Every field given must match.
public struct DeviceMatch: Hashable, Sendable {
    public var kind: DeviceKind?
    /// A shell-style glob (`*`, `?`, `[…]`) on the device name.
    public var name: String?
    public var vendor: UInt16?
    public var product: UInt16?
    public init(kind: DeviceKind? = nil, name: String? = nil, vendor: UInt16? = nil, product: UInt16? = nil) {
        self.kind = kind; self.name = name; self.vendor = vendor; self.product = product
    }

    public func matches(_ device: DeviceDescription) -> Bool {
        matches(kind: device.kind, name: device.name, vendor: device.vendor, product: device.product)
    }

    /// Matches by kind and name (and ids when known: nil ids never match an id filter).
    public func matches(kind: DeviceKind, name: String, vendor: UInt16? = nil, product: UInt16? = nil) -> Bool {
        if let k = self.kind, k != kind { return false }
        if let g = self.name, !Glob.matches(g, name) { return false }
        if let v = self.vendor, v != vendor { return false }
        if let p = self.product, p != product { return false }
        return true
    }
}

/// A place in a config file, for log lines about a binding or rule.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public init(file: String = "(defaults)", line: Int = 0, column: Int = 0) {
        self.file = file; self.line = line; self.column = column
    }
    public var description: String { line > 0 ? "\(file):\(line):\(column)" : file }
}

/// Which finger counts a binding accepts.
public enum FingerMatch: Hashable, Sendable {
    case any
    case counts(Set<Int>)
    public func matches(_ n: Int) -> Bool {
        switch self {
        case .any: return true
        case .counts(let s): return s.contains(n)
        }
    }
    /// The counts it accepts, `any` as 1…5 (the most fingers a gesture is reported with).
    public var acceptedCounts: Set<Int> {
        switch self {
        case .any: return Set(1...5)
        case .counts(let s): return s
        }
    }
}

/// `every:` on a continuous binding: fire each time this much has accumulated.
public enum Every: Hashable, Sendable, CustomStringConvertible {
    case millimeters(Double)
    case degrees(Double)
    /// A change of the pinch scale (e.g. 0.1 = every 10 %).
    case scale(Double)
    public var description: String {
        switch self {
        case .millimeters(let v): return "\(v)mm"
        case .degrees(let v): return "\(v)deg"
        case .scale(let v): return "\(v)scale"
        }
    }
}

/// A `bindings:` entry: which gestures run which command.
public struct Binding: Hashable, Sendable {
    public var gesture: GestureKind
    public var fingers: FingerMatch = .any
    /// nil: any direction.
    public var directions: Set<GestureDirection>?
    /// Swipe and pan: quantize the event's total motion to 4 or 8 directions before comparing.
    /// nil: 8 when `directions` names a diagonal, otherwise 4.
    public var directionCount: Int?
    /// Edge swipe: which edges (nil: any).
    public var edges: Set<Edge>?
    public var phase: GesturePhase
    public var every: Every?
    /// Only gestures from matching devices (kind and name glob).
    public var device: DeviceMatch?
    /// `gestured listen` only: only while a matching application has the focus. A binding with a
    /// matching `app:` hides the bindings without one for the same event.
    public var app: AppMatch?
    /// Run by `/bin/sh -c`; gesture data arrives in GESTURE_* variables, never in this text.
    /// Empty when the binding only sends keys or a click.
    public var command: String
    /// Key chords sent in order through the daemon's virtual keyboard (Actions.swift).
    public var keys: [KeyChord] = []
    /// Pause between two chords of `keys`.
    public var keyDelay: Duration = .zero
    /// How long each chord's key stays down before it and the modifiers are released.
    public var keyHold: Duration = .zero
    /// A pointer button clicked through the daemon's virtual pointer.
    public var button: ButtonAction?
    /// Replays the gesture on the daemon's virtual touchpad (Actions.swift).
    public var touchpad: TouchpadAction?
    /// Act even while the session is locked: keys and clicks (the daemon, seat0's active session)
    /// and, in `gestured listen`, the command too (its own session).
    public var whenLocked = false
    public var cooldown: Duration = .zero
    /// nil: `hooks.timeout_ms`.
    public var timeout: Duration?
    public var location = SourceLocation()

    public init(gesture: GestureKind, phase: GesturePhase? = nil, command: String) {
        self.gesture = gesture
        self.phase = phase ?? Binding.defaultPhase(for: gesture)
        self.command = command
    }

    /// recognized for tap, doubleTap and swipe; began for the continuous kinds.
    public static func defaultPhase(for kind: GestureKind) -> GesturePhase {
        kind.isDiscrete ? .recognized : .began
    }

    /// The direction count used to compare swipe/pan directions.
    public var effectiveDirectionCount: Int {
        if let n = directionCount { return n }
        let diagonals: Set<GestureDirection> = [.upLeft, .upRight, .downLeft, .downRight]
        return (directions ?? []).isDisjoint(with: diagonals) ? 4 : 8
    }
}

/// The `socket:` section.
public struct SocketConfig: Hashable, Sendable {
    public static let defaultPath = "/run/gestured/gestured.sock"
    public var path = SocketConfig.defaultPath
    /// File mode of the socket (octal in the file: "0660").
    public var mode: UInt32 = 0o660
    /// Group owning the socket; nil leaves the daemon's group.
    public var group: String?
    /// Where `group` was written (line, column; 0 when not from a file), for `gestured check`.
    public var groupLine = 0, groupColumn = 0
    /// When non-empty, only these peer uids (SO_PEERCRED) may connect.
    public var allowedUIDs: [UInt32] = []
    public var allowedGIDs: [UInt32] = []
    /// Events queued per client before the oldest are dropped.
    public var queueLimit = 256
    /// Bytes of lines queued per client before the oldest are dropped (with `queueLimit`, the
    /// first reached wins): what a client that stops reading can make the daemon hold.
    public var queueBytes = 64 * 1024
    /// Clients connected at once, all users together; more are refused with an error line.
    public var maxClients = 64
    /// Clients connected at once with one uid (root and the daemon's own user included).
    public var maxClientsPerUID = 16
    /// Send raw touch frames to clients that ask (they can reveal on-screen typing).
    public var rawFrames = false
    public init() {}
}

/// The `hooks:` section: limits on the commands bindings run.
public struct HookLimits: Hashable, Sendable {
    /// Children running at once; gestures beyond it are dropped (and counted).
    public var maxConcurrent = 8
    /// A hook running longer gets SIGTERM…
    public var timeout: Duration = .milliseconds(5000)
    /// …and SIGKILL this long after the SIGTERM.
    public var killAfter: Duration = .milliseconds(2000)
    /// Lines of hook output logged per minute (all hooks together); the rest are counted.
    public var outputLinesPerMinute = 60
    public init() {}
}

/// Syslog-style priorities.
public enum LogLevel: Int, Hashable, Sendable, CaseIterable {
    case error = 3, warning = 4, notice = 5, info = 6, debug = 7
    public var name: String {
        switch self {
        case .error: return "error"
        case .warning: return "warning"
        case .notice: return "notice"
        case .info: return "info"
        case .debug: return "debug"
        }
    }
}

/// The `log:` section.
public struct LogConfig: Hashable, Sendable {
    /// Messages above this priority number (less important) are not logged.
    public var level: LogLevel = .info
    public init() {}
}
