import GestureCore
import GestureRecording
import LinuxSystem

/// How `gestured run --replay` replays.
public struct ReplayOptions: Sendable {
    /// Recordings that stand in for devices, replayed at their recorded pace.
    public var recordings: [String] = []
    /// Wait before a replay starts (time for a client to connect).
    public var delay: Duration = .seconds(1)
    /// Start when this many socket clients have connected (0: after `delay`).
    public var waitForClients = 0
    /// Replay again and again (2 s apart) instead of once.
    public var loop = false
    public init() {}
}

/// `run --replay`: each recording becomes a pipe-backed device source of the daemon's sessions,
/// like any device, fed at its recorded pace by a thread of its own (`ReplayFeeder`). Outside
/// `Daemon`: the command line adds it as one more service.
public final class ReplayService: DaemonService {
    public let name = "replay"
    private let options: ReplayOptions
    private unowned let daemon: Daemon
    private var pending: [(Recording, PipeEventWriter)] = []

    public init(_ options: ReplayOptions, daemon: Daemon) {
        self.options = options
        self.daemon = daemon
    }

    /// Loads every recording (a broken one stops the start, naming its line) and adds its source.
    public func start() throws(DaemonError) {
        for path in options.recordings {
            let recording: Recording
            do { recording = try RecordingLoader.load(path: path) } catch {
                throw DaemonError(error.description)
            }
            let source = PipeDeviceSource(description: recording.description, node: "replay:\(path)")
            pending.append((recording, source.writer!))
            daemon.add(source)
            daemon.log.info("replay: \(path) stands in for a \(recording.description.kind) (\(recording.events.count) events)")
        }
        if options.waitForClients > 0, let server = daemon.socketServer {
            server.onConnect = { [unowned self, unowned server] in
                if server.clientCount >= self.options.waitForClients { self.startFeeding(after: .milliseconds(200)) }
            }
        } else {
            startFeeding(after: options.delay)
        }
    }

    private func startFeeding(after delay: Duration) {
        let replays = pending
        pending.removeAll()
        for (recording, writer) in replays {
            ReplayFeeder.start(recording, into: writer, delay: delay, loop: options.loop)
        }
    }

    /// The sources end with the sessions; a feeder thread still writing stops at the closed pipe,
    /// and a replay that never started is closed here.
    public func stop() {
        for (_, writer) in pending { writer.finish() }
        pending.removeAll()
    }
}
