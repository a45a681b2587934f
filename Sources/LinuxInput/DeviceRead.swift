import GestureCore

/// What one read of a device source produced: a real device's (`EvdevDevice.readAvailable`) or a
/// pipe's standing in for one (the daemon's `PipeDeviceSource`).
public struct DeviceRead: Sendable {
    /// How a read ended.
    public enum Status: Hashable, Sendable {
        /// Everything queued was read (EAGAIN, or a read(2) that did not fill the buffer).
        case drained
        /// More may be queued (a read's cap was reached); the fd stays readable.
        case more
        /// The stream ended: a replayed recording's writer closed its pipe, or the device was closed.
        case ended
        /// ENODEV: the device was unplugged. Close it; the session is over.
        case deviceGone
        /// Any other read error.
        case failed(InputError)
    }

    /// Events in kernel order. After a SYN_DROPPED, the device's whole state follows it as events
    /// ending with a SYN_REPORT (`EvdevDevice.appendStateEvents`; the decoder resynchronizes on them).
    public var events: [InputEvent]
    /// How many SYN_DROPPED resyncs happened during this read.
    public var resyncCount: Int
    public var status: Status

    public init(events: [InputEvent], resyncCount: Int = 0, status: Status) {
        self.events = events; self.resyncCount = resyncCount; self.status = status
    }
}
