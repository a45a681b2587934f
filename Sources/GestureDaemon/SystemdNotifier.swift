#if canImport(Glibc)
import Glibc
#endif
import CLinuxSys
import LinuxSystem

/// sd_notify without libsystemd: one datagram per state change to `$NOTIFY_SOCKET` (a path, or
/// '@name' in the abstract namespace). Does nothing when the variable is not set.
public final class SystemdNotifier {
    public let socketPath: String?
    /// `WATCHDOG_USEC` when it is meant for this process (`WATCHDOG_PID` unset or ours).
    public let watchdogInterval: Duration?
    private var fd: Int32 = -1

    public init(environment: [String: String]) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        if let us = environment["WATCHDOG_USEC"].flatMap(Int64.init), us > 0,
           environment["WATCHDOG_PID"].flatMap(Int32.init).map({ $0 == getpid() }) ?? true {
            watchdogInterval = .microseconds(us)
        } else {
            watchdogInterval = nil
        }
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Sends `state` (e.g. "READY=1\nSTATUS=…"). Returns false when there is no socket or it failed.
    @discardableResult
    public func notify(_ state: String) -> Bool {
        guard let socketPath, var (addr, len) = Sys.unixAddress(socketPath) else { return false }
        if fd < 0 {
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            if fd < 0 { return false }
        }
        let bytes = Array(state.utf8)
        let n = withUnsafePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), sa, len) }
            }
        }
        return n == bytes.count
    }

    public func ready(status: String) { notify("READY=1\nSTATUS=\(status)") }
    public func reloading() {
        notify("RELOADING=1\nMONOTONIC_USEC=\(MonotonicClock.now().microseconds)")
    }
    public func stopping() { notify("STOPPING=1") }
    public func watchdog() { notify("WATCHDOG=1") }
}
