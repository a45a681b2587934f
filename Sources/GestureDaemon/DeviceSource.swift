import GestureCore
import GestureRecording
import LinuxInput
import LinuxSystem

/// How one read of a device source ended.
public enum SourceStatus: Hashable, Sendable {
    /// Everything available was read.
    case drained
    /// More is queued; the fd stays readable.
    case more
    /// A replayed recording ended (the writer closed the pipe).
    case ended
    /// The device was unplugged (ENODEV).
    case gone
    case failed(String)
}

/// One batch of events from a source.
public struct SourceRead: Sendable {
    public var events: [InputEvent]
    public var resyncCount: Int
    public var status: SourceStatus
    public init(events: [InputEvent], resyncCount: Int = 0, status: SourceStatus) {
        self.events = events; self.resyncCount = resyncCount; self.status = status
    }
}

/// Where a `DeviceSession` gets its events: a real evdev node (`EvdevSource`) or a pipe fed from a
/// recording or a test (`PipeDeviceSource`). Either way: an fd for the event loop, and batches of
/// `InputEvent` with CLOCK_MONOTONIC timestamps.
public protocol DeviceSource: AnyObject {
    /// Readable when events are waiting. Owned by the source.
    var fd: FileDescriptor { get }
    /// /dev/input/eventN, or `replay:FILE` for a recording.
    var node: String { get }
    var description: DeviceDescription { get }
    /// Touches already down when it was opened (ignored by the decoder until they lift).
    var initialState: SlotDecoder.InitialState { get }
    /// Reads what is available without blocking.
    func read() -> SourceRead
    /// Releases the fd. Called once, after the loop stopped watching it.
    func close()
}

/// A real device through LinuxInput (libevdev).
public final class EvdevSource: DeviceSource {
    public let node: String
    public let description: DeviceDescription
    public let initialState: SlotDecoder.InitialState
    public let fd: FileDescriptor
    private var holder: EvdevDevice?

    public init(path: String) throws(InputError) {
        let d = try EvdevDevice(path: path)
        holder = d
        node = path; description = d.description; fd = FileDescriptor(rawValue: d.fd)
        // The whole state libevdev had at open: slots with their real tracking ids, the current
        // slot, keys held (BTN_TOUCH, BTN_TOOL_*), single-touch axes.
        initialState = d.initialState
    }

    public func read() -> SourceRead {
        guard let d = holder else { return SourceRead(events: [], status: .ended) }
        let r = d.readAvailable()
        let status: SourceStatus
        switch r.status {
        case .drained: status = .drained
        case .more: status = .more
        case .deviceGone: status = .gone
        case .failed(let e): status = .failed(e.description)
        }
        return SourceRead(events: r.events, resyncCount: r.resyncCount, status: status)
    }

    /// The open device (nil once closed): an exclusive session grabs it.
    public var evdev: EvdevDevice? { holder }

    public func close() { holder = nil }
}

/// The write end of a `PipeDeviceSource`: anything (a replay thread, a test, the benchmark) can
/// push events through it from any thread. Writes block when the pipe is full (backpressure on
/// the writer, never on the daemon).
public final class PipeEventWriter: Sendable {
    public let fd: FileDescriptor
    init(fd: FileDescriptor) { self.fd = fd }

    /// Sends events (their timestamps are used as they are: CLOCK_MONOTONIC microseconds).
    @discardableResult
    public func send(_ events: [InputEvent]) -> Bool {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(events.count * PipeDeviceSource.recordSize)
        for e in events { PipeDeviceSource.append(e, to: &bytes) }
        return (try? fd.writeAll(bytes)) != nil
    }

    /// Ends the stream: the source reports `.ended`.
    public func finish() { fd.close() }
}

/// A device source backed by a pipe: 16-byte records (µs Int64, type UInt16, code UInt16,
/// value Int32, little-endian). Stands in for a device in `run --replay`, tests and benchmarks.
public final class PipeDeviceSource: DeviceSource {
    static let recordSize = 16
    public let node: String
    public let description: DeviceDescription
    public let initialState = SlotDecoder.InitialState.empty
    public let fd: FileDescriptor
    public let writer: PipeEventWriter
    private var pending: [UInt8] = []
    /// One read buffer for the source's life (zero-filling 64 KB per read cost more than the rest
    /// of a replayed frame).
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// The events of the last read: reused by the next once the caller has let go of them.
    private var events: [InputEvent] = []
    private var closed = false

    public init(description: DeviceDescription, node: String) {
        let pipe: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do { pipe = try FileDescriptor.pipe() } catch { preconditionFailure("pipe2 failed: \(error)") }
        pipe.readEnd.setNonBlocking()
        fd = pipe.readEnd
        writer = PipeEventWriter(fd: pipe.writeEnd)
        self.description = description
        self.node = node
    }

    static func append(_ e: InputEvent, to b: inout [UInt8]) {
        withUnsafeBytes(of: e.time.microseconds.littleEndian) { b.append(contentsOf: $0) }
        withUnsafeBytes(of: e.type.littleEndian) { b.append(contentsOf: $0) }
        withUnsafeBytes(of: e.code.littleEndian) { b.append(contentsOf: $0) }
        withUnsafeBytes(of: e.value.littleEndian) { b.append(contentsOf: $0) }
    }

    public func read() -> SourceRead {
        var status = SourceStatus.drained
        var total = 0
        while true {
            let received = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(SystemError) in try fd.read(into: raw) }
            }
            switch received {
            case .success(0): status = .ended
            case .success(let n):
                pending.append(contentsOf: buffer[0..<n]); total += n
                if total >= 1 << 20 { status = .more; break }
                continue
            case .failure(.wouldBlock): break
            case .failure(let error): status = .failed("read: \(error)")
            }
            break
        }
        let count = pending.count / Self.recordSize
        var events: [InputEvent] = []
        swap(&events, &self.events)
        events.removeAll(keepingCapacity: true)
        events.reserveCapacity(count)
        pending.withUnsafeBytes { raw in
            for i in 0..<count {
                let o = i * Self.recordSize
                let us = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: Int64.self))
                let type = UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: o + 8, as: UInt16.self))
                let code = UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: o + 10, as: UInt16.self))
                let value = Int32(littleEndian: raw.loadUnaligned(fromByteOffset: o + 12, as: Int32.self))
                events.append(InputEvent(time: Instant(microseconds: us), type: type, code: code, value: value))
            }
        }
        pending.removeFirst(count * Self.recordSize)
        self.events = events
        return SourceRead(events: events, status: status)
    }

    public func close() {
        guard !closed else { return }
        closed = true
        fd.close()
    }
}

/// Feeds a recording into a `PipeEventWriter` at its recorded pace, on a thread of its own, with
/// timestamps moved onto CLOCK_MONOTONIC (start + the event's offset in the recording).
public enum ReplayFeeder {
    /// Starts feeding after `delay`. Events are written one SYN_REPORT frame at a time.
    public static func start(_ recording: Recording, into writer: PipeEventWriter,
                             delay: Duration = .zero, loop: Bool = false) {
        // A thread that cannot start leaves the replayed device quiet, as before.
        try? SystemThread.detached {
            var start = MonotonicClock.now() + delay
            repeat {
                feed(recording, writer, start: start)
                start = MonotonicClock.now() + .seconds(2)
            } while loop
            writer.finish()
        }
    }

    static func feed(_ recording: Recording, _ writer: PipeEventWriter, start: Instant) {
        let origin = recording.startTime
        var batch: [InputEvent] = []
        for e in recording.events {
            var moved = e
            moved.time = start + (e.time - origin)
            if batch.isEmpty { MonotonicClock.sleep(until: moved.time) }
            batch.append(moved)
            if e.type == EventType.syn && e.code == SynCode.report {
                guard writer.send(batch) else { return }
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { _ = writer.send(batch) }
    }
}
