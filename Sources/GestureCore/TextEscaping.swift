/// Outside text (device names from the kernel or a recording, socket lines, file names) made safe
/// for a log line or a terminal: control characters become visible escapes, so a name holding
/// `\n` cannot forge a log line and one holding ESC cannot drive the terminal.
public enum TextEscaping {
    /// `s` with C0 controls, DEL and C1 controls escaped (`\n`, `\r`, `\t`, `\x1b`, `\x7f`,
    /// `\u{9b}`) and a backslash doubled, so every escape is unambiguous. Other text is unchanged.
    public static func escaped(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: needsEscape) else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 8)
        for u in s.unicodeScalars {
            guard needsEscape(u) else { out.unicodeScalars.append(u); continue }
            switch u {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\\": out += "\\\\"
            default:
                let h = String(u.value, radix: 16)
                out += u.value < 0x80 ? "\\x" + (h.count < 2 ? "0" : "") + h : "\\u{" + h + "}"
            }
        }
        return out
    }

    /// `s` with control characters escaped as in `escaped` but backslashes kept: for text that
    /// may already hold escapes (a whole log line), where only the controls are a danger.
    public static func controlsEscaped(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { needsEscape($0) && $0 != "\\" }) else { return s }
        var out = ""
        for u in s.unicodeScalars {
            if u == "\\" || !needsEscape(u) { out.unicodeScalars.append(u) } else { out += escaped(String(u)) }
        }
        return out
    }

    static func needsEscape(_ u: Unicode.Scalar) -> Bool {
        u.value < 0x20 || u.value == 0x7f || (u.value >= 0x80 && u.value < 0xa0) || u == "\\"
    }
}
