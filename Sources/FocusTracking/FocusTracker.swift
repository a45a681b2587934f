#if canImport(Glibc)
import Glibc
#endif
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
    private let stopping = Atomic<Bool>(false)
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let thread = Mutex<pthread_t?>(nil)
    /// Longest wait between reconnection attempts.
    static let maximumBackoffMilliseconds: Int32 = 5000

    /// `backend`: nil picks from the environment (`BackendSelection.candidates`).
    public init(backend: FocusBackendKind?, environment: [String: String], log: @escaping Log,
                observe: (@Sendable (Report) -> Void)? = nil) {
        requested = backend
        self.environment = environment
        self.log = log
        self.observe = observe
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        for f in fds { _ = fcntl(f, F_SETFD, FD_CLOEXEC); _ = fcntl(f, F_SETFL, O_NONBLOCK) }
        wakeRead = fds[0]; wakeWrite = fds[1]
    }

    /// The focused application now.
    public var focus: AppFocus { current.withLock { $0 } }

    public func start() {
        let box = Unmanaged.passRetained(self).toOpaque()
        var tid = pthread_t()
        let rc = pthread_create(&tid, nil, { arg in
            let t = Unmanaged<FocusTracker>.fromOpaque(arg!).takeRetainedValue()
            t.run()
            return nil
        }, box)
        if rc == 0 { thread.withLock { $0 = tid } } else {
            Unmanaged<FocusTracker>.fromOpaque(box).release()
            log("cannot start the focus thread; only bindings without app: run")
        }
    }

    public func stop() {
        guard !stopping.exchange(true, ordering: .sequentiallyConsistent) else { return }
        var b: UInt8 = 1
        _ = write(wakeWrite, &b, 1)
        if let tid = thread.withLock({ t -> pthread_t? in defer { t = nil }; return t }) { pthread_join(tid, nil) }
        close(wakeRead); close(wakeWrite)
    }

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
        while !stopping.load(ordering: .relaxed) {
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
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        while !stopping.load(ordering: .relaxed) {
            fds[0].revents = 0; fds[1].revents = 0
            let n = poll(&fds, 2, -1)
            if n < 0 { if SystemError.last == .interrupted { continue }; return }
            if fds[1].revents != 0 { return }
            let changes: [FocusChange]
            do { changes = try backend.receive() } catch {
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
        var p = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
        _ = poll(&p, 1, ms)
        ms = min(ms * 2, FocusTracker.maximumBackoffMilliseconds)
        return !stopping.load(ordering: .relaxed)
    }
}
