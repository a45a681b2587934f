import GestureCore
import GestureConfig

/// A part of the daemon with a start and a stop (swift-service-lifecycle's idea, written here):
/// signals, the socket, hooks, actions, device sessions, discovery, exclusive devices, the
/// watchdog, and the replay sources of `run --replay`.
public protocol DaemonService: AnyObject {
    /// For the log ("socket", "hooks"…).
    var name: String { get }
    /// Takes what the service needs (fds, threads, devices). A failure stops the daemon's start.
    func start() throws(DaemonError)
    /// Gives it all back. Called once, in the reverse order of the starts, only after a start
    /// that succeeded.
    func stop()
    /// A reload's new plan (the config is valid; everything it asks of this service applies).
    func apply(_ plan: BindingPlan)
}

extension DaemonService {
    public func apply(_ plan: BindingPlan) {}
}

/// Starts services in order and stops the started ones in reverse: at the end, and at once
/// when a later start fails, so a daemon that could not start leaves nothing behind.
final class ServiceRunner {
    private(set) var services: [DaemonService] = []
    private var started = 0

    func add(_ s: DaemonService) { services.append(s) }

    /// Starts what has not been started yet, in the order added.
    func start() throws(DaemonError) {
        while started < services.count {
            let s = services[started]
            do { try s.start() } catch {
                stop()
                throw DaemonError("\(s.name): \(error.description)")
            }
            started += 1
        }
    }

    /// Stops every started service, last started first.
    func stop() {
        while started > 0 {
            started -= 1
            services[started].stop()
        }
    }

    /// Hands a reload's plan to every started service, in start order.
    func apply(_ plan: BindingPlan) {
        for s in services.prefix(started) { s.apply(plan) }
    }
}
