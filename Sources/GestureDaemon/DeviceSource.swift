import GestureCore
import GestureRecording
import LinuxInput
import LinuxSystem

/// Where a `DeviceSession` gets its events: a real evdev node (`EvdevDevice` itself) or a pipe
/// fed from a recording or a test (`PipeDeviceSource`). Either way: an fd for the event loop, and
/// batches of `InputEvent` with CLOCK_MONOTONIC timestamps as one `DeviceRead`.
public protocol DeviceSource: AnyObject {
    /// Readable when events are waiting. Owned by the source.
    var fd: FileDescriptor { get }
    /// /dev/input/eventN, or `replay:FILE` for a recording.
    var node: String { get }
    var description: DeviceDescription { get }
    /// The device's state when it was opened (touches already down are ignored by the decoder
    /// until they lift); nil for a stream that starts with nothing down.
    var stateAtOpen: EvdevState? { get }
    /// The real device behind it, which exclusive mode grabs; nil for a pipe.
    var realDevice: EvdevDevice? { get }
    /// Reads what is available without blocking.
    func read() -> DeviceRead
    /// Releases the fd. Called once, after the loop stopped watching it.
    func close()
}

/// A real device is its own source (LinuxInput, libevdev).
extension EvdevDevice: DeviceSource {
    public var node: String { path }
    public var stateAtOpen: EvdevState? { initialState }
    public var realDevice: EvdevDevice? { self }
    public func read() -> DeviceRead { readAvailable() }
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
    public let stateAtOpen: EvdevState? = nil
    public var realDevice: EvdevDevice? { nil }
    public let fd: FileDescriptor
    /// The write end, when this source made the pipe.
    public let writer: PipeEventWriter?
    private var pending: [UInt8] = []
    /// One read buffer for the source's life (zero-filling 64 KB per read cost more than the rest
    /// of a replayed frame).
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// The events of the last read: reused by the next once the caller has let go of them.
    private var events: [InputEvent] = []
    private var closed = false

    public convenience init(description: DeviceDescription, node: String) {
        let pipe: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do { pipe = try FileDescriptor.pipe() } catch { preconditionFailure("pipe2 failed: \(error)") }
        self.init(description: description, node: node, reading: pipe.readEnd, writer: PipeEventWriter(fd: pipe.writeEnd))
    }

    /// A source reading records another process writes into `fd` (the benchmark's daemon child
    /// reads its standard input); `writer` is nil.
    public init(description: DeviceDescription, node: String, reading fd: FileDescriptor, writer: PipeEventWriter? = nil) {
        fd.setNonBlocking()
        self.fd = fd
        self.writer = writer
        self.description = description
        self.node = node
    }

    static func append(_ e: InputEvent, to b: inout [UInt8]) {
        withUnsafeBytes(of: e.time.microseconds.littleEndian) { b.append(contentsOf: $0) }
        withUnsafeBytes(of: e.type.littleEndian) { b.append(contentsOf: $0) }
        withUnsafeBytes(of: e.code.littleEndian) { b.append(contentsOf: $0) }
        withUnsafeBytes(of: e.value.littleEndian) { b.append(contentsOf: $0) }
    }

    public func read() -> DeviceRead {
        var status = DeviceRead.Status.drained
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
            case .failure(let error): status = .failed(InputError(operation: "read", path: node, error: error))
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
        return DeviceRead(events: events, status: status)
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
