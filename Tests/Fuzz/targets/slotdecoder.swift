// fuzz-modules: GestureCore GestureTestSupport
// The slot decoder, inside the whole GesturePipeline (decoder → arena, deadlines fired by
// advance(to:) as a daemon timer would): arbitrary event sequences (any type, code, value, order,
// time) on devices of every contact protocol must never crash, and every touch in every frame must be finite and
// inside the device's surface (0…width × 0…height mm); fingerCount is never negative, an ended
// or cancelled touch never comes back, and (protocol B) a touch id stays on one slot.
import GestureCore
import GestureTestSupport

private func axis(_ min: Int32, _ max: Int32, _ res: Int32 = 0) -> AbsInfo { TestDevices.axis(min, max, res) }

// Arrays, not sets: a Set's order changes from run to run and inputs must replay the same way.
private let fingerKeys = TestDevices.fingerKeys

private let devices: [DeviceDescription] = [
    // protocol B touchscreen, 10 slots, resolution, pressure, major, tool type
    TestDevices.slots("B screen", slots: 10, x: axis(0, 4095, 16), y: axis(0, 4095, 16),
                      axes: [AbsCode.mtPressure: axis(0, 255), AbsCode.mtTouchMajor: axis(0, 255, 2),
                             AbsCode.mtToolType: axis(0, 2), AbsCode.x: axis(0, 4095, 16), AbsCode.y: axis(0, 4095, 16)]),
    // protocol B touchpad, 2 slots, no resolution, negative minimums, BTN_TOOL_* up to 5
    TestDevices.slots("B pad", slots: 2, x: axis(-3000, 3000), y: axis(-2000, 2500), properties: [], keys: Set(fingerKeys),
                      axes: [AbsCode.x: axis(-3000, 3000), AbsCode.y: axis(-2000, 2500)]),
    // semi-MT touchpad
    TestDevices.slots("semi-MT pad", slots: 2, x: axis(0, 1000, 15), y: axis(0, 700, 15),
                      properties: [InputProperty.semiMT, InputProperty.pointer], keys: Set(fingerKeys)),
    // protocol A touchscreen (no slots), with and without tracking ids
    TestDevices.anonymous("A screen", x: axis(0, 9600), y: axis(0, 7200),
                          axes: [AbsCode.mtTrackingId: axis(0, 255), AbsCode.x: axis(0, 9600), AbsCode.y: axis(0, 7200)]),
    TestDevices.anonymous("A screen no ids", x: axis(0, 1023, 4), y: axis(0, 767, 4)),
    // single-touch screen; single-touch pad without BTN_TOUCH
    TestDevices.singleTouch("ST screen", x: axis(0, 32767), y: axis(0, 32767), axes: [AbsCode.pressure: axis(0, 1023)]),
    TestDevices.singleTouch("ST pad", x: axis(100, 900, 10), y: axis(100, 600, 10), properties: [],
                            keys: [KeyCode.btnToolFinger, KeyCode.btnToolDoubleTap]),
    // degenerate absinfo: an axis with no range, a huge range, a slot axis claiming 64 slots
    TestDevices.slots("degenerate", slots: 64, x: axis(5, 5), y: axis(Int32.min, Int32.max)),
]

/// Codes worth hitting most of the time; the rest of the code space gets a share too.
private let absCodes: [UInt16] = [AbsCode.mtSlot, AbsCode.mtTrackingId, AbsCode.mtPositionX, AbsCode.mtPositionY,
                                  AbsCode.mtPressure, AbsCode.mtTouchMajor, AbsCode.mtToolType, AbsCode.x, AbsCode.y,
                                  AbsCode.pressure]
private let keyCodes: [UInt16] = fingerKeys + [KeyCode.btnLeft, KeyCode.btnToolPen]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSlotDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var r = ByteReader(data, size)
    let device = devices[Int(r.u8()) % devices.count]
    let (w, h) = device.size
    var pipeline = GesturePipeline(device: device)
    var time: Int64 = 1_000_000
    var gone = Set<Int>()
    var slotOf: [Int: Int] = [:]
    var count = 0
    while !r.isAtEnd && count < 20_000 {
        count += 1
        let sel = r.u8()
        let (type, code): (UInt16, UInt16)
        switch sel & 7 {
        case 0, 1, 2: type = EventType.abs; code = absCodes[Int(sel >> 3) % absCodes.count]
        case 3: type = EventType.key; code = keyCodes[Int(sel >> 3) % keyCodes.count]
        case 4: type = EventType.syn; code = SynCode.report
        case 5: type = EventType.syn; code = [SynCode.mtReport, SynCode.dropped, SynCode.report, SynCode.config][Int(sel >> 3) & 3]
        case 6: type = EventType.abs; code = UInt16(sel >> 2)           // any ABS code 0…63
        default: type = UInt16(sel >> 3) & 0x1f; code = r.u16()        // anything at all
        }
        let value: Int32
        switch r.u8() & 3 {
        case 0: value = Int32(r.u8()) - 1          // slots, ids, -1, small values
        case 1: value = Int32(Int16(bitPattern: r.u16())) * 4
        case 2: value = [Int32.min, Int32.max, -1, 0, 65535, 4096][Int(r.u8()) % 6]
        default: value = r.i32()
        }
        // Mostly forward in time, sometimes equal or backwards (clock steps, broken recordings).
        let dt = Int64(r.u8())
        time += dt < 250 ? dt * 100 : -Int64(dt - 249) * 10_000
        // Now and then the device is silent and the timer fires what is due (watchdog, arena).
        if dt == 249 {
            pipeline.advance(to: Instant(microseconds: time + 3_000_000)) { o in
                if case .frame(let f) = o { check(f, w: w, h: h, slots: device.contactProtocol == .slots, gone: &gone, slotOf: &slotOf) }
            }
            continue
        }
        pipeline.feed(InputEvent(time: Instant(microseconds: time), type: type, code: code, value: value)) { o in
            if case .frame(let f) = o { check(f, w: w, h: h, slots: device.contactProtocol == .slots, gone: &gone, slotOf: &slotOf) }
        }
    }
    pipeline.deviceRemoved(at: Instant(microseconds: time)) { o in
        guard case .frame(let frame) = o else { return }
        check(frame, w: w, h: h, slots: device.contactProtocol == .slots, gone: &gone, slotOf: &slotOf)
        if frame.touches.contains(where: { $0.phase.isActive }) { violated("active touch after removal: \(frame)") }
    }
    return 0
}

private func check(_ frame: TouchFrame, w: Double, h: Double, slots: Bool, gone: inout Set<Int>, slotOf: inout [Int: Int]) {
    if frame.fingerCount < 0 { violated("fingerCount \(frame.fingerCount)") }
    var seen = Set<Int>()
    for t in frame.touches {
        if !t.x.isFinite || !t.y.isFinite { violated("non-finite touch \(t)") }
        let eps = 1e-6 * max(1, w, h)
        if (t.x < -eps || t.x > w + eps || t.y < -eps || t.y > h + eps) && !tolerated("outside-area") {
            violated("touch \(t) outside the \(w) × \(h) mm surface")
        }
        if let m = t.majorAxis, !m.isFinite || m < 0 { violated("majorAxis \(m) in \(t)") }
        if !seen.insert(t.id).inserted { violated("touch id \(t.id) twice in one frame: \(frame)") }
        if gone.contains(t.id) { violated("touch id \(t.id) came back after it ended: \(t)") }
        if slots, let s = slotOf[t.id], s != t.slot { violated("touch id \(t.id) moved from slot \(s) to \(t.slot)") }
        if t.phase.isActive { slotOf[t.id] = t.slot } else { gone.insert(t.id); slotOf[t.id] = nil }
    }
}
