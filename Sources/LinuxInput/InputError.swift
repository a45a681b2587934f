import LinuxSystem

/// A failed system or library call on an input device: the operation, the node, and the errno.
/// Its description says who is at fault and, for EACCES, how to get access (the `input` group).
public struct InputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was attempted, e.g. "open", "libevdev_new_from_fd", "udev_monitor_enable_receiving".
    public var operation: String
    /// The device node or path involved, when there is one.
    public var path: String?
    /// Why (libevdev's and libudev's negative returns are negated).
    public var error: SystemError

    public init(operation: String, path: String? = nil, error: SystemError) {
        self.operation = operation; self.path = path; self.error = error
    }

    public var isPermissionDenied: Bool { error == .permissionDenied || error == .notPermitted }
    public var isDeviceGone: Bool { error == .noDevice || error == .noSuchFile }

    /// ENODEV from a read: the device was unplugged while open.
    var isUnplugged: Bool { error == .noDevice }

    public var description: String {
        var s = "\(operation)\(path.map { " \($0)" } ?? ""): \(error) (errno \(error.code))"
        if isPermissionDenied {
            s += "; the daemon's user needs read access to /dev/input/event*: add it to the `input` group"
            s += " (`usermod -aG input USER`, then log in again) or run it as the packaged gestured.service"
        }
        return s
    }
}
