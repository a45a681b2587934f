import LinuxSystem

/// sd_notify without libsystemd: one datagram per state change to `$NOTIFY_SOCKET` (a path, or
/// '@name' in the abstract namespace). Does nothing when the variable is not set.
public final class SystemdNotifier {
    public let socketPath: String?
    /// `WATCHDOG_USEC` when it is meant for this process (`WATCHDOG_PID` unset or ours).
    public let watchdogInterval: Duration?
    private var socket: FileDescriptor?

    public init(environment: [String: String]) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        if let us = environment["WATCHDOG_USEC"].flatMap(Int64.init), us > 0,
           environment["WATCHDOG_PID"].flatMap(Int32.init).map({ $0 == CurrentProcess.id }) ?? true {
            watchdogInterval = .microseconds(us)
        } else {
            watchdogInterval = nil
        }
    }

    deinit { socket?.close() }

    /// Sends `state` (e.g. "READY=1\nSTATUS=…"). Returns false when there is no socket or it failed.
    @discardableResult
    public func notify(_ state: String) -> Bool {
        guard let socketPath, let address = UnixAddress(path: socketPath) else { return false }
        if socket == nil { socket = try? UnixSocket.open(.datagram) }
        guard let socket else { return false }
        let bytes = Array(state.utf8)
        let n = bytes.withUnsafeBytes { try? socket.send($0, to: address) }
        return n == bytes.count
    }

    public func ready(status: String) { notify("READY=1\nSTATUS=\(status)") }
    public func reloading() {
        notify("RELOADING=1\nMONOTONIC_USEC=\(MonotonicClock.now().microseconds)")
    }
    public func stopping() { notify("STOPPING=1") }
    public func watchdog() { notify("WATCHDOG=1") }
}
