import GestureCore
import GestureTestSupport
import Testing

/// The per-finger waits, worked out in whole microseconds, equal Duration's own arithmetic.
@Suite struct ThresholdTimeTests {
    @Test func perFingerWaits_areTheBasePlusOneStepAFingerPastTheFirst() {
        var t = Thresholds.defaults(for: TestDevices.touchpad())
        t.tapTimeout = .milliseconds(180)
        t.tapTimeoutPerExtraFinger = .microseconds(12_345)
        t.doubleTapMaximumGap = .milliseconds(250)
        t.doubleTapGapPerExtraFinger = .milliseconds(40)
        for fingers in -1...6 {
            let extra = max(0, fingers - 1)
            #expect(t.tapTimeout(fingers: fingers) == .milliseconds(180) + .microseconds(12_345) * extra, "\(fingers)")
            #expect(t.doubleTapMaximumGap(fingers: fingers) == .milliseconds(250) + .milliseconds(40) * extra, "\(fingers)")
        }
        #expect(t.tapTimeout(fingers: 3) == .microseconds(204_690))
    }
}
