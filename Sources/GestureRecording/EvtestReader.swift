import GestureCore

/// Reads the output of `evtest DEVICE`, the log most bug reports paste:
///
///     Input driver version is 1.0.1
///     Input device ID: bus 0x18 vendor 0x0 product 0x0 version 0x0
///     Input device name: "hyn_ts"
///     Supported events:
///       Event type 1 (EV_KEY)
///         Event code 330 (BTN_TOUCH)
///       Event type 3 (EV_ABS)
///         Event code 53 (ABS_MT_POSITION_X)
///           Value      0
///           Min        0
///           Max      172
///           Fuzz       0            (Fuzz, Flat, Resolution only when non-zero)
///     Key repeat handling:          (optional; its Repeat lines are skipped)
///     Properties:
///       Property type 1 (INPUT_PROP_DIRECT)
///     Testing ... (interrupt to exit)
///     Event: time 1762504306.703328, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value 25
///     Event: time 1762504306.703328, -------------- SYN_REPORT ------------
///
/// Lines may be indented (logs pasted into Markdown lists are); lines before the header (the shell
/// prompt, evtest's device list) are skipped. `MSC_SCAN`/`MSC_RAW` values are hexadecimal, as
/// evtest prints them. Anything else is an error naming its line.
public enum EvtestReader {
    /// True when the text looks like evtest output: one of its first 64 lines starts (after
    /// indentation) with evtest's header or event prefix.
    public static func looksLikeEvtest(_ bytes: [UInt8]) -> Bool {
        var lines = 0
        for raw in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let line = String(decoding: raw, as: UTF8.self).trimmingLeadingSpace
            if line.hasPrefix("Input driver version is") || line.hasPrefix("Input device ID: bus")
                || line.hasPrefix("Event: time ") { return true }
            lines += 1
            if lines >= 64 { return false }
        }
        return false
    }

    public static func parse(_ bytes: [UInt8], file: String,
                             description: DeviceDescription? = nil) throws(RecordingError) -> Recording {
        var p = Parser(file: file)
        for (i, raw) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            p.lineNumber = i + 1
            var text = String(decoding: raw, as: UTF8.self)
            if text.hasSuffix("\r") { text.removeLast() }
            try p.line(text.trimmingLeadingSpace)
        }
        guard !p.events.isEmpty || p.sawHeader else {
            throw RecordingError(file: file, line: 1, message: "expected evtest output ('Input device ID: …' and 'Event: time …' lines), found neither")
        }
        if let description { return Recording(description: description, events: p.events, format: .evtest) }
        guard p.sawHeader else {
            throw RecordingError(file: file, line: p.firstEventLine,
                                 message: "expected evtest's device header (Input device ID, name, Supported events) before the first 'Event:' line; paste the whole evtest output, or pass --device-description DESC")
        }
        return Recording(description: p.description(), events: p.events, format: .evtest)
    }

    struct Parser {
        enum Section { case prelude, supported, properties, repeats, events }
        let file: String
        var lineNumber = 0
        var section = Section.prelude
        var sawHeader = false
        var name = ""
        var id: [UInt16] = [0, 0, 0, 0]
        var properties: Set<UInt16> = []
        var codes: [UInt16: Set<UInt16>] = [:]
        var absInfo: [UInt16: AbsInfo] = [:]
        var currentType: UInt16?
        var currentAxis: UInt16?
        var events: [InputEvent] = []
        var firstEventLine = 0

        init(file: String) { self.file = file }

        func fail(_ message: String) -> RecordingError {
            RecordingError(file: file, line: lineNumber, message: message)
        }

        mutating func line(_ s: String) throws(RecordingError) {
            if s.isEmpty { return }
            if s.hasPrefix("Event: time ") { return try event(s) }
            if section == .events {
                if s == "^C" { return }
                throw fail("expected an 'Event: time …' line after the first event, found '\(s.clipped)'")
            }
            if s.hasPrefix("Input driver version is") { sawHeader = true; return }
            if s.hasPrefix("Input device ID:") { return try deviceID(s) }
            if s.hasPrefix("Input device name:") { name = s.dropPrefix("Input device name:").trimmed.unquoted; sawHeader = true; return }
            if s == "Supported events:" { section = .supported; sawHeader = true; return }
            if s == "Properties:" { section = .properties; return }
            if s.hasPrefix("Key repeat handling:") { section = .repeats; return }
            if s.hasPrefix("Testing ...") { section = .events; return }
            switch section {
            case .prelude: return   // shell prompt, evtest's device list, "Select the device…"
            case .repeats: guard s.hasPrefix("Repeat ") || s.hasPrefix("Value ") else { break }; return
            case .supported: return try supported(s)
            case .properties:
                guard s.hasPrefix("Property type ") else { break }
                properties.insert(try number(s.dropPrefix("Property type "), "a property number", max: 0x1f))
                return
            case .events: break
            }
            throw fail("expected an evtest header line (Event type/code, Value/Min/Max/Fuzz/Flat/Resolution, Property type), found '\(s.clipped)'")
        }

        mutating func deviceID(_ s: String) throws(RecordingError) {
            let words = s.dropPrefix("Input device ID:").split(separator: " ").map(String.init)
            let keys = ["bus", "vendor", "product", "version"]
            guard words.count == 8, zip(keys, stride(from: 0, to: 8, by: 2)).allSatisfy({ words[$1] == $0 }) else {
                throw fail("expected 'Input device ID: bus 0xN vendor 0xN product 0xN version 0xN', found '\(s.clipped)'")
            }
            for k in 0..<4 {
                guard let v = UInt16(words[2 * k + 1].dropPrefix("0x"), radix: 16) else {
                    throw fail("expected a hexadecimal \(keys[k]) (0x…), found '\(words[2 * k + 1])'")
                }
                id[k] = v
            }
            sawHeader = true
        }

        mutating func supported(_ s: String) throws(RecordingError) {
            if s.hasPrefix("Event type ") {
                let type = try number(s.dropPrefix("Event type "), "an event type", max: EventType.max)
                currentType = type; currentAxis = nil
                if type != EventType.syn { codes[type, default: []] = codes[type] ?? [] }
                return
            }
            if s.hasPrefix("Event code ") {
                guard let type = currentType else { throw fail("expected 'Event type N (…)' before an 'Event code' line") }
                let code = try number(s.dropPrefix("Event code "), "an event code", max: EventType.maxCode(type))
                codes[type, default: []].insert(code)
                if type == EventType.abs { currentAxis = code; absInfo[code] = AbsInfo(minimum: 0, maximum: 0) } else { currentAxis = nil }
                return
            }
            let words = s.split(separator: " ", omittingEmptySubsequences: true)
            guard words.count == 2, let axis = currentAxis,
                  ["Value", "Min", "Max", "Fuzz", "Flat", "Resolution"].contains(String(words[0])) else {
                throw fail("expected an evtest header line (Event type/code, Value/Min/Max/Fuzz/Flat/Resolution), found '\(s.clipped)'")
            }
            guard let v = Int32(words[1]) else { throw fail("expected a decimal \(words[0]) within 32 bits, found '\(words[1])'") }
            switch words[0] {
            case "Value": absInfo[axis]!.value = v
            case "Min": absInfo[axis]!.minimum = v
            case "Max": absInfo[axis]!.maximum = v
            case "Fuzz": absInfo[axis]!.fuzz = v
            case "Flat": absInfo[axis]!.flat = v
            default: absInfo[axis]!.resolution = v
            }
        }

        /// `Event: time S.U, type T (…), code C (…), value V` or `Event: time S.U, ---- SYN_x ----`.
        mutating func event(_ s: String) throws(RecordingError) {
            section = .events
            let body = s.dropPrefix("Event: time ")
            guard let comma = body.firstIndex(of: ",") else { throw fail("expected 'Event: time <sec>.<usec>, …', found '\(s.clipped)'") }
            let time = try timestamp(String(body[..<comma]))
            let rest = String(body[body.index(after: comma)...]).trimmed
            let event: InputEvent
            if let syn = Self.synCodes.first(where: { rest.containsText(" \($0.name) ") || rest.hasSuffix(" \($0.name)") }), !rest.hasPrefix("type ") {
                event = InputEvent(time: time, type: EventType.syn, code: syn.code, value: 0)
            } else {
                event = try typed(rest, time: time)
            }
            if events.isEmpty { firstEventLine = lineNumber }
            if let last = events.last, event.time < last.time {
                throw fail("expected event times that never go back, found \(String(body[..<comma])) after an earlier event")
            }
            events.append(event)
        }

        static let synCodes: [(name: String, code: UInt16)] = [
            ("SYN_REPORT", SynCode.report), ("SYN_CONFIG", 1), ("SYN_MT_REPORT", SynCode.mtReport), ("SYN_DROPPED", SynCode.dropped),
        ]

        func typed(_ rest: String, time: Instant) throws(RecordingError) -> InputEvent {
            let parts = rest.split(separator: ",").map { String($0).trimmed }
            guard parts.count == 3, parts[0].hasPrefix("type "), parts[1].hasPrefix("code "), parts[2].hasPrefix("value ") else {
                throw fail("expected 'type T (NAME), code C (NAME), value V' or a '---- SYN_REPORT ----' marker, found '\(rest.clipped)'")
            }
            let type = try number(parts[0].dropPrefix("type "), "an event type", max: EventType.max)
            let code = try number(parts[1].dropPrefix("code "), "an event code", max: EventType.maxCode(type))
            let v = parts[2].dropPrefix("value ")
            let hex = type == EventType.msc && (code == 3 || code == 4)   // MSC_RAW, MSC_SCAN: printed %02x
            guard let value = hex ? UInt32(v, radix: 16).map({ Int32(bitPattern: $0) }) : Int32(v) else {
                throw fail("expected a \(hex ? "hexadecimal" : "decimal") value within 32 bits, found '\(v.clipped)'")
            }
            return InputEvent(time: time, type: type, code: code, value: value)
        }

        /// The leading decimal number of `N (NAME)`.
        func number(_ s: String, _ what: String, max: UInt16) throws(RecordingError) -> UInt16 {
            let digits = s.prefix(while: { $0.isASCII && $0.isNumber })
            guard let n = UInt16(digits), n <= max else { throw fail("expected \(what) (0…\(max)), found '\(s.clipped)'") }
            return n
        }

        func timestamp(_ s: String) throws(RecordingError) -> Instant {
            let halves = s.split(separator: ".", omittingEmptySubsequences: false)
            guard halves.count == 2, (1...12).contains(halves[0].count), (1...6).contains(halves[1].count),
                  let sec = Int64(halves[0]), let frac = Int64(halves[1]), sec >= 0, frac >= 0 else {
                throw fail("expected a timestamp <sec>.<usec>, found '\(s.clipped)'")
            }
            var usec = frac
            for _ in halves[1].count..<6 { usec *= 10 }
            return Instant(seconds: sec, microseconds: usec)
        }

        func description() -> DeviceDescription {
            var all = codes
            all[EventType.syn, default: []].insert(SynCode.report)
            return DeviceDescription(name: name, bustype: id[0], vendor: id[1], product: id[2], version: id[3],
                                     properties: properties, codes: all, absInfo: absInfo)
        }
    }
}

extension String {
    fileprivate var trimmingLeadingSpace: String {
        String(drop(while: { $0 == " " || $0 == "\t" }))
    }
    fileprivate var trimmed: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
    fileprivate func dropPrefix(_ p: String) -> String { hasPrefix(p) ? String(dropFirst(p.count)) : self }
    fileprivate var unquoted: String {
        count >= 2 && hasPrefix("\"") && hasSuffix("\"") ? String(dropFirst().dropLast()) : self
    }
    fileprivate var clipped: String { count > 80 ? String(prefix(77)) + "…" : self }
}
