/// Shared per-frame analysis of the fingers on the surface, computed once per frame by the
/// arena and read by every recognizer (libinput computes its touch deltas once per EV_SYN too).
///
/// Translation is the sum of per-frame steps, each step the mean movement of the touches present
/// in both the previous and this frame: fingers landing or lifting never make it jump. Scale and
/// rotation accumulate the same way, around the centroid of those continuing touches. On semi-MT
/// devices (bounding box, not contacts) a frame whose finger count changed contributes no step
/// and rebases each touch's start, because the box corners jump when a finger joins.
struct MotionSample {
    var time: Instant = .zero
    /// Fingers on the surface: max(frame.fingerCount, active positioned touches).
    var fingers: Int = 0
    /// Active touches with a position.
    var positioned: Int = 0
    /// A touch began or the finger count rose in this frame.
    var fingerLanded = false
    /// Centroid of the active positioned touches, mm (valid when `positioned > 0`).
    var centroidX: Millimeters = 0
    var centroidY: Millimeters = 0
    /// This frame's step and the accumulated translation since the baseline, mm.
    var stepX: Millimeters = 0
    var stepY: Millimeters = 0
    var totalX: Millimeters = 0
    var totalY: Millimeters = 0
    /// Length of the centroid's path since the baseline (the sum of the steps' lengths), mm.
    var pathLength: Millimeters = 0
    /// Accumulated span ratio and rotation (radians, positive clockwise with y down) since the baseline.
    var scale: Double = 1
    var rotation: Double = 0
    /// Span of the active touches: twice their mean distance from the centroid (for two fingers,
    /// the distance between them), mm.
    var span: Millimeters = 0
    /// Largest distance any active touch has moved from where it started (or was rebased), mm.
    var maxTouchTravel: Millimeters = 0
    /// Largest distance an active touch is from where it started in this frame, mm.
    var touchTravel: Millimeters = 0
    /// How far every counted touch has moved the translation's way: the least of their
    /// displacements from where they started, projected on (totalX, totalY), mm. Measured only
    /// while a tap is possible (`MotionTracker.measureSharedTravel`), 0 otherwise.
    var sharedTravel: Millimeters = 0
    /// Positions are a bounding box (INPUT_PROP_SEMI_MT).
    var semiMT = false
    /// A physical button of the surface is held (a click, not a tap).
    var buttonDown = false
    /// A still contact may yet turn out to rest while another moves (see `ContactRules`): motion
    /// gestures wait until that is decided.
    var restingUndecided = false
    /// A contact was dropped in this frame as resting or a palm (the count fell, but the
    /// translation so far is already that of the fingers left).
    var contactDropped = false
    /// A contact that was counted turned out to be a palm in this frame (its tool type became
    /// MT_TOOL_PALM, or it grew to palm size): the touch is no tap.
    var palmDetected = false
    /// A contact landed in the edge-palm zone in this frame (for the edge swipe's zone, see
    /// `MotionTracker.landingExtent`).
    var edgePalmLanded = false
    /// Smoothed centroid velocity, mm/s.
    var velocityX: Double = 0
    var velocityY: Double = 0

    var totalDistance: Millimeters { (totalX * totalX + totalY * totalY).squareRoot() }
    var velocity: Double { (velocityX * velocityX + velocityY * velocityY).squareRoot() }
    /// The span change explained by the accumulated scale, mm.
    var spanChange: Millimeters { scale > 0 ? span - span / scale : 0 }
    /// The arc length the accumulated rotation covers at the current mean radius, mm.
    var rotationArc: Millimeters { abs(rotation) * span / 2 }
    /// The accumulated rotation in degrees (positive clockwise with y down).
    var rotationDegrees: Double { rotation * degreesPerRadian }

    /// How many times larger than the span change and the rotation arc the translation must be
    /// for two or more fingers to pan or swipe (the 3M recording's 3- and 5-finger turns
    /// translate about as far as they turn).
    static let translationDominanceRatio = 2.0

    /// Translation dominates: one finger, or the centroid moved `translationDominanceRatio` times
    /// as far as the span changed and as the rotation carried the fingers around it.
    var translationDominates: Bool {
        if positioned < 2 { return true }
        let d = totalDistance, r = Self.translationDominanceRatio
        return d >= r * abs(spanChange) && d >= r * rotationArc
    }
}

let degreesPerRadian = 180 / Double.pi

/// One touch the tracker follows: where it started and where it was in the previous frame, and
/// what the resting-contact rules need (see RestingContacts.swift).
struct TrackedTouch {
    var id: Int
    var startX: Double, startY: Double
    var prevX: Double, prevY: Double
    /// Resting or palm: no finger of any gesture until it lifts.
    var excluded: Bool
    var landed: Instant
    var othersPath: Double = 0
    var thumbLike = false
    var moved = false
    /// Landed in the edge-palm zone and not released yet (its landing point is kept in
    /// `restX`/`restY`).
    var edgePalm: Bool
    var restX: Double, restY: Double
    /// Where it was when the latest contact landed (what "has moved" means for the landing gap,
    /// see `ContactRules`).
    var armX: Double, armY: Double
    /// Its last step, scaled to a 12 ms frame (jump detection), mm.
    var lastStep: Double = 0
    /// It jumped in this frame: its step counts for nothing.
    var jumped = false

    init(_ t: Touch, at time: Instant, edgePalm: Bool) {
        id = t.id; startX = t.x; startY = t.y; prevX = t.x; prevY = t.y
        excluded = edgePalm; landed = time; self.edgePalm = edgePalm
        restX = t.x; restY = t.y; armX = t.x; armY = t.y
    }

    /// Moves to this frame's position (and starts there when `rebase`); the square of the
    /// distance from the start.
    mutating func follow(x: Double, y: Double, rebase: Bool) -> Double {
        prevX = x; prevY = y
        if rebase { startX = x; startY = y }
        let dx = x - startX, dy = y - startY
        return dx * dx + dy * dy
    }

    /// Moves every position it is measured from by a jump, so that the jump is no travel.
    mutating func shift(dx: Double, dy: Double) {
        startX += dx; startY += dy; restX += dx; restY += dy; armX += dx; armY += dy
    }

    /// How far it is from where it was when the latest contact landed.
    var armTravel: Millimeters { Self.distance(prevX - armX, prevY - armY) }
    /// How far it is from where it was when the others started to move (its rest position).
    var restTravel: Millimeters { Self.distance(prevX - restX, prevY - restY) }

    private static func distance(_ dx: Double, _ dy: Double) -> Double { (dx * dx + dy * dy).squareRoot() }
}

/// Keeps each touch's start and previous position: one record a touch, in an array whose
/// storage is reserved once and reused (no per-frame allocation), updated in place.
struct MotionTracker {
    var touches: [TrackedTouch] = []
    var rules = ContactRules()
    var sample = MotionSample()
    private var lastTime: Instant?
    private var lastFingers = 0
    /// Velocity smoothing time constant.
    private let velocityTau: Double = 0.04

    init() {
        touches.reserveCapacity(16)
    }

    /// The largest and second-largest step of this frame among the counted touches.
    var steps: (top: (index: Int, length: Double), second: Double) = ((-1, 0), 0)

    func index(of id: Int) -> Int? {
        for i in touches.indices where touches[i].id == id { return i }
        return nil
    }

    /// Forget every touch (sequence over, or state resynchronized).
    mutating func clear() {
        touches.removeAllKeepingBuffer()
        sample = MotionSample(); lastTime = nil; lastFingers = 0
    }

    /// Every counted finger lifted: forget them, but resting contacts and palms still down stay
    /// dropped (a thumb left on the pad must not become the next sequence's finger).
    mutating func endSequence() {
        guard touches.contains(where: { $0.excluded }) else { clear(); return }
        for i in touches.indices.reversed() where !touches[i].excluded { touches.remove(at: i) }
        sample = MotionSample(); lastTime = nil; lastFingers = 0
    }

    /// Start measuring translation, scale and rotation afresh, keeping each touch's travel (a
    /// finger lifted before anything began: what the pair did is not what the rest did).
    mutating func rebaseTranslation() {
        sample.totalX = 0; sample.totalY = 0; sample.pathLength = 0; sample.scale = 1; sample.rotation = 0
    }

    /// Start measuring translation, scale, rotation and travel afresh from the current positions.
    mutating func rebase() {
        for i in touches.indices { touches[i].startX = touches[i].prevX; touches[i].startY = touches[i].prevY }
        sample.totalX = 0; sample.totalY = 0; sample.pathLength = 0; sample.scale = 1; sample.rotation = 0
        sample.maxTouchTravel = 0; sample.touchTravel = 0; sample.velocityX = 0; sample.velocityY = 0
    }

    /// `trustToolCount`: BTN_TOOL_* counts may exceed the positioned touches (semi-MT, more
    /// fingers than slots, single-touch); elsewhere a higher count is the device's quirk (N-Trig
    /// reports BTN_TOOL_DOUBLETAP for one finger) and the positioned touches are the truth.
    /// The result is `sample` (returned, it was one more copy of it a frame).
    mutating func update(_ frame: TouchFrame, semiMT: Bool, trustToolCount: Bool = true) {
        sample.time = frame.time
        sample.semiMT = semiMT
        sample.stepX = 0; sample.stepY = 0
        sample.sharedTravel = 0
        // Jumps are judged on frames at most 30 ms apart (libinput: irregular frames say nothing).
        var jumpInterval = 0.0
        if let last = lastTime, !semiMT, rules.jumpDistance > 0 || rules.jumpIncrease > 0 {
            let dt = Double(frame.time.microseconds - last.microseconds) / 1_000_000
            if dt > 0 && dt <= 0.030 { jumpInterval = dt }
        }
        // A counted contact the decoder now reports as a palm (MT_TOOL_PALM while down) is gone:
        // forget it, and note it for the tap.
        sample.palmDetected = false
        sample.edgePalmLanded = false
        for t in frame.touches where t.tool == .palm && !t.phase.isActive {
            guard let i = index(of: t.id) else { continue }
            if !touches[i].excluded { sample.palmDetected = true }
            touches.remove(at: i)
        }
        // Pass 1: membership, and the continuing touches' centroids before and after.
        var n = 0, px = 0.0, py = 0.0, nx = 0.0, ny = 0.0
        var positioned = 0, began = false
        var resting = 0
        for t in frame.touches where t.tool == .finger {
            if t.phase.isActive {
                if let i = index(of: t.id) {
                    let r = touches[i]
                    if r.excluded { resting += 1; continue }
                    positioned += 1
                    if t.phase != .began && jumpInterval > 0 && detectJump(i, x: t.x, y: t.y, interval: jumpInterval) {
                        continue
                    }
                    if t.phase != .began { n += 1; px += r.prevX; py += r.prevY; nx += t.x; ny += t.y }
                } else {
                    let palm = rules.enabled && !semiMT && rules.landsInEdgePalmZone(t)
                    add(t, at: frame.time, edgePalm: palm)
                    if palm { resting += 1; sample.edgePalmLanded = true } else { positioned += 1; began = true }
                }
            }
        }
        let fingers = trustToolCount ? Swift.max(frame.fingerCount - resting, positioned) : positioned
        let countChanged = fingers != lastFingers
        sample.fingerLanded = began || fingers > lastFingers
        let skipStep = semiMT && countChanged
        // Pass 2: step, scale, rotation over the continuing touches; update positions.
        var cx = 0.0, cy = 0.0
        var radiusBefore = 0.0, radiusAfter = 0.0, turn = 0.0, weight = 0.0
        var travel2 = 0.0
        if n > 0 { px /= Double(n); py /= Double(n); nx /= Double(n); ny /= Double(n) }
        steps.top = (-1, 0); steps.second = 0
        for t in frame.touches where t.tool == .finger {
            guard let i = index(of: t.id) else { continue }
            if !t.phase.isActive { touches.remove(at: i); continue }
            // The record is read field by field and moved in one in-place access (`follow`),
            // never copied out and stored back whole (a hundred bytes, twice a touch).
            if touches[i].excluded { touches[i].prevX = t.x; touches[i].prevY = t.y; continue }
            if touches[i].jumped {
                // Where it jumped to is where it is; it made no step.
                touches[i].jumped = false
                cx += t.x; cy += t.y
                travel2 = Swift.max(travel2, touches[i].follow(x: t.x, y: t.y, rebase: skipStep))
                continue
            }
            let prevX = touches[i].prevX, prevY = touches[i].prevY
            noteStep(i, dx: t.x - prevX, dy: t.y - prevY)
            cx += t.x; cy += t.y
            if t.phase != .began && n >= 2 && !skipStep {
                let ax = prevX - px, ay = prevY - py
                let bx = t.x - nx, by = t.y - ny
                let ra = (ax * ax + ay * ay).squareRoot(), rb = (bx * bx + by * by).squareRoot()
                radiusBefore += ra; radiusAfter += rb
                let w = ra * rb
                if w > 0.25 {
                    turn += w * atan2(ax * by - ay * bx, ax * bx + ay * by)
                    weight += w
                }
            }
            travel2 = Swift.max(travel2, touches[i].follow(x: t.x, y: t.y, rebase: skipStep))
        }
        if n > 0 && !skipStep {
            sample.stepX = nx - px; sample.stepY = ny - py
            sample.totalX += sample.stepX; sample.totalY += sample.stepY
            sample.pathLength += (sample.stepX * sample.stepX + sample.stepY * sample.stepY).squareRoot()
        }
        if radiusBefore > 0.5 && radiusAfter > 0 { sample.scale *= radiusAfter / radiusBefore }
        if weight > 0 { sample.rotation += turn / weight }
        sample.positioned = positioned
        sample.fingers = fingers
        if positioned > 0 { sample.centroidX = cx / Double(positioned); sample.centroidY = cy / Double(positioned) }
        // Span: twice the mean distance from the centroid of all active touches.
        var r = 0.0
        if positioned >= 2 {
            for t in frame.touches where t.tool == .finger && t.phase.isActive && !isExcluded(t.id) {
                let dx = t.x - sample.centroidX, dy = t.y - sample.centroidY
                r += (dx * dx + dy * dy).squareRoot()
            }
            r = 2 * r / Double(positioned)
        }
        sample.span = r
        sample.touchTravel = travel2.squareRoot()
        sample.maxTouchTravel = Swift.max(sample.maxTouchTravel, sample.touchTravel)
        // Velocity: exponential smoothing of the instantaneous centroid velocity.
        if let last = lastTime, frame.time > last {
            // The same value as `(frame.time - last).doubleSeconds`, without Duration's
            // 128-bit arithmetic.
            let dt = Double(frame.time.microseconds - last.microseconds) / 1_000_000
            if dt < 0.2 {
                let a = dt / (dt + velocityTau)
                sample.velocityX += a * (sample.stepX / dt - sample.velocityX)
                sample.velocityY += a * (sample.stepY / dt - sample.velocityY)
            } else {
                sample.velocityX = 0; sample.velocityY = 0
            }
        }
        lastTime = frame.time
        sample.buttonDown = frame.buttonDown
        sample.contactDropped = false
        if rules.enabled && !semiMT { applyContactRules(frame, trustToolCount: trustToolCount) }
        lastFingers = sample.fingers
    }
}

extension MotionTracker {
    /// libinput's touchpad jump detection (evdev-mt-touchpad.c, `tp_detect_jumps`): the touch's
    /// step, scaled to a 12 ms frame, is longer than `jumpDistance` or longer by `jumpIncrease`
    /// than its previous step. A jumped touch is a sensor glitch (a contact dropping out and
    /// coming back elsewhere, positions teleporting): every position it is measured from moves
    /// with it, so the jump is no translation, scale, rotation or travel. A still touch is not
    /// judged and keeps its previous step. Unlike libinput, a frame shorter than 12 ms is not
    /// stretched to 12 ms: kernels stamp frames when they arrive, and some pads deliver them in
    /// pairs 0.5 ms apart (the DLL0945 recording, whose MSC_TIMESTAMP says 7 ms), which would
    /// make every 2 mm step a 50 mm one.
    mutating func detectJump(_ i: Int, x: Double, y: Double, interval: Double) -> Bool {
        let dx = x - touches[i].prevX, dy = y - touches[i].prevY
        if dx == 0 && dy == 0 { return false }
        let step = (dx * dx + dy * dy).squareRoot() * 0.012 / Swift.max(interval, 0.012)
        let jump = (rules.jumpDistance > 0 && step > rules.jumpDistance)
            || (rules.jumpIncrease > 0 && step - touches[i].lastStep > rules.jumpIncrease)
        touches[i].lastStep = step
        if jump { touches[i].shift(dx: dx, dy: dy); touches[i].jumped = true }
        return jump
    }
}

/// atan2 without libm (GestureCore imports nothing): octant reduction and a minimax polynomial,
/// accurate to about 1e-5 rad.
func atan2(_ y: Double, _ x: Double) -> Double {
    if x == 0 && y == 0 { return 0 }
    let ax = abs(x), ay = abs(y)
    let swap = ay > ax
    let z = swap ? ax / ay : ay / ax          // 0…1
    let z2 = z * z
    // atan(z) on [0, 1].
    var a = z * (0.99997726 + z2 * (-0.33262347 + z2 * (0.19354346 + z2 * (-0.11643287
              + z2 * (0.05265332 + z2 * -0.01172120)))))
    if swap { a = Double.pi / 2 - a }
    if x < 0 { a = Double.pi - a }
    return y < 0 ? -a : a
}

extension GestureDirection {
    /// Quantizes a displacement (x right, y down) into 4 directions (90° sectors) or 8 directions
    /// (45° sectors, ±22.5° around each). Bindings use it to re-quantize a swipe's dx/dy.
    public static func quantize(dx: Double, dy: Double, directions: Int) -> GestureDirection? {
        let ax = abs(dx), ay = abs(dy)
        if ax == 0 && ay == 0 { return nil }
        if directions == 8 {
            let tan22_5 = 0.41421356237309503
            if ay <= ax * tan22_5 { return dx > 0 ? .right : .left }
            if ax <= ay * tan22_5 { return dy > 0 ? .down : .up }
            if dy < 0 { return dx > 0 ? .upRight : .upLeft }
            return dx > 0 ? .downRight : .downLeft
        }
        if ax >= ay { return dx > 0 ? .right : .left }
        return dy > 0 ? .down : .up
    }
}

/// The arithmetic every recognizer shares; emits events with ids and device-relative positions.
struct EventSink {
    var events: [GestureEvent] = []
    var diagnostics: [String] = []
    var nextID: UInt64 = 1
    var width: Millimeters = 1
    var height: Millimeters = 1

    mutating func newID() -> UInt64 { defer { nextID += 1 }; return nextID }

    func fractionX(_ mm: Millimeters) -> Double { width > 0 ? Swift.min(1, Swift.max(0, mm / width)) : 0 }
    func fractionY(_ mm: Millimeters) -> Double { height > 0 ? Swift.min(1, Swift.max(0, mm / height)) : 0 }

    mutating func bug(_ message: String) {
        if diagnostics.count < 100 { diagnostics.append("gestured bug: " + message) }
    }
}
