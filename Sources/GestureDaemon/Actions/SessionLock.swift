#if canImport(Glibc)
import Glibc
#endif
import CSystemd

/// Follows whether seat0's active session is locked: logind's `LockedHint` on
/// org.freedesktop.login1.Session, read when the active session changes (sd-login's monitor fd)
/// and again on each PropertiesChanged signal for that session (sd-bus, a match on the system
/// bus). Nothing is polled: both fds sit in the event loop.
final class SessionLock {
    private var bus: OpaquePointer?
    private var monitor: OpaquePointer?
    private var slot: OpaquePointer?
    private let loop: EventLoop
    private let log: Logger
    private(set) var session: String?
    private(set) var locked = false
    /// Called with the new state when it changes.
    var onChange: (Bool) -> Void = { _ in }

    init(loop: EventLoop, log: Logger) {
        self.loop = loop
        self.log = log
    }

    /// Connects; false (logged once) when there is no system bus or no logind.
    @discardableResult
    func start() -> Bool {
        var b: OpaquePointer?
        let rc = sd_bus_open_system(&b)
        guard rc >= 0, let b else {
            log.notice("actions: no system D-Bus (\(String(cString: strerror(-rc)))): locked screens cannot be detected, keys are sent regardless")
            return false
        }
        bus = b
        loop.add(sd_bus_get_fd(b)) { [unowned self] _ in self.processBus() }
        var m: OpaquePointer?
        if sd_login_monitor_new("seat", &m) >= 0, let m {
            monitor = m
            loop.add(sd_login_monitor_get_fd(m)) { [unowned self] _ in
                _ = sd_login_monitor_flush(m)
                self.follow(SeatSession.activeSession())
            }
        }
        follow(SeatSession.activeSession())
        return true
    }

    func stop() {
        slot.map { _ = sd_bus_slot_unref($0) }; slot = nil
        if let m = monitor { loop.remove(sd_login_monitor_get_fd(m)); _ = sd_login_monitor_unref(m); monitor = nil }
        if let b = bus { loop.remove(sd_bus_get_fd(b)); _ = sd_bus_flush_close_unref(b); bus = nil }
    }

    /// Watches `session` (the seat's active one) for LockedHint changes.
    private func follow(_ newSession: String?) {
        guard let bus else { return }
        if newSession != session {
            slot.map { _ = sd_bus_slot_unref($0) }; slot = nil
            session = newSession
            if let path = objectPath(newSession) {
                var s: OpaquePointer?
                let me = Unmanaged.passUnretained(self).toOpaque()
                let rc = sd_bus_match_signal(bus, &s, "org.freedesktop.login1", path, "org.freedesktop.DBus.Properties",
                                             "PropertiesChanged", { _, userdata, _ in
                    guard let userdata else { return 0 }
                    Unmanaged<SessionLock>.fromOpaque(userdata).takeUnretainedValue().refresh()
                    return 0
                }, me)
                if rc >= 0 { slot = s } else { log.warning("actions: cannot watch session \(newSession ?? "?") for locking: \(String(cString: strerror(-rc)))") }
            }
        }
        refresh()
    }

    /// Re-reads LockedHint of the followed session (false when there is none).
    func refresh() {
        var value: Int32 = 0
        var err = sd_bus_error()
        if let bus, let path = objectPath(session) {
            let rc = sd_bus_get_property_trivial(bus, "org.freedesktop.login1", path, "org.freedesktop.login1.Session",
                                                 "LockedHint", &err, CChar(UInt8(ascii: "b")), &value)
            if rc < 0 { value = 0 }
        }
        sd_bus_error_free(&err)
        let now = value != 0
        if now != locked {
            locked = now
            log.info("actions: session \(session ?? "?") \(now ? "locked: key and button actions paused (when_locked: true still acts)" : "unlocked")")
            onChange(now)
        }
    }

    private func objectPath(_ session: String?) -> String? {
        guard let session else { return nil }
        var out: UnsafeMutablePointer<CChar>?
        guard sd_bus_path_encode("/org/freedesktop/login1/session", session, &out) >= 0, let out else { return nil }
        defer { free(out) }
        return String(cString: out)
    }

    private func processBus() {
        guard let bus else { return }
        while sd_bus_process(bus, nil) > 0 {}
    }
}
