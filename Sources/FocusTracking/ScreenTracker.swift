import Synchronization
import LinuxSystem

/// A compositor connection that reports its outputs' transforms (SwayScreen.swift).
protocol ScreenBackend: AnyObject {
    var name: String { get }
    var endpoint: String { get }
    /// Connects and asks for the outputs; the fd to poll.
    func connect() throws(FocusError) -> Int32
    func disconnect()
    /// What arrived: the outputs as they now are, nil when nothing about them yet.
    func receive() throws(FocusError) -> [ScreenOutput]?
    /// The outputs `connect` already learnt (nil: they arrive through `receive`).
    func pending() -> [ScreenOutput]?
}

/// Follows the session's outputs and their transforms on its own thread, pushed by the
/// compositor (no polling), for `gestured listen` to turn the touchscreens with the screen.
/// Backends: Wayland's wl_output (WaylandScreen.swift), sway's IPC (SwayScreen.swift), X11's
/// RandR (X11Screen.swift). A lost
/// connection is said once and retried with backoff; the outputs last reported stay in force
/// meanwhile.
public final class ScreenTracker: Sendable {
    public typealias Log = @Sendable (String) -> Void
    public typealias Observe = @Sendable ([ScreenOutput]) -> Void

    private let environment: [String: String]
    private let log: Log
    private let observe: Observe
    private let worker = WorkerThread()

    public init(environment: [String: String], log: @escaping Log, observe: @escaping Observe) {
        self.environment = environment
        self.log = log
        self.observe = observe
    }

    /// The backend this session offers, by its environment; nil when none (said by `start`).
    /// Wayland's own wl_output first (every Wayland compositor has it, and sway before 1.8
    /// has no IPC output events); sway's IPC where only SWAYSOCK is known; X11's RandR only
    /// where neither is set, since a Wayland session's DISPLAY is Xwayland, whose outputs
    /// repeat the compositor's.
    static func backend(_ environment: [String: String]) -> ScreenBackend? {
        if let display = environment["WAYLAND_DISPLAY"], !display.isEmpty { return WaylandScreen(display: display) }
        if let sock = environment["SWAYSOCK"], !sock.isEmpty { return SwayScreen(socketPath: sock) }
        if let display = environment["DISPLAY"], !display.isEmpty { return X11Screen(display: display) }
        return nil
    }

    /// Starts the thread. False when this session offers no backend (said in the log).
    @discardableResult
    public func start() -> Bool {
        guard Self.backend(environment) != nil else {
            log("screen: no backend for this session (none of WAYLAND_DISPLAY, SWAYSOCK and DISPLAY is set): touchscreens keep the orientation the daemon has")
            return false
        }
        // The backend is made on the thread that uses it (a backend is not Sendable).
        guard worker.start({ [self] in if let b = Self.backend(environment) { run(b) } }) else {
            log("screen: cannot start its thread; touchscreens keep the orientation the daemon has")
            return false
        }
        return true
    }

    public func stop() { worker.stop() }

    private func run(_ backend: ScreenBackend) {
        var backoff: Int32 = 250
        var outage = false, said = false
        while !worker.isStopping {
            do {
                let fd = try backend.connect()
                if !said { log("screen: following \(backend.name) output transforms at \(backend.endpoint)"); said = true }
                follow(backend, fd: fd, outage: &outage, backoff: &backoff)
            } catch {
                if !outage {
                    log("screen: \(backend.name): \(error.description); retrying")
                    outage = true
                }
            }
            _ = try? Poll.wait(for: worker.wake, .readable, timeoutMilliseconds: backoff)
            backoff = min(backoff * 2, 5000)
        }
    }

    /// Reads until the connection fails or the tracker stops. An outage ends (said once, and
    /// the backoff starts over) when the backend reports outputs again.
    private func follow(_ backend: ScreenBackend, fd: Int32, outage: inout Bool, backoff: inout Int32) {
        defer { backend.disconnect() }
        var last: [ScreenOutput]?
        if let outputs = backend.pending() {
            if outage { log("screen: \(backend.name) is back at \(backend.endpoint)"); outage = false }
            backoff = 250
            last = outputs
            observe(outputs)
        }
        var fds = [Poll.Entry(FileDescriptor(rawValue: fd), .readable), Poll.Entry(worker.wake, .readable)]
        while !worker.isStopping {
            do { try Poll.wait(&fds, timeoutMilliseconds: -1) } catch {
                if error == .interrupted { continue }
                return
            }
            if !fds[1].returned.isEmpty { return }
            do {
                if let outputs = try backend.receive() {
                    if outage { log("screen: \(backend.name) is back at \(backend.endpoint)"); outage = false }
                    backoff = 250
                    if outputs != last { last = outputs; observe(outputs) }
                }
            } catch {
                if !outage { log("screen: lost \(backend.name) (\(error.description)); the last orientation stays; reconnecting") }
                outage = true
                return
            }
        }
    }
}
