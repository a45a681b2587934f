import GestureConfig
import GestureCore
import Testing

private func errors(_ text: String, purpose: ConfigPurpose = .daemon) -> [ConfigDiagnostic] {
    do {
        _ = try Config.parse(text, file: "t.yaml", purpose: purpose)
        Issue.record("expected config errors, got none")
        return []
    } catch {
        return error.diagnostics
    }
}

@Suite struct TouchpadActionConfigTests {
    @Test func test_touchpad_withScale_defaultScale_orTrue_needsNoCommand() throws {
        let c = try Config.parse("""
        bindings:
          - {gesture: swipe, fingers: [3, 4], device: {kind: touchscreen}, touchpad: {scale: 0.5}}
          - {gesture: pinch, fingers: 2, touchpad: true}
          - gesture: pan
            fingers: 3
            touchpad: {}
          - {gesture: swipe, fingers: 4, command: "echo hi"}
        """, file: "t")
        #expect(c.bindings[0].touchpad == TouchpadAction(scale: 0.5) && c.bindings[0].command.isEmpty)
        #expect(c.bindings[1].touchpad?.scale == 1 && c.bindings[2].touchpad?.scale == 1)
        #expect(c.bindings[3].touchpad == nil)
    }

    @Test func test_unknownKey_andScaleOutOfRange_pointAtTheValue() {
        let d = errors("bindings:\n  - {gesture: swipe, fingers: 3, touchpad: {scael: 2}}\n  - {gesture: swipe, fingers: 3, touchpad: {scale: 20}}\n")
        #expect(d.count == 2)
        #expect(d[0].line == 2 && d[0].column == 45 && d[0].message == "unknown key 'scael' in touchpad" && d[0].hint == "did you mean 'scale'?")
        #expect(d[1].line == 3 && d[1].column == 52 && d[1].message == "touchpad.scale must be between 0.05 and 10, not 20")
    }

    @Test func test_onlySwipePanPinch_ofTwoToFiveFingers_onTouchscreens_inTheDaemon() {
        let d = errors("""
        bindings:
          - {gesture: tap, fingers: 3, touchpad: true}
          - {gesture: swipe, touchpad: true}
          - {gesture: swipe, fingers: [1, 3], touchpad: true}
          - {gesture: pinch, fingers: 2, device: {kind: touchpad}, touchpad: true}
          - {gesture: swipe, fingers: 3, touchpad: "yes"}
        """)
        #expect(d.map(\.line) == [2, 3, 4, 5, 6])
        #expect(d[0].message == "touchpad: replays a swipe, pan or pinch, not a tap")
        #expect(d[1].message == "touchpad: needs fingers: 2 to 5")
        #expect(d[2].message == "touchpad: needs fingers: 2 to 5, not 1")
        #expect(d[3].message == "touchpad: replays a touchscreen's gestures, not a touchpad's")
        #expect(d[4].message == "touchpad must be true or false, not 'yes'")
        let listen = errors("bindings:\n  - {gesture: swipe, fingers: 3, touchpad: true}\n", purpose: .listen)
        #expect(listen.count == 1 && listen[0].message == "touchpad: is the daemon's action, not `gestured listen`'s")
    }
}
