import Foundation
import Testing

/// The man pages and shell completions name every command, every option and every config key
/// the program has. The lists come from the program itself (`gestured --help`, each command's
/// `--help`) and from the config parser's key lists, so a new option without documentation
/// fails here.
@Suite struct ManualTests {
    static let repo = TestPaths.repo

    static func text(_ path: String) throws -> String {
        try String(contentsOf: repo.appendingPathComponent(path), encoding: .utf8)
    }

    static func help(_ args: [String]) throws -> String {
        guard let bin = TestPaths.binary else { throw TestFailure(description: "the gestured binary is not built next to the tests") }
        return try TestPaths.run(bin, args).output
    }

    /// The commands `gestured --help` lists.
    static func commands() throws -> [String] {
        let out = try help(["--help"])
        guard let start = out.range(of: "commands:\n") else { throw TestFailure(description: "no command list in: \(out)") }
        return out[start.upperBound...].split(separator: "\n").prefix(while: { $0.hasPrefix("  ") })
            .compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// The long options in a command's --help text.
    static func options(_ command: String) throws -> Set<String> {
        let out = try help([command, "--help"])
        let regex = try NSRegularExpression(pattern: "(?<![\\w-])--[a-z][a-z-]*")
        let ns = out as NSString
        return Set(regex.matches(in: out, range: NSRange(location: 0, length: ns.length)).map { ns.substring(with: $0.range) })
    }

    static let documents = ["docs/man/gestured.8.scd", "completions/gestured.bash", "completions/_gestured", "completions/gestured.fish"]

    @Test func test_everyCommandAndOption_isInTheManPageAndEveryCompletion() throws {
        let commands = try Self.commands()
        #expect(commands.count >= 8 && commands.contains("doctor"), "\(commands)")
        for doc in Self.documents {
            let text = try Self.text(doc)
            for c in commands {
                #expect(text.contains(doc.hasSuffix(".scd") ? "*\(c)*" : c), "\(doc) lacks the command \(c)")
                for o in try Self.options(c) where o != "--help" || !doc.hasSuffix(".scd") {
                    let name = String(o.dropFirst(2))
                    let found = doc.hasSuffix(".fish") ? text.contains("-l \(name)") : text.contains(o)
                    #expect(found, "\(doc) lacks \(c) \(o)")
                }
            }
        }
    }

    @Test func test_everyGestureName_isCompleted() throws {
        for doc in Self.documents.dropFirst() {
            let text = try Self.text(doc)
            for g in ["tap", "doubleTap", "longPress", "swipe", "pan", "pinch", "rotate", "edgeSwipe"] {
                #expect(text.contains(g), "\(doc) lacks the gesture \(g)")
            }
        }
    }

    /// Every key in the parser's key lists (its source, read as data) is described in gestured.yaml(5).
    @Test func test_everyConfigKey_isInTheConfigManPage() throws {
        let sources = try FileManager.default.contentsOfDirectory(atPath: Self.repo.appendingPathComponent("Sources/GestureConfig").path)
            .filter { $0.hasPrefix("ConfigParser") || $0 == "ThresholdOverrides.swift" }.sorted()
        #expect(sources.count >= 3, "\(sources)")
        let parser = try sources.map { try Self.text("Sources/GestureConfig/" + $0) }.joined(separator: "\n")
        let page = try Self.text("docs/man/gestured.yaml.5.scd")
        let lists = try NSRegularExpression(pattern: "(?:keys: |Keys = )\\[([^\\]]*)\\]|\\.init\\(name: \"[a-z_]+\"")
        let word = try NSRegularExpression(pattern: "\"([a-z_]+)\"")
        let ns = parser as NSString
        var keys: Set<String> = []
        for m in lists.matches(in: parser, range: NSRange(location: 0, length: ns.length)) {
            let inner = ns.substring(with: m.range)
            let ins = inner as NSString
            for w in word.matches(in: inner, range: NSRange(location: 0, length: ins.length)) {
                keys.insert(ins.substring(with: w.range(at: 1)))
            }
        }
        #expect(keys.count >= 40, "found only \(keys.sorted()) in the parser")
        for k in keys.sorted() {
            #expect(page.contains("*\(k)*") || page.contains("*\(k):*"), "gestured.yaml.5.scd lacks the key \(k)")
        }
    }
}
