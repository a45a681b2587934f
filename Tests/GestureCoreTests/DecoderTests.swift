import GestureCore
import GestureTestSupport
import Testing

/// Hand-written event streams through `SlotDecoder`, one point of docs/RECORDINGS.md
/// "What the decoder handles" each,
/// on the shared `TestDevices`.

/// Builds event streams at millisecond times and collects the frames.
struct Feed {
    var decoder: SlotDecoder
    var frames: [TouchFrame] = []
    var ms: Int64 = 0

    init(_ device: DeviceDescription, initialState: EvdevState? = nil) {
        decoder = SlotDecoder(device: device, initialState: initialState)
    }

    mutating func event(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        let e = ev(ms, type, code, value)
        if let f = decoder.decode(e) { frames.append(f) }
    }
    mutating func abs(_ code: UInt16, _ value: Int32) { event(EventType.abs, code, value) }
    mutating func key(_ code: UInt16, _ down: Bool) { event(EventType.key, code, down ? 1 : 0) }
    mutating func slot(_ s: Int32) { abs(AbsCode.mtSlot, s) }
    mutating func id(_ v: Int32) { abs(AbsCode.mtTrackingId, v) }
    mutating func pos(_ x: Int32, _ y: Int32) { abs(AbsCode.mtPositionX, x); abs(AbsCode.mtPositionY, y) }
    mutating func mtReport() { event(EventType.syn, SynCode.mtReport, 0) }
    /// SYN_REPORT at the current time, then time advances by 10 ms. Returns the frame.
    @discardableResult mutating func syn() -> TouchFrame {
        let before = frames.count
        event(EventType.syn, SynCode.report, 0)
        ms += 10
        precondition(frames.count == before + 1, "SYN_REPORT made no frame")
        return frames[frames.count - 1]
    }
    var last: TouchFrame { frames[frames.count - 1] }
}

extension TouchFrame {
    func phases() -> [TouchPhase] { touches.map(\.phase) }
    func touch(_ id: Int) -> Touch? { touches.first { $0.id == id } }
}

@Suite struct DecoderProtocolBTests {
    @Test func implicitSlotZero_beginMoveStayEnd_inMillimetresFromTopLeft() throws {
        var f = Feed(TestDevices.screen)
        f.id(7); f.pos(600, 250); f.key(KeyCode.btnTouch, true)
        let a = f.syn()
        #expect(a.touches.count == 1)
        let t = try #require(a.touches.first)
        #expect(t.phase == .began && t.slot == 0)
        #expect(abs(t.x - 50) < 1e-9 && abs(t.y - 25) < 1e-9)   // (600−100)/10, 250/10
        #expect(a.fingerCount == 1)
        f.abs(AbsCode.mtPositionX, 700)
        let b = f.syn()
        #expect(b.phases() == [.moved] && b.touches[0].id == t.id && abs(b.touches[0].x - 60) < 1e-9)
        let c = f.syn()
        #expect(c.phases() == [.stationary])
        f.id(-1); f.key(KeyCode.btnTouch, false)
        let d = f.syn()
        #expect(d.phases() == [.ended] && d.touches[0].id == t.id && abs(d.touches[0].x - 60) < 1e-9)
        #expect(d.fingerCount == 0)
        let e = f.syn()
        #expect(e.touches.isEmpty, "an ended touch appears exactly once")
    }

    @Test func slotOnlyOnChange_laterEventsGoToTheCurrentSlot() {
        var f = Feed(TestDevices.screen)
        f.id(1); f.pos(200, 100)
        f.slot(3); f.id(2); f.pos(900, 400)
        f.syn()
        // No ABS_MT_SLOT: still slot 3.
        f.abs(AbsCode.mtPositionY, 300)
        let b = f.syn()
        let moved = b.touches.filter { $0.phase == .moved }
        #expect(moved.count == 1 && moved.first?.slot == 3 && abs((moved.first?.y ?? 0) - 30) < 1e-9)
        #expect(b.touches.first { $0.slot == 0 }?.phase == .stationary)
        #expect(b.fingerCount == 2)
    }

    @Test func trackingIdChange_endsOneTouchAndBeginsAnother_withNewUniqueId() throws {
        var f = Feed(TestDevices.screen)
        f.id(10); f.pos(200, 100)
        let first = try #require(f.syn().touches.first)
        f.id(11); f.pos(300, 100)
        let b = f.syn()
        #expect(b.phases() == [.ended, .began])
        #expect(b.touches[0].id == first.id)
        #expect(b.touches[1].id != first.id)
        #expect(b.fingerCount == 1)
    }

    @Test func minusOneToMinusOne_isIgnored() {
        var f = Feed(TestDevices.screen)
        f.id(-1)
        #expect(f.syn().touches.isEmpty)
        f.id(4); f.pos(200, 100); f.syn()
        f.id(-1); f.syn()
        f.id(-1)
        let again = f.syn()
        #expect(again.touches.isEmpty && again.fingerCount == 0)
    }

    @Test func axisUpdatesOnAFreeSlot_areStateNotATouch() throws {
        var f = Feed(TestDevices.screen)
        f.slot(2); f.pos(500, 200)
        let a = f.syn()
        #expect(a.touches.isEmpty && a.fingerCount == 0)
        // The touch that begins there later without resending the position keeps the state.
        f.id(9)
        let b = f.syn()
        let t = try #require(b.touches.first)
        #expect(t.phase == .began && t.slot == 2 && abs(t.x - 40) < 1e-9 && abs(t.y - 20) < 1e-9)
    }

    @Test func touchIdsAreNeverReused() {
        var f = Feed(TestDevices.screen)
        var seen: [Int] = []
        for i in 0..<50 {
            f.slot(Int32(i % 3)); f.id(Int32(i % 2)); f.pos(200, 200); f.syn()
            f.id(-1); f.syn()
        }
        for frame in f.frames { for t in frame.touches where t.phase == .began { seen.append(t.id) } }
        #expect(seen.count == 50)
        #expect(Set(seen).count == 50)
    }

    @Test func onePerSynReport_evenWithoutChanges() {
        var f = Feed(TestDevices.screen)
        for _ in 0..<5 { f.syn() }
        f.abs(AbsCode.mtPressure, 3)
        #expect(f.frames.count == 5)
        f.syn()
        #expect(f.frames.count == 6)
        #expect(f.frames.map(\.time.microseconds) == [0, 10_000, 20_000, 30_000, 40_000, 50_000])
    }

    @Test func palm_cancelsTheTouchForItsLife_andANewContactIsANewTouch() throws {
        var f = Feed(TestDevices.screen)
        f.id(1); f.pos(200, 100)
        let t = try #require(f.syn().touches.first)
        f.abs(AbsCode.mtToolType, MTToolType.palm)
        let b = f.syn()
        #expect(b.phases() == [.cancelled] && b.touches[0].id == t.id && b.touches[0].tool == .palm)
        #expect(b.fingerCount == 0)
        // Back to finger with the same tracking id: still ignored.
        f.abs(AbsCode.mtToolType, MTToolType.finger); f.pos(250, 150)
        let c = f.syn()
        #expect(c.touches.isEmpty && c.fingerCount == 0)
        f.id(-1)
        #expect(f.syn().touches.isEmpty, "a cancelled touch does not end again")
        f.id(2)
        let e = f.syn()
        #expect(e.phases() == [.began] && e.touches[0].id != t.id)
    }

    @Test func palmFromTheStart_neverAppears() {
        var f = Feed(TestDevices.screen)
        f.id(1); f.abs(AbsCode.mtToolType, MTToolType.palm); f.pos(200, 100)
        #expect(f.syn().touches.isEmpty)
        f.pos(300, 100)
        #expect(f.syn().touches.isEmpty)
        f.id(-1)
        #expect(f.syn().touches.isEmpty)
    }

    @Test func synDropped_deltaUntilSynReport_makesOneResynchronizedFrame() throws {
        var f = Feed(TestDevices.screen)
        f.id(1); f.pos(200, 100)
        f.slot(1); f.id(2); f.pos(800, 100)
        let a = f.syn()
        #expect(a.fingerCount == 2)
        let ids = a.touches.map(\.id)
        // Events were lost; libevdev's sync delivers the state difference: slot 0 lifted, slot 1
        // moved, slot 2 has a new contact.
        f.event(EventType.syn, SynCode.dropped, 0)
        f.slot(0); f.id(-1)
        f.slot(1); f.abs(AbsCode.mtPositionX, 850)
        f.slot(2); f.id(3); f.pos(500, 300)
        let b = f.syn()
        #expect(b.flags.contains(.resynchronized))
        #expect(b.touch(ids[0])?.phase == .ended)
        #expect(b.touch(ids[1])?.phase == .moved)
        #expect(b.touches.filter { $0.phase == .began }.count == 1)
        #expect(b.fingerCount == 2)
        #expect(!f.syn().flags.contains(.resynchronized), "only the first frame after the resync is flagged")
    }

    @Test func outOfRangeValues_areClampedAndReported_rateLimited() throws {
        var f = Feed(TestDevices.screen)
        f.id(1); f.abs(AbsCode.mtPositionX, 5000); f.abs(AbsCode.mtPositionY, -20)
        let t = try #require(f.syn().touches.first)
        #expect(abs(t.x - 100) < 1e-9 && t.y == 0)
        let lines = f.decoder.drainDiagnostics()
        #expect(lines.count == 2)
        #expect(lines.first == "kernel bug: test screen: ABS_MT_POSITION_X 5000 outside 100…1100, clamped")
        #expect(lines.last?.hasPrefix("kernel bug: test screen: ABS_MT_POSITION_Y -20 outside ") == true && lines.last?.hasSuffix(", clamped") == true)
        for i in 0..<100 { f.abs(AbsCode.mtPositionX, 5000 + Int32(i)); f.syn() }   // 1 s of device time
        #expect(f.decoder.drainDiagnostics().isEmpty, "at most one report per axis per 10 s")
        f.ms += 10_000
        f.abs(AbsCode.mtPositionX, 6000); f.syn()
        let later = f.decoder.drainDiagnostics()
        #expect(later.count == 1 && later[0].contains("(100 more since the last report)"))
    }

    @Test func outOfRangeSlot_isReportedAndItsEventsIgnored() {
        var f = Feed(TestDevices.screen)
        f.slot(40); f.id(5); f.pos(300, 300)
        #expect(f.syn().touches.isEmpty)
        let line = f.decoder.drainDiagnostics().first ?? ""
        #expect(line.hasPrefix("kernel bug: test screen: ABS_MT_SLOT 40 outside 0…") && line.hasSuffix(", its events ignored"), "\(line)")
        f.slot(1); f.id(6)
        #expect(f.syn().phases() == [.began])
    }

    @Test func touchesDownAtOpen_areIgnoredUntilTheyLift() {
        var state = EvdevState(slotCount: 2)
        state.set(slot: 1, code: AbsCode.mtTrackingId, 33)
        state.set(slot: 1, code: AbsCode.mtPositionX, 400); state.set(slot: 1, code: AbsCode.mtPositionY, 100)
        state.setCurrentSlot(1)
        state.setKey(KeyCode.btnTouch, 1)
        var f = Feed(TestDevices.screen, initialState: state)
        f.abs(AbsCode.mtPositionX, 450)          // current slot is 1 (from the state)
        let a = f.syn()
        #expect(a.touches.isEmpty && a.fingerCount == 0)
        f.slot(0); f.id(40); f.pos(200, 100)     // a new finger is reported
        let b = f.syn()
        #expect(b.phases() == [.began] && b.touches[0].slot == 0 && b.fingerCount == 1)
        f.slot(1); f.id(-1)                      // the old one lifts: no ended
        let c = f.syn()
        #expect(c.phases() == [.stationary])
        f.id(41)                                  // slot 1 again: now a real touch
        #expect(f.syn().touches.filter { $0.phase == .began }.map(\.slot) == [1])
    }

    @Test func stuckTouchWatchdog_endsTouchesLeftDownAfterBtnTouchReleased() {
        var f = Feed(TestDevices.screen)
        f.key(KeyCode.btnTouch, true); f.id(1); f.pos(200, 100)
        let a = f.syn()
        // BTN_TOUCH goes up but the tracking id −1 was lost.
        f.key(KeyCode.btnTouch, false)
        f.syn()
        let last = f.last.time
        #expect(f.decoder.checkStuckTouches(at: last + .milliseconds(1999)) == nil)
        let r = f.decoder.checkStuckTouches(at: last + .seconds(2))
        #expect(r?.touches.map(\.phase) == [.ended] && r?.touches.first?.id == a.touches.first?.id)
        #expect(r?.fingerCount == 0)
        #expect(f.decoder.drainDiagnostics().first?.hasPrefix("kernel bug: test screen: 1 touch(es) still down") == true)
        #expect(f.decoder.checkStuckTouches(at: last + .seconds(10)) == nil, "ended once")
        f.id(-1)
        #expect(f.syn().touches.isEmpty, "the late −1 ends nothing twice")
    }

    @Test func stuckTouchWatchdog_ignoresAFrameStillBeingAssembled() {
        // A recording starts at a large timestamp; the watchdog is asked between its first events.
        var d = SlotDecoder(device: TestDevices.screen)
        let t = Instant(microseconds: 1_330_000_000_000_000)
        _ = d.decode(ev(at: t, EventType.abs, AbsCode.mtTrackingId, 7))
        #expect(d.checkStuckTouches(at: t) == nil)
        _ = d.decode(ev(at: t, EventType.abs, AbsCode.mtPositionX, 300))
        let f = d.decode(ev(at: t, EventType.syn, SynCode.report, 0))
        #expect(f?.touches.map(\.phase) == [.began])
    }

    @Test func stuckTouchWatchdog_leavesHeldTouchesAlone() {
        var f = Feed(TestDevices.screen)
        f.key(KeyCode.btnTouch, true); f.id(1); f.pos(200, 100); f.syn()
        #expect(f.decoder.checkStuckTouches(at: .milliseconds(60_000)) == nil, "a finger resting still sends no frames")
    }

    @Test func deviceRemoved_cancelsEveryActiveTouch() {
        var f = Feed(TestDevices.screen)
        f.id(1); f.pos(200, 100); f.slot(1); f.id(2); f.pos(300, 100); f.syn()
        let r = f.decoder.deviceRemoved(at: .milliseconds(500))
        #expect(r?.flags.contains(.deviceRemoved) == true)
        #expect(r?.phases() == [.cancelled, .cancelled])
        #expect(r?.fingerCount == 0)
        #expect(r?.time == .milliseconds(500))
        #expect(f.decoder.deviceRemoved(at: .milliseconds(600)) == nil)
    }
}

@Suite struct DecoderTouchpadTests {
    @Test func btnToolCounts_giveFingersBeyondSlots_quintTapIsFive() {
        var f = Feed(TestDevices.touchpad())
        f.id(1); f.pos(200, 100); f.slot(1); f.id(2); f.pos(400, 100)
        f.key(KeyCode.btnTouch, true); f.key(KeyCode.btnToolTripleTap, true)
        let a = f.syn()
        #expect(a.touches.count == 2 && a.fingerCount == 3)
        f.key(KeyCode.btnToolTripleTap, false); f.key(KeyCode.btnToolQuintTap, true)
        #expect(f.syn().fingerCount == 5)
        f.key(KeyCode.btnToolQuintTap, false); f.key(KeyCode.btnToolDoubleTap, true)
        #expect(f.syn().fingerCount == 2)
        f.slot(0); f.id(-1); f.slot(1); f.id(-1)
        f.key(KeyCode.btnToolDoubleTap, false); f.key(KeyCode.btnTouch, false)
        let e = f.syn()
        #expect(e.fingerCount == 0 && e.phases() == [.ended, .ended])
    }

    @Test func semiMT_framesAreFlagged_countFromTools() {
        var f = Feed(TestDevices.touchpad(semiMT: true))
        f.id(1); f.pos(200, 100); f.slot(1); f.id(2); f.pos(600, 300)
        f.key(KeyCode.btnTouch, true); f.key(KeyCode.btnToolTripleTap, true)
        let a = f.syn()
        #expect(a.flags.contains(.semiMT))
        #expect(a.fingerCount == 3)
        #expect(a.touches.count == 2)
    }

    @Test func touchscreen_ignoresToolCounts() {
        // N-Trig sends BTN_TOOL_DOUBLETAP for one finger; a touchscreen counts its contacts.
        var d = TestDevices.screen
        d.codes[EventType.key]?.insert(KeyCode.btnToolDoubleTap)
        var f = Feed(d)
        f.id(1); f.pos(200, 100); f.key(KeyCode.btnToolDoubleTap, true); f.key(KeyCode.btnTouch, true)
        #expect(f.syn().fingerCount == 1)
    }
}

@Suite struct DecoderProtocolATests {

    @Test func contactsAreTrackedByNearestMatch() throws {
        var f = Feed(TestDevices.anonymous)
        f.key(KeyCode.btnTouch, true)
        f.pos(100, 100); f.mtReport(); f.pos(800, 800); f.mtReport()
        let a = f.syn()
        #expect(a.phases() == [.began, .began] && a.fingerCount == 2)
        let left = try #require(a.touches.first { $0.x < 50 }), right = try #require(a.touches.first { $0.x > 50 })
        // The packets come in the other order and both moved a little.
        f.pos(810, 790); f.mtReport(); f.pos(110, 105); f.mtReport()
        let b = f.syn()
        #expect(b.touch(left.id)?.phase == .moved && abs((b.touch(left.id)?.x ?? 0) - 11) < 1e-9)
        #expect(b.touch(right.id)?.phase == .moved && abs((b.touch(right.id)?.x ?? 0) - 81) < 1e-9)
        // One lifts.
        f.pos(110, 105); f.mtReport()
        let c = f.syn()
        #expect(c.touch(right.id)?.phase == .ended && c.touch(left.id)?.phase == .stationary)
        #expect(c.fingerCount == 1)
        // An empty packet: all lifted.
        f.mtReport()
        let d = f.syn()
        #expect(d.phases() == [.ended] && d.fingerCount == 0)
    }

    @Test func noPacketAtAll_meansEveryContactLifted() {
        var f = Feed(TestDevices.anonymous)
        f.key(KeyCode.btnTouch, true)
        f.pos(100, 100); f.mtReport()
        f.syn()
        let b = f.syn()
        #expect(b.phases() == [.ended] && b.fingerCount == 0)
    }

    @Test func btnTouchReleased_liftsEverything() {
        var f = Feed(TestDevices.anonymous)
        f.key(KeyCode.btnTouch, true); f.pos(100, 100); f.mtReport(); f.syn()
        f.key(KeyCode.btnTouch, false); f.pos(100, 100); f.mtReport()
        #expect(f.syn().phases() == [.ended])
    }

    @Test func contactsDownAtOpen_areIgnoredUntilAllLift() {
        var f = Feed(TestDevices.anonymous, initialState: .keysDown([KeyCode.btnTouch]))
        f.pos(100, 100); f.mtReport()
        #expect(f.syn().touches.isEmpty)
        f.mtReport()
        #expect(f.syn().touches.isEmpty)
        f.pos(300, 300); f.mtReport()
        #expect(f.syn().phases() == [.began])
    }
}

@Suite struct DecoderSingleTouchTests {
    @Test func btnTouch_beginsAndEnds_positionsFromAbsXY() throws {
        var f = Feed(TestDevices.single)
        f.abs(AbsCode.x, 250); f.abs(AbsCode.y, 500); f.key(KeyCode.btnTouch, true)
        let a = f.syn()
        let t = try #require(a.touches.first)
        #expect(t.phase == .began && abs(t.x - 25) < 1e-9 && abs(t.y - 50) < 1e-9 && a.fingerCount == 1)
        f.abs(AbsCode.x, 300)
        #expect(f.syn().phases() == [.moved])
        f.key(KeyCode.btnTouch, false)
        let c = f.syn()
        #expect(c.phases() == [.ended] && c.touches[0].id == t.id && c.fingerCount == 0)
        f.key(KeyCode.btnTouch, true)
        let d = f.syn()
        #expect(d.phases() == [.began] && d.touches[0].id != t.id)
    }

    @Test func downAtOpen_ignoredUntilLift() {
        var f = Feed(TestDevices.single, initialState: .keysDown([KeyCode.btnTouch]))
        f.abs(AbsCode.x, 300)
        #expect(f.syn().touches.isEmpty)
        f.key(KeyCode.btnTouch, false)
        #expect(f.syn().touches.isEmpty)
        f.key(KeyCode.btnTouch, true)
        #expect(f.syn().phases() == [.began])
    }
}

private extension EvdevState {
    /// No slots, these keys held: a protocol-A or single-touch device touched at open.
    static func keysDown(_ keys: [UInt16]) -> EvdevState {
        var s = EvdevState(slotCount: 0)
        for k in keys { s.setKey(k, 1) }
        return s
    }
}
