/// Shell-style glob matching for device names: `*` (any run), `?` (one character),
/// `[abc]`, `[a-z]`, `[!abc]`, and `\` to escape. Case-sensitive, on Unicode characters.
public enum Glob {
    public static func matches(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern), t = Array(text)
        var pi = 0, ti = 0
        var starP = -1, starT = 0
        while ti < t.count {
            if pi < p.count, p[pi] == "*" {
                starP = pi; starT = ti; pi += 1
                continue
            }
            if pi < p.count, let next = matchOne(p, pi, t[ti]) {
                pi = next; ti += 1
                continue
            }
            if starP >= 0 {
                starT += 1; ti = starT; pi = starP + 1
                continue
            }
            return false
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }

    /// If the pattern element at `i` matches `c`, the index after that element.
    private static func matchOne(_ p: [Character], _ i: Int, _ c: Character) -> Int? {
        switch p[i] {
        case "?": return i + 1
        case "\\": return i + 1 < p.count ? (p[i + 1] == c ? i + 2 : nil) : (c == "\\" ? i + 1 : nil)
        case "[":
            var j = i + 1
            var negate = false
            if j < p.count, p[j] == "!" || p[j] == "^" { negate = true; j += 1 }
            var matched = false
            var first = true
            while j < p.count, p[j] != "]" || first {
                first = false
                if j + 2 < p.count, p[j + 1] == "-", p[j + 2] != "]" {
                    if p[j] <= c && c <= p[j + 2] { matched = true }
                    j += 3
                } else {
                    if p[j] == c { matched = true }
                    j += 1
                }
            }
            guard j < p.count else { return p[i] == c ? i + 1 : nil } // no closing ]: literal
            return matched != negate ? j + 1 : nil
        default: return p[i] == c ? i + 1 : nil
        }
    }
}
