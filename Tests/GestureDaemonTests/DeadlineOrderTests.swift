import GestureCore
import GestureDaemon
import GestureTestSupport
import LinuxInput
import LinuxSystem
import Testing

/// When the timer and a device are ready in the same wakeup, a deadline must not be decided
/// before the events the device already queued: they carry kernel timestamps that may precede it.
@Suite struct DeadlineOrderTests {
    /// FAULT INJECTION (labelled): a source whose second batch is already "queued" when the timer
    /// fires. A real device cannot be made to have the loop handle the timer before its fd on
    /// demand; here the second batch is only handed out by the next `read()`, and the fd (a pipe
    /// nobody writes) never wakes the loop, so only a read the deadline path makes finds it.
    final class QueuedSource: DeviceSource {
        let node = "test:queued"
        let description = TestDevices.screen
        let stateAtOpen: EvdevState? = nil
        var realDevice: EvdevDevice? { nil }
        let fd: FileDescriptor
        private let writeEnd: FileDescriptor
        var batches: [[InputEvent]]
        private(set) var reads = 0

        init(_ batches: [[InputEvent]]) throws {
            let p = try FileDescriptor.pipe()
            fd = p.readEnd; writeEnd = p.writeEnd
            self.batches = batches
        }

        func read() -> DeviceRead {
            reads += 1
            guard !batches.isEmpty else { return DeviceRead(events: [], status: .drained) }
            return DeviceRead(events: batches.removeFirst(), status: .drained)
        }

        func close() { try? fd.close(); try? writeEnd.close() }
    }

    /// One finger down at `down` ms and up 50 ms later, at (300, 200).
    static func tap(_ down: Int64) -> [InputEvent] {
        contact(down, slot: 0, id: Int32(down), x: 300, y: 200) + [ev(down, EventType.key, KeyCode.btnTouch, 1), syn(down)]
            + contact(down + 50, slot: 0, id: -1) + [ev(down + 50, EventType.key, KeyCode.btnTouch, 0), syn(down + 50)]
    }

    static func session(_ source: QueuedSource) -> DeviceSession {
        DeviceSession(id: 1, source: source, thresholds: .touchscreenDefaults, doubleTapFingerCounts: [1])
    }

    static func taps(_ out: [GesturePipeline.Output]) -> [String] {
        out.compactMap { o -> String? in
            guard case .gesture(let g) = o, g.kind == .tap || g.kind == .doubleTap, g.phase == .recognized else { return nil }
            return g.kind.rawValue
        }
    }

    @Test func test_aDueDeadline_readsTheQueuedSecondTapFirst() throws {
        // The second tap's touch-down (200 ms) is 150 ms after the first lift: inside the
        // double-tap wait, which has ended by the time the timer is handled (1 000 ms).
        let source = try QueuedSource([Self.tap(0), Self.tap(200)])
        defer { source.close() }
        let s = Self.session(source)
        var out: [GesturePipeline.Output] = []
        _ = s.readAvailable { out.append($0) }
        let deadline = try #require(s.nextDeadline)
        #expect(deadline < .milliseconds(1000))
        _ = s.deadlineDue(now: { .milliseconds(1000) }) { out.append($0) }
        #expect(source.reads == 2)
        #expect(Self.taps(out) == ["doubleTap"])
    }

    @Test func test_aDueDeadline_withNothingQueued_firesAsBefore() throws {
        let source = try QueuedSource([Self.tap(0)])
        defer { source.close() }
        let s = Self.session(source)
        var out: [GesturePipeline.Output] = []
        _ = s.readAvailable { out.append($0) }
        _ = s.deadlineDue(now: { .milliseconds(1000) }) { out.append($0) }
        #expect(Self.taps(out) == ["tap"])
        #expect(s.nextDeadline == nil)
    }
}
