// Issue 16 finding 9: `kernel bug:` lines must be limited per axis, whatever the values. A flood
// of distinct out-of-range ABS_MT_SLOT values gave one line per event (100 095 for one recording).
import Testing
import GestureCore
import GestureTestSupport

@Suite struct HostileDecoderTests {
    @Test func test_outOfRangeSlotFlood_isReportedOncePerInterval() {
        var d = SlotDecoder(device: TestDevices.screen)
        var lines: [String] = []
        // 10 000 events over 1 s, each a different bad slot number.
        for i in 0..<10_000 {
            let t = Instant(microseconds: 1_000_000 + Int64(i) * 100)
            _ = d.decode(ev(at: t, EventType.abs, AbsCode.mtSlot, 1000 + Int32(i)))
            _ = d.decode(ev(at: t, EventType.syn, SynCode.report, 0))
            lines += d.drainDiagnostics()
        }
        let slotLines = lines.filter { $0.contains("ABS_MT_SLOT") }
        #expect(slotLines.count >= 1 && slotLines.count <= 2, "\(slotLines.count) lines: \(slotLines.prefix(3))")
    }

    @Test func test_outOfRangeSlotFlood_withTimeRunningBackwards_staysLimited() {
        var d = SlotDecoder(device: TestDevices.screen)
        var n = 0
        for i in 0..<2_000 {
            let t = Instant(microseconds: 5_000_000 - Int64(i) * 100)   // backwards
            _ = d.decode(ev(at: t, EventType.abs, AbsCode.mtPositionX, -50_000 - Int32(i)))
            _ = d.decode(ev(at: t, EventType.syn, SynCode.report, 0))
            n += d.drainDiagnostics().filter { $0.contains("ABS_MT_POSITION_X") }.count
        }
        #expect(n <= 2, "\(n) lines")
    }
}
