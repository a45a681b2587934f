import CSystemd
import LinuxSystem

/// Follows whether a logind session is locked: its `LockedHint` on org.freedesktop.login1.Session,
/// read when the followed session may have changed (sd-login's monitor fd) and again on each
/// PropertiesChanged signal for that session (sd-bus, a match on the system bus). Nothing is
/// polled: both fds sit in the event loop. Which session: `choose`, by default seat0's active
/// one (the daemon); `gestured listen` follows its user's own (SessionLockWatcher).
public final class SessionLock {
    private var bus: OpaquePointer?
    private var monitor: OpaquePointer?
    private var slot: OpaquePointer?
    private let loop: EventLoop
    private let log: Logger
    private let choose: () -> String?
    private let category: String?
    public private(set) var session: String?
    public private(set) var locked = false
    private var following = false
    /// Called with the new state and the session when it changes.
    public var onChange: (_ locked: Bool, _ session: String?) -> Void = { _, _ in }
    /// Called when another session (or none) is followed, before its state is read.
    public var onFollow: (_ session: String?) -> Void = { _ in }

    /// `choose` names the session to follow, asked again whenever sd-login's `monitorCategory`
    /// ("seat", "session", "uid"; nil: all) changes.
    public init(loop: EventLoop, log: Logger, monitorCategory: String? = "seat",
                choose: @escaping () -> String? = SeatSession.activeSession) {
        self.loop = loop
        self.log = log
        self.category = monitorCategory
        self.choose = choose
    }

    /// Connects; nil when following, else why it cannot (libsystemd missing, no system bus): the
    /// caller says it once.
    @discardableResult
    public func start() -> String? {
        if let problem = SeatSession.libraryProblem { return problem }
        var b: OpaquePointer?
        let rc = gsd_bus_open_system(&b)
        guard rc >= 0, let b else { return "no system D-Bus (\(SystemError(negated: rc)))" }
        bus = b
        loop.add(FileDescriptor(rawValue: gsd_bus_get_fd(b))) { [unowned self] _ in self.processBus() }
        var m: OpaquePointer?
        if gsd_login_monitor_new(category, &m) >= 0, let m {
            monitor = m
            loop.add(FileDescriptor(rawValue: gsd_login_monitor_get_fd(m))) { [unowned self] _ in
                _ = gsd_login_monitor_flush(m)
                self.follow(self.choose())
                self.processBus()
            }
        }
        follow(choose())
        processBus()
        return nil
    }

    public func stop() {
        slot.map { _ = gsd_bus_slot_unref($0) }; slot = nil
        if let m = monitor { loop.remove(FileDescriptor(rawValue: gsd_login_monitor_get_fd(m))); _ = gsd_login_monitor_unref(m); monitor = nil }
        if let b = bus { loop.remove(FileDescriptor(rawValue: gsd_bus_get_fd(b))); _ = gsd_bus_flush_close_unref(b); bus = nil }
    }

    /// Watches `newSession` for LockedHint changes.
    private func follow(_ newSession: String?) {
        guard let bus else { return }
        if newSession != session || !following {
            following = true
            slot.map { _ = gsd_bus_slot_unref($0) }; slot = nil
            session = newSession
            onFollow(newSession)
            if let path = objectPath(newSession) {
                var s: OpaquePointer?
                let me = Unmanaged.passUnretained(self).toOpaque()
                let rc = gsd_bus_match_signal(bus, &s, "org.freedesktop.login1", path, "org.freedesktop.DBus.Properties",
                                             "PropertiesChanged", { _, userdata, _ in
                    guard let userdata else { return 0 }
                    Unmanaged<SessionLock>.fromOpaque(userdata).takeUnretainedValue().refresh()
                    return 0
                }, me)
                if rc >= 0 { slot = s } else { log.warning("cannot watch session \(newSession ?? "?") for locking: \(SystemError(negated: rc))") }
            }
        }
        refresh()
    }

    /// Re-reads LockedHint of the followed session (false when there is none).
    func refresh() {
        var value: Int32 = 0
        var err = sd_bus_error()
        if let bus, let path = objectPath(session) {
            let rc = gsd_bus_get_property_trivial(bus, "org.freedesktop.login1", path, "org.freedesktop.login1.Session",
                                                 "LockedHint", &err, CChar(UInt8(ascii: "b")), &value)
            if rc < 0 { value = 0 }
        }
        gsd_bus_error_free(&err)
        let now = value != 0
        if now != locked {
            locked = now
            onChange(now, session)
        }
    }

    private func objectPath(_ session: String?) -> String? {
        guard let session else { return nil }
        var out: UnsafeMutablePointer<CChar>?
        guard gsd_bus_path_encode("/org/freedesktop/login1/session", session, &out) >= 0 else { CMemory.free(out); return nil }
        return CMemory.takeString(out)
    }

    /// Handles what is queued, including messages a synchronous property read took in.
    private func processBus() {
        guard let bus else { return }
        while gsd_bus_process(bus, nil) > 0 {}
    }
}
