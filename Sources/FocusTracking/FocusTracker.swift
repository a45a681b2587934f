import GestureConfig
import Synchronization
import LinuxSystem

/// Follows the focused window on its own thread, with the first backend that works in this
/// session (or the one asked for). `focus` is what `gestured listen` matches `app:` against.
/// While no backend is connected it is `.unknown`, so only bindings without `app:` run. A lost
/// connection (the compositor restarting, its socket vanishing, a message it cannot use) is said
/// once; the tracker reconnects with backoff and says once when it is back.
public final class FocusTracker: Sendable {
    public typealias Log = @Sendable (String) -> Void

    /// What the tracker tells its observer (`--print-app`).
    public enum Report: Sendable, Equatable {
        case connected(FocusBackendKind, endpoint: String)
        case changed(FocusChange)
        case lost(FocusBackendKind)
    }

    private let requested: FocusBackendKind?
    private let environment: [String: String]
    private let log: Log
    private let observe: (@Sendable (Report) -> Void)?
    private let current = Mutex<AppFocus>(.unknown)
    private let worker = WorkerThread()
    /// Longest wait between reconnection attempts.
    static let maximumBackoffMilliseconds: Int32 = 5000

    /// `backend`: nil picks from the environment (`BackendSelection.candidates`).
    public init(backend: FocusBackendKind?, environment: [String: String], log: @escaping Log,
                observe: (@Sendable (Report) -> Void)? = nil) {
        requested = backend
        self.environment = environment
        self.log = log
        self.observe = observe
    }

    /// The focused application now.
    public var focus: AppFocus { current.withLock { $0 } }

    public func start() {
        if !worker.start({ [self] in run() }) { log("cannot start the focus thread; only bindings without app: run") }
    }

    public func stop() { worker.stop() }

    // MARK: the thread

    private func run() {
        let candidates: [(FocusBackendKind, String)] = requested.map { [($0, "asked for with --focus-backend")] }
            ?? BackendSelection.candidates(environment)
        guard !candidates.isEmpty else {
            log("per-application bindings are off: no focus backend fits this session (none of HYPRLAND_INSTANCE_SIGNATURE, "
                + "NIRI_SOCKET, SWAYSOCK, I3SOCK, WAYLAND_DISPLAY, DISPLAY is set and XDG_CURRENT_DESKTOP names neither "
                + "KDE nor GNOME); only bindings without app: run")
            return
        }
        var backoff: Int32 = 250
        var said = false
        var outage = false
        var chosen: FocusBackend? = nil
        // Until one backend connects, try every candidate; say once which were tried.
        while chosen == nil {
            var failures: [String] = []
            for (kind, why) in candidates {
                let b = BackendSelection.make(kind, environment)
                do {
                    let fd = try b.connect()
                    chosen = b
                    log("focus: following \(kind.summary) at \(b.endpoint)")
                    follow(b, fd: fd, outage: &outage)
                    break
                } catch { failures.append("\(kind.rawValue) (\(why)): \(error.description)") }
            }
            if chosen != nil { break }
            if !said {
                log("per-application bindings are off for now: tried " + failures.joined(separator: "; ")
                    + "; only bindings without app: run; retrying")
                said = true
            }
            guard sleep(milliseconds: &backoff) else { return }
        }
        guard let backend = chosen else { return }
        // Then stay with it: reconnect when it drops, saying so once per loss.
        backoff = 250
        while !worker.isStopping {
            guard sleep(milliseconds: &backoff) else { return }
            do {
                let fd = try backend.connect()
                backoff = 250
                follow(backend, fd: fd, outage: &outage)
            } catch { continue }
        }
    }

    /// Reads focus changes until the connection fails or the tracker stops. `outage`: a loss
    /// was said and not yet its end; the end is said when the backend reports a focus again, so
    /// a backend that connects and fails over and over is said once.
    private func follow(_ backend: FocusBackend, fd: Int32, outage: inout Bool) {
        observe?(.connected(backend.kind, endpoint: backend.endpoint))
        var last: FocusChange? = nil
        var warned = false
        defer {
            backend.disconnect()
            current.withLock { $0 = .unknown }
        }
        func apply(_ changes: [FocusChange], _ outage: inout Bool) {
            if outage && !changes.isEmpty {
                log("focus: \(backend.kind.rawValue) is back at \(backend.endpoint)")
                outage = false
            }
            for c in changes where c != last {
                last = c
                current.withLock { $0 = c.appFocus }
                observe?(.changed(c))
            }
        }
        apply(backend.pending(), &outage)
        var fds = [Poll.Entry(FileDescriptor(rawValue: fd), .readable), Poll.Entry(worker.wake, .readable)]
        while !worker.isStopping {
            do { try Poll.wait(&fds, timeoutMilliseconds: -1) } catch {
                if error == .interrupted { continue }
                return
            }
            if !fds[1].returned.isEmpty { return }
            let changes: [FocusChange]
            do { changes = try backend.receive() } catch {
                // Unknown before the loss is said: whoever hears of it sees the fallback already.
                current.withLock { $0 = .unknown }
                if !outage {
                    log("focus: lost \(backend.kind.rawValue) (\(error.description)); only bindings without app: run "
                        + "until it is back; reconnecting")
                    observe?(.lost(backend.kind))
                    outage = true
                }
                return
            }
            if !warned, let w = backend.takeWarnings().first {
                log("focus: warning: \(w) (further problems of this connection are not logged)")
                warned = true
            }
            apply(changes, &outage)
        }
    }

    /// Waits `ms` (doubling it for next time, up to the maximum); false when stopping.
    private func sleep(milliseconds ms: inout Int32) -> Bool {
        _ = try? Poll.wait(for: worker.wake, .readable, timeoutMilliseconds: ms)
        ms = min(ms * 2, FocusTracker.maximumBackoffMilliseconds)
        return !worker.isStopping
    }
}
