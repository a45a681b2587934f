import GestureCore
import GestureTestSupport
import Testing

/// Palms, from the kernel's and libinput's documented palm signals. No public recording shows
/// one, so these are synthetic scenarios (the kernel's event-codes.rst: a contact whose
/// ABS_MT_TOOL_TYPE becomes MT_TOOL_PALM; libinput's palm detection: a contact whose touch
/// size reaches the palm threshold). A contact that turns out to be a palm while it is down is
/// no finger of any gesture from then on, and the touch it was part of is no tap.
@Suite struct PalmTests {
    let noDouble = Set(GestureKind.all).subtracting([.doubleTap])

    /// Runs a decoder feed's frames through an arena (the real decoder, then the recognizers).
    func gestures(_ f: Feed, _ device: DeviceDescription) -> [GestureEvent] {
        var arena = RecognizerArena(device: device, thresholds: .defaults(for: device), boundKinds: noDouble)
        var out: [GestureEvent] = []
        for frame in f.frames { out += arena.process(frame) }
        out += arena.advance(to: .milliseconds(f.ms + 3000))
        return out
    }

    /// A still contact that lifts after 100 ms; with `palmAt`, its tool type becomes
    /// MT_TOOL_PALM in that frame (the kernel reports a palm the firmware recognized late).
    func touch(on device: DeviceDescription, palmAt: Int?, pad: Bool) -> Feed {
        var f = Feed(device)
        f.slot(0); f.id(1); f.pos(600, 250); f.key(KeyCode.btnTouch, true)
        if pad { f.key(KeyCode.btnToolFinger, true) }
        f.syn()
        for k in 1...9 {
            if k == palmAt { f.abs(AbsCode.mtToolType, MTToolType.palm) }
            f.syn()
        }
        f.id(-1); f.key(KeyCode.btnTouch, false)
        if pad { f.key(KeyCode.btnToolFinger, false) }
        f.syn()
        return f
    }

    @Test func touchscreen_contactTurningIntoAPalm_isNoTap() {
        let screen = TestDevices.screen
        #expect(gestures(touch(on: screen, palmAt: nil, pad: false), screen).map(\.kind) == [.tap])
        #expect(gestures(touch(on: screen, palmAt: 4, pad: false), screen).isEmpty)
    }
    @Test func touchpad_contactTurningIntoAPalm_isNoTap() {
        let pad = TestDevices.touchpad()
        #expect(gestures(touch(on: pad, palmAt: nil, pad: true), pad).map(\.kind) == [.tap])
        #expect(gestures(touch(on: pad, palmAt: 4, pad: true), pad).isEmpty)
    }
    @Test func touchpad_palmBesideAScroll_leavesTheOtherFingerPanning() {
        // Two fingers scroll down together; after 100 ms the firmware calls slot 1 a palm. The
        // finger left goes on as a 1-finger pan (the count change cancels the 2-finger one).
        let pad = TestDevices.touchpad()
        var f = Feed(pad)
        f.slot(0); f.id(1); f.pos(500, 100)
        f.slot(1); f.id(2); f.pos(650, 100)
        f.key(KeyCode.btnTouch, true); f.key(KeyCode.btnToolDoubleTap, true); f.syn()
        for k in 1...40 {
            if k == 10 { f.slot(1); f.abs(AbsCode.mtToolType, MTToolType.palm); f.key(KeyCode.btnToolDoubleTap, false); f.key(KeyCode.btnToolFinger, true) }
            f.slot(0); f.abs(AbsCode.mtPositionY, 100 + Int32(k) * 8)
            if k < 10 { f.slot(1); f.abs(AbsCode.mtPositionY, 100 + Int32(k) * 8) }
            f.syn()
        }
        f.slot(0); f.id(-1); f.slot(1); f.id(-1); f.key(KeyCode.btnTouch, false); f.key(KeyCode.btnToolFinger, false); f.syn()
        let events = gestures(f, pad).filter { $0.phase != .changed }.map { "\($0.kind) \($0.phase) \($0.fingers)" }
        #expect(events.contains("pan began 2"), "\(events)")
        #expect(events.contains("pan began 1") && events.contains("pan ended 1"), "\(events)")
        #expect(!events.contains { $0.hasPrefix("pinch") || $0.hasPrefix("rotate") || $0.hasPrefix("tap") }, "\(events)")
    }

    // A contact growing to palm size (ABS_MT_TOUCH_MAJOR ≥ palmMinimumTouchMajor, 25 mm) while
    // it is down: a hand coming to rest, not a tap.
    @Test func contactGrowingToPalmSize_justBelow_isATap() {
        check("major 1 10 at 0ms; down 1 at (50,35) at 0ms; major 1 24.9 at 40ms; up 1 at 100ms",
              on: ScenarioDevices.touchpad(touchMajor: true), expect: "tap recognized fingers=1", bound: noDouble)
    }
    @Test func contactGrowingToPalmSize_justAbove_isNoTap() {
        check("major 1 10 at 0ms; down 1 at (50,35) at 0ms; major 1 25.1 at 40ms; up 1 at 100ms",
              on: ScenarioDevices.touchpad(touchMajor: true), expect: "nothing", bound: noDouble)
    }
    @Test func twoFingerTap_oneGrowingToPalmSize_isNoTap() {
        check("major 1 10 at 0ms; major 2 10 at 0ms; down 1 at (40,35), 2 at (55,35) at 0ms; major 2 30 at 40ms; up 1, 2 at 100ms",
              on: ScenarioDevices.touchpad(touchMajor: true), expect: "nothing", bound: noDouble)
    }
}
