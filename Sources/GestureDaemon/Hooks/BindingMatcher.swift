import GestureConfig
import GestureCore

/// The device a gesture came from, as hooks see it.
public struct HookDevice: Hashable, Sendable {
    /// The daemon's device id (`device.id` on the socket): with the gesture's id, it names one
    /// gesture uniquely within a daemon run (gesture ids are numbered per device).
    public var id: Int
    public var name: String
    public var kind: DeviceKind
    /// The device node (`/dev/input/event5`), or the recording's path for a replay.
    public var node: String
    public init(id: Int, name: String, kind: DeviceKind, node: String) {
        self.id = id; self.name = name; self.kind = kind; self.node = node
    }
}

/// Decides which bindings a gesture event fires: kind, phase, fingers, direction (a swipe's or
/// pan's total motion re-quantized to the binding's 4 or 8 directions), edge, device, and for
/// `phase: changed` bindings with `every:`, the amount accumulated since the binding last fired
/// within that gesture (millimetres travelled, degrees turned, scale change). A gesture is keyed
/// by (device id, gesture id), so two devices' gestures never share progress.
/// A value owned by one thread (HookRunner keeps it under its lock).
public struct BindingMatcher: Sendable {
    public private(set) var bindings: [Binding]

    private struct Progress: Sendable {
        var dx: Double = 0, dy: Double = 0, distance: Double = 0, rotation: Double = 0, scale: Double = 1
        var accumulated: Double = 0
    }
    private struct Key: Equatable, Sendable { var binding: Int; var device: Int; var gesture: UInt64 }
    /// By gesture, newest last: a few gestures are in flight at a time, so a search from the end
    /// is cheaper than hashing the key twice on every event.
    private var progress: [(key: Key, value: Progress)] = []

    private func progressIndex(_ key: Key) -> Int? { progress.lastIndex { $0.key == key } }

    public init(bindings: [Binding]) { self.bindings = bindings }

    /// Indices into `bindings` of the bindings `event` fires, in file order. `focus` is the
    /// focused application (`gestured listen`); when a binding with `app:` matches, the bindings
    /// without one are left out (the application overrides the global binding).
    public mutating func match(_ event: GestureEvent, device: HookDevice, focus: AppFocus = .unknown) -> [Int] {
        var out: [Int] = []
        // By index, and field by field: a binding is never copied out of the array (a copy
        // retains all its strings and sets, for every binding and event).
        for i in bindings.indices where bindings[i].gesture == event.kind {
            if bindings[i].every != nil && (event.phase == .ended || event.phase == .cancelled) {
                if let j = progressIndex(Key(binding: i, device: device.id, gesture: event.id)) { progress.remove(at: j) }
            }
            guard bindings[i].phase == event.phase, bindings[i].fingers.matches(event.fingers) else { continue }
            if let want = bindings[i].directions {
                guard let d = direction(of: event, for: bindings[i]), want.contains(d) else { continue }
            }
            if let edges = bindings[i].edges {
                guard let e = event.edge, edges.contains(e) else { continue }
            }
            if let m = bindings[i].device, !m.matches(kind: device.kind, name: device.name) { continue }
            if let app = bindings[i].app, !app.matches(focus) { continue }
            if let every = bindings[i].every, !accumulate(every, event, key: Key(binding: i, device: device.id, gesture: event.id)) { continue }
            out.append(i)
        }
        if out.contains(where: { bindings[$0].app != nil }) { out.removeAll { bindings[$0].app == nil } }
        return out
    }

    /// The direction compared against a binding: swipes and pans are re-quantized from their total
    /// motion when it is known, so `direction: up` with 4 directions also takes a slightly
    /// diagonal upward swipe that an 8-direction recognizer called `upRight`.
    func direction(of event: GestureEvent, for b: Binding) -> GestureDirection? {
        if event.kind == .swipe || event.kind == .pan, let dx = event.dxMillimeters, let dy = event.dyMillimeters,
           let d = GestureDirection.quantize(dx: dx, dy: dy, directions: b.effectiveDirectionCount) {
            return d
        }
        return event.direction
    }

    /// Adds this event's progress; true (and the remainder kept) when a whole step has built up.
    private mutating func accumulate(_ every: Every, _ e: GestureEvent, key: Key) -> Bool {
        if progress.count > 4096 { progress.removeAll() } // lost ended events must not grow this forever
        let j = progressIndex(key)
        var p = j.map { progress[$0].value } ?? Progress()
        let step: Double
        switch every {
        case .millimeters(let n):
            if let dist = e.distanceMillimeters, e.kind == .edgeSwipe {
                step = abs(dist - p.distance); p.distance = dist
            } else if let dx = e.dxMillimeters, let dy = e.dyMillimeters {
                step = ((dx - p.dx) * (dx - p.dx) + (dy - p.dy) * (dy - p.dy)).squareRoot(); p.dx = dx; p.dy = dy
            } else if let sx = e.stepDxMillimeters, let sy = e.stepDyMillimeters {
                step = (sx * sx + sy * sy).squareRoot()
            } else { step = 0 }
            p.accumulated += step
            return fire(&p, n, key, at: j)
        case .degrees(let n):
            let r = e.rotationDegrees ?? p.rotation
            p.accumulated += abs(r - p.rotation); p.rotation = r
            return fire(&p, n, key, at: j)
        case .scale(let n):
            let s = e.scale ?? p.scale
            p.accumulated += abs(s - p.scale); p.scale = s
            return fire(&p, n, key, at: j)
        }
    }

    private mutating func fire(_ p: inout Progress, _ n: Double, _ key: Key, at j: Int?) -> Bool {
        let hit = p.accumulated + 1e-9 >= n
        if hit {
            // fmod returns its first operand when that is smaller than the divisor, the usual
            // case (one step crossed); libm is called only past it.
            let rest = p.accumulated - n
            p.accumulated = rest.magnitude < n ? rest : rest.truncatingRemainder(dividingBy: n)
        }
        if let j { progress[j].value = p } else { progress.append((key, p)) }
        return hit
    }
}
