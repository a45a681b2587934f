import GestureCore
import LinuxSystem

/// SIGHUP (reload), SIGTERM and SIGINT (stop) through a signalfd on the loop; SIGUSR1, SIGUSR2
/// and SIGALRM, whose default action would end the daemon without a word, are caught and logged;
/// SIGPIPE ignored (a closed client or hook pipe is an error return, not the end of the daemon).
final class SignalService: DaemonService {
    let name = "signals"
    private let loop: EventLoop
    private let log: Logger
    private var signals: SignalFD?
    var onReload: () -> Void = {}
    var onStop: (Signal) -> Void = { _ in }

    init(loop: EventLoop, log: Logger) { self.loop = loop; self.log = log }

    func start() throws(DaemonError) {
        CurrentProcess.ignore(.brokenPipe)
        let s: SignalFD
        do { s = try SignalFD(catching: [.hangUp, .terminate, .interrupt, .user1, .user2, .alarm]) } catch {
            throw DaemonError("signalfd: \(error)")
        }
        signals = s
        loop.add(s.descriptor, priority: .first) { [unowned self] _ in self.arrived() }
    }

    private func arrived() {
        while let signo = signals?.next() {
            switch signo {
            case .hangUp: onReload()
            case .terminate, .interrupt: onStop(signo)
            default: log.info("signal \(signo) ignored (SIGHUP reloads, SIGTERM and SIGINT stop)")
            }
        }
    }

    func stop() {
        guard let s = signals else { return }
        loop.remove(s.descriptor)
        s.descriptor.close()
        signals = nil
    }
}
