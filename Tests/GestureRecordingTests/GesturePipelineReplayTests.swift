import GestureCore
import GestureRecording
import GestureTestSupport
import Testing

@Suite struct GesturePipelineReplayTests {
    static let screen = TestDevices.screen

    /// A 1-finger tap (down 50 ms, still) and nothing after it: the tap may wait for a double tap,
    /// so only `finish()` (advancing past the last event) can resolve it.
    static let tap: [InputEvent] = [
        ev(1000, EventType.abs, AbsCode.mtTrackingId, 1), ev(1000, EventType.abs, AbsCode.mtPositionX, 1000),
        ev(1000, EventType.abs, AbsCode.mtPositionY, 250), ev(1000, EventType.key, KeyCode.btnTouch, 1),
        ev(1000, EventType.syn, SynCode.report, 0),
        ev(1050, EventType.abs, AbsCode.mtTrackingId, -1), ev(1050, EventType.key, KeyCode.btnTouch, 0),
        ev(1050, EventType.syn, SynCode.report, 0),
    ]

    @Test func finish_resolvesAPendingTap_atItsDeadlineNotAtTheEnd() {
        var r = GesturePipeline(device: Self.screen)
        var outputs: [GesturePipeline.Output] = []
        for e in Self.tap { r.feed(e) { outputs.append($0) } }
        let framesBefore = outputs.filter { if case .frame = $0 { return true }; return false }.count
        #expect(framesBefore == 2)
        r.finish { outputs.append($0) }
        let taps = outputs.compactMap { o -> GestureEvent? in
            if case .gesture(let g) = o, g.kind == .tap { return g }; return nil
        }
        #expect(taps.count == 1)
        #expect(taps.first?.fingers == 1)
        if let t = taps.first?.time { #expect(t >= .milliseconds(1050) && t < .milliseconds(1050) + .seconds(3)) }
    }

    @Test func outputTimesNeverGoBackwards_onEveryRecording() throws {
        let names = ["touchscreen-atmel-1finger-repeated-taps__whot-evemu-devices.evemu",
                     "touchpad-semimt-alps-1finger-double-tap__whot-evemu-devices.evemu",
                     "touchscreen-atmel-2finger-tap-hold__whot-evemu-devices.evemu",
                     "touchpad-protoA-bcm5974-1f-move-2f-swipe-left-3f-swipe-right-4f-taps__whot-evemu.evemu"]
        for name in names {
            let rec = try Fixtures.load(name)
            var last = Instant(microseconds: Int64.min)
            var backwards = 0, frames = 0
            GesturePipeline.run(rec) { o in
                let t: Instant
                switch o {
                case .frame(let f): t = f.time; frames += 1
                case .gesture(let g): t = g.time
                case .diagnostic: return
                }
                if t < last { backwards += 1 }
                last = Swift.max(last, t)
            }
            #expect(backwards == 0, "\(name): deadlines fire before the later frame")
            #expect(frames == rec.events.filter(\.isSynReport).count, "\(name)")
        }
    }
}
