import GestureCore
import GestureWire
import Testing

@Suite struct GestureJSONTests {
    let device = GestureJSON.DeviceInfo(name: "Pad \"A\"\\b\n", kind: .touchpad)

    @Test func swipe_hasTheFixedShapeAndKeyOrder() {
        let g = GestureEvent(kind: .swipe, phase: .recognized, id: 1, fingers: 3, time: Instant(microseconds: 2_234_000),
                             direction: .left, dxMillimeters: -20.25, dyMillimeters: 1.0004,
                             distanceMillimeters: 20.3, velocityMillimetersPerSecond: 150, x: 0.5, y: 0.25)
        let s = GestureJSON.encode(g, device: device, origin: Instant(microseconds: 1_000_000))
        #expect(s == #"{"type":"gesture","gesture":"swipe","phase":"recognized","id":1,"fingers":3,"direction":"left","time":1.234,"device":{"name":"Pad \"A\"\\b\n","kind":"touchpad"},"dx_mm":-20.25,"dy_mm":1,"distance_mm":20.3,"velocity_mm_s":150,"x":0.5,"y":0.25}"#)
    }

    /// The daemon's lines name the device by id (issue 9): `device.id` comes first in the object
    /// and survives a round trip; without an id (`gestured replay`) the key is left out.
    @Test func deviceId_isWrittenFirstAndReadBack() throws {
        let g = GestureEvent(kind: .pan, phase: .changed, id: 1, fingers: 2, time: Instant(microseconds: 1_500_000))
        let s = GestureJSON.encode(g, device: GestureJSON.DeviceInfo(id: 3, name: "ELAN", kind: .touchscreen), origin: .zero)
        #expect(s.contains(#""device":{"id":3,"name":"ELAN","kind":"touchscreen"}"#), "\(s)")
        guard case .gesture(let back, let d) = try WireDecoder.serverMessage(s) else { Issue.record("not a gesture: \(s)"); return }
        #expect(d.id == 3 && d.name == "ELAN" && back.id == 1)
        let plain = GestureJSON.encode(g, device: GestureJSON.DeviceInfo(name: "ELAN", kind: .touchscreen), origin: .zero)
        #expect(plain.contains(#""device":{"name":"ELAN","kind":"touchscreen"}"#))
        guard case .gesture(_, let d2) = try WireDecoder.serverMessage(plain) else { Issue.record("not a gesture"); return }
        #expect(d2.id == nil)
    }

    @Test func edgeSwipe_stepsScaleRotation_andNonFiniteOmitted() {
        let g = GestureEvent(kind: .edgeSwipe, phase: .changed, id: 7, fingers: 1, time: Instant(microseconds: 500),
                             direction: .right, edge: .left, stepDxMillimeters: 0.5, stepDyMillimeters: -0.125,
                             velocityMillimetersPerSecond: .infinity, scale: .nan, rotationDegrees: -15.5)
        let s = GestureJSON.encode(g, device: GestureJSON.DeviceInfo(name: "s", kind: .touchscreen), origin: .zero)
        #expect(s == #"{"type":"gesture","gesture":"edgeSwipe","phase":"changed","id":7,"fingers":1,"direction":"right","edge":"left","time":0.0005,"device":{"name":"s","kind":"touchscreen"},"step_dx_mm":0.5,"step_dy_mm":-0.125,"rotation_deg":-15.5}"#)
        #expect(!s.contains("nan") && !s.contains("inf"))
    }

    /// A non-finite number's key is written and then dropped (GestureJSON.numbers): whichever
    /// numbers are NaN or infinite, the others follow one another with nothing between them.
    @Test func nonFiniteNumbers_leaveNoKeyBehind() {
        let bad: [Double] = [.nan, .infinity, -.infinity]
        for n in 0..<10 {
            var v = [Double?](repeating: bad[n % 3], count: 10)
            v[n] = 1.5
            let g = GestureEvent(kind: .pan, phase: .changed, id: 1, fingers: 2, time: .zero,
                                 dxMillimeters: v[0], dyMillimeters: v[1], stepDxMillimeters: v[2], stepDyMillimeters: v[3],
                                 distanceMillimeters: v[4], velocityMillimetersPerSecond: v[5], scale: v[6],
                                 rotationDegrees: v[7], x: v[8], y: v[9])
            let s = GestureJSON.encode(g, device: GestureJSON.DeviceInfo(name: "s", kind: .touchscreen), origin: .zero)
            let key = ["dx_mm", "dy_mm", "step_dx_mm", "step_dy_mm", "distance_mm", "velocity_mm_s", "scale",
                       "rotation_deg", "x", "y"][n]
            #expect(s.hasSuffix(#""kind":"touchscreen"},"\#(key)":1.5}"#), "\(s)")
        }
    }

    /// A line is written into a buffer sized from worst cases (GestureJSON.withLine): the longest
    /// values of every field must fit, with the newline the daemon adds too (a line past its room
    /// stops the daemon).
    @Test func longestValues_fitTheLineBuffer() {
        let huge = -Double.greatestFiniteMagnitude
        let g = GestureEvent(kind: GestureKind(rawValue: String(repeating: "\u{01}\"", count: 40)), phase: .changed,
                             id: .max, fingers: .min, time: Instant(microseconds: .min + 1_000_000),
                             direction: GestureDirection(rawValue: String(repeating: "\\", count: 30)), edge: .left,
                             dxMillimeters: huge, dyMillimeters: huge, stepDxMillimeters: huge, stepDyMillimeters: huge,
                             distanceMillimeters: huge, velocityMillimetersPerSecond: huge, scale: huge,
                             rotationDegrees: huge, x: huge, y: huge)
        let device = GestureJSON.DeviceInfo(id: .max, name: String(repeating: "\u{1F}", count: 50), kind: .touchpad)
        let s = GestureJSON.encode(g, device: device, origin: .zero)
        // The daemon's own path: the same line and a newline, in one buffer.
        var line: [UInt8] = []
        GestureJSON.withLine(g, device: device, origin: .zero, newline: true) { line = Array($0) }
        #expect(String(decoding: line, as: UTF8.self) == s + "\n")
        #expect(s.hasPrefix(#"{"type":"gesture","gesture":"\u0001\""#) && s.hasSuffix(#","y":-1.7976931348623157e+308}"#), "\(s)")
        #expect(s.contains(#""id":18446744073709551615,"fingers":-9223372036854775808,"#), "\(s)")
        #expect(s.contains(#""time":-9223372036853.775808,"#), "\(s)")
    }

    /// Every kind, phase, direction and edge GestureCore defines, and names it does not (a long
    /// one, one with a quote, one built at run time), are written escaped and read back as
    /// their raw values.
    @Test func names_areWrittenAsTheirRawValues() throws {
        let device = GestureJSON.DeviceInfo(name: "d", kind: .touchpad)
        let built = String(repeating: "pa", count: 1) + "n"   // "pan", not from a literal
        let kinds = GestureKind.all + ["pan2", "a\"b", String(repeating: "longKind", count: 3), built].map(GestureKind.init)
        let directions = GestureDirection.all + ["sideways", "up\nleft", String(repeating: "around", count: 4)].map(GestureDirection.init)
        for kind in kinds {
            for phase in GesturePhase.allCases {
                for (n, direction) in ([nil] + directions.map(Optional.some)).enumerated() {
                    let edge = n == 0 ? nil : Edge.allCases[n % Edge.allCases.count]
                    let g = GestureEvent(kind: kind, phase: phase, id: 9, fingers: 2, time: .zero, direction: direction, edge: edge)
                    let s = GestureJSON.encode(g, device: device, origin: .zero)
                    var expected = #"{"type":"gesture","gesture":"#
                    GestureJSON.appendString(kind.rawValue, to: &expected)
                    expected += #","phase":"\#(phase.rawValue)","id":9,"fingers":2"#
                    if let direction { expected += #","direction":"#; GestureJSON.appendString(direction.rawValue, to: &expected) }
                    if let edge { expected += #","edge":"\#(edge.rawValue)""# }
                    #expect(s.hasPrefix(expected + #","time":0,"#), "\(s)")
                    guard case .gesture(let back, _) = try WireDecoder.serverMessage(s) else { Issue.record("not a gesture: \(s)"); continue }
                    #expect(back.kind.rawValue == kind.rawValue && back.direction?.rawValue == direction?.rawValue && back.edge == edge)
                }
            }
        }
    }

    @Test func frame_touchesAndFlags() {
        let f = TouchFrame(time: Instant(microseconds: 3_000_000),
                           touches: [Touch(id: 4, slot: 1, phase: .began, x: 12.5, y: 3.14159, pressure: 30),
                                     Touch(id: 2, slot: 0, phase: .cancelled, x: 0, y: 1, tool: .palm)],
                           fingerCount: 3, flags: [.resynchronized])
        let s = GestureJSON.encode(f, origin: Instant(microseconds: 1_000_000))
        #expect(s == #"{"type":"frame","time":2,"fingers":3,"touches":[{"id":4,"slot":1,"phase":"began","x_mm":12.5,"y_mm":3.142,"pressure":30},{"id":2,"slot":0,"phase":"cancelled","x_mm":0,"y_mm":1,"tool":"palm"}],"resynchronized":true}"#)
    }

    @Test func controlCharactersAreEscaped() {
        var s = ""
        GestureJSON.appendString("a\u{01}\t\u{1F}é", to: &s)
        #expect(s == "\"a\\u0001\\t\\u001fé\"")
    }

    @Test func fixedNumbers() {
        func fx(_ v: Double, _ d: Int) -> String { var s = ""; GestureJSON.appendFixed(v, decimals: d, to: &s); return s }
        #expect(fx(-0.0004, 3) == "0")
        #expect(fx(-1.5, 3) == "-1.5")
        #expect(fx(2.0005, 3) == "2.001" || fx(2.0005, 3) == "2")   // binary rounding either way
        #expect(fx(1e20, 3) == "1e+20")
        var t = ""
        GestureJSON.appendTime(Instant(microseconds: 999), origin: Instant(microseconds: 2000), to: &t)
        #expect(t == "-0.001001")
    }

    /// Numbers are rounded half away from zero, as `Double.rounded()` does (the encoder rounds
    /// without calling it): exact halves, values just below a half, negatives, large values.
    @Test func fixedNumbers_roundLikeRounded() {
        func fx(_ v: Double, _ d: Int) -> String { var s = ""; GestureJSON.appendFixed(v, decimals: d, to: &s); return s }
        #expect(fx(0.0625, 3) == "0.063")     // 62.5 exactly
        #expect(fx(-0.0625, 3) == "-0.063")
        #expect(fx(0.03125, 4) == "0.0313")   // 312.5 exactly
        #expect(fx(0.00049999999999999990, 3) == "0")
        #expect(fx(-0.00049999999999999990, 3) == "0")
        #expect(fx(8_999_999_999_999.5, 3) == "8999999999999.5")
        var seed: UInt64 = 0x9E3779B97F4A7C15
        for _ in 0..<20_000 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let v = Double(Int64(bitPattern: seed) >> 20) / Double(1 << (seed % 40))
            for d in [3, 4] {
                let scale = d == 3 ? 1000.0 : 10000.0
                guard (v * scale).magnitude < 9e15 else { continue }
                let expected = Double(Int64((v * scale).rounded())) / scale
                #expect(Double(fx(v, d)) == expected, "\(v) with \(d) decimals: \(fx(v, d))")
            }
        }
    }

    /// The encoder's digits (pairs from a table, the fraction's digits all written and its end
    /// moved past the trailing zeros) against a plain formatting of the same rounded integer:
    /// `round(v × 10^d)` half away from zero, printed by `String(_:)` and cut at the point.
    /// Values: halves at the last digit, carries (0.9995), negatives, zero, -0.0, the edge of
    /// the fixed range (|v × 10^d| < 9e15) and past it (Swift's shortest form), random ones.
    @Test func fixedNumbers_matchAPlainFormatting() {
        func reference(_ v: Double, _ d: Int) -> String {
            var scale = 1.0
            for _ in 0..<d { scale *= 10 }
            guard (v * scale).magnitude < 9e15 else { return v.description }
            let n = Int64((v * scale).rounded(.toNearestOrAwayFromZero))
            if n == 0 { return "0" }
            var all = String(n.magnitude)
            if all.count <= d { all = String(repeating: "0", count: d + 1 - all.count) + all }
            var fraction = String(all.suffix(d))
            while fraction.hasSuffix("0") { fraction.removeLast() }
            return (n < 0 ? "-" : "") + all.dropLast(d) + (fraction.isEmpty ? "" : "." + fraction)
        }
        func fx(_ v: Double, _ d: Int) -> String { var s = ""; GestureJSON.appendFixed(v, decimals: d, to: &s); return s }
        var values: [Double] = [0, -0.0, 1, -1, 9, 10, 99, 100, 999, 1000, 1001, 12345.678, 0.9995, 9.9999, 99.99995,
                                0.5, 0.05, 0.005, 0.0005, 0.00005, 0.000049, 1e-300, -1e-300,
                                8.999e12, 8_999_999_999_999.5, 9e12, 9.1e12, 8.99e11, 9e11, 1e15, -1e15,
                                1e20, -1e20, .greatestFiniteMagnitude, .leastNonzeroMagnitude]
        for k in [0.0, 1, 2, 7, 10, 37, 123, 999, 4096, 65_536, 1_234_567] {
            for half in [0.5, 0.05, 0.005, 0.0005, 0.00005, 0.000005] {
                values += [k + half, -(k + half), k + half.nextDown, k + half.nextUp]
            }
        }
        var seed: UInt64 = 0x243F6A8885A308D3
        for _ in 0..<20_000 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            values.append(Double(Int64(bitPattern: seed) >> (seed % 50)) / Double(1 << (seed % 30)))
        }
        for v in values {
            for d in [0, 1, 2, 3, 4, 6] {
                #expect(fx(v, d) == reference(v, d), "\(v) with \(d) decimals")
            }
        }
        // The line's own numbers (written by the 3- and 4-decimal functions directly).
        let device = GestureJSON.DeviceInfo(name: "n", kind: .touchpad)
        for v in values.prefix(2_000) {
            let g = GestureEvent(kind: .pan, phase: .changed, id: 1, fingers: 2, time: .zero,
                                 dxMillimeters: v, scale: v, y: v)
            var line: [UInt8] = []
            GestureJSON.withLine(g, device: device, origin: .zero) { line = Array($0) }
            let s = String(decoding: line, as: UTF8.self)
            #expect(s.hasSuffix(#","dx_mm":\#(reference(v, 3)),"scale":\#(reference(v, 4)),"y":\#(reference(v, 4))}"#), "\(s)")
        }
    }

    /// Times are microseconds printed as seconds (six digits at most, trailing zeros trimmed),
    /// against a plain formatting.
    @Test func times_matchAPlainFormatting() {
        func reference(_ us: Int64) -> String {
            let a = us.magnitude
            var fraction = String(a % 1_000_000)
            fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            return (us < 0 ? "-" : "") + String(a / 1_000_000) + (fraction.isEmpty ? "" : "." + fraction)
        }
        var values: [Int64] = [0, 1, -1, 10, 100_000, 120_000, 123_456, 999_999, 1_000_000, 1_000_001, -1_500_000,
                               3_600_000_000, .max, .min + 1]
        var seed: UInt64 = 0x13198A2E03707344
        for _ in 0..<5_000 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            values.append(Int64(bitPattern: seed) >> (seed % 60))
        }
        for us in values {
            var s = ""
            GestureJSON.appendTime(Instant(microseconds: us), origin: .zero, to: &s)
            #expect(s == reference(us), "\(us)")
        }
    }
}
