// Synthetic protocol-B streams on a 10-slot touchscreen at 240 Hz: one gesture (1 to 5 moving
// fingers: swipes, pinches, a rotation) repeated every 0.75 s, so begin/end paths run too.
import GestureCore

/// A 10-slot, 300 × 200 mm touchscreen with resolution 20 units/mm.
let syntheticDevice = DeviceDescription(
    name: "gestured-bench synthetic touchscreen",
    properties: [InputProperty.direct],
    codes: [EventType.key: [KeyCode.btnTouch]],
    absInfo: [
        AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9),
        AbsCode.mtTrackingId: AbsInfo(minimum: 0, maximum: 65535),
        AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 6000, resolution: 20),
        AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 4000, resolution: 20),
        AbsCode.x: AbsInfo(minimum: 0, maximum: 6000, resolution: 20),
        AbsCode.y: AbsInfo(minimum: 0, maximum: 4000, resolution: 20),
    ])

/// A synthetic gesture, repeated: what the fingers do while down, named for it.
struct SyntheticGesture: Sendable {
    var name: String
    var fingers: Int
    /// Finger `i`'s position in mm at progress `p` (0 at touch-down, 1 at lift).
    var position: @Sendable (_ finger: Int, _ progress: Double) -> (x: Double, y: Double)
}

/// The bench's scenarios: every one is a gesture the recognizers take up (1 to 5 fingers, all
/// moving), so the figures measure recognition, not the path that ignores more than 5 fingers.
let syntheticGestures: [SyntheticGesture] = [
    SyntheticGesture(name: "swipe_1f", fingers: 1) { _, p in (80 + 120 * p, 100) },
    SyntheticGesture(name: "pinch_2f", fingers: 2) { i, p in
        let half = 20 + 40 * p   // 40 mm apart → 120 mm apart: pinch out
        return (150 + (i == 0 ? -half : half), 100)
    },
    SyntheticGesture(name: "rotate_2f", fingers: 2) { i, p in
        let a = Double(i) * .pi + p * .pi / 2   // a quarter turn, 60 mm apart
        return (150 + 30 * cosine(a), 100 + 30 * sine(a))
    },
    SyntheticGesture(name: "swipe_3f", fingers: 3) { i, p in (60 + Double(i) * 20 + 120 * p, 100) },
    SyntheticGesture(name: "swipe_4f", fingers: 4) { i, p in (90 + Double(i) * 20, 160 - 110 * p) },
    SyntheticGesture(name: "pinch_5f", fingers: 5) { i, p in
        let a = Double(i) * 2 * .pi / 5, r = 60 - 40 * p   // 5 fingers closing in
        return (150 + r * cosine(a), 100 + r * sine(a))
    },
]

/// `seconds` of `gesture` at 240 Hz: down for 0.5 s while moving, lifted for 0.25 s, again.
func syntheticEvents(_ gesture: SyntheticGesture, seconds: Int) -> [InputEvent] {
    let rate = 240, unitsPerMillimetre = 20.0
    let frames = rate * seconds
    let downFrames = rate / 2
    let periodFrames = downFrames + rate / 4
    var events: [InputEvent] = []
    events.reserveCapacity(frames * (gesture.fingers * 3 + 3))
    var nextTrackingID: Int32 = 1
    var currentSlot: Int32 = 0
    for f in 0..<frames {
        let t = Instant(microseconds: Int64(f) * 1_000_000 / Int64(rate))
        let phaseFrame = f % periodFrames
        func ev(_ type: UInt16, _ code: UInt16, _ value: Int32) {
            events.append(InputEvent(time: t, type: type, code: code, value: value))
        }
        func slot(_ s: Int32) {
            if s != currentSlot { ev(EventType.abs, AbsCode.mtSlot, s); currentSlot = s }
        }
        if phaseFrame < downFrames {
            let progress = Double(phaseFrame) / Double(downFrames - 1)
            for finger in 0..<gesture.fingers {
                slot(Int32(finger))
                if phaseFrame == 0 { ev(EventType.abs, AbsCode.mtTrackingId, nextTrackingID); nextTrackingID += 1 }
                let (x, y) = gesture.position(finger, progress)
                ev(EventType.abs, AbsCode.mtPositionX, Int32(x * unitsPerMillimetre))
                ev(EventType.abs, AbsCode.mtPositionY, Int32(y * unitsPerMillimetre))
            }
            if phaseFrame == 0 { ev(EventType.key, KeyCode.btnTouch, 1) }
        } else if phaseFrame == downFrames {
            for finger in 0..<gesture.fingers {
                slot(Int32(finger))
                ev(EventType.abs, AbsCode.mtTrackingId, -1)
            }
            ev(EventType.key, KeyCode.btnTouch, 0)
        } else {
            continue   // no events while lifted
        }
        ev(EventType.syn, SynCode.report, 0)
    }
    return events
}

// Taylor-free trigonometry without Foundation: the bench only needs smooth motion.
func sine(_ x: Double) -> Double {
    var a = x.truncatingRemainder(dividingBy: 2 * .pi)
    if a > .pi { a -= 2 * .pi } else if a < -.pi { a += 2 * .pi }
    // Bhaskara-style parabola fit, good to ~0.1 %: plenty for test motion.
    let b = 4 / Double.pi, c = -4 / (Double.pi * Double.pi)
    let y = b * a + c * a * abs(a)
    return 0.225 * (y * abs(y) - y) + y
}
func cosine(_ x: Double) -> Double { sine(x + .pi / 2) }

