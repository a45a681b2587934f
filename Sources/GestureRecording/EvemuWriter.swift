import GestureCore

/// Writes a recording as an EVEMU 1.3 one-file recording that `EvemuReader` (and evemu-play)
/// read back: header (N:, I:, P:, B:, A:) and one `E:` line per event.
public enum EvemuWriter {
    public static func write(_ recording: Recording) -> String {
        var out = header(recording.description)
        out.reserveCapacity(out.utf8.count + recording.events.count * 36)
        for e in recording.events { out += eventLine(e) }
        return out
    }

    /// The description lines (a `.desc` file).
    public static func header(_ d: DeviceDescription) -> String {
        var out = "# EVEMU 1.3\n"
        out += "# Input device name: \"\(d.name)\"\n"
        out += "N: \(d.name)\n"
        out += "I: \(hex4(d.bustype)) \(hex4(d.vendor)) \(hex4(d.product)) \(hex4(d.version))\n"
        out += "P:" + bitmask(d.properties, bytes: 8) + "\n"
        var types = Set(d.codes.keys)
        types.insert(EventType.syn)
        out += "B: 00" + bitmask(types, bytes: 8) + "\n"
        for type in d.codes.keys.sorted() where type != EventType.syn {
            let bytes = (Int(EventType.maxCode(type)) + 8) / 8
            let mask = bitmask(d.codes[type] ?? [], bytes: Swift.max(1, bytes))
            // 8 bytes per line, as evemu does; repeated lines of one type continue the mask.
            let parts = mask.split(separator: " ")
            var i = 0
            while i < parts.count {
                out += "B: \(hex2(UInt8(type)))"
                for p in parts[i..<Swift.min(i + 8, parts.count)] { out += " \(p)" }
                out += "\n"
                i += 8
            }
        }
        for code in d.absInfo.keys.sorted() {
            let a = d.absInfo[code]!
            out += "A: \(hex2(UInt8(truncatingIfNeeded: code))) \(a.minimum) \(a.maximum) \(a.fuzz) \(a.flat) \(a.resolution)\n"
        }
        return out
    }

    public static func eventLine(_ e: InputEvent) -> String {
        let us = e.time.microseconds
        let sec = us >= 0 ? us / 1_000_000 : (us - 999_999) / 1_000_000
        let usec = us - sec * 1_000_000
        let u = String(usec)
        return "E: \(sec).\(String(repeating: "0", count: Swift.max(0, 6 - u.count)))\(u) \(hex4(e.type)) \(hex4(e.code)) \(e.value)\n"
    }

    static func bitmask(_ bits: Set<UInt16>, bytes: Int) -> String {
        var b = [UInt8](repeating: 0, count: Swift.max(bytes, Int((bits.max() ?? 0) / 8) + 1))
        for bit in bits { b[Int(bit / 8)] |= 1 << UInt8(bit % 8) }
        return b.map { " " + hex2($0) }.joined()
    }

    static func hex2(_ v: UInt8) -> String {
        let s = String(v, radix: 16)
        return s.count < 2 ? "0" + s : s
    }

    static func hex4(_ v: UInt16) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: Swift.max(0, 4 - s.count)) + s
    }
}
