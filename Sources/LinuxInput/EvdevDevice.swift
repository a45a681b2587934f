import GestureCore
import LinuxSystem

/// One open evdev node: opened O_RDONLY|O_NONBLOCK|O_CLOEXEC, timestamps on CLOCK_MONOTONIC, not
/// grabbed unless asked. libevdev opens it (capabilities, absinfo, state at open, grab, the state
/// after SYN_DROPPED); the events are read from the fd directly. `deinit` frees the libevdev handle
/// and closes the fd.
///
/// Put `fd` in the event loop (level-triggered) and call `readAvailable()` on each wakeup.
public final class EvdevDevice {
    /// The node it was opened from, e.g. /dev/input/event5.
    public let path: String
    /// The non-blocking fd, for epoll/Dispatch. Owned by this object: do not close it.
    public let fd: FileDescriptor
    private var descriptor: Int32 { fd.rawValue }
    private var closed = false
    /// Name, ids, properties, codes per type and absinfo, as libevdev reports them at open.
    public let description: DeviceDescription
    /// The whole state at open (slots with their tracking ids, the current slot, keys held, the
    /// other axes), as libevdev read it, for `SlotDecoder(device:initialState:)`: touches already
    /// down are ignored until they lift.
    public let initialState: EvdevState
    /// The kernel's `phys` of the device (VirtualDeviceMark tells gestured's own devices by it).
    public let phys: String?

    /// Opening, capabilities, absinfo, the state at open and the grab. It never sees the event
    /// stream (read from `fd` directly), so its current values are those at open.
    private let handle: OpaquePointer
    /// Events a read(2) takes: a 10-finger frame is about 50, a bcm5974 frame about 20.
    static let readCapacity = 128
    /// Where read(2) puts the kernel's struct input_event records, and the `InputEvent`s they
    /// become (`readEvents`, in CInput.swift), kept for the device's life.
    let records = UnsafeMutableRawBufferPointer.allocate(byteCount: EvdevDevice.readCapacity * CInput.inputEventStride, alignment: 16)
    let converted = UnsafeMutableBufferPointer<InputEvent>.allocate(capacity: EvdevDevice.readCapacity)
    /// `readAvailable`'s events array, kept between reads.
    private var readBuffer: [InputEvent] = []

    /// What reads leave out (`ReadMask`: events the decoder never looks at); every event
    /// (`.none`) until set.
    public var readMask: ReadMask = .none

    /// The device's state now, as the kernel holds it (a fresh libevdev handle on the fd): for
    /// the values of axes a read mask held back.
    public func currentState() throws(InputError) -> EvdevState {
        switch CInput.evdevQueryState(fd: descriptor, description) {
        case .success(let state): return state
        case .failure(var e): e.path = path; throw e
        }
    }

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
        self.fd = FileDescriptor(rawValue: fd)
        self.handle = handle
        self.description = CInput.evdevDescription(handle)
        self.initialState = CInput.evdevState(handle, description)
        self.phys = CInput.evdevPhys(handle)
    }

    /// Takes the device for this fd alone (EVIOCGRAB): nobody else reads it until `ungrab()` or
    /// the fd closes (also when the process dies). EBUSY: another process holds it.
    public func grab() throws(InputError) {
        guard !closed else { throw InputError(operation: "EVIOCGRAB", path: path, error: .noDevice) }
        let rc = CInput.evdevGrab(handle, true)
        guard rc == 0 else { throw InputError(operation: "EVIOCGRAB", path: path, error: SystemError(negated: rc)) }
    }

    public func ungrab() { if !closed { _ = CInput.evdevGrab(handle, false) } }

    /// Frees the libevdev handle and closes the fd (a grab goes with it); reads then end `.ended`.
    public func close() {
        guard !closed else { return }
        closed = true
        CInput.evdevFree(handle)
        CInput.close(descriptor)
    }

    deinit { close(); records.deallocate(); converted.deallocate() }

    /// Reads struct input_event records straight from the fd, `readCapacity` a read(2),
    /// until a read does not fill the buffer (the kernel had nothing more: no read only to get
    /// EAGAIN; the fd is level-triggered and wakes the loop again) or `maximumEvents` (`.more`).
    /// A SYN_DROPPED is passed through, followed by the device's state (`resync`).
    public func readAvailable(maximumEvents: Int = 16_384) -> DeviceRead {
        guard !closed else { return DeviceRead(events: [], status: .ended) }
        // The array of the last read is reused once the caller has let go of it (no allocation
        // per wakeup); a frame of 10 touches is about 50 events.
        var events: [InputEvent] = []
        swap(&events, &readBuffer)
        events.reserveCapacity(Self.readCapacity)
        defer { readBuffer = events }
        var resyncs = 0
        // The first read replaces what the last wakeup's array held (no separate emptying).
        var first = true
        while first || events.count < maximumEvents {
            let result = readEvents(appendingTo: &events, replacing: first)
            first = false
            switch result {
            case .failure(.wouldBlock):
                return DeviceRead(events: events, resyncCount: resyncs, status: .drained)
            case .failure(let e):
                return DeviceRead(events: events, resyncCount: resyncs, status: failure("read", e))
            case .success(let (count, dropped)):
                if let dropped {
                    resyncs += 1
                    events.removeSubrange((dropped + 1)...)
                    let status = resync(after: events[dropped], into: &events)
                    return DeviceRead(events: events, resyncCount: resyncs, status: status)
                }
                if count < Self.readCapacity {
                    return DeviceRead(events: events, resyncCount: resyncs, status: .drained)
                }
            }
        }
        return DeviceRead(events: events, resyncCount: resyncs, status: .more)
    }

    /// Read(2)s a resync may drop before it queries the state (as libevdev's drain: 8 kernel
    /// buffers' worth of packets); what still follows is read as usual, after the state.
    private static let drainReads = 8

    /// After a SYN_DROPPED (the kernel's docs/input/event-codes.rst: ignore the events up to the
    /// next SYN_REPORT, then query the device): whatever is still queued is stale and is read and
    /// dropped (libevdev does the same, "Discarding events before synchronizing"), then the
    /// device's state is queried through a fresh libevdev handle on this fd and appended as
    /// `appendStateEvents`, stamped with the time of the last event read. `.drained` when the drain
    /// emptied the queue, `.more` when events kept coming (they are read as usual, after the state).
    private func resync(after dropped: InputEvent, into events: inout [InputEvent]) -> DeviceRead.Status {
        var time = dropped.time
        var stale: [InputEvent] = []
        var status = DeviceRead.Status.more
        draining: for _ in 0..<Self.drainReads {
            stale.removeAll(keepingCapacity: true)
            switch readEvents(appendingTo: &stale) {
            case .success(let (count, _)):
                if let last = stale.last { time = last.time }
                if count < Self.readCapacity { status = .drained; break draining }
            case .failure(.wouldBlock): status = .drained; break draining
            case .failure(let e): return failure("read", e)
            }
        }
        switch CInput.evdevQueryState(fd: descriptor, description) {
        case .success(let state):
            Self.appendStateEvents(state, of: description, at: time, to: &events)
            return status
        case .failure(let e):
            return failure("libevdev_new_from_fd (state after SYN_DROPPED)", e.error)
        }
    }

    private func failure(_ operation: String, _ e: SystemError) -> DeviceRead.Status {
        let error = InputError(operation: operation, path: path, error: e)
        return error.isUnplugged ? .deviceGone : .failed(error)
    }

    /// `state` as the events that follow a SYN_DROPPED, all stamped `time`: per slot ABS_MT_SLOT,
    /// ABS_MT_TRACKING_ID and the slot's other ABS_MT_* codes; the current ABS_MT_SLOT; every key
    /// with its value; the other absolute axes; SYN_REPORT. The whole state rather than a delta: a
    /// value equal to what the reader holds changes nothing for it (SlotContacts, EvdevState.apply).
    /// A device without slots (protocol A, single-touch) gets no ABS_MT_* codes: the kernel keeps
    /// no per-contact state for it, and a protocol-A frame is only the packets it carries.
    static func appendStateEvents(_ state: EvdevState, of d: DeviceDescription, at time: Instant,
                                  to events: inout [InputEvent]) {
        func ev(_ type: UInt16, _ code: UInt16, _ value: Int32) {
            events.append(InputEvent(time: time, type: type, code: code, value: value))
        }
        let abs = (d.codes[EventType.abs] ?? []).sorted()
        let slotCount = min(state.slotCount, d.slotCount)
        if slotCount > 0 {
            let perSlot = abs.filter { EvdevState.slotCodes.contains($0) && $0 != AbsCode.mtTrackingId }
            for s in 0..<slotCount {
                ev(EventType.abs, AbsCode.mtSlot, Int32(s))
                ev(EventType.abs, AbsCode.mtTrackingId, state.value(slot: s, code: AbsCode.mtTrackingId))
                for code in perSlot { ev(EventType.abs, code, state.value(slot: s, code: code)) }
            }
            ev(EventType.abs, AbsCode.mtSlot, Int32(state.currentSlot))
        }
        for key in d.keys.sorted() { ev(EventType.key, key, state.isDown(key) ? 1 : 0) }
        for axis in abs where axis != AbsCode.mtSlot && !EvdevState.slotCodes.contains(axis) {
            ev(EventType.abs, axis, state.axis(axis) ?? 0)
        }
        ev(EventType.syn, SynCode.report, 0)
    }
}
