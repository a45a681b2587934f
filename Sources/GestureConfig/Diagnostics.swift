/// One problem in a config file, located to the line and column.
/// Printed as `config error: FILE:LINE:COLUMN: message (hint)`.
public struct ConfigDiagnostic: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String
    public var hint: String?

    public init(file: String, line: Int, column: Int, message: String, hint: String? = nil) {
        self.file = file; self.line = line; self.column = column; self.message = message; self.hint = hint
    }

    public var description: String {
        let place = line > 0 ? "\(file):\(line):\(column)" : file
        return "config error: \(place): \(message)" + (hint.map { " (\($0))" } ?? "")
    }
}

/// Every problem found in a config file (all of them, not just the first), in file order.
public struct ConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    public var diagnostics: [ConfigDiagnostic]
    public init(_ diagnostics: [ConfigDiagnostic]) { self.diagnostics = diagnostics }
    /// One `config error:` line per problem.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// "did you mean" suggestions by edit distance.
enum Suggest {
    static func hint(for word: String, among candidates: [String]) -> String {
        if let best = closest(word, candidates) { return "did you mean '\(best)'?" }
        return "expected one of: " + candidates.joined(separator: ", ")
    }

    static func closest(_ word: String, _ candidates: [String]) -> String? {
        let w = word.lowercased()
        var best: (String, Int)?
        for c in candidates {
            let d = distance(w, c.lowercased())
            if best == nil || d < best!.1 { best = (c, d) }
        }
        guard let (c, d) = best else { return nil }
        let allowed = Swift.max(2, Swift.min(w.count, c.count) / 3)
        return d <= allowed ? c : nil
    }

    /// Levenshtein distance, with an adjacent transposition counting 1.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = Swift.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = Swift.min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
