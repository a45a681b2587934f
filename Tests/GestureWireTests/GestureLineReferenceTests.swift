import Glibc
import GestureCore
import GestureRecording
import GestureWire
import Testing

/// A plain encoder of gesture and frame lines, written to be read, not to be fast: each field a
/// String built with the standard library, the fields joined with commas. It follows the shapes
/// GestureJSON documents (docs/PROTOCOL.md): keys in a fixed order, strings escaped per RFC 8259,
/// numbers rounded half away from zero to 3 decimals (millimetres, degrees, mm/s) or 4 (scale, x,
/// y) with trailing zeros trimmed, Swift's shortest form past 9e15 after scaling, non-finite
/// numbers left out with their keys, times as exact microseconds.
enum ReferenceLine {
    static func string(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where u.value < 0x20:
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    /// `v` with at most `decimals` fractional digits; nil for NaN and infinities.
    static func number(_ v: Double, decimals: Int) -> String? {
        guard v.isFinite else { return nil }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        guard (v * scale).magnitude < 9e15 else { return v.description }
        let n = Int64((v * scale).rounded(.toNearestOrAwayFromZero))
        var digits = String(n.magnitude)
        if digits.count <= decimals { digits = String(repeating: "0", count: decimals + 1 - digits.count) + digits }
        var fraction = String(digits.suffix(decimals))
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return (n < 0 ? "-" : "") + digits.dropLast(decimals) + (fraction.isEmpty ? "" : "." + fraction)
    }

    static func time(_ t: Instant, origin: Instant) -> String {
        let us = t.microseconds - origin.microseconds
        var fraction = String(us.magnitude % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return (us < 0 ? "-" : "") + String(us.magnitude / 1_000_000) + (fraction.isEmpty ? "" : "." + fraction)
    }

    static func device(_ d: GestureJSON.DeviceInfo) -> String {
        var fields: [String] = []
        if let id = d.id { fields.append("\"id\":\(id)") }
        fields += ["\"name\":" + string(d.name), "\"kind\":" + string(d.kind.rawValue)]
        return "{" + fields.joined(separator: ",") + "}"
    }

    static func gesture(_ g: GestureEvent, device d: GestureJSON.DeviceInfo, origin: Instant) -> String {
        var fields = ["\"type\":\"gesture\"", "\"gesture\":" + string(g.kind.rawValue),
                      "\"phase\":" + string(g.phase.rawValue), "\"id\":\(g.id)", "\"fingers\":\(g.fingers)"]
        if let v = g.direction { fields.append("\"direction\":" + string(v.rawValue)) }
        if let v = g.edge { fields.append("\"edge\":" + string(v.rawValue)) }
        fields.append("\"time\":" + time(g.time, origin: origin))
        fields.append("\"device\":" + device(d))
        let numbers: [(String, Double?, Int)] = [
            ("dx_mm", g.dxMillimeters, 3), ("dy_mm", g.dyMillimeters, 3),
            ("step_dx_mm", g.stepDxMillimeters, 3), ("step_dy_mm", g.stepDyMillimeters, 3),
            ("distance_mm", g.distanceMillimeters, 3), ("velocity_mm_s", g.velocityMillimetersPerSecond, 3),
            ("scale", g.scale, 4), ("rotation_deg", g.rotationDegrees, 3), ("x", g.x, 4), ("y", g.y, 4),
        ]
        for (key, value, decimals) in numbers {
            if let value, let text = number(value, decimals: decimals) { fields.append("\"\(key)\":" + text) }
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    static func frame(_ f: TouchFrame, origin: Instant, device d: GestureJSON.DeviceInfo?) -> String {
        var fields = ["\"type\":\"frame\"", "\"time\":" + time(f.time, origin: origin)]
        if let d { fields.append("\"device\":" + device(d)) }
        fields.append("\"fingers\":\(f.fingerCount)")
        let touches = f.touches.map { t in
            var t2 = ["\"id\":\(t.id)", "\"slot\":\(t.slot)", "\"phase\":" + string(t.phase.rawValue)]
            if let x = number(t.x, decimals: 3) { t2.append("\"x_mm\":" + x) }
            if let y = number(t.y, decimals: 3) { t2.append("\"y_mm\":" + y) }
            if let p = t.pressure { t2.append("\"pressure\":\(p)") }
            if let m = t.majorAxis, let text = number(m, decimals: 3) { t2.append("\"major_mm\":" + text) }
            if t.tool != .finger { t2.append("\"tool\":" + string(t.tool.rawValue)) }
            return "{" + t2.joined(separator: ",") + "}"
        }
        fields.append("\"touches\":[" + touches.joined(separator: ",") + "]")
        if f.flags.contains(.resynchronized) { fields.append("\"resynchronized\":true") }
        if f.flags.contains(.semiMT) { fields.append("\"semi_mt\":true") }
        if f.flags.contains(.deviceRemoved) { fields.append("\"device_removed\":true") }
        return "{" + fields.joined(separator: ",") + "}"
    }
}

/// GestureJSON's lines against `ReferenceLine`, byte for byte, for every gesture and frame that
/// replaying each recording in Tests/Fixtures produces: as `gestured replay` writes them (no
/// device id) and as the daemon's socket does (an id, and a name that needs escaping, through
/// `withLine` with its newline).
@Suite struct GestureLineReferenceTests {
    static let directory: String = {
        let path = #filePath
        let dir = path[..<path.lastIndex(of: "/")!]
        return String(dir[..<dir.lastIndex(of: "/")!]) + "/Fixtures/"
    }()

    /// Every recording file (a `.desc` is read with its `.events`).
    static let recordings: [String] = {
        var names: [String] = []
        if let dir = opendir(directory) {
            while let entry = readdir(dir) {
                names.append(withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
            }
            closedir(dir)
        }
        return names.filter { n in [".evemu", ".events", ".evtest", ".yml"].contains { n.hasSuffix($0) } }.sorted()
    }()

    @Test func fixturesAreFound() {
        #expect(Self.recordings.count >= 29, "\(Self.recordings)")
    }

    @Test(arguments: recordings)
    func linesMatchTheReference(_ name: String) throws {
        let r = try RecordingLoader.load(path: Self.directory + name)
        let origin = r.events.first?.time ?? .zero
        let plain = GestureJSON.DeviceInfo(r.description)
        let daemon = GestureJSON.DeviceInfo(id: 7, name: r.description.name + " \"2\"\\\u{1}", kind: r.description.kind)
        var gestures = 0, frames = 0, mismatches = 0
        GesturePipeline.run(r) { output in
            switch output {
            case .gesture(let g):
                gestures += 1
                for device in [plain, daemon] {
                    let expected = ReferenceLine.gesture(g, device: device, origin: origin)
                    let line = GestureJSON.encode(g, device: device, origin: origin)
                    var socket = ""
                    GestureJSON.withLine(g, device: device, origin: origin, newline: true) {
                        socket = String(decoding: $0, as: UTF8.self)
                    }
                    if line != expected || socket != expected + "\n" {
                        mismatches += 1
                        if mismatches <= 3 { Issue.record("\(name):\n  got      \(line)\n  expected \(expected)") }
                    }
                }
            case .frame(let f):
                frames += 1
                for device in [nil, daemon] {
                    let expected = ReferenceLine.frame(f, origin: origin, device: device)
                    let line = GestureJSON.encode(f, origin: origin, device: device)
                    if line != expected {
                        mismatches += 1
                        if mismatches <= 3 { Issue.record("\(name):\n  got      \(line)\n  expected \(expected)") }
                    }
                }
            case .diagnostic: break
            }
        }
        #expect(frames > 0, "\(name): no frames")
        #expect(mismatches == 0, "\(name): \(mismatches) of \(2 * (gestures + frames)) lines differ")
    }

    /// What the fixtures may not reach: names outside GestureCore's, every phase and edge,
    /// non-finite and huge numbers, negative times.
    @Test func unusualValuesMatchTheReference() {
        let device = GestureJSON.DeviceInfo(id: 3, name: "tab\there é \u{1F}", kind: DeviceKind(rawValue: "odd\"kind"))
        let kinds = GestureKind.all + ["a\"b", "counterclockwiseAndMore", String(repeating: "pa", count: 1) + "n"].map(GestureKind.init)
        let directions = [nil] + GestureDirection.all + [GestureDirection(rawValue: "up\nleft")]
        let values: [Double?] = [nil, 0, -0.0, 0.0005, -0.00049999999999999990, 1.5, -20.25, 0.9995, 99.99995,
                                 8_999_999_999_999.5, 1e20, -.greatestFiniteMagnitude, .nan, .infinity, -.infinity]
        var n = 0
        for kind in kinds {
            for phase in GesturePhase.allCases {
                for direction in directions {
                    n += 1
                    let v = values[n % values.count], w = values[(n / 3) % values.count]
                    let g = GestureEvent(kind: kind, phase: phase, id: UInt64(n), fingers: n % 6,
                                         time: Instant(microseconds: Int64(n * 123_457) - 2_000_000),
                                         direction: direction, edge: n % 5 == 4 ? nil : Edge.allCases[n % 4],
                                         dxMillimeters: v, dyMillimeters: w, stepDxMillimeters: w, stepDyMillimeters: v,
                                         distanceMillimeters: v, velocityMillimetersPerSecond: w, scale: v,
                                         rotationDegrees: w, x: w, y: v)
                    #expect(GestureJSON.encode(g, device: device, origin: .zero) == ReferenceLine.gesture(g, device: device, origin: .zero))
                }
            }
        }
    }
}
