/// Resting contacts, thumbs and palms: contacts that are on the surface but are no finger of the
/// gesture being made. The motion tracker drops them (they stop counting, their positions leave
/// the centroid, span and angle) until they lift, as libinput does for thumbs and palms.
///
/// - **Resting.** A contact that has moved less than `restingContactMaximumTravel` from its rest
///   position (where it was when the others started to move: a finger settles as it lands)
///   while another contact has travelled `restingContactDecisionTravel` since it landed rests
///   (each finger landing starts the judgement of the contacts already down afresh) —
///   if it is *eligible*: it landed at least `restingContactLandingGap` apart from every contact
///   that has moved (a thumb or a finger left on the pad, then a finger that moves; or a contact
///   left behind, like the kernel's ghosts of lifted fingers, beside a finger that moves on or
///   lands later), or it is thumb-like. Fingers that land together and then one pivots around
///   the other stay a pinch or rotate, and so do fingers that both move.
/// - **Thumb-like.** On a touchpad, within `thumbZoneHeight` of the bottom edge (libinput's
///   15 mm); or, where the device reports them, a touch major of `thumbMinimumTouchMajor` or a
///   pressure of `thumbMinimumPressurePercent` of the axis range.
/// - **Palm.** A touch major of `palmMinimumTouchMajor` (devices with a resolution only): dropped
///   at once, whatever the others do, when it lands that large or grows to it. MT_TOOL_PALM
///   contacts never reach the tracker; one whose tool type becomes MT_TOOL_PALM while it is down
///   reaches it once, ended, and is forgotten. Either way the touch is no tap
///   (`MotionSample.palmDetected`).
/// - **Edge palm.** On a touchpad, a contact that *lands* within `edgePalmZoneWidth` of the left
///   or right edge (libinput's palm edge zone) is a palm from its first frame: no finger of any
///   gesture, no tap. Once it has moved `edgePalmReleaseTravel` from where it landed, in any
///   direction, it is released: a finger landing there and then, whose gesture started where it
///   landed (a finger swiping in from the edge, or scrolling along it). A still one stays a palm
///   until it lifts. A contact that moves into the zone later is a finger as before. (libinput
///   releases only a touch that leaves the zone inward within 200 ms of landing; a real finger
///   resting 280 ms at the edge before swiping in, and one scrolling along the edge, would be lost.)
///
/// While an eligible contact is still and another has started to move but not yet far enough
/// to decide, `MotionSample.restingUndecided` is set and the arena holds motion gestures back, so
/// a thumb never shows up as the second finger of a pinch, a rotate or a two-finger pan.
///
/// ```
///   lands in a side edge-palm zone ──► edge palm ── moved ≥ release travel ──► counted (lands now)
///                                         └─ still ──► lifts: forgotten
///   lands elsewhere ──► counted ◄─────── another finger lands: judged afresh ────┐
///                        │ │ │                                                   │
///                        │ │ └─ moved ≥ max travel from rest position ──► moved ─┘
///                        │ └─── eligible, still, another moved ≥ decision travel ──► resting ─┐
///                        ├───── touch major ≥ palm size ───────────────────────────► palm ────┴─► lifts: forgotten
///                        └───── tool type becomes MT_TOOL_PALM (the decoder ends it) ──────────────► forgotten
/// ```
struct ContactRules {
    var enabled = false
    var restingMaximumTravel: Millimeters = 1.5
    var restingDecisionTravel: Millimeters = 8
    var restingLandingGap: Duration = .milliseconds(150)
    /// y (mm from the top) from which a touchpad contact is thumb-like; nil: no zone.
    var thumbZoneTop: Millimeters?
    var thumbMinimumMajor: Millimeters?
    var thumbMinimumPressure: Int32?
    var palmMinimumMajor: Millimeters?
    /// Touchpads: x (mm) below which and above which a landing contact is an edge palm; nil: none.
    var edgePalmLeft: Millimeters?
    var edgePalmRight: Millimeters = 0
    var edgePalmReleaseTravel: Millimeters = 3
    /// Jump detection (see `MotionTracker.detectJump`); 0 off.
    var jumpDistance: Millimeters = 0
    var jumpIncrease: Millimeters = 0

    init() {}

    /// The rules for a device: sizes only where millimetres are real, pressure only where reported.
    init(device: DeviceDescription, _ t: Thresholds) {
        enabled = !device.isSemiMT
        restingMaximumTravel = t.restingContactMaximumTravel
        restingDecisionTravel = t.restingContactDecisionTravel
        restingLandingGap = t.restingContactLandingGap
        let (width, height) = device.size
        if device.kind == .touchpad && t.edgePalmZoneWidth > 0 && width > 2 * t.edgePalmZoneWidth {
            edgePalmLeft = t.edgePalmZoneWidth; edgePalmRight = width - t.edgePalmZoneWidth
        }
        edgePalmReleaseTravel = t.edgePalmReleaseTravel
        jumpDistance = t.touchJumpDistance
        jumpIncrease = t.touchJumpIncrease
        if device.kind == .touchpad && t.thumbZoneHeight > 0 && height > 0 { thumbZoneTop = height - t.thumbZoneHeight }
        if device.sizeKnown && device.hasAxis(AbsCode.mtTouchMajor) {
            thumbMinimumMajor = t.thumbMinimumTouchMajor
            palmMinimumMajor = t.palmMinimumTouchMajor
        }
        let pressureCode = device.hasAxis(AbsCode.mtPressure) ? AbsCode.mtPressure : AbsCode.pressure
        if let p = device.absInfo[pressureCode], p.maximum > p.minimum, t.thumbMinimumPressurePercent > 0 {
            let range = Double(p.maximum) - Double(p.minimum)
            thumbMinimumPressure = p.minimum + Int32((range * t.thumbMinimumPressurePercent / 100).rounded(.up))
        }
    }

    func isThumbLike(_ t: Touch) -> Bool {
        if let top = thumbZoneTop, t.y >= top { return true }
        if let m = thumbMinimumMajor, let major = t.majorAxis, major >= m { return true }
        if let p = thumbMinimumPressure, let pressure = t.pressure, pressure >= p { return true }
        return false
    }

    func inEdgePalmZone(x: Millimeters) -> Bool {
        guard let left = edgePalmLeft else { return false }
        return x <= left || x >= edgePalmRight
    }

    func landsInEdgePalmZone(_ t: Touch) -> Bool { t.tool == .finger && inEdgePalmZone(x: t.x) }

    func isPalm(_ t: Touch) -> Bool {
        if let m = palmMinimumMajor, let major = t.majorAxis, major >= m { return true }
        return false
    }
}

extension TrackedTouch {
    /// This frame's palm, thumb and movement judgement of a counted touch; true when it is a
    /// palm (now excluded). `settling`: others are counted, so a contact settling as it lands,
    /// while they are still, has not moved yet. Inlined, so `rules` is read in place rather
    /// than copied for every touch.
    @inline(__always)
    mutating func judge(_ t: Touch, _ rules: ContactRules, settling: Bool) -> Bool {
        if rules.isPalm(t) { excluded = true; return true }
        if rules.isThumbLike(t) { thumbLike = true }
        if settling && othersPath < rules.restingMaximumTravel { restX = prevX; restY = prevY }
        if restTravel >= rules.restingMaximumTravel { moved = true }
        return false
    }
}

extension MotionTracker {
    func isExcluded(_ id: Int) -> Bool {
        guard let i = index(of: id) else { return false }
        return touches[i].excluded
    }

    /// Touches dropped as resting or palms (`excluded`), or counted (`!excluded`).
    func count(excluded: Bool) -> Int {
        var n = 0
        for i in touches.indices where touches[i].excluded == excluded { n += 1 }
        return n
    }

    /// Starts tracking a touch that landed (an edge palm: excluded from the start).
    mutating func add(_ t: Touch, at time: Instant, edgePalm isEdgePalm: Bool = false) {
        if !isEdgePalm { rearm() }
        touches.append(TrackedTouch(t, at: time, edgePalm: isEdgePalm))
    }

    /// A finger landed: the judgement of those already counted starts afresh from where each is
    /// now (a finger that moved before may stay still beside the new one, like a ghost).
    private mutating func rearm() {
        for i in touches.indices where !touches[i].excluded {
            var r = touches[i]
            r.restX = r.prevX; r.restY = r.prevY; r.moved = false; r.othersPath = 0
            r.armX = r.prevX; r.armY = r.prevY
            touches[i] = r
        }
    }

    /// Records a counted touch's step in this frame (for the others' path since each landed).
    mutating func noteStep(_ i: Int, dx: Double, dy: Double) {
        let length = (dx * dx + dy * dy).squareRoot()
        if length > steps.top.length {
            steps.second = steps.top.length
            steps.top = (i, length)
        } else if length > steps.second {
            steps.second = length
        }
    }

    /// Judges every counted touch after a frame; drops palms and resting contacts and, when it
    /// dropped one, measures the sample afresh over the touches left.
    mutating func applyContactRules(_ frame: TouchFrame, trustToolCount: Bool) {
        var dropped = false
        let released = releaseEdgePalms()
        let countedBefore = count(excluded: false)
        for t in frame.touches where t.tool == .finger && t.phase.isActive {
            guard let i = index(of: t.id), !touches[i].excluded else { continue }
            // One in-place access: the record is neither copied out nor stored back.
            if touches[i].judge(t, rules, settling: countedBefore >= 2) {
                dropped = true
                // One that lands palm-sized was never a finger; one that grows to it was.
                if t.phase != .began { sample.palmDetected = true }
            }
        }
        var undecided = false
        if count(excluded: false) >= 2 {
            for i in touches.indices where !touches[i].excluded {
                touches[i].othersPath += i == steps.top.index ? steps.second : steps.top.length
                guard !touches[i].moved, eligible(i) else { continue }
                if touches[i].othersPath >= rules.restingDecisionTravel {
                    touches[i].excluded = true; dropped = true
                } else if touches[i].othersPath >= rules.restingMaximumTravel {
                    undecided = true
                }
            }
        }
        sample.restingUndecided = undecided && !dropped && released == nil
        if dropped || released != nil {
            let palm = sample.palmDetected
            remeasure(frame, trustToolCount: trustToolCount)
            sample.palmDetected = palm
            sample.contactDropped = dropped
            if released != nil { sample.fingerLanded = true }
        }
    }

    /// Releases the edge palms that moved (see `ContactRules`); the index of one released, if any.
    private mutating func releaseEdgePalms() -> Int? {
        var released: Int?
        for i in touches.indices where touches[i].edgePalm && touches[i].restTravel >= rules.edgePalmReleaseTravel {
            rearm()
            var r = touches[i]
            r.edgePalm = false; r.excluded = false; r.moved = true
            r.armX = r.restX; r.armY = r.restY
            touches[i] = r
            released = i
        }
        return released
    }

    private func eligible(_ i: Int) -> Bool {
        let r = touches[i]
        if r.thumbLike { return true }
        // Only the contacts that moved since the latest landing count: not those still beside
        // the moving ones (a second thumb, the kernel's ghosts). Jitter alone moves nobody.
        var beside = false
        for j in touches.indices where j != i && !touches[j].excluded && touches[j].armTravel >= rules.restingMaximumTravel {
            let other = touches[j].landed
            let gap = r.landed < other ? other - r.landed : r.landed - other
            if gap < rules.restingLandingGap { return false }
            beside = true
        }
        return beside
    }

    /// The sample over the touches still counted: translation from where they landed, no scale
    /// or rotation yet (the pair they formed with the dropped contact meant nothing).
    private mutating func remeasure(_ frame: TouchFrame, trustToolCount: Bool) {
        var s = sample
        var n = 0, sx = 0.0, sy = 0.0, cx = 0.0, cy = 0.0, travel2 = 0.0
        for r in touches where !r.excluded {
            let dx = r.prevX - r.startX, dy = r.prevY - r.startY
            n += 1; sx += dx; sy += dy; cx += r.prevX; cy += r.prevY
            travel2 = Swift.max(travel2, dx * dx + dy * dy)
        }
        let resting = count(excluded: true)
        s.positioned = n
        s.fingers = trustToolCount ? Swift.max(frame.fingerCount - resting, n) : n
        s.stepX = 0; s.stepY = 0
        s.totalX = n > 0 ? sx / Double(n) : 0
        s.totalY = n > 0 ? sy / Double(n) : 0
        s.pathLength = s.totalDistance
        s.scale = 1; s.rotation = 0
        if n > 0 { s.centroidX = cx / Double(n); s.centroidY = cy / Double(n) }
        var r = 0.0
        if n >= 2 {
            for t in touches where !t.excluded {
                let dx = t.prevX - s.centroidX, dy = t.prevY - s.centroidY
                r += (dx * dx + dy * dy).squareRoot()
            }
            r = 2 * r / Double(n)
        }
        s.span = r
        s.touchTravel = travel2.squareRoot()
        s.maxTouchTravel = s.touchTravel
        s.restingUndecided = false
        s.contactDropped = true
        sample = s
    }
}
