import GestureConfig
import GestureCore
import GestureWire
import LinuxInput
import LinuxSystem

/// The daemon's key and click actions: owns the virtual devices (a keyboard declaring exactly
/// the keys the bindings press, a pointer when buttons are bound, and per touchscreen an absolute
/// pointer mirroring its axes for `at: touch`), matches gestures against the bindings with
/// `keys:`/`button:`, and plays them. Created before the first gesture (at start, on reload, when
/// a touchscreen opens) because a compositor misses what a device sends before it has opened it.
/// Everything held is released on stop, on reload and before a device is destroyed.
public final class ActionService: GestureSubscriber {
    private let loop: EventLoop
    let log: Logger
    private(set) var bindings: [Binding] = []
    private var matcher = BindingMatcher(bindings: [])
    private var hookDevice = HookDevice.Cache()
    private var actions = ActionsConfig()
    private(set) var keyboard: VirtualKeyDevice?
    /// The virtual keyboard's /dev/input node (nil: none, or uinput is unavailable).
    public var keyboardNode: String? { keyboard?.devnode }
    private(set) var pointer: VirtualKeyDevice?
    /// Absolute pointers mirroring touchscreens, by daemon device id.
    private var touchPointers: [Int: TouchPointer] = [:]
    /// Touchscreens open now (to make their pointers when a reload first binds `at: touch`).
    private var touchscreens: [Int: (DeviceDescription, AxisTransform)] = [:]
    /// Keys added by `emit` requests beyond the config's (the keyboard grows to hold them).
    private var emittedKeys = Set<UInt16>()
    private lazy var player = ActionPlayer(loop: loop) { [unowned self] e in
        self.log.warning("actions: writing to a virtual device failed: \(e.description)")
    }
    /// uinput could not be opened: said once, then quiet until it works again.
    private var uinputProblem: InputError?
    var uinputUnavailable: InputError? { uinputProblem }
    /// Buttons asked for by `emit` (the pointer is made for them when no binding needs it).
    private var emittedButtons = false
    /// Refused `emit` requests are logged at most five times a minute (a client may send thousands).
    var refusalLog = RateLimiter(burst: 5, interval: .seconds(60))
    /// The seat's session is locked: only `when_locked: true` bindings act.
    public var locked: Bool { lock?.locked ?? false }
    private var lock: SessionLock?
    /// Following the lock was tried (once per run: a missing libsystemd or system bus is said once).
    private(set) var lockTried = false
    /// `touchpad:` bindings and the virtual touchpad (TouchpadReplay.swift).
    private(set) var touchpad: TouchpadReplay?
    /// Called after each action is written (the benchmark's latency probe).
    public var onPlayed: ((GestureEvent) -> Void)?

    struct TouchPointer {
        var device: VirtualKeyDevice
        var transform: AxisTransform
        var x: AbsInfo, y: AbsInfo
    }

    static let allButtons = Set(PointerButton.allCases.map(\.code))
    static let keyboardProduct: UInt16 = 1, pointerProduct: UInt16 = 2, touchPointerProduct: UInt16 = 3

    public init(loop: EventLoop, log: Logger) {
        self.loop = loop
        self.log = log
    }

    /// Follows logind's LockedHint of the seat's active session (SessionLock.swift).
    public func followSessionLock() {
        lockTried = true
        let l = SessionLock(loop: loop, log: log)
        l.onChange = { [unowned self] locked, session in
            self.log.info("actions: session \(session ?? "?") "
                          + (locked ? "locked: key and button actions paused (when_locked: true still acts)" : "unlocked"))
            if locked { self.releaseAll() }
        }
        if let problem = l.start() {
            log.notice("actions: \(problem): locked screens cannot be detected, keys are sent regardless")
        } else {
            lock = l
        }
    }

    /// The bindings that act (keys or a button), and the devices they need. On reload everything
    /// held is released first; devices whose capabilities still suffice are kept.
    public func configure(_ plan: BindingPlan) {
        let config = plan.config
        bindings = plan.actionBindings
        matcher = BindingMatcher(bindings: bindings)
        actions = config.actions
        releaseAll()
        ensureDevices()
        // Key and click bindings act on gestures, so the lock is followed from now on; with none,
        // the first allowed emit request starts following (ActionService+Emit.swift), so that a
        // daemon no client asks to send keys never loads libsystemd (docs/PERFORMANCE.md, "What costs what").
        if !lockTried && !bindings.isEmpty { followSessionLock() }
        if config.bindings.contains(where: { $0.touchpad != nil && $0.app == nil }) {
            if touchpad == nil { touchpad = TouchpadReplay(loop: loop, log: log) }
            touchpad?.configure(config)
        } else if let t = touchpad {
            t.stop(); touchpad = nil
            log.info("actions: virtual touchpad removed (no touchpad: binding)")
        }
        interestChanged?()
    }

    var neededKeys: Set<UInt16> { Set(bindings.flatMap { $0.keys.flatMap(\.codes) }).union(emittedKeys) }
    var needsPointer: Bool { emittedButtons || bindings.contains { $0.button != nil } }
    var needsTouchPointers: Bool { bindings.contains { $0.button?.atTouch == true } }

    private func ensureDevices() {
        let keys = neededKeys
        if keys.isEmpty {
            keyboard = nil
        } else if keyboard.map({ !keys.isSubset(of: $0.keys) }) ?? true {
            if let old = keyboard { player.cancel(old); keyboard = nil }
            keyboard = make("keyboard") { () throws(InputError) in
                try VirtualKeyDevice(role: "keyboard", product: Self.keyboardProduct, keys: keys)
            }
        }
        if !needsPointer { pointer = nil } else if pointer == nil {
            pointer = make("pointer") { () throws(InputError) in
                try VirtualKeyDevice(role: "pointer", product: Self.pointerProduct, keys: Self.allButtons, relative: true)
            }
        }
        if !needsTouchPointers { touchPointers.removeAll() } else {
            for (id, (d, t)) in touchscreens where touchPointers[id] == nil { addTouchPointer(id: id, description: d, transform: t) }
        }
    }

    /// Makes the keyboard hold `keys` too and the pointer exist when asked (for `emit`); true when
    /// a device had to be made.
    func grow(keys: Set<UInt16>, pointer wantsPointer: Bool) -> Bool {
        let before = (keyboard.map(ObjectIdentifier.init), pointer.map(ObjectIdentifier.init))
        if !keys.isSubset(of: keyboard?.keys ?? []) { emittedKeys.formUnion(keys) }
        if wantsPointer { emittedButtons = true }
        ensureDevices()
        return (keyboard.map(ObjectIdentifier.init), pointer.map(ObjectIdentifier.init)) != before
    }

    /// Makes a device; the first failure is logged with the fix, later ones are quiet.
    private func make(_ what: String, _ body: () throws(InputError) -> VirtualKeyDevice) -> VirtualKeyDevice? {
        do {
            let d = try body()
            if uinputProblem != nil { log.notice("actions: /dev/uinput works now; key and button bindings are on") }
            uinputProblem = nil
            log.info("actions: virtual \(what) \(d.devnode ?? "?") (\(d.keys.count) keys/buttons)")
            return d
        } catch {
            if uinputProblem == nil {
                log.error("actions: cannot create the virtual \(what): \(error.description). Key and button bindings do nothing "
                          + "until the daemon may write /dev/uinput (commands still run): install udev/70-gestured-uinput.rules "
                          + "(gives /dev/uinput to the gestured group) and keep DeviceAllow=/dev/uinput rw in gestured.service; "
                          + "see README, \"Keys and clicks\"")
            }
            uinputProblem = error
            return nil
        }
    }

    // MARK: touchscreens

    /// A touchscreen was opened: it gets its mirror pointer when `at: touch` is bound.
    public func deviceOpened(id: Int, description: DeviceDescription, transform: AxisTransform) {
        guard description.kind == .touchscreen else { return }
        touchscreens[id] = (description, transform)
        if needsTouchPointers { addTouchPointer(id: id, description: description, transform: transform) }
    }

    /// An open touchscreen turned: clicks at the touch undo the new transform.
    public func deviceTransformChanged(id: Int, transform: AxisTransform) {
        guard let (d, _) = touchscreens[id] else { return }
        touchscreens[id] = (d, transform)
        touchPointers[id]?.transform = transform
    }

    public func deviceClosed(id: Int) {
        touchpad?.deviceClosed(id: id)
        touchscreens[id] = nil
        if let p = touchPointers.removeValue(forKey: id) { player.cancel(p.device) }
    }

    private func addTouchPointer(id: Int, description d: DeviceDescription, transform: AxisTransform) {
        let x = d.absInfo[AbsCode.mtPositionX] ?? d.absInfo[AbsCode.x]
        let y = d.absInfo[AbsCode.mtPositionY] ?? d.absInfo[AbsCode.y]
        guard var x, var y, x.maximum > x.minimum, y.maximum > y.minimum else { return }
        x.value = x.minimum; y.value = y.minimum; x.fuzz = 0; y.fuzz = 0; x.flat = 0; y.flat = 0
        let name = "gestured touch pointer for \(d.name)"
        if let dev = make("touch pointer for '\(d.name)'", { () throws(InputError) in
            try VirtualKeyDevice(role: "touch-pointer", product: Self.touchPointerProduct, keys: Self.allButtons,
                                 absolute: (x, y), name: String(name.prefix(79)))
        }) {
            touchPointers[id] = TouchPointer(device: dev, transform: transform, x: x, y: y)
        }
    }

    // MARK: gestures

    public func receive(_ m: BusMessage) {
        guard case .gesture(let g, let d) = m else { return }
        receive(g, from: d)
    }

    /// The kinds its bindings name, or every kind while the virtual touchpad replays gestures
    /// (`configure` changes it and says so).
    public var wantedKinds: GestureKindSet {
        touchpad != nil ? .all : GestureKindSet(bindings.lazy.map(\.gesture))
    }
    public var interestChanged: (() -> Void)?

    public func receive(_ g: GestureEvent, from d: WireDevice) {
        touchpad?.receive(g, from: d)
        guard !bindings.isEmpty else { return }
        for i in matcher.match(g, device: hookDevice.of(d)) {
            let b = bindings[i]
            if locked && !b.whenLocked {
                log.info("actions: \(b.location): the session is locked; not sending (when_locked: true would)")
                continue
            }
            perform(keys: b.keys, hold: b.keyHold, delay: b.keyDelay, button: b.button,
                    at: (g.x, g.y), deviceId: d.id, delayFirst: .zero)
            onPlayed?(g)
        }
    }

    /// Plays chords and a click now (or after `delayFirst`).
    func perform(keys: [KeyChord], hold: Duration, delay: Duration, button: ButtonAction?,
                 at position: (Double?, Double?), deviceId: Int?, delayFirst: Duration) {
        let now = MonotonicClock.now()
        if !keys.isEmpty, let kb = keyboard {
            player.play(ActionPlayer.steps(keys, hold: hold, delay: delay, startingAt: now + delayFirst, on: kb), now: now)
        }
        guard let button else { return }
        let code = button.button.code
        if button.atTouch, let id = deviceId, let tp = touchPointers[id], let fx = position.0, let fy = position.1 {
            let (rx, ry) = Self.untransform(fx, fy, tp.transform)
            do {
                try tp.device.move(x: Self.scale(rx, tp.x), y: Self.scale(ry, tp.y))
                try tp.device.send([(code, 1), (code, 0)])
            } catch { log.warning("actions: click on \(tp.device.devnode ?? "?"): \(error.description)") }
        } else if let p = pointer {
            if button.atTouch { log.debug("actions: no touch pointer for this device; clicking at the cursor") }
            player.play([ActionPlayer.Step(due: now + delayFirst, device: p, events: [(code, 1), (code, 0)])], now: now)
        }
    }

    static func scale(_ f: Double, _ a: AbsInfo) -> Int32 {
        let v = Double(a.minimum) + min(1, max(0, f)) * Double(a.maximum - a.minimum)
        return Int32(v.rounded())
    }

    /// A 0…1 position as the user sees the surface (after the config's rotation and inversion)
    /// back to the device's own axes, which the mirror pointer shares with the touchscreen.
    static func untransform(_ x: Double, _ y: Double, _ t: AxisTransform) -> (Double, Double) {
        let p = t.unmap(x, y)
        return (p.x, p.y)
    }

    // MARK: stop

    /// Lifts every key and button held on every virtual device.
    public func releaseAll() {
        keyboard.map { player.cancel($0); $0.releaseAll() }
        pointer.map { player.cancel($0); $0.releaseAll() }
        for p in touchPointers.values { player.cancel(p.device); p.device.releaseAll() }
    }

    /// Releases everything and destroys the devices.
    public func stop() {
        lock?.stop(); lock = nil
        touchpad?.stop(); touchpad = nil
        releaseAll()
        player.close()
        keyboard = nil; pointer = nil; touchPointers.removeAll()
    }
}
