// Synthetic protocol-B streams: N fingers on a 10-slot touchscreen at 240 Hz, moving on circles,
// lifting and landing again every 2 s so begin/end paths are exercised too.
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

/// `seconds` of events for `fingers` fingers at 240 Hz.
func syntheticEvents(fingers: Int, seconds: Int) -> [InputEvent] {
    let rate = 240
    let frames = rate * seconds
    let periodFrames = 2 * rate   // down 1.75 s, up 0.25 s
    let downFrames = periodFrames - rate / 4
    var events: [InputEvent] = []
    events.reserveCapacity(frames * (fingers * 3 + 3))
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
            let angle = Double(phaseFrame) / Double(rate) * 2 * Double.pi * 0.5
            for finger in 0..<fingers {
                slot(Int32(finger))
                if phaseFrame == 0 { ev(EventType.abs, AbsCode.mtTrackingId, nextTrackingID); nextTrackingID += 1 }
                let cx = 600.0 + Double(finger) * 500, cy = 2000.0
                let r = 300.0 + Double(finger) * 10
                ev(EventType.abs, AbsCode.mtPositionX, Int32(cx + r * cosine(angle + Double(finger))))
                ev(EventType.abs, AbsCode.mtPositionY, Int32(cy + r * sine(angle + Double(finger))))
            }
            if phaseFrame == 0 { ev(EventType.key, KeyCode.btnTouch, 1) }
        } else if phaseFrame == downFrames {
            for finger in 0..<fingers {
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

