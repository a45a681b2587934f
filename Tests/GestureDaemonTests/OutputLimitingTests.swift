@testable import GestureDaemon
import GestureCore
import Testing

/// How a hook's output becomes log lines: split at newlines with caps on line length and on
/// what is held, and at most `hooks.output_lines_per_minute` lines per minute.
@Suite struct OutputLimitingTests {
    static func bytes(_ s: String) -> ArraySlice<UInt8> { ArraySlice(Array(s.utf8)) }
    static func texts(_ lines: [[UInt8]]) -> [String] { lines.map(OutputLineBuffer.text) }

    @Test func test_lines_areSplitAtNewlines_andAPartialLineWaits() {
        var b = OutputLineBuffer()
        func take(end: Bool = false) -> [String] { Self.texts(b.takeLines(end: end)) }
        b.append(Self.bytes("one\ntwo\nthr"))
        #expect(take() == ["one", "two"])
        b.append(Self.bytes("ee\n\nfour"))
        #expect(take() == ["three", ""])
        #expect(take(end: true) == ["four"])
        #expect(b.bytes.isEmpty)
        let none = b.takeLines(end: true)
        #expect(none.isEmpty)
    }

    @Test func test_aLineWithoutEnd_isLoggedInPieces_andALongLineIsCut() {
        var b = OutputLineBuffer()
        b.append(ArraySlice(repeating: UInt8(ascii: "x"), count: OutputLineBuffer.lineLimitBytes))
        let waiting = b.takeLines()
        #expect(waiting.isEmpty, "exactly the limit still waits for its end")
        b.append(Self.bytes("y"))
        let piece = b.takeLines()
        #expect(piece.count == 1 && piece[0].count == OutputLineBuffer.lineLimitBytes + 1)
        #expect(OutputLineBuffer.text(piece[0]).utf8.count == OutputLineBuffer.lineLimitBytes, "logged cut to the limit")
        #expect(b.bytes.isEmpty)
    }

    @Test func test_isFull_onlyPastTheReadLimit() {
        var b = OutputLineBuffer()
        b.append(ArraySlice(repeating: UInt8(ascii: "x"), count: OutputLineBuffer.readLimitBytes))
        #expect(!b.isFull)
        b.append(Self.bytes("z"))
        #expect(b.isFull)
        let lines = b.takeLines()
        #expect(lines.count == 1 && lines[0].count == OutputLineBuffer.readLimitBytes + 1)
        #expect(!b.isFull)
    }

    @Test func test_text_dropsOneCarriageReturn_andReplacesInvalidUTF8() {
        #expect(OutputLineBuffer.text(Array("dos\r".utf8)) == "dos")
        #expect(OutputLineBuffer.text(Array("a\r\r".utf8)) == "a\r")
        #expect(OutputLineBuffer.text([0x61, 0xff, 0x62]) == "a\u{FFFD}b")
    }

    @Test func test_rateLimiter_logsTheLimitPerMinute_andCountsTheRest() {
        let minute = OutputRateLimiter.window, tick = Duration.microseconds(1)
        var l = OutputRateLimiter()
        func admit(_ now: Instant) -> (Bool, Int) { l.admit(now: now, limit: 2) }
        let start = Instant.zero + minute * 10
        #expect(admit(start) == (true, 0))
        #expect(admit(start + tick) == (true, 0))
        #expect(admit(start + tick * 2) == (false, 0))
        #expect(admit(start + minute - tick) == (false, 0))
        #expect(l.suppressed == 2)
        // The next window starts with the first line a minute later and reports the last one's.
        #expect(admit(start + minute) == (true, 2))
        #expect(l.suppressed == 0 && l.logged == 1)
        #expect(admit(start + minute * 3) == (true, 0))
    }

    @Test func test_rateLimiter_zeroLimit_logsNothing() {
        var l = OutputRateLimiter()
        let verdict = l.admit(now: Instant(microseconds: 1), limit: 0)
        #expect(verdict == (false, 0))
        #expect(l.suppressed == 1)
    }
}
