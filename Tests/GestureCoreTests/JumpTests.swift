import GestureCore
import GestureTestSupport
import Testing

/// Touchpad jump detection (libinput's `tp_detect_jumps`): a step longer than
/// `touchJumpDistance` (20 mm) per 12 ms frame, or longer by `touchJumpIncrease` (7 mm) than the
/// touch's previous step, is a sensor glitch and moves nothing.
@Suite struct JumpTests {
    let pad = ScenarioDevices.touchpad()
    let screen = ScenarioDevices.touchscreen()

    @Test func jitteryContact_teleportingDuringATwoFingerScroll_isNoPinch() {
        // A 2-finger scroll down whose second contact jumps 60 mm sideways for one 27 ms frame
        // and back.
        check("""
            every 12ms
            down 1 at (20,20), 2 at (35,20) at 0ms
            move 1 to (20,22), 2 to (35,22) by 48ms
            every 27ms
            move 1 to (20,23), 2 to (95,23) by 75ms
            move 1 to (20,24), 2 to (35,24) by 102ms
            every 12ms
            move 1 to (20,44), 2 to (35,44) by 306ms
            up 1, 2 at 318ms
            """, on: pad, expect: "pan began down fingers=2; swipe recognized down fingers=2; pan ended down fingers=2")
    }
    @Test func jitteryContact_droppingOutAndComingBackElsewhere_isNoPinch() {
        // The second contact lifts and lands again 50 mm off, then jumps back to the finger
        // within 27 ms.
        check("""
            every 12ms
            down 1 at (20,20), 2 at (35,20) at 0ms
            move 1 to (20,22), 2 to (35,22) by 48ms
            up 2 at 60ms
            down 3 at (85,23) at 72ms
            every 27ms
            move 1 to (20,24), 3 to (35,24) by 99ms
            every 12ms
            move 1 to (20,44), 3 to (35,44) by 303ms
            up 1, 3 at 315ms
            """, on: pad, expect: "pan began down fingers=2; swipe recognized down fingers=2; pan ended down fingers=2")
    }

    /// One finger's steps along x, a 12 ms frame each; the pan's total dx at the lift.
    func panDx(_ xs: [Double], on device: DeviceDescription, sourceLocation: SourceLocation = #_sourceLocation) -> Double? {
        var text = "every 12ms; down 1 at (10,35) at 0ms"
        for (k, x) in xs.enumerated() { text += "; move 1 to (\(x),35) by \(12 * (k + 1))ms" }
        text += "; up 1 at \(12 * (xs.count + 1))ms"
        let events = check(text, on: device, expect: "pan began right fingers=1; pan ended right fingers=1",
                           bound: [.pan], sourceLocation: sourceLocation)
        return events.last { $0.kind == .pan && $0.phase == .ended }?.dxMillimeters
    }
    @Test func jumpDistance_justBelowAndAbove() {
        // Steps of 5, 10, 14, 14 mm, then 19.9 mm (counted) or 20.1 mm (a jump: left out).
        let below = panDx([15, 25, 39, 53, 72.9], on: pad)
        #expect(abs((below ?? 0) - 62.9) < 1e-6, "\(String(describing: below))")
        let above = panDx([15, 25, 39, 53, 73.1], on: pad)
        #expect(abs((above ?? 0) - 43) < 1e-6, "\(String(describing: above))")
    }
    @Test func jumpIncrease_justBelowAndAbove() {
        // Steps of 5 mm, then one 6.9 mm longer (counted) or 7.1 mm longer (a jump: left out).
        let below = panDx([15, 20, 25, 36.9], on: pad)
        #expect(abs((below ?? 0) - 26.9) < 1e-6, "\(String(describing: below))")
        let above = panDx([15, 20, 25, 37.1], on: pad)
        #expect(abs((above ?? 0) - 15) < 1e-6, "\(String(describing: above))")
    }
    @Test func framesMoreThan30msApart_areNotJudged() {
        // A slow 4 mm pan, then 60 mm in one frame: a jump 30 ms after the previous frame (24 mm
        // a 12 ms frame), not judged 31 ms after it (irregular frames say nothing).
        func dx(every n: Int) -> Double? {
            let events = check("""
                every \(n)ms; down 1 at (10,35) at 0ms; move 1 to (14,35) by \(8 * n)ms
                move 1 to (74,35) by \(9 * n)ms; up 1 at \(10 * n)ms
                """, on: pad, expect: "pan began right fingers=1; pan ended right fingers=1", bound: [.pan])
            return events.last?.dxMillimeters
        }
        #expect(abs((dx(every: 30) ?? 0) - 4) < 1e-6)
        #expect(abs((dx(every: 31) ?? 0) - 64) < 1e-6)
    }
    @Test func touchscreen_hasNoJumpDetection() {
        // A 60 mm step in one 12 ms frame on a touchscreen is motion (a flick), as libinput has
        // jump detection on touchpads only.
        let events = check("every 12ms; down 1 at (10,35) at 0ms; move 1 to (14,35) by 12ms; move 1 to (74,35) by 24ms; up 1 at 36ms",
                           on: screen, expect: "pan began right fingers=1; swipe recognized right fingers=1; pan ended right fingers=1",
                           bound: [.pan, .swipe])
        #expect(abs((events.last?.dxMillimeters ?? 0) - 64) < 1e-6)
    }
}
