import GestureCore

/// `gestured replay --html`: one self-contained page (no network, nothing fetched) showing a
/// recording. The surface to scale in millimetres with each contact's path (one colour per
/// contact, a dot where it landed, an arrow where it lifted, a tick every 100 ms), the edge
/// zones; under it a timeline with every contact's life and every gesture as a span with its
/// began/changed/ended/cancelled marks. Clicking or dragging on the timeline (or the arrow keys,
/// or `#t=SECONDS` in the address) shows the contacts at that frame. Outside text is escaped.
public enum ReplayPage {
    public struct Input {
        public var file: String
        public var device: DeviceDescription
        public var thresholds: Thresholds
        public var contacts: [ContactPath]
        public var spans: [GestureSpan]
        /// Every frame's time, for stepping with the arrow keys.
        public var frameTimes: [Instant]
        public var origin: Instant
        public init(file: String, device: DeviceDescription, thresholds: Thresholds, contacts: [ContactPath],
                    spans: [GestureSpan], frameTimes: [Instant], origin: Instant) {
            self.file = file; self.device = device; self.thresholds = thresholds; self.contacts = contacts
            self.spans = spans; self.frameTimes = frameTimes; self.origin = origin
        }
    }

    /// Timeline geometry, in the timeline's own units.
    static let labelWidth = 110.0, plotWidth = 1000.0, axisHeight = 22.0, contactLane = 5.0, gestureLane = 20.0

    public static func render(_ p: Input) -> String {
        let (w, h) = p.device.size
        let ms: (Instant) -> Double = { Double($0.microseconds - p.origin.microseconds) / 1000 }
        let endMs = Swift.max(1, Swift.max(p.frameTimes.last.map(ms) ?? 0, p.spans.map { ms($0.end) }.max() ?? 0))
        var s = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        s += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">"
        s += "<title>\(html(p.device.name)) — gestured replay</title><style>\(ReplayPageAssets.css)</style></head><body>\n"
        s += "<h1>\(html(p.device.name))</h1>\n<p class=\"meta\">\(html(p.file)) · \(p.device.kind.rawValue) · "
        s += "\(Words.mm(w)) × \(Words.mm(h)) mm\(p.device.sizeKnown ? "" : " (size unknown: nominal)") · "
        s += "\(Words.num(endMs / 1000, 3)) s · \(p.contacts.count) contacts · \(p.spans.count) gestures</p>\n"
        s += surface(p, w: w, h: h, ms: ms)
        s += "<p id=\"readout\" class=\"meta\">click or drag on the timeline to see the contacts at that moment; ← → step frames</p>\n"
        s += timeline(p, endMs: endMs, ms: ms)
        s += "<p class=\"meta\">paths: ● landing, ▶ lift, a dot every 100 ms; zones: orange edge zone (edge_zone_mm)"
        s += p.device.kind == .touchpad ? ", blue thumb zone, pink edge-palm zones" : ""
        s += "; gestures: green ▶ began, ticks changed, | ended, red × cancelled, ◆ recognized</p>\n"
        s += "<script type=\"application/json\" id=\"data\">\(data(p, endMs: endMs, ms: ms))</script>\n"
        s += "<script>\(ReplayPageAssets.script)</script>\n</body></html>\n"
        return s
    }

    /// The surface: a 10 mm grid, the edge zones (and a touchpad's thumb and edge-palm zones),
    /// each contact's path.
    static func surface(_ p: Input, w: Double, h: Double, ms: (Instant) -> Double) -> String {
        let t = p.thresholds
        var s = "<svg id=\"surface\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"-3 -3 \(f(w + 6)) \(f(h + 6))\" "
        s += "style=\"aspect-ratio: \(f(w + 6)) / \(f(h + 6))\" role=\"img\" aria-label=\"the surface, \(f(w)) by \(f(h)) mm\">"
        let stroke = Swift.max(w, h) / 400
        s += "<defs><pattern id=\"grid\" width=\"10\" height=\"10\" patternUnits=\"userSpaceOnUse\"><path d=\"M10 0H0V10\" fill=\"none\" stroke=\"#ddd\" stroke-width=\"\(f(stroke / 2))\"/></pattern>"
        s += "<marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" orient=\"auto-start-reverse\"><path d=\"M0 0L10 5L0 10z\" fill=\"context-stroke\"/></marker></defs>"
        s += "<rect class=\"pad\" width=\"\(f(w))\" height=\"\(f(h))\" fill=\"url(#grid)\" stroke=\"#888\" stroke-width=\"\(f(stroke))\"/>"
        let e = Swift.min(t.edgeZone, Swift.min(w, h) / 2)
        s += "<path class=\"edge-zone\" fill-rule=\"evenodd\" d=\"M0 0H\(f(w))V\(f(h))H0Z M\(f(e)) \(f(e))V\(f(h - e))H\(f(w - e))V\(f(e))Z\"><title>edge zone: \(f(t.edgeZone)) mm (edge_zone_mm)</title></path>"
        if p.device.kind == .touchpad {
            if t.thumbZoneHeight > 0 {
                s += "<rect class=\"thumb-zone\" y=\"\(f(h - t.thumbZoneHeight))\" width=\"\(f(w))\" height=\"\(f(t.thumbZoneHeight))\"><title>thumb zone: \(f(t.thumbZoneHeight)) mm (thumb_zone_height_mm)</title></rect>"
            }
            if t.edgePalmZoneWidth > 0 {
                for x in [0, w - t.edgePalmZoneWidth] {
                    s += "<rect class=\"palm-zone\" x=\"\(f(x))\" width=\"\(f(t.edgePalmZoneWidth))\" height=\"\(f(h))\"><title>edge palm zone: \(f(t.edgePalmZoneWidth)) mm (edge_palm_zone_width_mm)</title></rect>"
                }
            }
        }
        let width = Swift.max(w, h) / 250
        for (i, c) in p.contacts.enumerated() where !c.times.isEmpty {
            let colour = Self.colour(i)
            var d = "M\(f(c.xs[0])) \(f(c.ys[0]))"
            var ticks = ""
            var lastX = c.xs[0], lastY = c.ys[0], nextTick = ms(c.times[0]) + 100
            for k in c.times.indices.dropFirst() {
                let x = c.xs[k], y = c.ys[k]
                if k == c.times.count - 1 || distance(x - lastX, y - lastY) >= 0.2 {
                    d += "L\(f(x)) \(f(y))"; lastX = x; lastY = y
                }
                if ms(c.times[k]) >= nextTick { ticks += "M\(f(x)) \(f(y))h0"; nextTick += 100 }
            }
            let tool = c.tool == .finger ? "" : " (\(c.tool.rawValue))"
            s += "<g class=\"contact-group\"><title>contact \(c.id)\(tool): \(Words.num(ms(c.landed) / 1000, 3))–\(Words.num(ms(c.lifted) / 1000, 3)) s, \(Words.mm(c.displacement)) mm\(c.cancelled ? ", cancelled" : "")</title>"
            s += "<path class=\"contact\" data-id=\"\(c.id)\" d=\"\(d)\" stroke=\"\(colour)\" stroke-width=\"\(f(width))\" marker-end=\"url(#arrow)\"/>"
            if !ticks.isEmpty { s += "<path class=\"ticks\" d=\"\(ticks)\" stroke=\"\(colour)\" stroke-width=\"\(f(width * 2.5))\"/>" }
            s += "<circle class=\"land\" cx=\"\(f(c.xs[0]))\" cy=\"\(f(c.ys[0]))\" r=\"\(f(width * 2.5))\" fill=\"\(colour)\"/>"
            s += "</g>"
        }
        s += "<g id=\"now\" style=\"font-size:\(f(Swift.max(w, h) / 45))px\"></g></svg>\n"
        return s
    }

    /// The timeline: a time axis, contact lives packed into lanes, gesture spans packed into lanes.
    static func timeline(_ p: Input, endMs: Double, ms: (Instant) -> Double) -> String {
        let px = plotWidth / endMs
        let x: (Double) -> Double = { labelWidth + $0 * px }
        let contactLanes = pack(p.contacts.map { (ms($0.landed), ms($0.lifted)) }, gap: 2 / px)
        let gestureLanes = pack(p.spans.map { (ms($0.start), ms($0.end)) }, gap: 60 / px)
        let cl = (contactLanes.max() ?? -1) + 1, gl = Swift.max(1, (gestureLanes.max() ?? -1) + 1)
        let contactsTop = axisHeight + 4, gesturesTop = contactsTop + Double(cl) * contactLane + 10
        let height = gesturesTop + Double(gl) * gestureLane + 4
        var s = "<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(f(labelWidth + plotWidth + 80)) \(f(height))\" "
        s += "data-x0=\"\(f(labelWidth))\" data-px-per-ms=\"\(px)\" role=\"img\" aria-label=\"timeline\">"
        s += "<text x=\"4\" y=\"\(f(contactsTop + 8))\">contacts</text><text x=\"4\" y=\"\(f(gesturesTop + 13))\">gestures</text>"
        // Axis: a tick every 1, 2, 5, 10… seconds, about ten in all.
        let step = [100.0, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 60_000, 120_000, 300_000].first { endMs / $0 <= 12 } ?? 600_000
        var tick = 0.0
        s += "<path class=\"axis\" d=\"M\(f(x(0))) \(f(axisHeight))H\(f(x(endMs)))"
        while tick <= endMs { s += "M\(f(x(tick))) \(f(axisHeight))v-5"; tick += step }
        s += "\"/>"
        tick = 0
        while tick <= endMs { s += "<text class=\"tick\" x=\"\(f(x(tick)))\" y=\"\(f(axisHeight - 8))\">\(Words.num(tick / 1000, 1)) s</text>"; tick += step }
        for (i, c) in p.contacts.enumerated() where !c.times.isEmpty {
            let y = contactsTop + Double(contactLanes[i]) * contactLane
            s += "<rect class=\"life\" x=\"\(f(x(ms(c.landed))))\" y=\"\(f(y))\" width=\"\(f(Swift.max(1, (ms(c.lifted) - ms(c.landed)) * px)))\" height=\"\(f(contactLane - 1))\" fill=\"\(colour(i))\"><title>contact \(c.id)</title></rect>"
        }
        for (i, g) in p.spans.enumerated() {
            let y = gesturesTop + Double(gestureLanes[i]) * gestureLane
            let x0 = x(ms(g.start)), x1 = x(ms(g.end))
            s += "<g class=\"gesture\" data-kind=\"\(g.kind.rawValue)\" data-outcome=\"\(g.outcome.rawValue)\"><title>\(html(g.summary)): \(Words.num(ms(g.start) / 1000, 3))–\(Words.num(ms(g.end) / 1000, 3)) s</title>"
            s += "<rect class=\"span k-\(g.kind.rawValue)\" x=\"\(f(x0))\" y=\"\(f(y))\" width=\"\(f(Swift.max(2, x1 - x0)))\" height=\"\(f(gestureLane - 6))\"/>"
            var changed = ""
            var marks = ""
            for m in g.marks {
                let mx = x(ms(m.time))
                switch m.phase {
                case .changed: changed += "M\(f(mx)) \(f(y + gestureLane - 9))v3"
                case .began: marks += "<path class=\"began\" d=\"M\(f(mx)) \(f(y))v\(f(gestureLane - 6))l4 -\(f((gestureLane - 6) / 2))z\"/>"
                case .ended: marks += "<path class=\"ended\" d=\"M\(f(mx)) \(f(y))v\(f(gestureLane - 6))\"/>"
                case .cancelled: marks += "<path class=\"cancelled\" d=\"M\(f(mx - 4)) \(f(y + 3))l8 8m0 -8l-8 8\"/>"
                case .recognized: marks += "<path class=\"recognized\" d=\"M\(f(mx)) \(f(y - 1))l4 \(f((gestureLane - 4) / 2))l-4 \(f((gestureLane - 4) / 2))l-4 -\(f((gestureLane - 4) / 2))z\"/>"
                }
            }
            if !changed.isEmpty { s += "<path class=\"changed\" d=\"\(changed)\"/>" }
            s += marks
            s += "<text class=\"label\" x=\"\(f(x0 + 6))\" y=\"\(f(y + 10))\">\(html(g.kind.rawValue)) \(g.fingers)\(g.direction.map { " " + $0.rawValue } ?? "")</text></g>"
        }
        s += "<line id=\"cursor\" x1=\"\(f(labelWidth))\" x2=\"\(f(labelWidth))\" y1=\"0\" y2=\"\(f(height))\"/></svg>\n"
        return s
    }

    /// The contacts' paths for the script: times in ms since the start, positions in 0.1 mm.
    static func data(_ p: Input, endMs: Double, ms: (Instant) -> Double) -> String {
        var s = "{\"end\":\(Int(endMs.rounded(.up))),\"frames\":["
        var last = -1
        for t in p.frameTimes { let v = Int(ms(t).rounded()); if v != last { s += last < 0 ? "\(v)" : ",\(v)"; last = v } }
        s += "],\"contacts\":["
        for (i, c) in p.contacts.enumerated() {
            s += i == 0 ? "{" : ",{"
            s += "\"id\":\(c.id),\"c\":\"\(colour(i))\",\"t\":[" + c.times.map { String(Int(ms($0).rounded())) }.joined(separator: ",")
            s += "],\"x\":[" + c.xs.map { String(Int(($0 * 10).rounded())) }.joined(separator: ",")
            s += "],\"y\":[" + c.ys.map { String(Int(($0 * 10).rounded())) }.joined(separator: ",") + "]}"
        }
        return s + "]}"
    }

    /// Greedy lane packing of intervals in their order: each goes into the first lane free at its start.
    static func pack(_ intervals: [(Double, Double)], gap: Double) -> [Int] {
        var laneEnds: [Double] = []
        return intervals.map { (a, b) in
            if let i = laneEnds.firstIndex(where: { $0 + gap <= a }) { laneEnds[i] = b; return i }
            laneEnds.append(b)
            return laneEnds.count - 1
        }
    }

    /// Contact `i`'s colour: hues a golden angle apart.
    static func colour(_ i: Int) -> String { "hsl(\(Int((Double(i) * 137.508).truncatingRemainder(dividingBy: 360))) 75% 42%)" }

    static func f(_ v: Double) -> String { Words.num(v, 2) }

    /// Text made safe inside an element or a quoted attribute.
    public static func html(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                if u.value < 0x20 || (u.value >= 0x7f && u.value < 0xa0) { out += "&#xFFFD;" } else { out.unicodeScalars.append(u) }
            }
        }
        return out
    }
}
