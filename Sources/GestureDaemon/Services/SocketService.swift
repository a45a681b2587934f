import GestureConfig
import GestureCore
import GestureWire
import LinuxSystem

/// The listening socket (inherited from systemd's socket unit, or made at `--socket`/the
/// config's path) and its `SocketServer`, subscribed to the bus.
final class SocketService: DaemonService {
    let name = "socket"
    private let loop: EventLoop
    private let log: Logger
    private let bus: GestureBus
    private let options: DaemonOptions
    private let config: SocketConfig
    private let origin: Instant
    /// The devices for a client's hello.
    private let devices: () -> [WireDevice]
    private(set) var server: SocketServer?
    /// Where it listens, for the ready status (the socket unit's path under socket activation:
    /// the config's, which the unit's ListenStream= names too).
    private(set) var path = ""

    init(loop: EventLoop, log: Logger, bus: GestureBus, options: DaemonOptions, config: SocketConfig, origin: Instant,
         devices: @escaping () -> [WireDevice]) {
        self.loop = loop; self.log = log; self.bus = bus; self.options = options; self.config = config
        self.origin = origin; self.devices = devices
    }

    func start() throws(DaemonError) {
        let policy = SocketPolicy(config)
        let s: SocketServer
        path = options.socketPath ?? config.path
        if options.socketPath == nil, let fd = SocketServer.activatedFD(environment: options.environment) {
            s = SocketServer(listenFD: fd, ownedPath: nil, policy: policy, loop: loop, log: log, origin: origin)
            log.info("socket: using the socket systemd passed (LISTEN_FDS)")
        } else {
            let fd: FileDescriptor
            do { fd = try SocketServer.listen(path: path, mode: config.mode, group: config.group) } catch {
                throw DaemonError(error.description)
            }
            s = SocketServer(listenFD: fd, ownedPath: path, policy: policy, loop: loop, log: log, origin: origin)
            log.info("socket: listening on \(path)")
        }
        let version = options.daemonVersion
        s.helloLine = { [unowned self] in WireEncoder.hello(daemonVersion: version, devices: self.devices()) }
        server = s
        bus.subscribe(s)
    }

    func apply(_ plan: BindingPlan) { server?.policy = SocketPolicy(plan.config.socket) }

    /// Every client is told nothing more comes and closed; the socket file we made is removed.
    func stop() {
        server?.shutdown()
        server = nil
    }
}
