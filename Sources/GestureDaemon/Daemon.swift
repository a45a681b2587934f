import GestureConfig
import GestureCore
import GestureRecording
import GestureWire
import LinuxInput
import LinuxSystem

/// How `gestured run` was asked to run.
public struct DaemonOptions: Sendable {
    /// nil: /etc/gestured/config.yaml (missing → defaults).
    public var configPath: String?
    /// Overrides the config's `socket.path`.
    public var socketPath: String?
    /// Recordings that stand in for devices, replayed at their recorded pace.
    public var replays: [String] = []
    /// Wait before a replay starts (time for a client to connect).
    public var replayDelay: Duration = .seconds(1)
    /// Start the replays when this many socket clients have connected (0: after `replayDelay`).
    public var replayWaitForClients = 0
    /// Replay again and again (2 s apart) instead of once.
    public var replayLoop = false
    /// Find real devices through udev/inotify (off: only replays and added sources).
    public var discoverDevices = true
    public var daemonVersion = "0"
    public var environment: [String: String] = [:]

    public init() {}
}

public struct DaemonError: Error, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}

/// The daemon: one epoll loop on the calling thread over device fds, the device monitor, the
/// listening socket and its clients, a timerfd (arena deadlines, systemd watchdog) and a signalfd
/// (SIGHUP reload, SIGTERM/SIGINT stop). Idle, it sleeps in `epoll_wait` with no timeout.
public final class Daemon {
    public let options: DaemonOptions
    public let loop = EventLoop()
    public let bus = GestureBus()
    public let log: Logger
    public private(set) var config: Config
    /// CLOCK_MONOTONIC at start: `time` on the socket counts from here.
    public let origin: Instant
    private let timer = DeadlineTimer()
    private let notifier: SystemdNotifier
    private var server: SocketServer?
    private var hooks: HookRunner?
    private var hookSubscriber: HookSubscriber?
    /// Key and click bindings through uinput (Actions/ActionService.swift).
    public private(set) var actions: ActionService?
    func setActions(_ a: ActionService) { actions = a }
    private var monitor: DeviceMonitor?
    var sessions: [FileDescriptor: DeviceSession] = [:] {
        didSet { sessionList = Array(sessions.values) }
    }
    /// `sessions.values`, kept for the per-wakeup timer check: iterating the dictionary retained
    /// its storage and each session (about 170 instructions a wakeup, callgrind).
    private var sessionList: [DeviceSession] = []
    private var nextDeviceId = 1
    private var signals: SignalFD?
    private var watchdogDue: Instant?
    private var pendingReplays: [(Recording, PipeEventWriter)] = []
    private var diagnosticsLimit = RateLimiter(burst: 20, interval: .seconds(60))
    private var exitCode: Int32 = 0
    /// `orientation: accelerometer` devices (Daemon+Orientation.swift).
    let accelerometerFollowers = AccelerometerFollowers()

    public init(options: DaemonOptions, log: Logger = .shared) throws(DaemonError) {
        self.options = options
        self.log = log
        self.origin = MonotonicClock.now()
        notifier = SystemdNotifier(environment: options.environment)
        do { config = try Config.load(path: options.configPath) } catch {
            // ConfigError's description already says "config error:" (said once, not twice).
            let d = error.description
            throw DaemonError(d.hasPrefix("config error:") ? d : "config error: \(d)")
        }
        log.level = Logger.Level(rawValue: config.log.level.rawValue) ?? .info
        log.info("config: \(config.file)")
    }

    /// The devices the daemon reads now, in the order they were added.
    public var devices: [WireDevice] { sessions.values.map(\.wire).sorted { $0.id < $1.id } }

    // MARK: - Start

    /// Sets everything up (signals, socket, devices), sends READY=1, and runs until SIGTERM/SIGINT
    /// or `stop()`. Returns the exit status.
    public func run() -> Int32 {
        do { try start() } catch {
            log.error(error.description)
            return 1
        }
        loop.run()
        shutdown()
        return exitCode
    }

    func start() throws(DaemonError) {
        setUpSignals()
        loop.add(timer.fd) { [unowned self] _ in self.timerFired() }

        // Socket: inherited from systemd, or ours.
        let path = options.socketPath ?? config.socket.path
        let policy = SocketPolicy(allowedUIDs: config.socket.allowedUIDs, allowedGIDs: config.socket.allowedGIDs,
                                  queueLimit: config.socket.queueLimit, rawFrames: config.socket.rawFrames)
        let s: SocketServer
        if options.socketPath == nil, let fd = SocketServer.activatedFD(environment: options.environment) {
            s = SocketServer(listenFD: fd, ownedPath: nil, policy: policy, loop: loop, log: log, origin: origin)
            log.info("socket: using the socket systemd passed (LISTEN_FDS)")
        } else {
            let fd: FileDescriptor
            do { fd = try SocketServer.listen(path: path, mode: config.socket.mode, group: config.socket.group) } catch {
                throw DaemonError("socket: \(error.description)")
            }
            s = SocketServer(listenFD: fd, ownedPath: path, policy: policy, loop: loop, log: log, origin: origin)
            log.info("socket: listening on \(path)")
        }
        s.helloLine = { [unowned self] in WireEncoder.hello(daemonVersion: self.options.daemonVersion, devices: self.devices) }
        server = s
        bus.subscribe(s)
        // The timer is re-armed once a wakeup's handlers are done, after the socket server's
        // flush: disarming the tap timeout is a timerfd_settime on the very frame a pan begins,
        // and before the flush it delayed that frame's line (issue 13, latency).
        loop.afterEachWakeup { [unowned self] in self.rearmTimer() }

        // Hooks: the config's bindings, run by HookRunner's own thread (never waited for here).
        let logger = log
        let runner = HookRunner(bindings: config.commandBindings, limits: config.hooks) { priority, message in
            logger.log(Logger.Level(rawValue: priority) ?? .info, message)
        }
        hooks = runner
        let hookSubscriber = HookSubscriber(runner, bindings: config.commandBindings)
        self.hookSubscriber = hookSubscriber
        bus.subscribe(hookSubscriber)
        if !config.commandBindings.isEmpty { log.info("hooks: \(config.commandBindings.count) binding(s) with a command") }
        startActions(server: s)
        startOrientation(server: s)

        // Devices.
        if options.discoverDevices { startMonitor() }
        for path in options.replays { try addReplay(path) }
        if options.replayWaitForClients > 0 {
            s.onConnect = { [unowned self] in
                if self.server?.clientCount ?? 0 >= self.options.replayWaitForClients { self.startPendingReplays() }
            }
        } else {
            startPendingReplays()
        }
        if sessions.isEmpty {
            log.notice("no touch device found: waiting for one to be plugged in (none here? replay a recording instead: gestured run --replay FILE, e.g. Tests/Fixtures/*.evemu)")
        }

        if let interval = notifier.watchdogInterval {
            watchdogDue = MonotonicClock.now() + interval / 2
            log.info("systemd watchdog: pinging every \((interval / 2).totalMicroseconds / 1000) ms")
        }
        rearmTimer()
        notifier.ready(status: "\(sessions.count) device(s), socket \(path)")
    }

    private func setUpSignals() {
        CurrentProcess.ignore(.brokenPipe)
        do { signals = try SignalFD(catching: [.hangUp, .terminate, .interrupt]) } catch {
            log.error("signalfd: \(error)"); return
        }
        loop.add(signals!.descriptor) { [unowned self] _ in self.signalArrived() }
    }

    private func startMonitor() {
        do {
            let m = try DeviceMonitor()
            monitor = m
            log.info("devices: discovery through \(m.mode == .udev ? "udev (enumerate + monitor)" : "inotify on \(m.inputDirectory) (udevd is not running)")")
            loop.add(FileDescriptor(rawValue: m.fd)) { [unowned self] _ in self.apply(m.drain()) }
            apply(m.enumerate())
        } catch {
            log.error("devices: cannot watch for devices: \(error.description); only --replay sources will work")
        }
    }

    private func apply(_ changes: [DeviceChange]) {
        for change in changes {
            switch change {
            case .added(let d): openDevice(d)
            case .removed(let node):
                if let s = sessions.values.first(where: { $0.source.node == node }) {
                    end(s, reason: "removed")
                }
            case .ignored(let node, let reason): log.debug("devices: \(node) ignored: \(reason)")
            case .unavailable(let node, let error): log.warning("devices: \(node): \(error.description)")
            }
        }
    }

    private func openDevice(_ d: DiscoveredDevice) {
        if let open = sessions.values.first(where: { $0.source.node == d.node }) { return udevChanged(open, d) }
        let source: EvdevSource
        do { source = try EvdevSource(path: d.node) } catch {
            log.warning("devices: cannot open \(d.node): \(error.description)")
            return
        }
        if VirtualDeviceMark.isGestureds(phys: source.evdev?.phys) {
            // udev's view can be stale (a late event for a device already gone): the node opened
            // is what counts, and gestured never reads its own devices.
            log.info("devices: \(d.node) is \(VirtualDeviceMark.ignoredReason(source.description.name)); not opened")
            source.close()
            return
        }
        let settings = config.settings(for: source.description)
        if settings.ignore {
            log.info("devices: \(d.node) '\(TextEscaping.escaped(source.description.name))' ignored by the config")
            source.close()
            return
        }
        let s = add(source, thresholds: settings.thresholds, discovered: d)
        if settings.exclusive { startExclusive(s, settings: settings) }
    }

    private func addReplay(_ path: String) throws(DaemonError) {
        let recording: Recording
        do { recording = try RecordingLoader.load(path: path) } catch {
            throw DaemonError("replay: \(error.description)")
        }
        let source = PipeDeviceSource(description: recording.description, node: "replay:\(path)")
        pendingReplays.append((recording, source.writer))
        add(source, thresholds: config.thresholds(for: recording.description))
        log.info("replay: \(path) stands in for a \(recording.description.kind) (\(recording.events.count) events)")
    }

    private func startPendingReplays() {
        let replays = pendingReplays
        pendingReplays.removeAll()
        for (recording, writer) in replays {
            ReplayFeeder.start(recording, into: writer, delay: options.replayWaitForClients > 0 ? .milliseconds(200) : options.replayDelay,
                               loop: options.replayLoop)
        }
    }

    // MARK: - Sessions

    /// Adds a device source (a pipe-backed one from a test or the benchmark, or a real device).
    /// Call on the loop's thread (before `run()`, or from a handler).
    @discardableResult
    public func add(_ source: DeviceSource, thresholds: Thresholds? = nil, discovered: DiscoveredDevice? = nil) -> DeviceSession {
        let bound = Self.recognition(for: config)
        let settings = config.settings(for: source.description)
        let orientation = Self.openingOrientation(node: source.node, kind: source.description.kind, settings: settings,
                                                  calibrationMatrix: discovered?.calibrationMatrix,
                                                  output: discovered?.output, log: log)
        let s = DeviceSession(id: nextDeviceId, source: source,
                              thresholds: thresholds ?? settings.thresholds,
                              boundKinds: bound.kinds, doubleTapFingerCounts: bound.doubleTapFingers,
                              orientation: orientation)
        actions?.deviceOpened(id: s.id, description: source.description, transform: s.transform)
        logOrientation(s, changed: false)
        s.onOrientationChanged = { [unowned self] s in self.orientationChanged(s) }
        followAccelerometerIfAsked(s, settings: settings)
        nextDeviceId += 1
        sessions[source.fd] = s
        loop.add(source.fd) { [unowned self, unowned s] _ in self.readable(s) }
        let w = s.wire
        log.info("devices: \(w.node): \(w.kind) '\(TextEscaping.escaped(w.name))', \(w.sizeKnown ? "" : "~")\(Int(w.widthMillimeters.rounded()))×\(Int(w.heightMillimeters.rounded())) mm, \(w.slots) slots, protocol \(w.contactProtocol)")
        bus.publish(.deviceAdded(w))
        return s
    }

    /// What the arenas emit. Socket clients may want any gesture, so every kind is emitted, but a
    /// double tap makes every tap wait (300 ms on a touchscreen): doubleTap is recognized only for
    /// the finger counts a doubleTap binding in the daemon's config names.
    public static func recognition(for config: Config) -> (kinds: Set<GestureKind>, doubleTapFingers: Set<Int>) {
        var kinds = Set(GestureKind.all)
        var fingers = Set<Int>()
        for b in config.bindings where b.gesture == .doubleTap {
            switch b.fingers {
            case .any: fingers.formUnion(1...5)
            case .counts(let c): fingers.formUnion(c)
            }
        }
        if fingers.isEmpty { kinds.remove(.doubleTap) }
        return (kinds, fingers)
    }

    /// The timer is re-armed after the wakeup (`afterEachWakeup`, set up in `start`).
    private func readable(_ s: DeviceSession) {
        handle(s.readAvailable { emit($0, from: s) }, of: s)
    }

    /// What a session's read says: a resync is logged; an ended, unplugged or failed source ends it.
    private func handle(_ r: SourceRead, of s: DeviceSession) {
        if r.resyncCount > 0 {
            log.warning("kernel: SYN_DROPPED on \(s.wire.node) (events were lost; resynchronized, gestures in flight cancelled)")
        }
        switch r.status {
        case .drained, .more: break
        case .ended:
            s.finish { emit($0, from: s) }
            log.info("replay: \(s.wire.node) ended; the daemon stays up")
            end(s, reason: "replay ended")
        case .gone: end(s, reason: "unplugged")
        case .failed(let e):
            log.warning("devices: \(s.wire.node): \(e); closing it")
            end(s, reason: "read failed")
        }
    }

    private func emit(_ o: DeviceSession.Output, from s: DeviceSession) {
        switch o {
        case .gesture(let g): bus.publish(g, from: s.wire)
        case .frame(let f): if config.socket.rawFrames { bus.publish(.frame(f, s.wire)) }
        case .diagnostic(let d):
            if let suppressed = diagnosticsLimit.allow(now: MonotonicClock.now()) {
                log.warning("\(s.wire.node): \(d)\(suppressed > 0 ? " (\(suppressed) similar lines suppressed)" : "")")
            }
        }
    }

    /// Ends a session: its gestures in flight are cancelled, `deviceRemoved` goes out.
    private func end(_ s: DeviceSession, reason: String) {
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

    /// Arms the timer at the earliest deadline (no syscall when it is where it was armed).
    private func rearmTimer() {
        var earliest = watchdogDue
        for i in sessionList.indices {
            if let d = sessionList[i].nextDeadline, earliest.map({ d < $0 }) ?? true { earliest = d }
        }
        timer.arm(at: earliest)
    }

    private func timerFired() {
        timer.acknowledge()
        let now = MonotonicClock.now()
        for s in sessions.values {
            guard let d = s.nextDeadline, d <= now else { continue }
            // The device's queued events first (DeviceSession.deadlineDue).
            let r = s.deadlineDue(now: MonotonicClock.now) { emit($0, from: s) }
            handle(r, of: s)
        }
        if let due = watchdogDue, due <= now, let interval = notifier.watchdogInterval {
            notifier.watchdog()
            watchdogDue = now + interval / 2
        }
    }

    // MARK: - Signals

    private func signalArrived() {
        while let signo = signals?.next() {
            switch signo {
            case .hangUp: reload()
            case .terminate, .interrupt:
                log.info("stopping (signal \(signo))")
                notifier.stopping()
                loop.stop()
            default: break
            }
        }
    }

    /// Re-reads the config; a bad file is reported and the old config stays in force.
    public func reload() {
        notifier.reloading()
        defer { notifier.ready(status: "\(sessions.count) device(s)") }
        let new: Config
        do { new = try Config.load(path: options.configPath) } catch {
            let d = error.description
            log.error((d.hasPrefix("config error:") ? d : "config error: \(d)") + "\nreload: keeping the previous config (\(config.file))")
            return
        }
        config = new
        log.level = Logger.Level(rawValue: new.log.level.rawValue) ?? .info
        hooks?.update(bindings: new.commandBindings, limits: new.hooks)
        hookSubscriber?.bindingsChanged(new.commandBindings)
        actions?.configure(new)
        reconcileExclusive()
        server?.policy = SocketPolicy(allowedUIDs: new.socket.allowedUIDs, allowedGIDs: new.socket.allowedGIDs,
                                      queueLimit: new.socket.queueLimit, rawFrames: new.socket.rawFrames)
        log.info("reload: config \(new.file) in force (thresholds apply to devices opened from now on)")
    }

    /// Asks the loop to stop (from a handler on the loop's thread).
    public func stop() { loop.stop() }

    /// Reverse order of start: devices (their gestures cancelled, clients told), monitor, socket.
    private func shutdown() {
        actions?.stop()
        for s in sessions.values.sorted(by: { $0.id > $1.id }) { end(s, reason: "closed (daemon stopping)") }
        if let m = monitor { loop.remove(FileDescriptor(rawValue: m.fd)); monitor = nil }
        hooks?.shutdown()
        hooks = nil
        server?.shutdown()
        server = nil
        loop.remove(timer.fd)
        if let signals { loop.remove(signals.descriptor); signals.descriptor.close(); self.signals = nil }
        log.info("stopped")
    }
}
