#if canImport(Glibc)
import Glibc
#endif

/// A failed system or library call on an input device: the operation, the node, and the errno.
/// Its description says who is at fault and, for EACCES, how to get access (the `input` group).
public struct InputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was attempted, e.g. "open", "libevdev_new_from_fd", "udev_monitor_enable_receiving".
    public var operation: String
    /// The device node or path involved, when there is one.
    public var path: String?
    /// The positive errno value (libevdev's negative returns are negated).
    public var errno: Int32

    public init(operation: String, path: String? = nil, errno: Int32) {
        self.operation = operation; self.path = path; self.errno = errno
    }

    public var isPermissionDenied: Bool { errno == EACCES || errno == EPERM }
    public var isDeviceGone: Bool { errno == ENODEV || errno == ENOENT }

    /// ENODEV from a read: the device was unplugged while open.
    static func isUnplugged(errno: Int32) -> Bool { errno == ENODEV }

    public var description: String {
        let message = CInput.errorString(errno)
        var s = "\(operation)\(path.map { " \($0)" } ?? ""): \(message) (errno \(errno))"
        if isPermissionDenied {
            s += "; the daemon's user needs read access to /dev/input/event*: add it to the `input` group"
            s += " (`usermod -aG input USER`, then log in again) or run it as the packaged gestured.service"
        }
        return s
    }
}
