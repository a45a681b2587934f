#if canImport(Glibc)
import Glibc
#endif

/// What lstat(2) says about a path, and the path calls the socket file needs (remove, owner, mode).
public struct FileStatus: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case regular, directory, symbolicLink, socket, characterDevice, other }
    public var kind: Kind
    /// The permission bits (mode & 0o7777).
    public var permissions: UInt32
    public var ownerUID: UInt32
    public var ownerGID: UInt32

    /// lstat(2): the path itself, a symbolic link not followed.
    public init(ofLink path: String) throws(SystemError) {
        var st = stat()
        guard lstat(path, &st) == 0 else { throw .last }
        self.init(st)
    }

    /// stat(2): what the path leads to, symbolic links followed.
    public init(of path: String) throws(SystemError) {
        var st = stat()
        guard stat(path, &st) == 0 else { throw .last }
        self.init(st)
    }

    private init(_ st: stat) {
        kind = switch st.st_mode & S_IFMT {
        case S_IFREG: .regular
        case S_IFDIR: .directory
        case S_IFLNK: .symbolicLink
        case S_IFSOCK: .socket
        case S_IFCHR: .characterDevice
        default: .other
        }
        permissions = UInt32(st.st_mode & 0o7777)
        ownerUID = st.st_uid
        ownerGID = st.st_gid
    }
}

public enum FileSystem {
    /// unlink(2).
    public static func remove(_ path: String) throws(SystemError) {
        guard unlink(path) == 0 else { throw .last }
    }

    /// chown(2) of the group alone (the owner stays).
    public static func changeGroup(_ path: String, to gid: UInt32) throws(SystemError) {
        guard chown(path, uid_t(bitPattern: -1), gid) == 0 else { throw .last }
    }

    /// chmod(2).
    public static func changePermissions(_ path: String, to mode: UInt32) throws(SystemError) {
        guard chmod(path, mode_t(mode)) == 0 else { throw .last }
    }

    /// access(2) with F_OK: whether the path exists (symbolic links followed).
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// access(2) with X_OK: whether this process's real user may execute it.
    public static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

    /// mkdtemp(3): a new directory only this user can enter, named `prefix` plus six random
    /// characters (e.g. "/tmp/gestured-bench.").
    public static func makeTemporaryDirectory(prefix: String) throws(SystemError) -> String {
        var template = Array((prefix + "XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { throw .last }
        return String(cString: made)
    }

    /// access(2) with W_OK: whether this process's real user may write it.
    public static func isWritable(_ path: String) -> Bool { access(path, W_OK) == 0 }
}
