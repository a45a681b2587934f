import GestureConfig
import GestureCore
import GestureWire
import LinuxSystem

/// How `gestured run` was asked to run.
public struct DaemonOptions: Sendable {
    /// nil: /etc/gestured/config.yaml (missing → defaults).
    public var configPath: String?
    /// Overrides the config's `socket.path`.
    public var socketPath: String?
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

/// The daemon: one epoll loop on the calling thread, and the services that share it, started in
/// this order and stopped in reverse by a `ServiceRunner`:
///
///     signals → socket → hooks → actions → devices → discovery → (added: replay) → watchdog
///
/// Idle, it sleeps in `epoll_wait` with no timeout. A reload (SIGHUP) makes a new `BindingPlan`
/// from the config and hands it to every service.
public final class Daemon {
    public let options: DaemonOptions
    public let loop = EventLoop()
    public let bus = GestureBus()
    public let log: Logger
    public private(set) var config: Config
    /// Which bindings apply to what, from `config`: every service reads it (BindingPlan.swift).
    public private(set) var plan: BindingPlan
    /// CLOCK_MONOTONIC at start: `time` on the socket counts from here.
    public let origin: Instant
    private let notifier: SystemdNotifier
    private let runner = ServiceRunner()
    private let signals: SignalService
    private let socket: SocketService
    /// Every open device, with its pipeline and exclusive gate.
    public let sessions: DeviceSessions
    /// Key and click bindings through uinput (Actions/ActionService.swift).
    public var actions: ActionService { actionsService.actions }
    private let actionsService: ActionsService
    private let watchdog: WatchdogService
    private let handBack: CodeHandBack
    private var extra: [DaemonService] = []

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
        plan = BindingPlan(config)
        log.level = Logger.Level(rawValue: config.log.level.rawValue) ?? .info
        log.info("config: \(config.file)")
        signals = SignalService(loop: loop, log: log)
        let handBack = CodeHandBack(loop: loop, log: log)
        self.handBack = handBack
        sessions = DeviceSessions(loop: loop, log: log, bus: bus, plan: plan)
        sessions.onOpened = { handBack.soon() }
        let sessions = sessions
        handBack.quiet = { [unowned sessions] in sessions.areIdle }
        socket = SocketService(loop: loop, log: log, bus: bus, options: options, config: config.socket, origin: origin,
                               devices: { sessions.devices })
        actionsService = ActionsService(loop: loop, log: log, bus: bus, socket: socket, plan: plan)
        watchdog = WatchdogService(loop: loop, log: log, notifier: notifier)
        sessions.actions = actionsService.actions
        sessions.socketServer = { [unowned socket] in socket.server }
        signals.onReload = { [unowned self] in self.reload() }
        signals.onStop = { [unowned self] signo in
            self.log.info("stopping (signal \(signo))")
            self.notifier.stopping()
            self.loop.stop()
        }
        runner.add(signals)
        runner.add(socket)
        runner.add(HookService(log: log, bus: bus, plan: plan))
        runner.add(actionsService)
        runner.add(sessions)
        if options.discoverDevices { runner.add(DiscoveryService(loop: loop, log: log, sessions: sessions)) }
    }

    /// The devices the daemon reads now, in the order they were added.
    public var devices: [WireDevice] { sessions.devices }

    /// The socket server once started (replay waits for its clients).
    public var socketServer: SocketServer? { socket.server }

    /// A service of the caller's (`run --replay`'s `ReplayService`), started after the daemon's
    /// own device services and stopped before them.
    public func addService(_ s: DaemonService) { extra.append(s) }

    /// Adds a device source (a real device, a replay, the benchmark's pipe). Loop thread only.
    @discardableResult
    public func add(_ source: DeviceSource, thresholds: Thresholds? = nil) -> DeviceSession {
        sessions.add(source, thresholds: thresholds)
    }

    /// Starts the services, sends READY=1, and runs until SIGTERM/SIGINT or `stop()`; then stops
    /// them in reverse. Returns the exit status.
    public func run() -> Int32 {
        raiseOpenFileLimit()
        for s in extra { runner.add(s) }
        runner.add(watchdog)
        do { try runner.start() } catch {
            log.error(error.description)
            return 1
        }
        if sessions.isEmpty {
            log.notice("no touch device found: waiting for one to be plugged in (none here? replay a recording instead: gestured run --replay FILE, e.g. Tests/Fixtures/*.evemu)")
        }
        socket.server?.onClientServed = { [handBack] in handBack.soon() }
        notifier.ready(status: "\(sessions.devices.count) device(s), socket \(socket.path)")
        handBack.now("start-up")
        loop.run()
        runner.stop()
        log.info("stopped")
        return 0
    }

    /// Clients, devices and hooks' pipes are descriptors: the soft limit (often 1024) is raised
    /// to the hard one, the real bound (under the unit, LimitNOFILE= sets both and the seccomp
    /// filter refuses setrlimit).
    private func raiseOpenFileLimit() {
        do {
            let (before, after) = try CurrentProcess.raiseOpenFileLimit()
            if after != before { log.info("files: open-file limit raised from \(before) to \(after)") }
        } catch {
            log.debug("files: cannot raise the open-file limit: \(error)")
        }
    }

    /// Re-reads the config; a bad file is reported and the old config stays in force. A good one
    /// becomes a new plan for every service.
    public func reload() {
        notifier.reloading()
        defer { notifier.ready(status: "\(sessions.devices.count) device(s)") }
        let new: Config
        do { new = try Config.load(path: options.configPath) } catch {
            let d = error.description
            log.error((d.hasPrefix("config error:") ? d : "config error: \(d)") + "\nreload: keeping the previous config (\(config.file))")
            return
        }
        config = new
        plan = BindingPlan(new)
        log.level = Logger.Level(rawValue: new.log.level.rawValue) ?? .info
        log.info("reload: config \(new.file) in force")
        runner.apply(plan)
        handBack.soon()
    }

    /// Asks the loop to stop (from a handler on the loop's thread).
    public func stop() { loop.stop() }
}
