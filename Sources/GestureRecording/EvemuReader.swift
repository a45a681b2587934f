import GestureCore

/// Reads evemu recordings (EVEMU 1.0–1.3):
///
///     # comment                               (anywhere; also after an E: line's fields)
///     N: <device name>
///     I: <bus> <vendor> <product> <version>   (hexadecimal)
///     P: <property bitmask bytes>             (hex; optional, may repeat)
///     B: <type> <bitmask bytes>               (hex; repeated lines of one type continue the mask;
///                                              type 00 lists the event types)
///     A: <code> <min> <max> <fuzz> <flat> [<resolution>]   (code hex, values decimal)
///     E: <sec>.<usec> <type> <code> <value>   (type/code hex, value decimal)
///
/// A `.events` file holds only `E:` lines; its description comes from a `.desc` file (the same
/// header lines), given separately or concatenated in front of it.
public enum EvemuReader {
    /// Parses a one-file recording (header + events). When `description` is given it is used for
    /// the device, and the text may (but need not) carry its own header.
    public static func parse(_ bytes: [UInt8], file: String,
                             description: DeviceDescription? = nil) throws(RecordingError) -> Recording {
        var p = Parser(bytes: bytes, file: file)
        try p.run(wantEvents: true)
        if p.sawHeader && !p.sawEvent { throw p.truncatedHeader() }
        if let description { return Recording(description: description, events: p.events) }
        guard p.sawHeader else {
            if p.events.isEmpty {
                throw RecordingError(file: file, line: 1, message: "expected an evemu recording (N:, I:, B:, A: and E: lines), found no header and no events")
            }
            throw RecordingError(file: file, line: p.firstEventLine,
                                 message: "expected an evemu device description (N:, I:, B:, A: lines) before the first E: line; for a .events file pass its .desc (--device-description DESC)")
        }
        return Recording(description: p.makeDescription(), events: p.events)
    }

    /// Parses a description (`.desc`: header lines only; E: lines are an error).
    public static func parseDescription(_ bytes: [UInt8], file: String) throws(RecordingError) -> DeviceDescription {
        var p = Parser(bytes: bytes, file: file)
        try p.run(wantEvents: false)
        guard p.sawHeader else {
            throw RecordingError(file: file, line: Swift.max(1, p.lineNumber),
                                 message: "expected an evemu device description (N:, I:, B:, A: lines), found none")
        }
        return p.makeDescription()
    }

    /// True when the text has no header lines before its first event (a bare `.events` file).
    public static func lacksHeader(_ bytes: [UInt8]) -> Bool {
        var i = 0
        while i < bytes.count {
            var j = i
            while j < bytes.count && bytes[j] != UInt8(ascii: "\n") { j += 1 }
            var k = i
            while k < j && (bytes[k] == 0x20 || bytes[k] == 0x09 || bytes[k] == 0x0d) { k += 1 }
            if k + 1 < j && bytes[k + 1] == UInt8(ascii: ":") {
                return bytes[k] == UInt8(ascii: "E")
            }
            i = j + 1
        }
        return true
    }

    /// Reads an evemu recording a chunk at a time (`gestured replay`, `replay -`): memory stays at
    /// one chunk plus one line, and events come out as soon as their line is complete. The device
    /// description is known once the first E: line arrives (header lines may not follow it).
    public struct Stream {
        var parser: Parser
        var pending: [UInt8] = []
        let given: DeviceDescription?
        /// The longest line accepted (evemu lines are under 200 bytes; a name is at most 255).
        public static let maximumLineBytes = 64 * 1024

        /// `description` (a `.desc` for a bare `.events` stream) replaces any header in the text.
        public init(file: String, description: DeviceDescription? = nil) {
            parser = Parser(bytes: [], file: file)
            given = description
        }

        /// The device, once the first event has been read (nil before).
        public private(set) var description: DeviceDescription?

        /// Parses the complete lines in `pending` + `chunk` and passes their events (with the device) to `event`.
        public mutating func feed(_ chunk: some Collection<UInt8>, _ event: (DeviceDescription, InputEvent) -> Void) throws(RecordingError) {
            pending.append(contentsOf: chunk)
            guard let lastNewline = pending.lastIndex(of: UInt8(ascii: "\n")) else {
                if pending.count > Self.maximumLineBytes {
                    throw RecordingError(file: parser.file, line: parser.lineNumber + 1,
                                         message: "expected a line of at most \(Self.maximumLineBytes) bytes; this does not look like a recording")
                }
                return
            }
            parser.bytes = Array(pending[...lastNewline])
            pending.removeSubrange(...lastNewline)
            try parse(event)
            if pending.count > Self.maximumLineBytes {
                throw RecordingError(file: parser.file, line: parser.lineNumber + 1,
                                     message: "expected a line of at most \(Self.maximumLineBytes) bytes; this does not look like a recording")
            }
        }

        /// The input ended: parses a last line without its newline (an error for an event line,
        /// as for a whole file) and checks a description was found.
        public mutating func finish(_ event: (DeviceDescription, InputEvent) -> Void) throws(RecordingError) {
            parser.bytes = pending
            pending = []
            try parse(event)
            if description == nil { try describe() }
            if !parser.sawEvent { throw parser.truncatedHeader() }
        }

        mutating func parse(_ event: (DeviceDescription, InputEvent) -> Void) throws(RecordingError) {
            try parser.run(wantEvents: true)
            if parser.sawEvent && description == nil { try describe() }
            if let description { for e in parser.events { event(description, e) } }
            parser.events.removeAll(keepingCapacity: true)
        }

        mutating func describe() throws(RecordingError) {
            if let given { description = given; return }
            guard parser.sawHeader else {
                if !parser.sawEvent {
                    throw RecordingError(file: parser.file, line: 1, message: "expected an evemu recording (N:, I:, B:, A: and E: lines), found no header and no events")
                }
                throw RecordingError(file: parser.file, line: parser.firstEventLine,
                                     message: "expected an evemu device description (N:, I:, B:, A: lines) before the first E: line; for a .events file pass its .desc (--device-description DESC)")
            }
            description = parser.makeDescription()
        }
    }

    struct Parser {
        var bytes: [UInt8]
        let file: String
        var lineNumber = 0
        var events: [InputEvent] = []
        var firstEventLine = 0
        var sawEvent = false
        var sawHeader = false
        var name = ""
        var sawName = false
        var id: (UInt16, UInt16, UInt16, UInt16) = (0, 0, 0, 0)
        var sawId = false
        var properties: Set<UInt16> = []
        var propertyByteOffset = 0
        var types: Set<UInt16> = []
        var codes: [UInt16: Set<UInt16>] = [:]
        var bitmaskOffset: [UInt16: Int] = [:]
        var absInfo: [UInt16: AbsInfo] = [:]

        init(bytes: [UInt8], file: String) {
            self.bytes = bytes; self.file = file
            events.reserveCapacity(bytes.count / 36)
        }

        /// A description and no events: evemu-record writes the header only once the device is open,
        /// so the file was cut off (or is a `.desc` given as the recording).
        func truncatedHeader() -> RecordingError {
            RecordingError(file: file, line: Swift.max(1, lineNumber),
                           message: "expected E: lines after the device description, found the end of the file; the recording looks truncated (a .desc alone goes to --device-description)")
        }

        func fail(_ message: String) -> RecordingError {
            RecordingError(file: file, line: lineNumber, message: message)
        }

        /// Recording text quoted in an error, control characters escaped (it reaches a terminal).
        func text(_ r: Range<Int>) -> String { TextEscaping.escaped(String(decoding: bytes[r], as: UTF8.self)) }

        /// Splits a line's content into whitespace-separated fields, stopping at '#'.
        func fields(_ start: Int, _ end: Int) -> [Range<Int>] {
            var out: [Range<Int>] = []
            var i = start
            while i < end {
                while i < end && (bytes[i] == 0x20 || bytes[i] == 0x09) { i += 1 }
                if i >= end || bytes[i] == UInt8(ascii: "#") { break }
                let s = i
                while i < end && bytes[i] != 0x20 && bytes[i] != 0x09 { i += 1 }
                out.append(s..<i)
            }
            return out
        }

        func hex(_ r: Range<Int>, _ what: String, max: UInt64 = UInt64(UInt16.max)) throws(RecordingError) -> UInt64 {
            var v: UInt64 = 0
            var i = r.lowerBound
            if r.count > 2 && bytes[i] == UInt8(ascii: "0") && (bytes[i + 1] | 0x20) == UInt8(ascii: "x") { i += 2 }
            guard i < r.upperBound else { throw fail("expected \(what) (hexadecimal), found '\(text(r))'") }
            while i < r.upperBound {
                let c = bytes[i]
                let d: UInt64
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt64(c - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt64(c - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt64(c - UInt8(ascii: "A") + 10)
                default: throw fail("expected \(what) (hexadecimal), found '\(text(r))'")
                }
                v = v * 16 + d
                if v > max { throw fail("expected \(what) of at most 0x\(String(max, radix: 16)), found '\(text(r))'") }
                i += 1
            }
            return v
        }

        func decimal(_ r: Range<Int>, _ what: String) throws(RecordingError) -> Int32 {
            var i = r.lowerBound
            var negative = false
            if i < r.upperBound && (bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+")) {
                negative = bytes[i] == UInt8(ascii: "-"); i += 1
            }
            guard i < r.upperBound else { throw fail("expected \(what) (a decimal integer), found '\(text(r))'") }
            var v: Int64 = 0
            while i < r.upperBound {
                let c = bytes[i]
                guard c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") else {
                    throw fail("expected \(what) (a decimal integer), found '\(text(r))'")
                }
                v = v * 10 + Int64(c - UInt8(ascii: "0"))
                if v > Int64(Int32.max) + 1 { throw fail("expected \(what) within 32 bits, found '\(text(r))'") }
                i += 1
            }
            if negative { v = -v }
            guard v >= Int64(Int32.min) && v <= Int64(Int32.max) else {
                throw fail("expected \(what) within 32 bits, found '\(text(r))'")
            }
            return Int32(v)
        }

        func timestamp(_ r: Range<Int>) throws(RecordingError) -> Instant {
            var sec: Int64 = 0, usec: Int64 = 0, digits = 0, i = r.lowerBound
            var sawDot = false, secDigits = 0
            while i < r.upperBound {
                let c = bytes[i]
                if c == UInt8(ascii: ".") && !sawDot { sawDot = true; i += 1; continue }
                guard c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") else {
                    throw fail("expected a timestamp <sec>.<usec>, found '\(text(r))'")
                }
                let d = Int64(c - UInt8(ascii: "0"))
                if sawDot {
                    guard digits < 6 else { throw fail("expected at most 6 digits of microseconds, found '\(text(r))'") }
                    usec = usec * 10 + d; digits += 1
                } else {
                    guard secDigits < 12 else { throw fail("expected a timestamp <sec>.<usec>, found '\(text(r))'") }
                    sec = sec * 10 + d; secDigits += 1
                }
                i += 1
            }
            guard sawDot, digits > 0, secDigits > 0 else {
                throw fail("expected a timestamp <sec>.<usec>, found '\(text(r))'")
            }
            while digits < 6 { usec *= 10; digits += 1 }
            return Instant(seconds: sec, microseconds: usec)
        }

        mutating func run(wantEvents: Bool) throws(RecordingError) {
            var i = 0
            let n = bytes.count
            while i < n {
                var end = i
                while end < n && bytes[end] != UInt8(ascii: "\n") { end += 1 }
                lineNumber += 1
                if end == n && wantEvents && end > i {
                    // The last line has no newline: evemu always writes one, so a final event line
                    // without it was most likely cut off mid-value.
                    var k = i
                    while k < end && (bytes[k] == 0x20 || bytes[k] == 0x09) { k += 1 }
                    if k < end && bytes[k] == UInt8(ascii: "E") {
                        try line(i, end, wantEvents: wantEvents)
                        throw fail("expected a newline at the end of the last event line; the file looks truncated")
                    }
                }
                var lineEnd = end
                if lineEnd > i && bytes[lineEnd - 1] == 0x0d { lineEnd -= 1 }
                try line(i, lineEnd, wantEvents: wantEvents)
                i = end + 1
            }
        }

        mutating func line(_ start: Int, _ end: Int, wantEvents: Bool) throws(RecordingError) {
            var s = start
            while s < end && (bytes[s] == 0x20 || bytes[s] == 0x09) { s += 1 }
            if s == end || bytes[s] == UInt8(ascii: "#") { return }
            guard s + 1 < end, bytes[s + 1] == UInt8(ascii: ":") else {
                throw fail("expected an evemu line (N:, I:, P:, B:, A:, E: or a # comment), found '\(text(s..<end))'")
            }
            let tag = bytes[s]
            let body = s + 2
            if tag != UInt8(ascii: "E") && sawEvent {
                throw fail("expected only E: lines after the first event, found a '\(Character(Unicode.Scalar(tag))):' line")
            }
            switch tag {
            case UInt8(ascii: "N"):
                var b = body
                while b < end && (bytes[b] == 0x20 || bytes[b] == 0x09) { b += 1 }
                var e = end
                while e > b && (bytes[e - 1] == 0x20 || bytes[e - 1] == 0x09) { e -= 1 }
                name = String(decoding: bytes[b..<e], as: UTF8.self); sawName = true; sawHeader = true
            case UInt8(ascii: "I"):
                let f = fields(body, end)
                guard f.count == 4 else {
                    throw fail("expected 'I: <bus> <vendor> <product> <version>' (4 hexadecimal fields), found \(f.count)")
                }
                id = (UInt16(try hex(f[0], "a bus type")), UInt16(try hex(f[1], "a vendor id")),
                      UInt16(try hex(f[2], "a product id")), UInt16(try hex(f[3], "a version")))
                sawId = true; sawHeader = true
            case UInt8(ascii: "P"):
                for r in fields(body, end) {
                    let byte = try hex(r, "a property bitmask byte", max: 0xff)
                    for bit in 0..<8 where byte & (1 << UInt64(bit)) != 0 {
                        properties.insert(UInt16(propertyByteOffset * 8 + bit))
                    }
                    propertyByteOffset += 1
                }
                sawHeader = true
            case UInt8(ascii: "B"):
                let f = fields(body, end)
                guard !f.isEmpty else { throw fail("expected 'B: <type> <bitmask bytes…>', found an empty line") }
                let type = UInt16(try hex(f[0], "an event type", max: UInt64(EventType.max)))
                var offset = bitmaskOffset[type] ?? 0
                for r in f.dropFirst() {
                    let byte = try hex(r, "a bitmask byte", max: 0xff)
                    for bit in 0..<8 where byte & (1 << UInt64(bit)) != 0 {
                        let code = UInt16(offset * 8 + bit)
                        if type == EventType.syn { types.insert(code) } else { codes[type, default: []].insert(code) }
                    }
                    offset += 1
                }
                bitmaskOffset[type] = offset
                sawHeader = true
            case UInt8(ascii: "A"):
                let f = fields(body, end)
                guard f.count == 5 || f.count == 6 else {
                    throw fail("expected 'A: <code> <min> <max> <fuzz> <flat> [<resolution>]' (5 or 6 fields), found \(f.count)")
                }
                let code = UInt16(try hex(f[0], "an axis code", max: UInt64(EventType.maxCode(EventType.abs))))
                let info = AbsInfo(minimum: try decimal(f[1], "a minimum"), maximum: try decimal(f[2], "a maximum"),
                                   fuzz: try decimal(f[3], "a fuzz"), flat: try decimal(f[4], "a flat"),
                                   resolution: f.count == 6 ? try decimal(f[5], "a resolution") : 0)
                absInfo[code] = info
                sawHeader = true
            case UInt8(ascii: "E"):
                guard wantEvents else { throw fail("expected only description lines (N:, I:, P:, B:, A:) in a description, found an E: line") }
                let f = fields(body, end)
                guard f.count == 4 else {
                    throw fail("expected 'E: <sec>.<usec> <type> <code> <value>' (4 fields), found \(f.count)")
                }
                let time = try timestamp(f[0])
                let type = UInt16(try hex(f[1], "an event type", max: UInt64(EventType.max)))
                let code = UInt16(try hex(f[2], "an event code", max: 0x2ff))
                let value = try decimal(f[3], "an event value")
                if !sawEvent { firstEventLine = lineNumber; sawEvent = true }
                events.append(InputEvent(time: time, type: type, code: code, value: value))
            default:
                throw fail("expected an evemu line (N:, I:, P:, B:, A:, E: or a # comment), found a '\(Character(Unicode.Scalar(tag))):' line")
            }
        }

        func makeDescription() -> DeviceDescription {
            var allCodes = codes
            for t in types where t != EventType.syn && allCodes[t] == nil { allCodes[t] = [] }
            allCodes[EventType.syn, default: []].insert(SynCode.report)
            for code in absInfo.keys { allCodes[EventType.abs, default: []].insert(code) }
            // An axis present in the bitmask without an A: line is kept as a code only.
            let abs = absInfo
            return DeviceDescription(name: name, bustype: id.0, vendor: id.1, product: id.2, version: id.3,
                                     properties: properties, codes: allCodes, absInfo: abs)
        }
    }
}
