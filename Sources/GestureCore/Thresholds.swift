/// Every recognizer threshold, in millimetres and durations, for one device. Defaults come from
/// the peers (libinput, Android, GNOME, lisgd; docs/GESTURES.md "Default thresholds") and are
/// chosen by device kind; the daemon resolves one value per device from the global and
/// per-device config.
public struct Thresholds: Hashable, Sendable {
    // tap
    public var tapTimeout: Duration
    /// Added to `tapTimeout` per finger beyond the first (multi-finger taps land and lift more
    /// slowly: the ALPS 2-finger tap recording lifts 194 ms after its last finger landed).
    public var tapTimeoutPerExtraFinger: Duration = .zero
    /// A tap fails when a finger strays this far at any moment (it must also be back within
    /// `tapMaximumMovement` of where it landed when it lifts). Real taps wobble: the ALPS
    /// recordings roll 2.8 mm out and back within 70 ms. Until a tap has failed, pan, swipe,
    /// pinch, rotate and edge swipe wait (two or more fingers that all go the pan slop the same
    /// way fail it sooner: see TapRecognizer).
    public var tapMaximumExcursion: Millimeters = 4
    public var tapMaximumMovement: Millimeters
    /// A contact this short (landing to lift) may end `tapQuickMaximumMovement` from where it
    /// landed instead of `tapMaximumMovement`: a quick tap rolls the fingertip as it lifts (the
    /// ALPS double tap rolls 2.8 mm out within 70 ms), a slow one that moved is a small stroke.
    public var tapQuickDuration: Duration = .milliseconds(80)
    public var tapQuickMaximumMovement: Millimeters = 2
    /// A contact this short may also stray `tapQuickMaximumExcursion` instead of
    /// `tapMaximumExcursion` before it lifts: a quick tap's landing jitters (a 71 ms tap swings
    /// 4 mm out and back within 50 ms). Pans and swipes wait for the tap to fail, so this is
    /// also how far a finger moves in its first `tapQuickDuration` before they begin, unless
    /// two or more fingers move together (TapRecognizer).
    public var tapQuickMaximumExcursion: Millimeters = 5
    // double tap
    public var doubleTapMaximumGap: Duration
    public var doubleTapGapPerExtraFinger: Duration
    public var doubleTapMinimumGap: Duration
    public var doubleTapMaximumDistance: Millimeters
    // long press
    public var longPressDuration: Duration
    public var longPressMaximumMovement: Millimeters
    /// Cancel a long press that began when the fingers then move past the slop.
    public var longPressCancelsOnMovement: Bool
    /// Motion after a hold is the long press's own `changed` (a drag), not a pan or swipe. Off,
    /// the motion ends the long press and begins a pan, swipe, pinch or rotate (a person who
    /// rests and then scrolls or zooms means the scroll or the zoom).
    public var longPressDrag = false
    // pan
    public var panSlop: Millimeters
    public var panSlopPerExtraFinger: Millimeters
    // swipe
    public var swipeMinimumDistance: Millimeters
    // pinch
    public var pinchMinimumSpanChange: Millimeters
    public var pinchDirectionScaleDelta: Double
    // rotate
    public var rotateMinimumAngle: Degrees
    // edge swipe
    public var edgeZone: Millimeters
    public var edgeSwipeCommitDistance: Millimeters
    public var edgeSwipeMaximumAngle: Degrees
    /// A contact landing in a touchpad's edge-palm zone this close in time to the sequence's
    /// first finger is one of the fingers that land together, for the edge zone of a
    /// multi-finger edge swipe (fingers of one hand land within about 70 ms; a palm resting at
    /// the edge 100 ms before a finger lands elsewhere is none).
    public var edgeSwipeLandingGap: Duration = .milliseconds(80)
    // arbitration
    public var fingerCountDebounce: Duration
    // resting contacts, thumbs, palms (see RestingContacts.swift)
    /// A contact that moved less than this while another moved `restingContactDecisionTravel`
    /// rests (a thumb, a finger left on the pad): it is no finger of the gesture until it lifts.
    public var restingContactMaximumTravel: Millimeters = 1.5
    public var restingContactDecisionTravel: Millimeters = 8
    /// Only a contact that landed this long before or after the contacts that move can rest —
    /// unless it is thumb-like (below); fingers landing together and one pivoting around the
    /// other are a pinch or rotate.
    public var restingContactLandingGap: Duration = .milliseconds(150)
    /// Touchpads: a contact this close to the bottom edge is thumb-like (libinput: 15 mm); 0 off.
    public var thumbZoneHeight: Millimeters = 0
    /// A contact this large (ABS_MT_TOUCH_MAJOR, devices with a resolution) is thumb-like …
    public var thumbMinimumTouchMajor: Millimeters = 15
    /// … and so is one this heavy, in percent of the pressure axis's range.
    public var thumbMinimumPressurePercent: Double = 75
    /// A contact this large is a palm: no finger of any gesture until it lifts (MT_TOOL_PALM
    /// contacts are dropped by the decoder already).
    public var palmMinimumTouchMajor: Millimeters = 25
    /// Touchpads: a contact that lands this close to the left or right edge is a palm (libinput's
    /// edge palm zone) until it has moved `edgePalmReleaseTravel` from where it landed (a finger
    /// swiping in from the edge or scrolling along it); 0 off.
    public var edgePalmZoneWidth: Millimeters = 0
    public var edgePalmReleaseTravel: Millimeters = 3
    // sensor glitches
    /// Touchpads: a touch whose step in one frame, scaled to a 12 ms frame, is longer than this
    /// jumped (libinput's jump detection): a sensor glitch, not motion, so the step is left out
    /// of every gesture (the touch goes on from where it jumped to). 0 off.
    public var touchJumpDistance: Millimeters = 0
    /// … and so did one whose step (scaled the same way) is this much longer than its previous
    /// one. Frames more than 30 ms apart are not judged. 0 off.
    public var touchJumpIncrease: Millimeters = 0

    public init(tapTimeout: Duration, tapMaximumMovement: Millimeters, doubleTapMaximumGap: Duration,
                doubleTapGapPerExtraFinger: Duration, doubleTapMinimumGap: Duration,
                doubleTapMaximumDistance: Millimeters, longPressDuration: Duration,
                longPressMaximumMovement: Millimeters, longPressCancelsOnMovement: Bool,
                panSlop: Millimeters, panSlopPerExtraFinger: Millimeters, swipeMinimumDistance: Millimeters,
                pinchMinimumSpanChange: Millimeters, pinchDirectionScaleDelta: Double,
                rotateMinimumAngle: Degrees, edgeZone: Millimeters, edgeSwipeCommitDistance: Millimeters,
                edgeSwipeMaximumAngle: Degrees, fingerCountDebounce: Duration) {
        self.tapTimeout = tapTimeout; self.tapMaximumMovement = tapMaximumMovement
        self.doubleTapMaximumGap = doubleTapMaximumGap
        self.doubleTapGapPerExtraFinger = doubleTapGapPerExtraFinger
        self.doubleTapMinimumGap = doubleTapMinimumGap; self.doubleTapMaximumDistance = doubleTapMaximumDistance
        self.longPressDuration = longPressDuration; self.longPressMaximumMovement = longPressMaximumMovement
        self.longPressCancelsOnMovement = longPressCancelsOnMovement
        self.panSlop = panSlop; self.panSlopPerExtraFinger = panSlopPerExtraFinger
        self.swipeMinimumDistance = swipeMinimumDistance
        self.pinchMinimumSpanChange = pinchMinimumSpanChange; self.pinchDirectionScaleDelta = pinchDirectionScaleDelta
        self.rotateMinimumAngle = rotateMinimumAngle; self.edgeZone = edgeZone
        self.edgeSwipeCommitDistance = edgeSwipeCommitDistance; self.edgeSwipeMaximumAngle = edgeSwipeMaximumAngle
        self.fingerCountDebounce = fingerCountDebounce
    }

    /// The memberwise initializer plus `tapTimeoutPerExtraFinger`.
    public init(tapTimeout: Duration, tapTimeoutPerExtraFinger: Duration, tapMaximumMovement: Millimeters,
                doubleTapMaximumGap: Duration, doubleTapGapPerExtraFinger: Duration, doubleTapMinimumGap: Duration,
                doubleTapMaximumDistance: Millimeters, longPressDuration: Duration,
                longPressMaximumMovement: Millimeters, longPressCancelsOnMovement: Bool,
                panSlop: Millimeters, panSlopPerExtraFinger: Millimeters, swipeMinimumDistance: Millimeters,
                pinchMinimumSpanChange: Millimeters, pinchDirectionScaleDelta: Double,
                rotateMinimumAngle: Degrees, edgeZone: Millimeters, edgeSwipeCommitDistance: Millimeters,
                edgeSwipeMaximumAngle: Degrees, fingerCountDebounce: Duration) {
        self.init(tapTimeout: tapTimeout, tapMaximumMovement: tapMaximumMovement,
                  doubleTapMaximumGap: doubleTapMaximumGap, doubleTapGapPerExtraFinger: doubleTapGapPerExtraFinger,
                  doubleTapMinimumGap: doubleTapMinimumGap, doubleTapMaximumDistance: doubleTapMaximumDistance,
                  longPressDuration: longPressDuration, longPressMaximumMovement: longPressMaximumMovement,
                  longPressCancelsOnMovement: longPressCancelsOnMovement, panSlop: panSlop,
                  panSlopPerExtraFinger: panSlopPerExtraFinger, swipeMinimumDistance: swipeMinimumDistance,
                  pinchMinimumSpanChange: pinchMinimumSpanChange, pinchDirectionScaleDelta: pinchDirectionScaleDelta,
                  rotateMinimumAngle: rotateMinimumAngle, edgeZone: edgeZone,
                  edgeSwipeCommitDistance: edgeSwipeCommitDistance, edgeSwipeMaximumAngle: edgeSwipeMaximumAngle,
                  fingerCountDebounce: fingerCountDebounce)
        self.tapTimeoutPerExtraFinger = tapTimeoutPerExtraFinger
    }

    /// The tap timeout for a tap with `fingers` fingers.
    public func tapTimeout(fingers: Int) -> Duration {
        Self.plus(tapTimeout, tapTimeoutPerExtraFinger, times: fingers - 1)
    }

    /// `base + step × max(0, n)` in whole microseconds, the inputs' resolution: `Duration * Int`
    /// is generic over BinaryInteger and goes through the runtime's 128-bit conversions, and
    /// this runs on every frame a tap is possible.
    private static func plus(_ base: Duration, _ step: Duration, times n: Int) -> Duration {
        .microseconds(base.totalMicroseconds + step.totalMicroseconds * Int64(Swift.max(0, n)))
    }

    /// How far from where it landed a contact down for `duration` may lift and still be a tap.
    public func tapMaximumMovement(duration: Duration) -> Millimeters {
        duration <= tapQuickDuration ? Swift.max(tapMaximumMovement, tapQuickMaximumMovement) : tapMaximumMovement
    }

    /// How far a contact down for `duration` may have strayed and still be a tap.
    public func tapMaximumExcursion(duration: Duration) -> Millimeters {
        duration <= tapQuickDuration ? Swift.max(tapMaximumExcursion, tapQuickMaximumExcursion) : tapMaximumExcursion
    }

    /// The double-tap gap for taps with `fingers` fingers.
    public func doubleTapMaximumGap(fingers: Int) -> Duration {
        Self.plus(doubleTapMaximumGap, doubleTapGapPerExtraFinger, times: fingers - 1)
    }

    /// The pan slop for `fingers` fingers (also how far an edge swipe may stray off its angle).
    public func panSlop(fingers: Int) -> Millimeters {
        panSlop + panSlopPerExtraFinger * Double(Swift.max(0, fingers - 1))
    }

    public static let touchpadDefaults = Thresholds(
        tapTimeout: .milliseconds(180), tapTimeoutPerExtraFinger: .milliseconds(20), tapMaximumMovement: 1.3,
        doubleTapMaximumGap: .milliseconds(180), doubleTapGapPerExtraFinger: .milliseconds(20),
        doubleTapMinimumGap: .zero, doubleTapMaximumDistance: 15,
        longPressDuration: .milliseconds(500), longPressMaximumMovement: 1.3, longPressCancelsOnMovement: false,
        panSlop: 1.5, panSlopPerExtraFinger: 0.5, swipeMinimumDistance: 6,
        pinchMinimumSpanChange: 3, pinchDirectionScaleDelta: 0.2, rotateMinimumAngle: 15,
        edgeZone: 8, edgeSwipeCommitDistance: 10, edgeSwipeMaximumAngle: 45,
        fingerCountDebounce: .milliseconds(100))

    public static let touchscreenDefaults = Thresholds(
        tapTimeout: .milliseconds(300), tapTimeoutPerExtraFinger: .zero, tapMaximumMovement: 2,
        doubleTapMaximumGap: .milliseconds(300), doubleTapGapPerExtraFinger: .zero,
        doubleTapMinimumGap: .milliseconds(40), doubleTapMaximumDistance: 15,
        longPressDuration: .milliseconds(500), longPressMaximumMovement: 3, longPressCancelsOnMovement: false,
        panSlop: 2, panSlopPerExtraFinger: 1, swipeMinimumDistance: 15,
        pinchMinimumSpanChange: 3, pinchDirectionScaleDelta: 0.2, rotateMinimumAngle: 15,
        edgeZone: 4, edgeSwipeCommitDistance: 15, edgeSwipeMaximumAngle: 45,
        fingerCountDebounce: .milliseconds(100))

    /// The defaults for a device, adjusted to its size: touchpads use min(8 mm, 8 %) edge zones,
    /// edge palm zones of min(8 mm, 8 % of the width) (5 % of the width when the size is unknown),
    /// touchscreens of unknown size use fractions of the range (2 % edge, 15 % swipe).
    public static func defaults(for device: DeviceDescription) -> Thresholds {
        let (w, h) = device.size
        let shorter = Swift.min(w, h)
        if device.kind == .touchpad {
            var t = touchpadDefaults
            if shorter > 0 { t.edgeZone = Swift.min(8, 0.08 * shorter) }
            if h > 0 { t.thumbZoneHeight = Swift.min(15, 0.25 * h) }
            if w > 0 { t.edgePalmZoneWidth = device.sizeKnown ? Swift.min(8, 0.08 * w) : 0.05 * w }
            t.touchJumpDistance = 20
            t.touchJumpIncrease = 7
            return t
        }
        var t = touchscreenDefaults
        if !device.sizeKnown && shorter > 0 {
            t.edgeZone = 0.02 * shorter
            t.swipeMinimumDistance = 0.15 * shorter
        }
        t.tapMaximumExcursion = 6
        t.tapQuickMaximumMovement = 3
        t.tapQuickMaximumExcursion = 8
        return t
    }
}
