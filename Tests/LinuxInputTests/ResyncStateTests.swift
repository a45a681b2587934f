// The events EvdevDevice passes on after SYN_DROPPED: the device's whole state (queried through a
// fresh libevdev handle in the VM suite), not a delta. These check, on the real decoder and the
// exclusive gate's state model, that a whole state resynchronizes a reader whatever it held before.
import GestureCore
import GestureTestSupport
@testable import LinuxInput
import Testing

@Suite struct ResyncStateTests {
    private let pad = ScenarioDevices.touchpad(width: 100, height: 70, resolution: 40, slots: 5)
    private let t0 = Instant(microseconds: 1_000_000)

    private func ev(_ type: UInt16, _ code: UInt16, _ value: Int32, _ t: Instant) -> InputEvent {
        InputEvent(time: t, type: type, code: code, value: value)
    }

    /// Two fingers: slot 0 (id 10) at 10,10 mm and slot 1 (id 11) at 50,30 mm, BTN_TOOL_DOUBLETAP.
    private func twoFingers(_ decoder: inout SlotDecoder) -> TouchFrame? {
        let events = [
            ev(EventType.abs, AbsCode.mtSlot, 0, t0), ev(EventType.abs, AbsCode.mtTrackingId, 10, t0),
            ev(EventType.abs, AbsCode.mtPositionX, 400, t0), ev(EventType.abs, AbsCode.mtPositionY, 400, t0),
            ev(EventType.abs, AbsCode.mtSlot, 1, t0), ev(EventType.abs, AbsCode.mtTrackingId, 11, t0),
            ev(EventType.abs, AbsCode.mtPositionX, 2000, t0), ev(EventType.abs, AbsCode.mtPositionY, 1200, t0),
            ev(EventType.key, KeyCode.btnTouch, 1, t0), ev(EventType.key, KeyCode.btnToolDoubleTap, 1, t0),
            ev(EventType.syn, SynCode.report, 0, t0),
        ]
        var last: TouchFrame?
        for e in events { if let f = decoder.decode(e) { last = f } }
        return last
    }

    /// The device after the flood: slot 0 moved to 20,15 mm, slot 1 lifted, slot 2 (id 12) down at
    /// 75,50 mm and current, still two fingers.
    private func afterFlood() -> EvdevState {
        var s = EvdevState(slotCount: 5)
        s.set(slot: 0, code: AbsCode.mtTrackingId, 10)
        s.set(slot: 0, code: AbsCode.mtPositionX, 800); s.set(slot: 0, code: AbsCode.mtPositionY, 600)
        s.set(slot: 1, code: AbsCode.mtPositionX, 2000); s.set(slot: 1, code: AbsCode.mtPositionY, 1200)
        s.set(slot: 2, code: AbsCode.mtTrackingId, 12)
        s.set(slot: 2, code: AbsCode.mtPositionX, 3000); s.set(slot: 2, code: AbsCode.mtPositionY, 2000)
        s.setCurrentSlot(2)
        s.setKey(KeyCode.btnTouch, 1); s.setKey(KeyCode.btnToolDoubleTap, 1)
        s.setAxis(AbsCode.x, 800); s.setAxis(AbsCode.y, 600)
        return s
    }

    private func decodeResync(_ state: EvdevState, _ decoder: inout SlotDecoder, at t: Instant) -> [TouchFrame] {
        var events = [ev(EventType.syn, SynCode.dropped, 0, t)]
        EvdevDevice.appendStateEvents(state, of: pad, at: t, to: &events)
        return events.compactMap { decoder.decode($0) }
    }

    @Test func test_resync_whenAFingerMovedOneLiftedOneLanded_frameHasEachAsItIsNow() throws {
        var decoder = SlotDecoder(device: pad)
        _ = twoFingers(&decoder)
        let t1 = t0 + .milliseconds(500)
        let frames = decodeResync(afterFlood(), &decoder, at: t1)
        try #require(frames.count == 1)
        let f = frames[0]
        #expect(f.flags.contains(.resynchronized))
        #expect(f.time == t1)
        let bySlot = Dictionary(uniqueKeysWithValues: f.touches.map { ($0.slot, $0) })
        #expect(bySlot[0]?.phase == .moved)
        #expect(bySlot[0]?.x == 20); #expect(bySlot[0]?.y == 15)
        #expect(bySlot[1]?.phase == .ended)
        #expect(bySlot[2]?.phase == .began)
        #expect(bySlot[2]?.x == 75); #expect(bySlot[2]?.y == 50)
        #expect(f.fingerCount == 2)

        // The kernel's next events carry no ABS_MT_SLOT: they are for slot 2, the current one.
        let t2 = t1 + .milliseconds(10)
        _ = decoder.decode(ev(EventType.abs, AbsCode.mtPositionX, 3040, t2))
        let report = decoder.decode(ev(EventType.syn, SynCode.report, 0, t2))
        let next = try #require(report)
        #expect(next.touches.first { $0.slot == 2 }?.x == 76)
        #expect(next.touches.first { $0.slot == 0 }?.phase == .stationary)
    }

    @Test func test_resync_whenNothingChanged_repeatedValuesChangeNothing() throws {
        var decoder = SlotDecoder(device: pad)
        let first = twoFingers(&decoder)
        let before = try #require(first)
        var same = EvdevState(slotCount: 5)
        same.set(slot: 0, code: AbsCode.mtTrackingId, 10)
        same.set(slot: 0, code: AbsCode.mtPositionX, 400); same.set(slot: 0, code: AbsCode.mtPositionY, 400)
        same.set(slot: 1, code: AbsCode.mtTrackingId, 11)
        same.set(slot: 1, code: AbsCode.mtPositionX, 2000); same.set(slot: 1, code: AbsCode.mtPositionY, 1200)
        same.setCurrentSlot(1)
        same.setKey(KeyCode.btnTouch, 1); same.setKey(KeyCode.btnToolDoubleTap, 1)
        let frames = decodeResync(same, &decoder, at: t0 + .milliseconds(100))
        try #require(frames.count == 1)
        #expect(frames[0].touches.map(\.phase) == [.stationary, .stationary])
        #expect(frames[0].touches.map(\.id) == before.touches.map(\.id))
        #expect(frames[0].fingerCount == 2)
    }

    @Test func test_stateEvents_appliedToAnyEarlierState_giveThatState() {
        // The exclusive gate keeps the real device's state by applying its events.
        var earlier = EvdevState(slotCount: 5)
        earlier.set(slot: 1, code: AbsCode.mtTrackingId, 11)
        earlier.set(slot: 1, code: AbsCode.mtPositionX, 2000)
        earlier.set(slot: 4, code: AbsCode.mtTrackingId, 40)
        earlier.setKey(KeyCode.btnToolTripleTap, 1)
        earlier.setAxis(AbsCode.x, 5)
        var events: [InputEvent] = []
        EvdevDevice.appendStateEvents(afterFlood(), of: pad, at: t0, to: &events)
        #expect(earlier.applying(events) == afterFlood())
        #expect(events.last?.isSynReport == true)
        #expect(events.allSatisfy { $0.time == t0 })
    }

    @Test func test_stateEvents_protocolA_carryNoContactCodes_andEndTheContacts() throws {
        let device = TestDevices.anonymous
        var decoder = SlotDecoder(device: device)
        for e in [ev(EventType.abs, AbsCode.mtPositionX, 300, t0), ev(EventType.abs, AbsCode.mtPositionY, 300, t0),
                  ev(EventType.syn, SynCode.mtReport, 0, t0), ev(EventType.key, KeyCode.btnTouch, 1, t0)] {
            _ = decoder.decode(e)
        }
        let report = decoder.decode(ev(EventType.syn, SynCode.report, 0, t0))
        let down = try #require(report)
        #expect(down.touches.map(\.phase) == [.began])

        var state = EvdevState(slotCount: 0)
        state.setKey(KeyCode.btnTouch, 1)
        var events = [ev(EventType.syn, SynCode.dropped, 0, t0)]
        EvdevDevice.appendStateEvents(state, of: device, at: t0, to: &events)
        #expect(!events.contains { $0.type == EventType.abs })
        let frames = events.compactMap { decoder.decode($0) }
        try #require(frames.count == 1)
        // No packet in the resync: the contact ends; the device's next frame brings it back.
        #expect(frames[0].touches.map(\.phase) == [.ended])
        #expect(frames[0].flags.contains(.resynchronized))
    }
}
