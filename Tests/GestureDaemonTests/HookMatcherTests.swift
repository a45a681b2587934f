#if canImport(Glibc)
import Glibc
#endif
import GestureConfig
import GestureCore
@testable import GestureDaemon
import Testing
import LinuxSystem

private func config(_ yaml: String) throws -> [Binding] { try Config.parse(yaml, file: "m.yaml").bindings }
private let mPad = HookDevice(id: 1, name: "SynPS/2 Synaptics TouchPad", kind: .touchpad, node: "/dev/input/event7")
private let mScreen = HookDevice(id: 2, name: "ELAN Touchscreen", kind: .touchscreen, node: "/dev/input/event9")

@Suite struct HookMatcherTests {
    @Test func test_swipe_matchesKindFingersAndDirection() throws {
        var m = BindingMatcher(bindings: try config("""
        bindings:
          - {gesture: swipe, fingers: 3, direction: left, command: a}
          - {gesture: swipe, fingers: [3, 4], direction: [up, down], command: b}
          - {gesture: tap, command: c}
        """))
        let left = GestureEvent(kind: .swipe, phase: .recognized, id: 1, fingers: 3, time: .zero,
                                direction: .left, dxMillimeters: -20, dyMillimeters: 2)
        #expect(m.match(left, device: mPad) == [0])
        var four = left; four.fingers = 4
        #expect(m.match(four, device: mPad) == [])
        let up = GestureEvent(kind: .swipe, phase: .recognized, id: 2, fingers: 4, time: .zero,
                              direction: .up, dxMillimeters: 1, dyMillimeters: -20)
        #expect(m.match(up, device: mPad) == [1])
    }

    @Test func test_swipe_isRequantizedToTheBindingsDirections() throws {
        var m = BindingMatcher(bindings: try config("""
        bindings:
          - {gesture: swipe, direction: up, command: four}
          - {gesture: swipe, direction: upRight, command: eight}
          - {gesture: swipe, direction: up, directions: 8, command: strictUp}
        """))
        // 30° off vertical: an 8-direction recognizer says upRight; 4 directions say up.
        let e = GestureEvent(kind: .swipe, phase: .recognized, id: 1, fingers: 1, time: .zero,
                             direction: .upRight, dxMillimeters: 10, dyMillimeters: -17.3)
        #expect(m.match(e, device: mPad) == [0, 1])
    }

    @Test func test_phase_edge_andDeviceFilters() throws {
        var m = BindingMatcher(bindings: try config("""
        bindings:
          - {gesture: edgeSwipe, edge: left, device: {kind: touchscreen}, command: a}
          - {gesture: edgeSwipe, phase: ended, command: b}
          - {gesture: longPress, device: {name: "SynPS*"}, command: c}
        """))
        let began = GestureEvent(kind: .edgeSwipe, phase: .began, id: 1, fingers: 1, time: .zero, edge: .left)
        #expect(m.match(began, device: mScreen) == [0])
        #expect(m.match(began, device: mPad) == [])
        var right = began; right.edge = .right
        #expect(m.match(right, device: mScreen) == [])
        var ended = began; ended.phase = .ended
        #expect(m.match(ended, device: mPad) == [1])
        let press = GestureEvent(kind: .longPress, phase: .began, id: 3, fingers: 1, time: .zero)
        #expect(m.match(press, device: mPad) == [2] && m.match(press, device: mScreen) == [])
    }

    @Test func test_every_firesOncePerStepAccumulatedPerGesture() throws {
        var m = BindingMatcher(bindings: try config("""
        bindings:
          - {gesture: pan, phase: changed, every: 10mm, command: a}
          - {gesture: rotate, phase: changed, every: 15deg, command: b}
        """))
        func pan(_ id: UInt64, _ dx: Double, _ phase: GesturePhase = .changed) -> GestureEvent {
            GestureEvent(kind: .pan, phase: phase, id: id, fingers: 2, time: .zero, dxMillimeters: dx, dyMillimeters: 0)
        }
        // 4, 8, 12 (fires: 12 ≥ 10, 2 left), 18, 22 (fires: 2+10 = 12), 25
        let fired = [4.0, 8, 12, 18, 22, 25].map { !m.match(pan(1, $0), device: mPad).isEmpty }
        #expect(fired == [false, false, true, false, true, false])
        // Another gesture starts from zero; moving back counts as distance too.
        #expect(m.match(pan(2, 6), device: mPad).isEmpty)
        #expect(m.match(pan(2, 0), device: mPad) == [0])
        // After the gesture ends, its progress is forgotten.
        _ = m.match(pan(1, 25, .ended), device: mPad)
        #expect(m.match(pan(1, 9), device: mPad).isEmpty)

        func rot(_ deg: Double) -> GestureEvent {
            GestureEvent(kind: .rotate, phase: .changed, id: 5, fingers: 2, time: .zero, rotationDegrees: deg)
        }
        #expect([10.0, 16, 31, 40].map { m.match(rot($0), device: mPad) == [1] } == [false, true, true, false])
    }

    /// Issue 9 bug 3: every arena numbers its gestures from 1, so two devices panning at once
    /// both send gesture id 1. Their `every:` progress must not mix: each fires on its own steps.
    @Test func test_every_keepsTwoDevicesWithTheSameGestureIdApart() throws {
        var m = BindingMatcher(bindings: try config("""
        bindings:
          - {gesture: pan, phase: changed, every: 5mm, command: a}
        """))
        func pan(_ dy: Double) -> GestureEvent {
            GestureEvent(kind: .pan, phase: .changed, id: 1, fingers: 1, time: .zero, dxMillimeters: 0, dyMillimeters: dy)
        }
        var fired = (pad: 0, screen: 0)
        // Both move 1 mm per event, interleaved, to 20 mm: 4 steps of 5 mm each.
        for step in 1...20 {
            if !m.match(pan(Double(step)), device: mPad).isEmpty { fired.pad += 1 }
            if !m.match(pan(Double(step)), device: mScreen).isEmpty { fired.screen += 1 }
        }
        #expect(fired.pad == 4 && fired.screen == 4, "pad \(fired.pad), screen \(fired.screen)")
    }

    @Test func test_environmentNumbers_areFixedPoint() {
        #expect(HookEnvironment.number(-21.5, 2) == "-21.5")
        #expect(HookEnvironment.number(0.125, 3) == "0.125")
        #expect(HookEnvironment.number(3, 2) == "3")
        #expect(HookEnvironment.number(-0.001, 2) == "0")
        #expect(HookEnvironment.number(nil, 2) == "")
    }
}

@Suite struct HookPidfdTests {
    @Test func test_pidfd_isUsed_whereTheSystemHasIt() throws {
        guard PidFD.available else {
            print("skipped: pidfd_open is not exported by this libc; hooks fall back to 50 ms checks")
            return
        }
        let fd = try PidFD.open(getpid())
        #expect(fcntl(fd.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        fd.close()
    }
}

/// Per-application bindings (`gestured listen`): the application's binding hides the global one
/// for the same event, and without a focus backend only the global ones run.
@Suite struct HookMatcherAppTests {
    private let swipe = GestureEvent(kind: .swipe, phase: .recognized, id: 1, fingers: 3, time: .zero,
                                     direction: .left, dxMillimeters: -20, dyMillimeters: 0)

    private func matcher() throws -> BindingMatcher {
        BindingMatcher(bindings: try Config.parse("""
        bindings:
          - {gesture: swipe, fingers: 3, direction: left, command: global}
          - {gesture: swipe, fingers: 3, direction: left, app: firefox, command: browser}
          - {gesture: swipe, fingers: 3, direction: right, app: foot, command: terminalRight}
          - {gesture: swipe, fingers: 3, direction: left, app: none, command: desktop}
          - {gesture: tap, command: tap}
        """, file: "l.yaml", purpose: .listen).bindings)
    }

    @Test func test_appBinding_overridesTheGlobalOne() throws {
        var m = try matcher()
        #expect(m.match(swipe, device: mPad, focus: .app(ids: ["firefox"])) == [1])
    }

    @Test func test_otherApp_getsTheGlobalBinding() throws {
        var m = try matcher()
        // foot has a binding for swipe right only: the left swipe falls through to the global one.
        #expect(m.match(swipe, device: mPad, focus: .app(ids: ["foot"])) == [0])
    }

    @Test func test_noFocusedWindow_runsAppNone() throws {
        var m = try matcher()
        #expect(m.match(swipe, device: mPad, focus: .nothing) == [3])
    }

    @Test func test_unknownFocus_andWindowWithoutId_runGlobalOnly() throws {
        var m = try matcher()
        #expect(m.match(swipe, device: mPad, focus: .unknown) == [0])
        #expect(m.match(swipe, device: mPad, focus: .app(ids: [])) == [0])
        #expect(m.match(swipe, device: mPad) == [0])
    }
}
