import Synchronization
import LinuxSystem

/// A compositor's touchscreen-to-output mapping, followed (GnomeTouchscreenMapping.swift…).
protocol TouchscreenMappingSource: AnyObject {
    var name: String { get }
    var endpoint: String { get }
    /// Connects; the fd to poll.
    func connect() throws(FocusError) -> Int32
    func disconnect()
    /// The mapping as it now is, nil when nothing about it arrived.
    func receive() throws(FocusError) -> TouchscreenMapping?
    /// The mapping `connect` already learnt (nil: it arrives through `receive`).
    func pending() -> TouchscreenMapping?
    /// The session's outputs changed: a source whose compositor does not signal its mapping's
    /// changes reads it again at the next `receive`.
    func invalidate()
}

extension TouchscreenMappingSource {
    func invalidate() {}
}

/// Follows the compositor's own touchscreen-to-output mapping, where the session's compositor
/// exposes one, on its own thread, pushed by the compositor: GNOME (its per-touchscreen setting
/// and Mutter's DisplayConfig), KWin (each input device's `outputName` on the session bus),
/// Hyprland (`input:touchdevice:output`). sway's `map_to_output` and niri's `touch {
/// map-to-output }` are not in their IPC, so those sessions have none. A lost connection is said
/// once and retried with backoff; the mapping last reported stays meanwhile.
public final class TouchscreenMappingTracker: Sendable {
    public typealias Log = @Sendable (String) -> Void
    public typealias Observe = @Sendable (TouchscreenMapping) -> Void

    private let environment: [String: String]
    private let log: Log
    private let observe: Observe
    private let worker = WorkerThread()
    private let refreshRead: FileDescriptor
    private let refreshWrite: FileDescriptor

    public init(environment: [String: String], log: @escaping Log, observe: @escaping Observe) {
        self.environment = environment
        self.log = log
        self.observe = observe
        (refreshRead, refreshWrite) = WorkerThread.nonBlockingPipe()
    }

    /// The session's outputs changed (from the screen tracker's thread): a source that cannot
    /// tell when its mapping changes (KWin) reads it again.
    public func refresh() {
        _ = [UInt8(1)].withUnsafeBytes { try? refreshWrite.write($0) }
    }

    /// The source this session offers (Hyprland by HYPRLAND_INSTANCE_SIGNATURE, KWin and GNOME by
    /// XDG_CURRENT_DESKTOP), nil when none.
    static func source(_ environment: [String: String]) -> TouchscreenMappingSource? {
        let desktop = (environment["XDG_CURRENT_DESKTOP"] ?? "").lowercased().split(separator: ":")
        if let sig = environment["HYPRLAND_INSTANCE_SIGNATURE"], !sig.isEmpty { return HyprlandTouchscreenMapping(environment) }
        if desktop.contains("kde") { return KWinTouchscreenMapping(busAddress: environment["DBUS_SESSION_BUS_ADDRESS"]) }
        if desktop.contains("gnome") { return GnomeTouchscreenMapping(environment) }
        return nil
    }

    /// Starts the thread. False when the session's compositor exposes no mapping (said in the log).
    @discardableResult
    public func start() -> Bool {
        guard Self.source(environment) != nil else {
            log("screen: this session's compositor exposes no touchscreen mapping gestured reads (XDG_CURRENT_DESKTOP=\(environment["XDG_CURRENT_DESKTOP"] ?? "")); udev WL_OUTPUT or the built-in panel decides")
            return false
        }
        guard worker.start({ [self] in if let s = Self.source(environment) { run(s) } }) else {
            log("screen: cannot start the touchscreen mapping's thread; udev WL_OUTPUT or the built-in panel decides")
            return false
        }
        return true
    }

    public func stop() {
        guard worker.stop() else { return }
        refreshRead.close(); refreshWrite.close()
    }

    private func run(_ source: TouchscreenMappingSource) {
        var backoff: Int32 = 250
        var outage = false, said = false
        var last: TouchscreenMapping?
        while !worker.isStopping {
            do {
                let fd = try source.connect()
                if !said { log("screen: following \(source.name)'s touchscreen mapping at \(source.endpoint)"); said = true }
                follow(source, fd: fd, outage: &outage, backoff: &backoff, last: &last)
            } catch {
                if !outage { log("screen: \(source.name) touchscreen mapping: \(error.description); retrying"); outage = true }
            }
            _ = try? Poll.wait(for: worker.wake, .readable, timeoutMilliseconds: backoff)
            backoff = min(backoff * 2, 5000)
        }
    }

    private func report(_ source: TouchscreenMappingSource, _ m: TouchscreenMapping, outage: inout Bool,
                        backoff: inout Int32, last: inout TouchscreenMapping?) {
        if outage { log("screen: \(source.name)'s touchscreen mapping is back"); outage = false }
        backoff = 250
        guard m != last else { return }
        last = m
        for note in m.notes { log("screen: \(note)") }
        observe(m)
    }

    private func follow(_ source: TouchscreenMappingSource, fd: Int32, outage: inout Bool, backoff: inout Int32,
                        last: inout TouchscreenMapping?) {
        defer { source.disconnect() }
        var fds = [Poll.Entry(FileDescriptor(rawValue: fd), .readable), Poll.Entry(worker.wake, .readable),
                   Poll.Entry(refreshRead, .readable)]
        var first = true
        while !worker.isStopping {
            do throws(FocusError) {
                // The first read comes before any wait: a source may have it queued already.
                var m = first ? source.pending() : nil
                if m == nil { m = try source.receive() }
                first = false
                if let m { report(source, m, outage: &outage, backoff: &backoff, last: &last) }
            } catch {
                if !outage {
                    log(last == nil ? "screen: \(source.name) touchscreen mapping: \(error.description); retrying"
                                    : "screen: lost \(source.name)'s touchscreen mapping (\(error.description)); the last one stays; reconnecting")
                }
                outage = true
                return
            }
            do { try Poll.wait(&fds, timeoutMilliseconds: -1) } catch {
                if error == .interrupted { continue }
                return
            }
            if !fds[1].returned.isEmpty { return }
            if !fds[2].returned.isEmpty {
                var drain = [UInt8](repeating: 0, count: 64)
                _ = drain.withUnsafeMutableBytes { try? refreshRead.read(into: $0) }
                source.invalidate()
            }
        }
    }
}
