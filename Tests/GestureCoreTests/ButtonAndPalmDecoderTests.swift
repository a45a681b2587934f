import GestureCore
import GestureTestSupport
import Testing

/// BTN_LEFT/RIGHT/MIDDLE reach the frames of touchpads (a click is not a tap), and an
/// MT_TOOL_PALM contact makes no gesture, through the decoder and the arena together.
@Suite struct ButtonAndPalmDecoderTests {
    @Test func touchpadButton_isHeldInFramesUntilReleased() {
        var f = Feed(TestDevices.touchpad())
        f.id(1); f.pos(600, 250); f.key(KeyCode.btnTouch, true); f.key(KeyCode.btnToolFinger, true)
        #expect(!f.syn().buttonDown)
        f.key(KeyCode.btnLeft, true)
        #expect(f.syn().buttonDown)
        #expect(f.syn().buttonDown, "held while no event changes it")
        f.key(KeyCode.btnRight, true); f.key(KeyCode.btnLeft, false)
        #expect(f.syn().buttonDown, "any button of a touchpad with buttons")
        f.key(KeyCode.btnRight, false)
        #expect(!f.syn().buttonDown)
    }

    @Test func touchscreenButton_isNoClick() {
        var f = Feed(TestDevices.screen)
        f.id(1); f.pos(600, 250); f.key(KeyCode.btnTouch, true); f.key(KeyCode.btnLeft, true)
        #expect(!f.syn().buttonDown)
    }

    /// Runs a decoder feed's frames through an arena.
    func gestures(_ f: Feed, _ device: DeviceDescription) -> [GestureEvent] {
        var arena = RecognizerArena(device: device, thresholds: .defaults(for: device),
                                    boundKinds: Set(GestureKind.all).subtracting([.doubleTap]))
        var out: [GestureEvent] = []
        for frame in f.frames { out += arena.process(frame) }
        out += arena.advance(to: .milliseconds(f.ms + 3000))
        return out
    }

    @Test func clickpadPress_through160ms_isNoTap_butTheSameTouchWithoutItIs() {
        let pad = TestDevices.touchpad()
        func touch(click: Bool) -> Feed {
            var f = Feed(pad)
            f.id(1); f.pos(600, 250); f.key(KeyCode.btnTouch, true); f.key(KeyCode.btnToolFinger, true); f.syn()
            f.syn(); f.syn()
            if click { f.key(KeyCode.btnLeft, true) }
            for _ in 0..<10 { f.syn() }
            if click { f.key(KeyCode.btnLeft, false) }
            f.syn(); f.syn()
            f.id(-1); f.key(KeyCode.btnTouch, false); f.key(KeyCode.btnToolFinger, false); f.syn()
            return f
        }
        #expect(gestures(touch(click: false), pad).map(\.kind) == [.tap])
        #expect(gestures(touch(click: true), pad).isEmpty)
    }

    @Test func palmTool_strokeMakesNoGesture_fingerStrokeDoes() {
        let pad = TestDevices.touchpad()
        func stroke(palm: Bool) -> Feed {
            var f = Feed(pad)
            f.id(1); f.pos(300, 250); f.key(KeyCode.btnTouch, true); f.key(KeyCode.btnToolFinger, true)
            if palm { f.abs(AbsCode.mtToolType, MTToolType.palm) }
            f.syn()
            for k in 1...30 { f.abs(AbsCode.mtPositionX, Int32(300 + 10 * k)); f.syn() }
            f.id(-1); f.key(KeyCode.btnTouch, false); f.key(KeyCode.btnToolFinger, false); f.syn()
            return f
        }
        #expect(gestures(stroke(palm: false), pad).contains { $0.kind == .pan && $0.phase == .began })
        #expect(gestures(stroke(palm: true), pad).isEmpty)
    }
}
