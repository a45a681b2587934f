import CSystemd
import GestureConfig
import LinuxSystem

/// A socket peer, from SO_PEERCRED and /proc/PID/status.
public struct PeerCredentials: Hashable, Sendable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    public var groups: [UInt32]
    public init(pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32] = []) {
        self.pid = pid; self.uid = uid; self.gid = gid; self.groups = groups
    }
}

/// Who may ask the daemon to send keys (`emit`): root; the user of the seat's active session
/// (the person at the keyboard can do what they could type) unless `actions.active_session:
/// false`; the users and groups in `actions.allowed_uids/allowed_gids`. `actions.emit: false`
/// refuses everyone.
public struct EmitPolicy: Sendable {
    public var config: ActionsConfig
    /// The uid of the seat's active session's user (nil: none, or logind is not running).
    public var activeSessionUID: @Sendable () -> UInt32?

    public init(config: ActionsConfig, activeSessionUID: @escaping @Sendable () -> UInt32? = SeatSession.activeUID) {
        self.config = config
        self.activeSessionUID = activeSessionUID
    }

    /// nil when allowed; otherwise why not, naming the rule.
    public func refusal(for p: PeerCredentials) -> String? {
        guard config.emit else {
            return "emit refused: actions.emit is false in the daemon's config"
        }
        if p.uid == 0 { return nil }
        if config.allowedUIDs.contains(p.uid) { return nil }
        if config.allowedGIDs.contains(p.gid) || p.groups.contains(where: config.allowedGIDs.contains) { return nil }
        var active = "not checked: actions.active_session is false"
        if config.activeSessionUser {
            if let uid = activeSessionUID() {
                if uid == p.uid { return nil }
                active = "uid \(uid)"
            } else {
                active = SeatSession.libraryProblem ?? "none (or logind is not running)"
            }
        }
        return "emit refused: uid \(p.uid) is not root, not the user of seat0's active session (\(active)), "
            + "and not in actions.allowed_uids/allowed_gids of the daemon's config"
    }
}

/// sd-login: the seat's active session.
public enum SeatSession {
    public static let seat = "seat0"

    /// Why libsystemd cannot be used (nil: it is loaded). The first call loads libsystemd.so.0
    /// (CSystemd.h): nothing in the daemon maps it before something needs logind.
    public static var libraryProblem: String? {
        gsd_load().map { String(cString: $0) }
    }

    /// The uid of seat0's active session, through sd_seat_get_active (nil without logind).
    @Sendable public static func activeUID() -> UInt32? {
        var session: UnsafeMutablePointer<CChar>?
        var uid = uid_t(0)
        let rc = gsd_seat_get_active(seat, &session, &uid)
        CMemory.free(session)
        return rc >= 0 ? UInt32(uid) : nil
    }

    /// The id of seat0's active session (nil without logind).
    public static func activeSession() -> String? {
        var session: UnsafeMutablePointer<CChar>?
        guard gsd_seat_get_active(seat, &session, nil) >= 0 else { CMemory.free(session); return nil }
        return CMemory.takeString(session)
    }

    /// The session whose lock pauses `gestured listen`: the one this process runs in (started
    /// from the desktop's autostart or a terminal), else its user's graphical session (a user
    /// unit runs outside any session), else seat0's active one.
    public static func ownSession() -> String? {
        var session: UnsafeMutablePointer<CChar>?
        if gsd_pid_get_session(0, &session) >= 0 || gsd_uid_get_display(CurrentProcess.userID, &session) >= 0, session != nil {
            return CMemory.takeString(session)
        }
        CMemory.free(session)
        return activeSession()
    }
}
