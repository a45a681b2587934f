#if canImport(Glibc)
import Glibc
#endif

/// The user and group databases (getpwnam, getgrnam, getgrouplist: /etc/passwd, /etc/group or
/// whatever NSS serves): the socket's group, `gestured check`'s group test, `gestured doctor`.
public enum Accounts {
    /// The id of group `name`, nil when there is no such group.
    public static func groupID(named name: String) -> UInt32? {
        getgrnam(name).map { $0.pointee.gr_gid }
    }

    /// The name of group `gid`, nil when it has none.
    public static func groupName(_ gid: UInt32) -> String? {
        getgrgid(gid).map { String(cString: $0.pointee.gr_name) }
    }

    /// The name of user `uid`, nil when it has none.
    public static func userName(_ uid: UInt32) -> String? {
        getpwuid(uid).map { String(cString: $0.pointee.pw_name) }
    }

    /// User `name`'s uid and primary gid, nil when there is no such user.
    public static func user(named name: String) -> (uid: UInt32, gid: UInt32)? {
        getpwnam(name).map { ($0.pointee.pw_uid, $0.pointee.pw_gid) }
    }

    /// Every group user `name` is in: `primary` and the supplementary ones (getgrouplist).
    public static func groups(ofUser name: String, primary: UInt32) -> [UInt32] {
        var n: Int32 = 64
        var list = [gid_t](repeating: 0, count: 64)
        if getgrouplist(name, primary, &list, &n) < 0 {
            list = [gid_t](repeating: 0, count: Int(n))
            _ = getgrouplist(name, primary, &list, &n)
        }
        return Array(list.prefix(Int(max(0, n))))
    }
}
