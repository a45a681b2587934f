// Regression tests that replay what the fuzzers (Tests/Fuzz) found in the slot decoder. Each test
// names the reproducer it replays; the invariant is the fuzz target's: every touch finite and
// inside the device's surface.
import Testing
import GestureCore
import GestureTestSupport

@Suite struct FuzzSlotDecoderRegressionTests {
    /// The hp8470p touchpad of Tests/Fixtures (protocol B, 2 slots, no resolution, axis minimums
    /// far above 0).
    static let synaptics: DeviceDescription = {
        var d = TestDevices.slots("SynPS/2 Synaptics TouchPad", slots: 2, x: TestDevices.axis(1472, 5728), y: TestDevices.axis(1408, 4916),
                                  properties: [], keys: [KeyCode.btnTouch, KeyCode.btnToolFinger, KeyCode.btnToolDoubleTap,
                                                         KeyCode.btnToolTripleTap, KeyCode.btnLeft],
                                  axes: [AbsCode.x: TestDevices.axis(1472, 5728), AbsCode.y: TestDevices.axis(1408, 4916),
                                         AbsCode.pressure: TestDevices.axis(0, 255)],
                                  vendor: 0x2, product: 0x7)
        d.bustype = 0x11
        return d
    }()

    static func expectInsideSurface(_ frames: [TouchFrame], _ device: DeviceDescription,
                                    sourceLocation: SourceLocation = #_sourceLocation) {
        let (w, h) = device.size
        for frame in frames {
            for t in frame.touches {
                #expect(t.x.isFinite && t.y.isFinite, "touch \(t)", sourceLocation: sourceLocation)
                #expect(t.x >= 0 && t.x <= w && t.y >= 0 && t.y <= h,
                        "touch at (\(t.x), \(t.y)) mm outside the \(w) × \(h) mm surface", sourceLocation: sourceLocation)
            }
        }
    }

    /// Tests/Fuzz/crashers/open/evemu-outside-area-unset-slot-y.evemu: a touch begins with
    /// ABS_MT_POSITION_X but no ABS_MT_POSITION_Y ever sent for its slot. The slot's Y is still
    /// the decoder's initial 0, below the axis minimum 1408, and the touch came out at y = −20 mm.
    /// Fixed: a position never sent is the axis minimum.
    @Test func test_slotDecoder_whenSlotPositionNeverSent_touchStaysInsideSurface() {
        var decoder = SlotDecoder(device: Self.synaptics)
        let frames = [
            ev(us: 1000, EventType.abs, AbsCode.mtTrackingId, 2255),
            ev(us: 1005, EventType.abs, AbsCode.mtPositionX, 5647),
            ev(us: 1006, EventType.syn, SynCode.report, 0),
        ].compactMap { decoder.decode($0) }
        #expect(frames.count == 1)
        #expect(frames.first?.touches.count == 1)
        Self.expectInsideSurface(frames, Self.synaptics)
    }

    /// Tests/Fuzz/crashers/open/slotdecoder-outside-area-single-touch-unset-y: the same on a
    /// single-touch touchpad whose axes start at 100: BTN_TOOL_FINGER and ABS_X sent, ABS_Y never;
    /// the touch came out at y = −10 mm. Fixed with the one above.
    @Test func test_slotDecoder_singleTouch_whenYNeverSent_touchStaysInsideSurface() {
        let device = TestDevices.singleTouch("ST pad", x: TestDevices.axis(100, 900, 10), y: TestDevices.axis(100, 600, 10),
                                             properties: [], keys: [KeyCode.btnToolFinger, KeyCode.btnToolDoubleTap])
        var decoder = SlotDecoder(device: device)
        let frames = [
            ev(us: 1000, EventType.key, KeyCode.btnToolFinger, 1),
            ev(us: 1001, EventType.abs, AbsCode.x, 500),
            ev(us: 1002, EventType.syn, SynCode.report, 0),
        ].compactMap { decoder.decode($0) }
        #expect(frames.contains { !$0.touches.isEmpty })
        Self.expectInsideSurface(frames, device)
    }

    /// Tests/Fuzz/crashers/open/slotdecoder-outside-area-int32-full-range-axis: an axis spanning
    /// Int32.min…Int32.max. `AbsInfo.range` (maximum &- minimum, then max(0, …)) wraps to −1 → 0, the
    /// surface becomes 0 mm tall and the touch lands at y ≈ −2·10¹¹ mm. Reported (DeviceDescription
    /// AbsInfo.range / unitsPerMillimeter, SlotDecoder mm conversion: compute in Int64 or Double).
    @Test func test_slotDecoder_whenAxisSpansAllOfInt32_touchStaysInsideSurface() {
        let device = TestDevices.slots("full-range", slots: 2, x: TestDevices.axis(0, 4095), y: TestDevices.axis(Int32.min, Int32.max))
        var decoder = SlotDecoder(device: device)
        let frames = [
            ev(us: 1000, EventType.abs, AbsCode.mtTrackingId, 1),
            ev(us: 1001, EventType.abs, AbsCode.mtPositionX, 2000),
            ev(us: 1002, EventType.abs, AbsCode.mtPositionY, 12345),
            ev(us: 1003, EventType.syn, SynCode.report, 0),
        ].compactMap { decoder.decode($0) }
        #expect(frames.first?.touches.count == 1)
        #expect(device.size.height > 0)
        Self.expectInsideSurface(frames, device)
    }

    /// Tests/Fuzz/crashers/open/evemu-outside-area-inverted-absinfo.evemu: an ABS_MT_POSITION_X
    /// whose minimum (1600) is above its maximum (0). The range becomes 0, the nominal scale 0.01
    /// units/mm for both axes, and touches land at (−80 000, 40 000) mm. Reported: EvemuReader
    /// should reject such an A: line with its line number; DeviceDescription/SlotDecoder should
    /// not scale by an inverted axis (the kernel's uinput rejects min > max, drivers do not).
    @Test func test_slotDecoder_whenAxisMinimumAboveMaximum_touchStaysInsideSurface() {
        let device = TestDevices.slots("inverted", slots: 2, x: TestDevices.axis(1600, 0), y: TestDevices.axis(0, 2000))
        var decoder = SlotDecoder(device: device)
        let frames = [
            ev(us: 1000, EventType.abs, AbsCode.mtTrackingId, 1),
            ev(us: 1001, EventType.abs, AbsCode.mtPositionX, 800),
            ev(us: 1002, EventType.abs, AbsCode.mtPositionY, 400),
            ev(us: 1003, EventType.syn, SynCode.report, 0),
        ].compactMap { decoder.decode($0) }
        Self.expectInsideSurface(frames, device)
        #expect(decoder.drainDiagnostics().first?.contains("ABS_MT_POSITION_X minimum 1600 above maximum 0") == true)
    }
}
