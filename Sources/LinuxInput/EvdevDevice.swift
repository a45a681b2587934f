import GestureCore
import LinuxSystem

/// One open evdev node read through libevdev: opened O_RDONLY|O_NONBLOCK|O_CLOEXEC, timestamps on
/// CLOCK_MONOTONIC, never grabbed. `deinit` frees the libevdev handle and closes the fd.
///
/// Put `fd` in the event loop (level-triggered) and call `readAvailable()` on each wakeup.
public final class EvdevDevice {
    /// The node it was opened from, e.g. /dev/input/event5.
    public let path: String
    /// The non-blocking fd, for epoll/Dispatch. Owned by this object: do not close it.
    public let fd: Int32
    /// Name, ids, properties, codes per type and absinfo, as libevdev reports them at open.
    public let description: DeviceDescription
    /// Protocol-B slots that already had a contact (tracking id ≥ 0) when the device was opened:
    /// the decoder ignores those touches until they lift.
    public let activeSlotsAtOpen: Set<Int>
    /// BTN_TOUCH was down at open (for single-touch and protocol-A devices).
    public let touchDownAtOpen: Bool
    /// The whole state at open (slots, keys held, single-touch axes) for
    /// `SlotDecoder(device:initialState:)`, so touches already down are ignored until they lift.
    public let initialState: SlotDecoder.InitialState
    /// The kernel's `phys` of the device (VirtualDeviceMark tells gestured's own devices by it).
    public let phys: String?

    private let handle: OpaquePointer
    /// `readAvailable`'s events array, kept between reads.
    private var readBuffer: [InputEvent] = []

    /// Opens `path`. Throws an `InputError` carrying errno (EACCES explains the `input` group).
    public init(path: String) throws(InputError) {
        let fd: Int32
        switch CInput.openReadOnly(path) {
        case .success(let opened): fd = opened
        case .failure(let e): throw InputError(operation: "open", path: path, error: e)
        }
        let handle: OpaquePointer
        switch CInput.evdevNew(fd: fd) {
        case .success(let h): handle = h
        case .failure(var e):
            CInput.close(fd)
            e.path = path
            throw e
        }
        let rc = CInput.evdevSetMonotonic(handle)
        if rc != 0 {
            CInput.evdevFree(handle); CInput.close(fd)
            throw InputError(operation: "libevdev_set_clock_id(CLOCK_MONOTONIC)", path: path, error: SystemError(negated: rc))
        }
        self.path = path
        self.fd = fd
        self.handle = handle
        self.description = CInput.evdevDescription(handle)
        self.activeSlotsAtOpen = CInput.evdevActiveSlots(handle)
        self.touchDownAtOpen = description.hasKey(KeyCode.btnTouch)
            && CInput.evdevValue(handle, type: EventType.key, code: KeyCode.btnTouch) != 0
        self.initialState = CInput.evdevInitialState(handle, description)
        self.phys = CInput.evdevPhys(handle)
    }

    /// What libevdev holds now (slots, keys, axes); nil for a device without protocol-B slots.
    public func currentState() -> EvdevState? { CInput.evdevState(handle, description) }

    /// Takes the device for this fd alone (EVIOCGRAB): nobody else reads it until `ungrab()` or
    /// the fd closes (also when the process dies). EBUSY: another process holds it.
    public func grab() throws(InputError) {
        let rc = CInput.evdevGrab(handle, true)
        guard rc == 0 else { throw InputError(operation: "EVIOCGRAB", path: path, error: SystemError(negated: rc)) }
    }

    public func ungrab() { _ = CInput.evdevGrab(handle, false) }

    deinit {
        CInput.evdevFree(handle)
        CInput.close(fd)
    }

    /// How a read ended.
    public enum ReadStatus: Hashable, Sendable {
        /// Everything queued was read (EAGAIN).
        case drained
        /// `maximumEvents` were read and more may be queued; the fd stays readable.
        case more
        /// ENODEV: the device was unplugged. Close it; the session is over.
        case deviceGone
        /// Any other read error.
        case failed(InputError)
    }

    /// What one `readAvailable()` produced.
    public struct ReadResult: Sendable {
        /// Events in kernel order. After a SYN_DROPPED, the events libevdev synthesizes for the
        /// state delta follow it and end with a SYN_REPORT (the decoder resynchronizes on them).
        public var events: [InputEvent]
        /// How many SYN_DROPPED resyncs happened during this read.
        public var resyncCount: Int
        public var status: ReadStatus
    }

    /// Reads until EAGAIN (or `maximumEvents`), handling SYN_DROPPED: the SYN_DROPPED event and the
    /// sync delta (read with LIBEVDEV_READ_FLAG_SYNC until −EAGAIN) are passed through in order.
    public func readAvailable(maximumEvents: Int = 16_384) -> ReadResult {
        // The array of the last read is reused once the caller has let go of it (no allocation
        // per wakeup); a frame of 10 touches is about 50 events.
        var events: [InputEvent] = []
        swap(&events, &readBuffer)
        events.removeAll(keepingCapacity: true)
        events.reserveCapacity(64)
        defer { readBuffer = events }
        var resyncs = 0
        while events.count < maximumEvents {
            switch CInput.evdevNext(handle, sync: false) {
            case .again:
                return ReadResult(events: events, resyncCount: resyncs, status: .drained)
            case .failure(let e):
                let error = InputError(operation: "libevdev_next_event", path: path, error: e)
                let status: ReadStatus = error.isUnplugged ? .deviceGone : .failed(error)
                return ReadResult(events: events, resyncCount: resyncs, status: status)
            case .event(let event, let sync):
                events.append(event)
                guard sync else { continue }
                // LIBEVDEV_READ_STATUS_SYNC: `event` is the SYN_DROPPED; now the state delta.
                resyncs += 1
                syncing: while true {
                    switch CInput.evdevNext(handle, sync: true) {
                    case .event(let delta, _): events.append(delta)
                    case .again: break syncing
                    case .failure(let e):
                        let error = InputError(operation: "libevdev_next_event(SYNC)", path: path, error: e)
                        let status: ReadStatus = error.isUnplugged ? .deviceGone : .failed(error)
                        return ReadResult(events: events, resyncCount: resyncs, status: status)
                    }
                }
                // libevdev ends the delta with a SYN_REPORT; make sure the decoder sees one.
                if events.last?.isSynReport != true {
                    let t = events.last?.time ?? event.time
                    events.append(InputEvent(time: t, type: EventType.syn, code: SynCode.report, value: 0))
                }
            }
        }
        return ReadResult(events: events, resyncCount: resyncs, status: .more)
    }
}
