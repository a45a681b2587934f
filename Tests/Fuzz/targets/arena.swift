// fuzz-modules: GestureCore GestureTestSupport
// The recognizers and their arena: any well-formed frame sequence (touches inside the surface,
// time never going back, ids stable) must never crash, and every gesture event must carry finite
// numbers, a centroid inside the surface (0…1), a plausible finger count, and a time no later than
// the frame or deadline that produced it.
import GestureCore
import GestureTestSupport

private let devices: [DeviceDescription] = [
    TestDevices.slots("fuzz touchscreen", slots: 10, x: TestDevices.axis(0, 4000, 20), y: TestDevices.axis(0, 3000, 20)),
    TestDevices.slots("fuzz touchpad", slots: 2, x: TestDevices.axis(0, 1000), y: TestDevices.axis(0, 700),
                      properties: [], keys: Set(TestDevices.fingerKeys)),
    TestDevices.slots("fuzz semi-mt touchpad", slots: 2, x: TestDevices.axis(0, 1000, 15), y: TestDevices.axis(0, 700, 15),
                      trackingIds: false, properties: [InputProperty.semiMT, InputProperty.pointer],
                      keys: [KeyCode.btnTouch, KeyCode.btnToolFinger, KeyCode.btnToolDoubleTap, KeyCode.btnToolTripleTap]),
]

private struct Slot { var id = 0; var active = false; var x = 0.0; var y = 0.0 }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArena(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var r = ByteReader(data, size)
    let device = devices[Int(r.u8()) % devices.count]
    let (w, h) = device.size
    let slotCount = min(device.slotCount, 10)
    var arena = RecognizerArena(device: device, thresholds: .defaults(for: device),
                                doubleTapFingerCounts: Set(1...Int(r.u8() % 5 + 1)),
                                swipeDirections: r.u8() & 1 == 0 ? 4 : 8)
    var slots = [Slot](repeating: Slot(), count: slotCount)
    var nextID = 1
    var now = Instant(microseconds: 1_000_000)
    var frames = 0
    while !r.isAtEnd && frames < 2000 {
        frames += 1
        let op = r.u8()
        now = now + .microseconds(Int64(r.u8()) * 1000 + Int64(op & 3) * 250)
        if op == 0xFF {
            check(arena.advance(to: now), upTo: now, device: device); continue
        }
        if op == 0xFE {
            check(arena.cancelAll(at: now), upTo: now, device: device)
            for i in slots.indices { slots[i].active = false }
            continue
        }
        var touches: [Touch] = []
        let mask = r.u8()
        for s in 0..<slotCount {
            let action = (mask >> UInt8((s % 4) * 2)) & 3
            switch (action, slots[s].active) {
            case (1, false):
                slots[s] = Slot(id: nextID, active: true, x: Double(r.u8()) / 255 * w, y: Double(r.u8()) / 255 * h)
                nextID += 1
                touches.append(Touch(id: slots[s].id, slot: s, phase: .began, x: slots[s].x, y: slots[s].y))
            case (2, true):
                let dx = Double(Int8(bitPattern: r.u8())) / 8, dy = Double(Int8(bitPattern: r.u8())) / 8
                slots[s].x = min(max(slots[s].x + dx, 0), w); slots[s].y = min(max(slots[s].y + dy, 0), h)
                touches.append(Touch(id: slots[s].id, slot: s, phase: .moved, x: slots[s].x, y: slots[s].y))
            case (3, true):
                slots[s].active = false
                touches.append(Touch(id: slots[s].id, slot: s, phase: op & 0x80 != 0 ? .cancelled : .ended,
                                     x: slots[s].x, y: slots[s].y))
            case (_, true):
                touches.append(Touch(id: slots[s].id, slot: s, phase: .stationary, x: slots[s].x, y: slots[s].y))
            default:
                break
            }
        }
        let active = slots.filter(\.active).count
        // BTN_TOOL_*TAP: more fingers than positioned touches, on devices that report it.
        let extra = device.maximumFingerCount > slotCount && active > 0 ? Int(op >> 5) % (device.maximumFingerCount - active + 1) : 0
        var flags: TouchFrame.Flags = []
        if op & 0x1C == 0x1C { flags.insert(.resynchronized) }
        if device.isSemiMT { flags.insert(.semiMT) }
        let frame = TouchFrame(time: now, touches: touches, fingerCount: active + extra, flags: flags)
        check(arena.process(frame), upTo: now, device: device)
        if let d = arena.nextDeadline, d < frame.time { violated("deadline \(d) already past at \(frame.time)") }
    }
    _ = arena.drainDiagnostics()
    return 0
}

private func check(_ events: [GestureEvent], upTo now: Instant, device: DeviceDescription) {
    for e in events {
        if e.time > now { violated("event at \(e.time) after \(now): \(e)") }
        if e.fingers < 0 || e.fingers > max(device.maximumFingerCount, 10) { violated("fingers \(e.fingers): \(e)") }
        for (name, v) in [("dx", e.dxMillimeters), ("dy", e.dyMillimeters), ("stepDx", e.stepDxMillimeters),
                          ("stepDy", e.stepDyMillimeters), ("distance", e.distanceMillimeters),
                          ("velocity", e.velocityMillimetersPerSecond), ("scale", e.scale),
                          ("rotation", e.rotationDegrees)] {
            if let v, !v.isFinite { violated("\(name) = \(v): \(e)") }
        }
        for (name, v) in [("x", e.x), ("y", e.y)] {
            if let v, !(v >= -1e-9 && v <= 1 + 1e-9) { violated("\(name) = \(v) outside 0…1: \(e)") }
        }
        if let s = e.scale, s < 0 { violated("negative scale: \(e)") }
    }
}
