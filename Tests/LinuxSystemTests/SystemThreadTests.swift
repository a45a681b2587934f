import Synchronization
import Testing
import LinuxSystem
import GestureCore

/// Real threads: a joined thread's work is done when join returns; a detached one runs on its own;
/// the clock's sleeps last at least what was asked.
@Suite struct SystemThreadTests {
    @Test func test_join_returnsAfterTheBodyRan() throws {
        let counter = Atomic<Int>(0)
        let threads = try (0..<4).map { _ in
            try SystemThread.start {
                for _ in 0..<10_000 { counter.add(1, ordering: .relaxed) }
            }
        }
        for t in threads { t.join() }
        #expect(counter.load(ordering: .relaxed) == 40_000)
    }

    @Test func test_detached_runsAndReportsThroughAPipe() throws {
        let p = try FileDescriptor.pipe()
        defer { p.readEnd.close() }
        try SystemThread.detached {
            _ = try? [UInt8(42)].withUnsafeBytes { try p.writeEnd.write($0) }
            p.writeEnd.close()
        }
        var byte: [UInt8] = [0]
        let n = try byte.withUnsafeMutableBytes { try p.readEnd.read(into: $0) }
        #expect(n == 1 && byte == [42])
    }

    @Test func test_sleepFor_lastsAtLeastTheDuration() {
        let start = MonotonicClock.now()
        MonotonicClock.sleep(for: .milliseconds(30))
        #expect(MonotonicClock.now() - start >= .milliseconds(30))
    }

    @Test func test_sleepUntil_wakesAtOrAfterTheInstant() {
        let due = MonotonicClock.now() + .milliseconds(30)
        MonotonicClock.sleep(until: due)
        #expect(MonotonicClock.now() >= due)
    }
}
