/// UTF-8 text written as bytes: the decoder's rate-limited "kernel bug:" lines, which a device
/// with an axis out of range sends while it streams. Made of literals and our own digits, a line
/// stays out of the static runtime's string interpolation and integer formatting, whose code
/// would otherwise join the resident set for the rest of the stream.
struct TextBytes {
    private(set) var bytes: [UInt8] = []

    init() {}

    init(_ prefix: [UInt8]) { bytes = prefix }

    mutating func add(_ s: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    mutating func add(_ n: Int64) { DecimalText.write(n) { bytes.append($0) } }

    mutating func add(_ n: Int32) { add(Int64(n)) }
    mutating func add(_ n: Int) { add(Int64(n)) }

    var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// A whole number in decimal, a byte at a time: the one digit writer of the text made as bytes
/// (the decoder's reports, a hook's environment, /proc paths).
public enum DecimalText {
    public static func write(_ n: Int64, _ put: (UInt8) -> Void) {
        if n < 0 { put(UInt8(ascii: "-")) }
        var m = n.magnitude, divisor: UInt64 = 1
        while divisor <= m / 10 { divisor *= 10 }
        repeat {
            put(UInt8(ascii: "0") + UInt8(m / divisor))
            m %= divisor
            divisor /= 10
        } while divisor > 0
    }

    /// `Int64(x.rounded())` for |x| < 2^53 without a call to libm's `round` (a page of libm
    /// brought in for the lines and hooks of a stream): `x - trunc(x)` is exact there
    /// (Sterbenz), so comparing it with ±0.5 rounds as `round` does, half away from zero.
    /// Inlinable: each number of a gesture line (GestureWire) rounds through it, in another module.
    @inlinable @inline(__always)
    public static func roundedHalfAway(_ x: Double) -> Int64 {
        let t = Int64(x)
        let rest = x - Double(t)
        if rest >= 0.5 { return t + 1 }
        if rest <= -0.5 { return t - 1 }
        return t
    }
}
