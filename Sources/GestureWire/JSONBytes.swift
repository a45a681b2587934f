import GestureCore

/// JSON text appended as UTF-8 bytes to one buffer. The daemon's socket path encodes a gesture
/// line per frame while a pan or pinch runs; building it here instead of through `String +=`
/// costs a tenth of the instructions (callgrind, issue 13) and no allocation once the buffer has
/// grown. `GestureJSON`'s String functions are built on it, so both give the same text.
public struct JSONBytes: Sendable {
    public var bytes: [UInt8] = []

    public init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    /// Empties the buffer, keeping its capacity.
    public mutating func clear() { bytes.removeAll(keepingCapacity: true) }

    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Text known to need no escaping (keys, punctuation).
    @inline(__always)
    public mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { append($0) }
    }

    /// A piece of at most 64 bytes that `write` puts at the pointer it gets (returning how many),
    /// appended in one go: numbers were appended digit by digit, each append checking the
    /// buffer's uniqueness and capacity (a third of a socket line's instructions, callgrind).
    @inline(__always)
    mutating func piece(_ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &storage) { raw in
            let p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let n = write(p)
            bytes.append(contentsOf: UnsafeBufferPointer(start: p, count: n))
        }
    }

    /// Writers into a piece: each puts its bytes at `p + i` and returns the index after them.
    enum Piece {
        @inline(__always)
        static func text(_ s: StaticString, _ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> Int {
            let n = s.utf8CodeUnitCount, from = s.utf8Start
            for j in 0..<n { p[i + j] = from[j] }
            return i + n
        }

        /// The decimal digits of `v`, at least `width` of them (zero-padded).
        @inline(__always)
        static func digits(_ v: UInt64, width: Int = 1, _ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> Int {
            var length = 0, n = v
            repeat { length += 1; n /= 10 } while n != 0
            if length < width { length = width }
            var k = i + length
            n = v
            while k > i {
                k -= 1
                p[k] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n % 10)
                n /= 10
            }
            return i + length
        }

        /// `.` and the fraction `frac` / 10^decimals without trailing zeros; nothing when it is 0.
        @inline(__always)
        static func fraction(_ frac: UInt64, decimals: Int, _ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> Int {
            guard frac != 0 else { return i }
            var f = frac, width = decimals
            while f % 10 == 0 { f /= 10; width -= 1 }
            p[i] = UInt8(ascii: ".")
            return digits(f, width: width, p, i + 1)
        }

        /// `scaled` / `scale` with `decimals` fractional digits at most, trailing zeros trimmed.
        @inline(__always)
        static func fixed(_ scaled: Int64, scale: Int64, decimals: Int, _ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> Int {
            var n = scaled, i = i
            if n == 0 { p[i] = UInt8(ascii: "0"); return i + 1 }
            if n < 0 { p[i] = UInt8(ascii: "-"); i += 1; n = -n }
            i = digits(UInt64(n / scale), p, i)
            return fraction(UInt64(n % scale), decimals: decimals, p, i)
        }
    }

    /// A few bytes, one by one: for the short pieces of a line this is several times cheaper
    /// than the generic `append(contentsOf:)`.
    @inline(__always)
    mutating func append(_ buf: UnsafeBufferPointer<UInt8>) {
        for b in buf { bytes.append(b) }
    }

    @inline(__always)
    public mutating func byte(_ b: UInt8) { bytes.append(b) }

    /// Text known to need no escaping, from a String (enum raw values).
    public mutating func rawText(_ s: String) {
        var s = s
        s.withUTF8 { append($0) }
    }

    /// A decimal integer.
    public mutating func int<T: BinaryInteger>(_ v: T) {
        piece { p in
            var i = 0
            if v < 0 { p[0] = UInt8(ascii: "-"); i = 1 }
            return Piece.digits(UInt64(v.magnitude), p, i)
        }
    }

    /// The decimal digits of `v`, at least `width` of them (zero-padded; at most 40).
    mutating func digits(_ v: UInt64, width: Int = 1) {
        piece { Piece.digits(v, width: Swift.min(width, 40), $0, 0) }
    }

    /// A JSON string literal, escaped per RFC 8259.
    public mutating func string(_ v: String) {
        bytes.append(UInt8(ascii: "\""))
        var clean = true
        for b in v.utf8 where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { clean = false; break }
        if clean {
            rawText(v)
        } else {
            for b in v.utf8 {
                switch b {
                case UInt8(ascii: "\""): raw("\\\"")
                case UInt8(ascii: "\\"): raw("\\\\")
                case UInt8(ascii: "\n"): raw("\\n")
                case UInt8(ascii: "\r"): raw("\\r")
                case UInt8(ascii: "\t"): raw("\\t")
                case 0x08: raw("\\b")
                case 0x0C: raw("\\f")
                case ..<0x20:
                    raw("\\u00")
                    let hex: StaticString = "0123456789abcdef"
                    hex.withUTF8Buffer { h in bytes.append(h[Int(b >> 4)]); bytes.append(h[Int(b & 0xF)]) }
                default: bytes.append(b)   // UTF-8 of everything else passes through as it is
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A finite number with at most `decimals` fractional digits, trailing zeros trimmed; huge
    /// values use Swift's shortest form.
    public mutating func fixed(_ v: Double, decimals: Int) {
        guard let (n, scale) = Self.scaled(v, decimals: decimals) else { rawText(v.description); return }
        piece { Piece.fixed(n, scale: scale, decimals: decimals, $0, 0) }
    }

    /// `v` × 10^decimals rounded, and 10^decimals; nil when that is too large for `fixed`.
    @inline(__always)
    private static func scaled(_ v: Double, decimals: Int) -> (Int64, Int64)? {
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (v * Double(scale)).rounded()
        guard scaled.magnitude < 9e15 else { return nil }
        return (Int64(scaled), scale)
    }

    /// Seconds since `origin`, exact to the microsecond, trailing zeros trimmed (`1.5`, `0.000125`).
    public mutating func time(_ t: Instant, origin: Instant) {
        let us = t.microseconds - origin.microseconds
        piece { p in
            var i = 0
            if us < 0 { p[0] = UInt8(ascii: "-"); i = 1 }
            let a = us.magnitude
            i = Piece.digits(a / 1_000_000, p, i)
            return Piece.fraction(a % 1_000_000, decimals: 6, p, i)
        }
    }

    /// `,"key":value` with `decimals` fixed digits; nothing for nil, NaN or infinity.
    public mutating func number(_ key: StaticString, _ v: Double?, decimals: Int) {
        guard let v, v.isFinite else { return }
        guard key.utf8CodeUnitCount <= 24, let (n, scale) = Self.scaled(v, decimals: decimals) else {
            raw(",\""); raw(key); raw("\":")
            fixed(v, decimals: decimals)
            return
        }
        // Key and value in one piece: at most 4 + 24 + 22 bytes.
        piece { p in
            var i = Piece.text(",\"", p, 0)
            i = Piece.text(key, p, i)
            i = Piece.text("\":", p, i)
            return Piece.fixed(n, scale: scale, decimals: decimals, p, i)
        }
    }
}
