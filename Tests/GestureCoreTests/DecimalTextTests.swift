import Testing
@testable import GestureCore

/// DecimalText: the digit writer of the text made as bytes, and the rounding the line writer and
/// a hook's environment share, checked against the standard library's.
@Suite struct DecimalTextTests {
    func written(_ n: Int64) -> String {
        var bytes: [UInt8] = []
        DecimalText.write(n) { bytes.append($0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func write_matchesDescription() {
        var g = SystemRandomNumberGenerator()
        for n: Int64 in [0, 1, -1, 9, 10, -10, 99, 100, Int64.max, Int64.min] { #expect(written(n) == String(n)) }
        for _ in 0..<20_000 {
            let n = Int64.random(in: Int64.min...Int64.max, using: &g) >> Int64.random(in: 0...62, using: &g)
            #expect(written(n) == String(n))
        }
    }

    /// Half away from zero, as libm's round, below 2^53: half-points, their neighbours, random.
    @Test func roundedHalfAway_isRound() {
        var g = SystemRandomNumberGenerator()
        var cases: [Double] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
                               4503599627370495.5, -4503599627370495.5, 4503599627370497, 9007199254740991]
        for k in 0..<2_000 {
            let h = Double(k) + 0.5
            cases += [h, h.nextUp, h.nextDown, -h, -h.nextUp, -h.nextDown]
        }
        for _ in 0..<50_000 { cases.append(Double.random(in: -1e15...1e15, using: &g) / Double(Int.random(in: 1...100_000, using: &g))) }
        for x in cases {
            #expect(DecimalText.roundedHalfAway(x) == Int64(x.rounded()), "\(x)")
        }
    }
}
