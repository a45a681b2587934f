import GestureConfig
import GestureCore
import GestureWire
import LinuxInput
import LinuxSystem

/// Every open device: its `DeviceSession` (pipeline, exclusive gate), its fd on the loop, and the
/// one timerfd that fires the sessions' deadlines. Sources come from discovery, from `run
/// --replay`, from the benchmark and from tests; each is recognized as the binding plan says.
public final class DeviceSessions: DaemonService {
    public let name = "devices"
    let loop: EventLoop
    let log: Logger
    let bus: GestureBus
    /// The plan in force (a reload hands over the next one).
    private(set) var plan: BindingPlan
    /// Told about devices that open, close or turn (for `at: touch` clicks). Held strongly (it
    /// holds nothing of this): a weak reference would give it a side table (EventLoop.afterEachWakeup).
    var actions: ActionService?
    /// The socket server, once started: it takes the session's `orientation` requests.
    var socketServer: () -> SocketServer? = { nil }
    var sessions: [FileDescriptor: DeviceSession] = [:] {
        didSet { sessionList = Array(sessions.values) }
    }
    /// `sessions.values`, kept for the per-wakeup timer check: iterating the dictionary retained
    /// its storage and each session on every wakeup.
    private(set) var sessionList: [DeviceSession] = []
    /// `orientation: accelerometer` devices (DeviceSessions+Orientation.swift).
    let accelerometerFollowers = AccelerometerFollowers()
    private var nextDeviceId = 1
    private let timer = DeadlineTimer()
    private var afterWakeupID = 0
    private var diagnosticsLimit = RateLimiter(burst: 20, interval: .seconds(60))
    private var rawFrames: Bool
    /// Called after a device is opened (the daemon hands back the code that ran for it).
    var onOpened: (() -> Void)?
    /// No device has a finger on it or a gesture waiting.
    var areIdle: Bool { sessionList.allSatisfy(\.isIdle) }

    init(loop: EventLoop, log: Logger, bus: GestureBus, plan: BindingPlan) {
        self.loop = loop; self.log = log; self.bus = bus; self.plan = plan
        rawFrames = plan.config.socket.rawFrames
    }

    /// The devices read now, in the order they were added.
    public var devices: [WireDevice] { sessionList.map(\.wire).sorted { $0.id < $1.id } }
    public var isEmpty: Bool { sessions.isEmpty }

    public func start() throws(DaemonError) {
        loop.add(timer.fd, priority: .first) { [unowned self] _ in self.timerFired() }
        if let server = socketServer() { startOrientation(server: server) }
        // Re-armed once a wakeup's handlers are done, after the socket server's flush: disarming
        // a tap's timeout is a timerfd_settime on the very frame a pan begins, and done before
        // the flush it delayed that frame's line.
        afterWakeupID = loop.afterEachWakeup { [unowned self] in self.rearmTimer() }
    }

    deinit { loop.removeAfterWakeup(afterWakeupID) }

    /// Every device closes: its gestures in flight are cancelled, its grab and clone released.
    public func stop() {
        for s in sessions.values.sorted(by: { $0.id > $1.id }) { end(s, reason: "closed (daemon stopping)") }
        loop.remove(timer.fd)
    }

    /// A reload: every open session is offered its part of the new plan (taken at the next
    /// moment no finger is down), exclusive devices are reconciled.
    public func apply(_ new: BindingPlan) {
        plan = new
        rawFrames = new.config.socket.rawFrames
        for s in sessions.values.sorted(by: { $0.id < $1.id }) {
            s.emitsFrames = rawFrames
            let next = new.device(s.source.description)
            let changes = next.recognitionChanges(from: s.plan)
            if !s.offer(next) && !changes.isEmpty {
                log.info("reload: \(s.wire.node): \(changes.joined(separator: "; ")) (from the next moment no finger is down)")
            }
        }
        reconcileExclusive()
    }

    /// Adds a device source, recognized as the plan says for it (`thresholds` replaces the
    /// plan's), in the orientation udev (`discovered`), the config and the screen give it. Call
    /// on the loop's thread.
    @discardableResult
    public func add(_ source: DeviceSource, thresholds: Thresholds? = nil, discovered: DiscoveredDevice? = nil) -> DeviceSession {
        var devicePlan = plan.device(source.description)
        if let thresholds { devicePlan.settings.thresholds = thresholds }
        let orientation = Self.openingOrientation(node: source.node, kind: source.description.kind, settings: devicePlan.settings,
                                                  calibrationMatrix: discovered?.calibrationMatrix,
                                                  output: discovered?.output, log: log)
        let s = DeviceSession(id: nextDeviceId, source: source, plan: devicePlan, orientation: orientation)
        s.emitsFrames = rawFrames
        // An exclusive device reads every event (startExclusive); a shared one what is decoded.
        if !devicePlan.settings.exclusive { s.readOnlyWhatIsDecoded() }
        s.planTaken = { [unowned self] s, old in self.planTaken(s, old: old) }
        actions?.deviceOpened(id: s.id, description: source.description, transform: s.transform)
        logOrientation(s, changed: false)
        s.onOrientationChanged = { [unowned self] s in self.orientationChanged(s) }
        followAccelerometerIfAsked(s, settings: devicePlan.settings)
        nextDeviceId += 1
        sessions[source.fd] = s
        // The session is held by the handler itself (no cycle: the session does not hold it, and
        // `end` removes it from the loop); an unowned capture would be promoted, an atomic
        // operation, at every wake-up.
        loop.add(source.fd, priority: .first) { [unowned self] _ in self.readable(s) }
        let w = s.wire
        log.info("devices: \(w.node): \(w.kind) '\(TextEscaping.escaped(w.name))', \(w.sizeKnown ? "" : "~")\(Int(w.widthMillimeters.rounded()))×\(Int(w.heightMillimeters.rounded())) mm, \(w.slots) slots, protocol \(w.contactProtocol)")
        bus.publish(.deviceAdded(w))
        onOpened?()
        return s
    }

    public func session(node: String) -> DeviceSession? { sessionList.first { $0.source.node == node } }

    /// A reload's plan reached a session (at once, or at the first moment no finger was down).
    private func planTaken(_ s: DeviceSession, old: DevicePlan) {
        log.info("reload: \(s.wire.node): new settings in force (\(s.plan.recognitionChanges(from: old).joined(separator: "; ")))")
    }

    private func readable(_ s: DeviceSession) {
        handle(s.readAvailable(gestures: { publish($0, from: s) }) { emit($0, from: s) }, of: s)
    }

    /// What a session's read says: a resync is logged; an ended, unplugged or failed source ends it.
    private func handle(_ r: DeviceSession.ReadOutcome, of s: DeviceSession) {
        if r.resyncs > 0 {
            log.warning("kernel: SYN_DROPPED on \(s.wire.node) (events were lost; resynchronized, gestures in flight cancelled)")
        }
        switch r.status {
        case .drained, .more: break
        case .ended:
            s.finish { emit($0, from: s) }
            log.info("replay: \(s.wire.node) ended; the daemon stays up")
            end(s, reason: "replay ended")
        case .deviceGone: end(s, reason: "unplugged")
        case .failed(let e):
            log.warning("devices: \(s.wire.node): \(e); closing it")
            end(s, reason: "read failed")
        }
    }

    private func emit(_ o: DeviceSession.Output, from s: DeviceSession) {
        switch o {
        case .gesture(let g): publish(g, from: s)
        case .frame(let f): if rawFrames { bus.publish(.frame(f, s.wire)) }
        case .diagnostic(let d):
            if let suppressed = diagnosticsLimit.allow(now: MonotonicClock.now()) {
                log.warning("\(s.wire.node): \(d)\(suppressed > 0 ? " (\(suppressed) similar lines suppressed)" : "")")
            }
        }
    }

    /// A gesture as the pipeline holds it, with the device borrowed from the session's box. The
    /// bus asks for the kind again; asked here first, a gesture nobody takes retains no box.
    private func publish(_ g: GestureEvent, from s: DeviceSession) {
        guard bus.wants(g.kind) else { return }
        let w = s.wireBox
        bus.publish(g, from: w.device)
    }

    /// Ends a session: its gestures in flight are cancelled, `deviceRemoved` goes out.
    func end(_ s: DeviceSession, reason: String) {
        guard sessions.removeValue(forKey: s.source.fd) != nil else { return }
        s.removed(at: MonotonicClock.now()) { emit($0, from: s) }
        actions?.deviceClosed(id: s.id)
        loop.remove(s.source.fd)
        s.source.close()
        log.info("devices: \(s.wire.node) \(reason)")
        bus.publish(.deviceRemoved(s.wire))
        if sessions.isEmpty && reason == "unplugged" { log.notice("no touch device: waiting for one to be plugged in") }
    }

    // MARK: - Time

    /// Arms the timer at the earliest deadline of all sessions (no syscall when unchanged).
    private func rearmTimer() {
        var earliest: Instant?
        for i in sessionList.indices { earliest = Instant.earliest(earliest, sessionList[i].nextDeadline) }
        timer.arm(at: earliest)
    }

    private func timerFired() {
        timer.acknowledge()
        let now = MonotonicClock.now()
        for s in sessionList {
            guard let d = s.nextDeadline, d <= now else { continue }
            // The device's queued events first (DeviceSession.deadlineDue).
            let r = s.deadlineDue(now: MonotonicClock.now, gestures: { publish($0, from: s) }) { emit($0, from: s) }
            handle(r, of: s)
        }
    }
}
