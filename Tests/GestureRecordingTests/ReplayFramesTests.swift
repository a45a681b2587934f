import GestureCore
import Testing

/// STOPGAP until GestureRecording's readers and GestureCore's SlotDecoder land on main: a
/// minimal evemu reader and frame decoder, enough for the replay tests of the recognizers
/// (protocol B slots, protocol A nearest-match, single-touch, BTN_TOOL_* counts). Replaced by the
/// real decoder when it lands.
enum StopgapReplay {
    struct Recording {
        var device: DeviceDescription
        var events: [InputEvent]
    }

    static func parse(_ text: String) -> Recording {
        var name = ""
        var props: Set<UInt16> = []
        var propBytes = 0
        var masks: [UInt16: [UInt8]] = [:]
        var abs: [UInt16: AbsInfo] = [:]
        var ids: [UInt16] = [0, 0, 0, 0]
        var events: [InputEvent] = []
        for raw in text.split(separator: "\n") {
            let line = raw.split(separator: "#", maxSplits: 1).first ?? ""
            let f = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let tag = f.first else { continue }
            switch tag {
            case "N:": name = f.dropFirst().joined(separator: " ")
            case "I:": ids = f.dropFirst().compactMap { UInt16($0, radix: 16) }
            case "P:":
                for b in f.dropFirst() {
                    let v = UInt8(b, radix: 16) ?? 0
                    for k in 0..<8 where v >> k & 1 == 1 { props.insert(UInt16(propBytes * 8 + k)) }
                    propBytes += 1
                }
            case "B:":
                guard let type = UInt16(f[1], radix: 16) else { continue }
                masks[type, default: []] += f.dropFirst(2).compactMap { UInt8($0, radix: 16) }
            case "A:":
                let v = f.dropFirst().map { Int32($0, radix: 10) ?? Int32($0, radix: 16) ?? 0 }
                guard let code = UInt16(f[1], radix: 16), v.count >= 5 else { continue }
                abs[code] = AbsInfo(minimum: v[1], maximum: v[2], fuzz: v[3], flat: v[4], resolution: v.count > 5 ? v[5] : 0)
            case "E:":
                guard f.count >= 5 else { continue }
                let ts = f[1].split(separator: ".")
                let us = (Int64(ts[0]) ?? 0) * 1_000_000 + (ts.count > 1 ? Int64(ts[1]) ?? 0 : 0)
                events.append(InputEvent(time: Instant(microseconds: us), type: UInt16(f[2], radix: 16) ?? 0,
                                         code: UInt16(f[3], radix: 16) ?? 0, value: Int32(f[4]) ?? 0))
            default: continue
            }
        }
        var codes: [UInt16: Set<UInt16>] = [:]
        for (type, bytes) in masks where type != 0 {
            var s: Set<UInt16> = []
            for (i, b) in bytes.enumerated() { for k in 0..<8 where b >> k & 1 == 1 { s.insert(UInt16(i * 8 + k)) } }
            codes[type] = s
        }
        let device = DeviceDescription(name: name, bustype: ids.count > 0 ? ids[0] : 0, vendor: ids.count > 1 ? ids[1] : 0,
                                       product: ids.count > 2 ? ids[2] : 0, properties: props, codes: codes, absInfo: abs)
        return Recording(device: device, events: events)
    }

    /// Decodes the events into frames.
    static func frames(_ r: Recording) -> [TouchFrame] {
        let d = r.device
        guard let (ax, ay) = d.positionAxes else { return [] }
        let upm = d.unitsPerMillimeter
        func mm(_ x: Int32, _ y: Int32) -> (Double, Double) {
            (Double(ax.clamp(x) - ax.minimum) / upm.x, Double(ay.clamp(y) - ay.minimum) / upm.y)
        }
        struct Slot { var id = -1; var x: Int32 = 0; var y: Int32 = 0; var touchID = 0; var isNew = false; var moved = false }
        var slots = Array(repeating: Slot(), count: Swift.max(1, d.slotCount))
        var current = 0
        var nextID = 1
        var tools: [UInt16: Bool] = [:]
        var btnTouch = false
        var semi = d.isSemiMT
        var out: [TouchFrame] = []
        var lastActive: [Touch] = []
        // Protocol A / single touch.
        var packet: [(Int32, Int32)] = []
        var pX: Int32?, pY: Int32?
        var stX: Int32 = 0, stY: Int32 = 0
        let proto = d.contactProtocol
        _ = semi
        semi = d.isSemiMT
        for e in r.events {
            switch (e.type, e.code) {
            case (EventType.abs, AbsCode.mtSlot): current = Int(e.value)
            case (EventType.abs, AbsCode.mtTrackingId) where proto == .slots:
                guard current >= 0 && current < slots.count else { continue }
                if e.value < 0 { slots[current].id = -1 }
                else if slots[current].id != Int(e.value) {
                    slots[current].id = Int(e.value); slots[current].touchID = nextID; nextID += 1
                    slots[current].isNew = true
                }
            case (EventType.abs, AbsCode.mtPositionX):
                if proto == .slots { if current >= 0 && current < slots.count { slots[current].x = e.value; slots[current].moved = true } }
                else { pX = e.value }
            case (EventType.abs, AbsCode.mtPositionY):
                if proto == .slots { if current >= 0 && current < slots.count { slots[current].y = e.value; slots[current].moved = true } }
                else { pY = e.value }
            case (EventType.abs, AbsCode.x): stX = e.value
            case (EventType.abs, AbsCode.y): stY = e.value
            case (EventType.key, KeyCode.btnTouch): btnTouch = e.value != 0
            case (EventType.key, let c) where KeyCode.fingerCountTools.contains(where: { $0.code == c }): tools[c] = e.value != 0
            case (EventType.syn, SynCode.mtReport):
                if let x = pX, let y = pY { packet.append((x, y)) }
                pX = nil; pY = nil
            case (EventType.syn, SynCode.report):
                var touches: [Touch] = []
                switch proto {
                case .slots:
                    for i in slots.indices {
                        let s = slots[i]
                        if s.id >= 0 {
                            let (x, y) = mm(s.x, s.y)
                            let phase: TouchPhase = s.isNew ? .began : (s.moved ? .moved : .stationary)
                            touches.append(Touch(id: s.touchID, slot: i, phase: phase, x: x, y: y))
                        }
                        slots[i].isNew = false; slots[i].moved = false
                    }
                case .anonymous:
                    if let x = pX, let y = pY { packet.append((x, y)) }
                    pX = nil; pY = nil
                    // Contacts reported while BTN_TOUCH is up are hovering, not touching (bcm5974).
                    if d.hasKey(KeyCode.btnTouch) && !btnTouch { packet = [] }
                    var used = Set<Int>()
                    for (i, p) in packet.enumerated() {
                        let (x, y) = mm(p.0, p.1)
                        var best: Int?, bestD = 15.0 * 15.0
                        for (k, t) in lastActive.enumerated() where !used.contains(k) {
                            let dd = (t.x - x) * (t.x - x) + (t.y - y) * (t.y - y)
                            if dd < bestD { bestD = dd; best = k }
                        }
                        if let b = best {
                            used.insert(b)
                            touches.append(Touch(id: lastActive[b].id, slot: i, phase: .moved, x: x, y: y))
                        } else {
                            touches.append(Touch(id: nextID, slot: i, phase: .began, x: x, y: y)); nextID += 1
                        }
                    }
                    packet = []
                case .singleTouch:
                    if btnTouch {
                        let (x, y) = mm(stX, stY)
                        let id = lastActive.first?.id ?? { nextID += 1; return nextID - 1 }()
                        touches.append(Touch(id: id, slot: 0, phase: lastActive.isEmpty ? .began : .moved, x: x, y: y))
                    }
                case .none: break
                }
                let ids = Set(touches.map(\.id))
                let ended = lastActive.filter { !ids.contains($0.id) }.map { t -> Touch in var t = t; t.phase = .ended; return t }
                lastActive = touches
                var count = touches.count
                for (c, n) in KeyCode.fingerCountTools where tools[c] == true { count = Swift.max(count, n) }
                if touches.isEmpty && !btnTouch && proto != .anonymous { count = touches.count }
                if touches.isEmpty && proto == .anonymous && !tools.values.contains(true) { count = 0 }
                if touches.isEmpty && tools.values.allSatisfy({ !$0 }) { count = 0 }
                if touches.isEmpty && ended.isEmpty && count == 0 && (out.last?.fingerCount ?? 0) == 0 { continue }
                out.append(TouchFrame(time: e.time, touches: touches + ended, fingerCount: count,
                                      flags: d.isSemiMT ? .semiMT : []))
            default: continue
            }
        }
        return out
    }
}
