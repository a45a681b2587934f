/// A small JSON reader for protocol lines (RFC 8259), so the wire module and the daemon need no
/// Foundation (which alone costs the idle daemon ~8 MB of mapped pages). Values come back as plain
/// Swift values: String, Double, Bool, [Any], [String: Any], or `JSONNull`.
public struct JSONNull: Hashable, Sendable {}

enum JSONReader {
    struct Failure: Error { var message: String }

    /// The maximum nesting of arrays and objects (protocol lines are 2–3 deep).
    static let maximumDepth = 64

    static func parse(_ bytes: [UInt8]) throws(Failure) -> Any {
        var p = Parser(bytes: bytes)
        p.skipSpace()
        let v = try p.value(depth: 0)
        p.skipSpace()
        guard p.i == bytes.count else { throw Failure(message: "trailing characters after the JSON value") }
        return v
    }

    struct Parser {
        let bytes: [UInt8]
        var i = 0

        mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0a || bytes[i] == 0x0d { i += 1 }
        }

        mutating func value(depth: Int) throws(Failure) -> Any {
            guard i < bytes.count else { throw Failure(message: "unexpected end of line") }
            guard depth < JSONReader.maximumDepth else { throw Failure(message: "nested too deeply") }
            switch bytes[i] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return try string()
            case UInt8(ascii: "t"): try literal("true"); return true
            case UInt8(ascii: "f"): try literal("false"); return false
            case UInt8(ascii: "n"): try literal("null"); return JSONNull()
            default: return try number()
            }
        }

        mutating func literal(_ word: StaticString) throws(Failure) {
            let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            guard i + w.count <= bytes.count, Array(bytes[i..<i + w.count]) == Array(w) else {
                throw Failure(message: "invalid literal")
            }
            i += w.count
        }

        mutating func object(depth: Int) throws(Failure) -> [String: Any] {
            i += 1
            var out: [String: Any] = [:]
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return out }
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw Failure(message: "expected a key string") }
                let key = try string()
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw Failure(message: "expected ':'") }
                i += 1
                skipSpace()
                out[key] = try value(depth: depth + 1)
                skipSpace()
                guard i < bytes.count else { throw Failure(message: "unexpected end of line in an object") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "}") { i += 1; return out }
                throw Failure(message: "expected ',' or '}'")
            }
        }

        mutating func array(depth: Int) throws(Failure) -> [Any] {
            i += 1
            var out: [Any] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return out }
            while true {
                skipSpace()
                out.append(try value(depth: depth + 1))
                skipSpace()
                guard i < bytes.count else { throw Failure(message: "unexpected end of line in an array") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "]") { i += 1; return out }
                throw Failure(message: "expected ',' or ']'")
            }
        }

        mutating func hex4() throws(Failure) -> UInt32 {
            guard i + 4 <= bytes.count else { throw Failure(message: "short \\u escape") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[i]
                let d: UInt32
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
                default: throw Failure(message: "bad \\u escape")
                }
                v = v * 16 + d
                i += 1
            }
            return v
        }

        mutating func string() throws(Failure) -> String {
            i += 1
            var out: [UInt8] = []
            while true {
                guard i < bytes.count else { throw Failure(message: "unterminated string") }
                let c = bytes[i]
                if c == UInt8(ascii: "\"") { i += 1; break }
                if c < 0x20 { throw Failure(message: "control character in a string") }
                if c != UInt8(ascii: "\\") { out.append(c); i += 1; continue }
                i += 1
                guard i < bytes.count else { throw Failure(message: "unterminated escape") }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5c)
                case UInt8(ascii: "/"): out.append(0x2f)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0c)
                case UInt8(ascii: "n"): out.append(0x0a)
                case UInt8(ascii: "r"): out.append(0x0d)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if scalar >= 0xD800 && scalar < 0xDC00 {
                        // A surrogate pair: \uD83D\uDE00.
                        guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                            throw Failure(message: "lone surrogate in \\u escape")
                        }
                        i += 2
                        let low = try hex4()
                        guard low >= 0xDC00 && low < 0xE000 else { throw Failure(message: "bad surrogate pair") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw Failure(message: "invalid \\u escape") }
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default: throw Failure(message: "unknown escape")
                }
            }
            return String(decoding: out, as: UTF8.self)
        }

        mutating func number() throws(Failure) -> Double {
            let start = i
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
            func digits(_ p: inout Parser) -> Int {
                var n = 0
                while p.i < p.bytes.count, p.bytes[p.i] >= UInt8(ascii: "0"), p.bytes[p.i] <= UInt8(ascii: "9") { p.i += 1; n += 1 }
                return n
            }
            guard digits(&self) > 0 else { throw Failure(message: "expected a value") }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                guard digits(&self) > 0 else { throw Failure(message: "expected digits after '.'") }
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                i += 1
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                guard digits(&self) > 0 else { throw Failure(message: "expected exponent digits") }
            }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            // Swift reads 1e400 as infinity: a number Double cannot hold is an error, never ±inf.
            guard let d = Double(text), d.isFinite else { throw Failure(message: "number out of range: \(text.prefix(24))") }
            return d
        }
    }
}
