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
        if v < 0 { bytes.append(UInt8(ascii: "-")) }
        digits(UInt64(v.magnitude))
    }

    /// The decimal digits of `v`, at least `width` of them (zero-padded).
    mutating func digits(_ v: UInt64, width: Int = 1) {
        var tmp: (UInt64, UInt64, UInt64) = (0, 0, 0)   // 24 bytes: 20 digits at most
        withUnsafeMutableBytes(of: &tmp) { buf in
            var i = buf.count
            var n = v
            repeat {
                i -= 1
                buf[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n % 10)
                n /= 10
            } while n != 0 || buf.count - i < width
            for j in i..<buf.count { bytes.append(buf[j]) }
        }
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
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (v * Double(scale)).rounded()
        guard scaled.magnitude < 9e15 else { rawText(v.description); return }
        var n = Int64(scaled)
        if n == 0 { bytes.append(UInt8(ascii: "0")); return }
        if n < 0 { bytes.append(UInt8(ascii: "-")); n = -n }
        digits(UInt64(n / scale))
        fraction(UInt64(n % scale), decimals: decimals)
    }

    /// Seconds since `origin`, exact to the microsecond, trailing zeros trimmed (`1.5`, `0.000125`).
    public mutating func time(_ t: Instant, origin: Instant) {
        let us = t.microseconds - origin.microseconds
        if us < 0 { bytes.append(UInt8(ascii: "-")) }
        let a = us.magnitude
        digits(a / 1_000_000)
        fraction(a % 1_000_000, decimals: 6)
    }

    /// `.` and the fraction `frac` / 10^decimals without trailing zeros; nothing when it is 0.
    private mutating func fraction(_ frac: UInt64, decimals: Int) {
        guard frac != 0 else { return }
        var f = frac, width = decimals
        while f % 10 == 0 { f /= 10; width -= 1 }
        bytes.append(UInt8(ascii: "."))
        digits(f, width: width)
    }

    /// `,"key":value` with `decimals` fixed digits; nothing for nil, NaN or infinity.
    public mutating func number(_ key: StaticString, _ v: Double?, decimals: Int) {
        guard let v, v.isFinite else { return }
        raw(",\""); raw(key); raw("\":")
        fixed(v, decimals: decimals)
    }
}
