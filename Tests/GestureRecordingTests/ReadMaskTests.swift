import GestureCore
import GestureRecording
import GestureTestSupport
import Testing

/// The daemon's reader leaves out the events its decoder never reads (`ReadMask`). Over every
/// recording in Tests/Fixtures, the stream so filtered (`ReadMask.filtered`) must make the same
/// frames and gestures as the whole stream.
@Suite struct ReadMaskTests {
    @Test(arguments: ReplayFixtures.recordings)
    func theMaskedStreamMakesTheSameGestures(_ name: String) throws {
        let r = try Fixtures.load(name)
        let mask = ReadMask(r.description)
        let kept = mask.filtered(r.events)
        var whole: (gestures: [GestureEvent], frames: [TouchFrame]) = ([], [])
        var masked: (gestures: [GestureEvent], frames: [TouchFrame]) = ([], [])
        GesturePipeline.run(device: r.description, events: r.events) {
            if case .gesture(let g) = $0 { whole.gestures.append(g) } else if case .frame(let f) = $0 { whole.frames.append(f) }
        }
        GesturePipeline.run(device: r.description, events: kept) {
            if case .gesture(let g) = $0 { masked.gestures.append(g) } else if case .frame(let f) = $0 { masked.frames.append(f) }
        }
        let first = masked.gestures.indices.first { $0 < whole.gestures.count && masked.gestures[$0] != whole.gestures[$0] }
            ?? (masked.gestures.count == whole.gestures.count ? nil : Swift.min(masked.gestures.count, whole.gestures.count))
        #expect(first == nil, "\(name): \(masked.gestures.count) gestures against \(whole.gestures.count); first difference at \(first ?? -1): \(first.flatMap { masked.gestures.indices.contains($0) ? Self.brief(masked.gestures[$0]) : nil } ?? "none") against \(first.flatMap { whole.gestures.indices.contains($0) ? Self.brief(whole.gestures[$0]) : nil } ?? "none")")
        let firstFrame = masked.frames.indices.first { $0 < whole.frames.count && masked.frames[$0] != whole.frames[$0] }
        #expect(masked.frames.count == whole.frames.count && firstFrame == nil,
                "\(name): \(masked.frames.count) frames against \(whole.frames.count), first difference at \(firstFrame ?? -1)")
        #expect(kept.count <= r.events.count)
    }

    static func brief(_ g: GestureEvent) -> String {
        "\(g.kind) \(g.phase) id \(g.id) \(g.fingers)f \(g.direction.map { "\($0)" } ?? "") at \(g.time.microseconds) µs dx \(g.dxMillimeters ?? .nan) v \(g.velocityMillimetersPerSecond ?? .nan)"
    }

    /// What is left out, on a stream made by hand: every SYN event stays.
    @Test func maskedEventsAreLeftOutAndEveryFrameStays() {
        let mask = ReadMask(TestDevices.screen)
        func ev(_ type: UInt16, _ code: UInt16, _ v: Int32 = 0) -> InputEvent { InputEvent(time: .zero, type: type, code: code, value: v) }
        let stream = [
            ev(EventType.abs, AbsCode.mtTrackingId, 1), ev(EventType.abs, AbsCode.mtPositionX, 5), ev(EventType.abs, AbsCode.mtTouchMinor, 3),
            ev(EventType.abs, AbsCode.x, 5), ev(EventType.msc, 5, 1), ev(EventType.syn, SynCode.report),
            ev(EventType.abs, AbsCode.mtOrientation, 1), ev(EventType.msc, 5, 2), ev(EventType.syn, SynCode.report),
            ev(EventType.key, KeyCode.btnTouch, 0), ev(EventType.syn, SynCode.report),
        ]
        #expect(mask.filtered(stream) == [
            ev(EventType.abs, AbsCode.mtTrackingId, 1), ev(EventType.abs, AbsCode.mtPositionX, 5), ev(EventType.syn, SynCode.report),
            ev(EventType.syn, SynCode.report),
            ev(EventType.key, KeyCode.btnTouch, 0), ev(EventType.syn, SynCode.report),
        ])
        #expect(ReadMask.none.filtered(stream) == stream)
        #expect(mask.skippedAxisBits & (1 << UInt64(AbsCode.mtTouchMinor)) != 0)
        #expect(mask.skippedAxisBits & (1 << UInt64(AbsCode.mtPositionX)) == 0)
        #expect(ReadMask.none.skippedAxisBits == 0)
    }

    @Test func eachProtocolReadsItsContactAxes() {
        let b = ReadMask(TestDevices.screen)
        #expect(b.axes == [AbsCode.mtSlot, AbsCode.mtTrackingId, AbsCode.mtPositionX, AbsCode.mtPositionY,
                           AbsCode.mtPressure, AbsCode.mtTouchMajor, AbsCode.mtToolType])
        #expect(!b.miscellaneous)
        #expect(ReadMask(TestDevices.anonymous).axes == [AbsCode.mtTrackingId, AbsCode.mtPositionX, AbsCode.mtPositionY,
                                                         AbsCode.mtPressure, AbsCode.mtTouchMajor, AbsCode.mtToolType])
        #expect(ReadMask(TestDevices.single).axes == [AbsCode.x, AbsCode.y, AbsCode.pressure])
        #expect(ReadMask(DeviceDescription(name: "keys only", codes: [EventType.key: [KeyCode.btnLeft]])) == .none)
        var screen = TestDevices.screen
        screen.absInfo[AbsCode.mtTouchMinor] = AbsInfo(minimum: 0, maximum: 9); screen.absInfo[AbsCode.x] = AbsInfo(minimum: 0, maximum: 9)
        screen.codes[EventType.abs, default: []].formUnion([AbsCode.mtTouchMinor, AbsCode.x])
        #expect(ReadMask(screen).maskedAxes(of: screen) == [AbsCode.x, AbsCode.mtTouchMinor])
        #expect(!ReadMask.none.masksAnything)
    }

    @Test func adoptTakesTheMaskedAxesOfAnotherState() {
        var mine = EvdevState(slotCount: 2), kernel = EvdevState(slotCount: 2)
        kernel.set(slot: 1, code: AbsCode.mtTouchMinor, 40); kernel.setAxis(AbsCode.x, 7)
        mine.set(slot: 1, code: AbsCode.mtPositionX, 9)
        mine.setAxis(AbsCode.pressure, 3)
        mine.adopt([AbsCode.mtTouchMinor, AbsCode.x, AbsCode.pressure], from: kernel)
        #expect(mine.value(slot: 1, code: AbsCode.mtTouchMinor) == 40)
        #expect(mine.axis(AbsCode.x) == 7)
        #expect(mine.axis(AbsCode.pressure) == nil)
        #expect(mine.value(slot: 1, code: AbsCode.mtPositionX) == 9)
    }
}
