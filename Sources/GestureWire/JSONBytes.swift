import GestureCore

/// JSON text appended as UTF-8 bytes to one buffer, which keeps its capacity when emptied: the
/// daemon writes a line a frame while a pan or pinch runs, with no allocation once the buffer
/// has grown. `GestureJSON`'s String functions are built on it, so both give the same text.
/// `Piece` holds the writers themselves: each writes at a pointer into room reserved beforehand.
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
    /// appended in one go: one capacity check for the piece, not one a byte.
    @inline(__always)
    mutating func piece(_ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &storage) { raw in
            let p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let n = write(p)
            precondition(n <= 64, "JSONBytes.piece: \(n) bytes written into 64")
            bytes.append(contentsOf: UnsafeBufferPointer(start: p, count: n))
        }
    }

    /// Like `piece`, for up to `maxCount` bytes in a temporary buffer: a whole gesture line is
    /// written this way and appended once (each append costs a uniqueness and capacity check).
    @inline(__always)
    mutating func block(maxCount: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxCount) { buf in
            let p = buf.baseAddress!
            let n = write(p)
            // The callers' room estimates are worst cases; one past them is a bug: stop, never send.
            precondition(n <= maxCount, "JSONBytes.block: \(n) bytes written into room for \(maxCount)")
            bytes.append(contentsOf: UnsafeBufferPointer(start: p, count: n))
        }
    }

    /// Writers into a piece: each puts its bytes at `p + i` and returns the index after them.
    enum Piece {
        @inline(__always)
        static func text(_ s: StaticString, _ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> Int {
            copy(s.utf8Start, count: s.utf8CodeUnitCount, p, i)
        }

        /// `count` bytes from `from` at `p + i`, in 8-byte words (the last one overlapping), or
        /// 4-byte or single bytes for short ones: for a key's known length the branches fold
        /// away, and no call is made for a few bytes.
        @inline(__always)
        static func copy(_ from: UnsafePointer<UInt8>, count n: Int, _ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> Int {
            let src = UnsafeRawPointer(from), dst = UnsafeMutableRawPointer(p + i)
            if n >= 8 {
                var k = 0
                while k + 8 < n { word(UInt64.self, src, dst, k); k += 8 }
                word(UInt64.self, src, dst, n - 8)
            } else if n >= 4 {
                word(UInt32.self, src, dst, 0); word(UInt32.self, src, dst, n - 4)
            } else {
                var k = 0
                while k < n { p[i + k] = from[k]; k += 1 }
            }
            return i + n
        }

        @inline(__always)
        private static func word<W: FixedWidthInteger>(_: W.Type, _ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, _ k: Int) {
            dst.storeBytes(of: src.loadUnaligned(fromByteOffset: k, as: W.self), toByteOffset: k, as: W.self)
        }

        /// The UTF-8 of `s` as it is (text known to need no escaping).
        @inline(__always)
        static func utf8(_ s: String, _ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> Int {
            var s = s
            return s.withUTF8 { u in
                guard let from = u.baseAddress else { return i }
                return copy(from, count: u.count, p, i)
            }
        }

        /// Room a piece needs for `string(s)`: every byte escaped as `\u00XX`, and the quotes.
        static func stringRoom(_ s: String) -> Int { 6 * s.utf8.count + 2 }

        /// A JSON string literal, escaped per RFC 8259 (at most `stringRoom(s)` bytes). Names and
        /// device names rarely hold a byte to escape: those are found first and copied in words.
        static func string(_ s: String, _ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> Int {
            var s = s
            return s.withUTF8 { u in
                p[i] = UInt8(ascii: "\"")
                var j = i &+ 1
                if let from = u.baseAddress {
                    if u.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
                        j = copy(from, count: u.count, p, j)
                    } else {
                        for b in u { j = escaped(b, p, j) }
                    }
                }
                p[j] = UInt8(ascii: "\"")
                return j &+ 1
            }
        }

        private static func escaped(_ b: UInt8, _ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> Int {
            switch b {
            case UInt8(ascii: "\""): return text("\\\"", p, i)
            case UInt8(ascii: "\\"): return text("\\\\", p, i)
            case UInt8(ascii: "\n"): return text("\\n", p, i)
            case UInt8(ascii: "\r"): return text("\\r", p, i)
            case UInt8(ascii: "\t"): return text("\\t", p, i)
            case 0x08: return text("\\b", p, i)
            case 0x0C: return text("\\f", p, i)
            case ..<0x20:
                let hex: StaticString = "0123456789abcdef"
                let j = text("\\u00", p, i)
                p[j] = hex.utf8Start[Int(b >> 4)]; p[j + 1] = hex.utf8Start[Int(b & 0xF)]
                return j + 2
            default: p[i] = b; return i + 1   // UTF-8 of everything else passes through as it is
            }
        }

        /// A decimal integer (at most 21 bytes).
        @inline(__always)
        static func integer<T: BinaryInteger>(_ v: T, _ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> Int {
            var i = i
            if v < 0 { p[i] = UInt8(ascii: "-"); i += 1 }
            return digits(UInt64(v.magnitude), p, i)
        }

        /// Seconds since `origin`, exact to the microsecond, trailing zeros trimmed (at most 28 bytes).
        @inline(__always)
        static func time(_ t: Instant, origin: Instant, _ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> Int {
            let us = t.microseconds - origin.microseconds
            var i = i
            if us < 0 { p[i] = UInt8(ascii: "-"); i += 1 }
            let a = us.magnitude
            i = digits(a / 1_000_000, p, i)
            return micros(a % 1_000_000, p, i)
        }

        /// `.` and `f` millionths (below 10^6), trailing zeros trimmed; nothing for 0. All six
        /// digits are written as three pairs from the table and the end is moved back past the
        /// zeros, as `tenThousandths` writes its fraction.
        @inline(__always)
        static func micros(_ f: UInt64, _ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> Int {
            guard f != 0 else { return i }
            let high = f / 10_000, rest = f &- high &* 10_000
            let middle = rest / 100, low = rest &- middle &* 100
            p[i] = UInt8(ascii: ".")
            pair(high, p, i &+ 1); pair(middle, p, i &+ 3); pair(low, p, i &+ 5)
            if low != 0 { return i &+ (low % 10 != 0 ? 7 : 6) }
            if middle != 0 { return i &+ (middle % 10 != 0 ? 5 : 4) }
            return i &+ (high % 10 != 0 ? 3 : 2)
        }

        /// Room a piece needs for one `number`: key, punctuation and the longest value (22
        /// bytes fixed, or Swift's shortest form of a huge value, at most 24).
        static func numberRoom(_ key: StaticString) -> Int { key.utf8CodeUnitCount + 32 }

        /// `,"key":value` with `decimals` fixed digits; nothing for nil, NaN or infinity.
        @inline(__always)
        static func number(_ key: StaticString, _ v: Double?, decimals: Int,
                           _ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> Int {
            guard let v, v.isFinite else { return i }
            var i = i
            p[i] = UInt8(ascii: ","); p[i + 1] = UInt8(ascii: "\"")
            i = text(key, p, i + 2)
            p[i] = UInt8(ascii: "\""); p[i + 1] = UInt8(ascii: ":")
            return fixed(v, decimals: decimals, p, i + 2)
        }

        /// A finite `v` with at most `decimals` fractional digits, trailing zeros trimmed (at
        /// most 24 bytes). 3 and 4 decimals go to `fixed3` and `fixed4`, whose digits are
        /// written by the same code as a gesture line's numbers.
        static func fixed(_ v: Double, decimals: Int, _ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> Int {
            switch decimals {
            case 3: return fixed3(v, p, i)
            case 4: return fixed4(v, p, i)
            default:
                guard let (n, scale) = JSONBytes.scaled(v, decimals: decimals) else { return shortest(v, p, i) }
                return fixed(n, scale: scale, decimals: decimals, p, i)
            }
        }

        /// A finite `v` with at most 3 fractional digits (millimetres, degrees).
        @inline(__always)
        static func fixed3(_ v: Double, _ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> Int {
            let x = v * 1000
            guard x.magnitude < 9e15 else { return shortest(v, p, i) }
            return thousandths(x, p, i)
        }

        /// A finite `v` with at most 4 fractional digits (scale, x, y).
        @inline(__always)
        static func fixed4(_ v: Double, _ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> Int {
            let x = v * 10000
            guard x.magnitude < 9e15 else { return shortest(v, p, i) }
            return tenThousandths(x, p, i)
        }

        /// `fixed3(v)` at `k`, just past its key (written from `start`); for NaN or infinity
        /// nothing, and `start`: the key is dropped. The range check stands for the finiteness
        /// one (neither passes it), so a line's number tests once before its digits. The key is
        /// the caller's literal, so this stays small enough to inline into each number.
        @inline(__always)
        static func number3(_ v: Double, _ p: UnsafeMutablePointer<UInt8>, _ k: Int, orBackTo start: Int) -> Int {
            let x = v * 1000
            guard x.magnitude < 9e15 else { return v.isFinite ? shortest(v, p, k) : start }
            return thousandths(x, p, k)
        }

        /// `fixed4(v)` at `k`, as `number3` does it.
        @inline(__always)
        static func number4(_ v: Double, _ p: UnsafeMutablePointer<UInt8>, _ k: Int, orBackTo start: Int) -> Int {
            let x = v * 10000
            guard x.magnitude < 9e15 else { return v.isFinite ? shortest(v, p, k) : start }
            return tenThousandths(x, p, k)
        }

        /// `x` / 1000 (|x| < 9e15) rounded to 3 fractional digits, trailing zeros trimmed. The
        /// scale is a constant, so its divisions become multiplications and the fraction two
        /// stores. Indices add with `&+`: they stay within the piece's reserved room.
        @inline(__always)
        private static func thousandths(_ x: Double, _ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> Int {
            let (m, j) = signed(DecimalText.roundedHalfAway(x), p, i)
            let k = digits(m / 1000, p, j)
            let f = m % 1000
            guard f != 0 else { return k }
            // All three digits are written; the returned end drops the trailing zeros.
            let first = f / 100, rest = f &- first &* 100
            p[k] = UInt8(ascii: "."); p[k &+ 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: first)
            pair(rest, p, k &+ 2)
            return k &+ (rest == 0 ? 2 : rest % 10 == 0 ? 3 : 4)
        }

        /// `x` / 10000 (|x| < 9e15) rounded to 4 fractional digits, as `thousandths` does it.
        @inline(__always)
        private static func tenThousandths(_ x: Double, _ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> Int {
            let (m, j) = signed(DecimalText.roundedHalfAway(x), p, i)
            let k = digits(m / 10000, p, j)
            let f = m % 10000
            guard f != 0 else { return k }
            let high = f / 100, low = f &- high &* 100
            p[k] = UInt8(ascii: ".")
            pair(high, p, k &+ 1); pair(low, p, k &+ 3)
            return k &+ (low != 0 ? (low % 10 != 0 ? 5 : 4) : (high % 10 != 0 ? 3 : 2))
        }

        /// `-` for a negative `n`, and its magnitude.
        @inline(__always)
        private static func signed(_ n: Int64, _ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> (UInt64, Int) {
            if n < 0 { p[i] = UInt8(ascii: "-"); return (n.magnitude, i &+ 1) }
            return (UInt64(n), i)
        }

        /// Swift's shortest form of `v`, for values too large for fixed digits: rare, and kept
        /// out of line so the fixed paths stay small enough to inline.
        @inline(never)
        static func shortest(_ v: Double, _ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> Int {
            utf8(v.description, p, i)
        }

        /// The two digits of `v` (below 100) at `p + k`.
        @inline(__always)
        static func pair(_ v: UInt64, _ p: UnsafeMutablePointer<UInt8>, _ k: Int) {
            let pairs: StaticString = """
                00010203040506070809101112131415161718192021222324252627282930313233343536373839\
                4041424344454647484950515253545556575859606162636465666768697071727374757677787980\
                81828384858687888990919293949596979899
                """
            let t = pairs.utf8Start + Int(truncatingIfNeeded: v) &* 2
            p[k] = t[0]; p[k &+ 1] = t[1]
        }

        /// The decimal digits of `v`, at least `width` of them (zero-padded). Up to three digits
        /// (the integer parts of a gesture's numbers) are written at once; longer ones find
        /// their length by comparisons and are written two digits a division.
        @inline(__always)
        static func digits(_ v: UInt64, width: Int = 1, _ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> Int {
            if width <= 1 && v < 1000 {
                if v < 10 { p[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v); return i &+ 1 }
                if v < 100 { pair(v, p, i); return i &+ 2 }
                let first = v / 100
                p[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: first)
                pair(v &- first &* 100, p, i &+ 1)
                return i &+ 3
            }
            var length = 1, power: UInt64 = 10
            while length < 20 && v >= power { length += 1; power = power &* 10 }
            if length < width { length = width }
            var k = i + length, n = v
            while k - i >= 2 {
                k -= 2
                pair(n % 100, p, k)
                n /= 100
            }
            if k > i { p[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n % 10) }
            return i + length
        }

        /// `.` and the fraction `frac` / 10^decimals without trailing zeros; nothing when it is 0.
        /// Its few digits (the decimals other than 3 and 4: sizes, the monitor's text) are
        /// written right to left, one a division.
        @inline(__always)
        static func fraction(_ frac: UInt64, decimals: Int, _ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> Int {
            guard frac != 0 else { return i }
            var f = frac, width = decimals
            while f % 10 == 0 { f /= 10; width -= 1 }
            p[i] = UInt8(ascii: ".")
            var k = i + width
            while k > i {
                p[k] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: f % 10)
                f /= 10; k -= 1
            }
            return i + 1 + width
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

    /// Many bytes at once (a whole line).
    mutating func append(contentsOf buf: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: buf) }

    @inline(__always)
    public mutating func byte(_ b: UInt8) { bytes.append(b) }

    /// Text known to need no escaping, from a String (enum raw values).
    public mutating func rawText(_ s: String) {
        var s = s
        s.withUTF8 { append($0) }
    }

    /// A decimal integer.
    public mutating func int<T: BinaryInteger>(_ v: T) {
        piece { Piece.integer(v, $0, 0) }
    }

    /// The decimal digits of `v`, at least `width` of them (zero-padded; at most 40).
    mutating func digits(_ v: UInt64, width: Int = 1) {
        piece { Piece.digits(v, width: Swift.min(width, 40), $0, 0) }
    }

    /// A JSON string literal, escaped per RFC 8259.
    public mutating func string(_ v: String) {
        block(maxCount: Piece.stringRoom(v)) { Piece.string(v, $0, 0) }
    }

    /// A finite number with at most `decimals` fractional digits, trailing zeros trimmed; huge
    /// values use Swift's shortest form.
    public mutating func fixed(_ v: Double, decimals: Int) {
        piece { Piece.fixed(v, decimals: decimals, $0, 0) }
    }

    /// `v` × 10^decimals rounded (half away from zero), and 10^decimals; nil when that is too
    /// large for `fixed`.
    @inline(__always)
    fileprivate static func scaled(_ v: Double, decimals: Int) -> (Int64, Int64)? {
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let x = v * Double(scale)
        // Below 2^53 (9.007e15) `rounded()` is an integer below 9e15 exactly when `x` is.
        guard x.magnitude < 9e15 else { return nil }
        return (DecimalText.roundedHalfAway(x), scale)
    }


    /// Seconds since `origin`, exact to the microsecond, trailing zeros trimmed (`1.5`, `0.000125`).
    public mutating func time(_ t: Instant, origin: Instant) {
        piece { Piece.time(t, origin: origin, $0, 0) }
    }

    /// `,"key":value` with `decimals` fixed digits; nothing for nil, NaN or infinity.
    public mutating func number(_ key: StaticString, _ v: Double?, decimals: Int) {
        guard let v, v.isFinite else { return }
        block(maxCount: Piece.numberRoom(key)) { Piece.number(key, v, decimals: decimals, $0, 0) }
    }
}
