/// The one argument parser of gestured's commands: what a command accepts, and the words of a
/// command line split into flags, options with their values and positionals.
///
/// Rules (the same for every command):
/// - `-h` or `--help` anywhere stops parsing: the command prints its help and exits 0.
/// - An option that takes a value takes the next word, whatever it is (`--config --x` reads
///   "--x"), or what follows `=` in `--name=value`. A flag given `=value` is an unknown option.
/// - `-` is a positional (standard input, by convention). `--` ends the options where the
///   command takes positionals; everything after it is a positional.
/// - A repeated option appears once per occurrence, in order: the command decides (the last
///   value wins, or each is added).
/// - The first mistake stops parsing; what came before it is still returned, in order, so a
///   command that checks values while applying them reports the first mistake on the line.
/// Pure: no printing and no exit; `ArgumentStop` carries the text to print and the status.
public struct CommandSyntax: Sendable {
    /// One option: its names (the first is the one reported in `Argument`), and for an option
    /// that takes a value, what a missing one is called in the error ("a file", "a value").
    public struct Option: Sendable {
        public var names: [String]
        public var value: String?

        public static func flag(_ names: String...) -> Option { Option(names: names, value: nil) }
        public static func value(_ names: String..., needs: String = "a value") -> Option {
            Option(names: names, value: needs)
        }
    }

    /// Prefix of every error: "gestured run".
    public var command: String
    /// The --help text, ending in a newline; also printed after an unknown option.
    public var help: String
    public var options: [Option]
    /// How many positionals the command takes (0: every word must be an option).
    public var positionals: Int
    /// How an unrecognised word is called in the error: "unknown option", "unexpected argument".
    public var unknown: String
    /// The error for a positional beyond `positionals` (given the first one and the extra one);
    /// nil: it is reported like an unknown word.
    public var surplus: (@Sendable (_ first: String, _ extra: String) -> String)?

    public init(command: String, help: String, options: [Option], positionals: Int = 0,
                unknown: String = "unknown option",
                surplus: (@Sendable (_ first: String, _ extra: String) -> String)? = nil) {
        self.command = command
        self.help = help
        self.options = options
        self.positionals = positionals
        self.unknown = unknown
        self.surplus = surplus
    }

    /// A usage error for `word`: "gestured run: unknown option '--x'", a blank line, the help.
    public func unknownWord(_ word: String) -> ArgumentStop {
        .usage("\(command): \(unknown) '\(word)'\n\n" + help)
    }

    /// A usage error with the command's prefix and no help: "gestured run: <text>".
    public func invalid(_ text: String) -> ArgumentStop { .usage("\(command): \(text)\n") }

    public func parse(_ words: [String]) -> ParsedArguments {
        var parsed = ParsedArguments()
        var i = 0
        var optionsEnded = false
        while i < words.count {
            let word = words[i]
            i += 1
            if optionsEnded || word == "-" || !word.hasPrefix("-") {
                if let stop = addPositional(word, to: &parsed) { parsed.stop = stop; return parsed }
                continue
            }
            if word == "-h" || word == "--help" { parsed.stop = .help(help); return parsed }
            if word == "--" && positionals > 0 { optionsEnded = true; continue }
            var name = word, inline: String?
            if word.hasPrefix("--"), let eq = word.firstIndex(of: "=") {
                name = String(word[..<eq])
                inline = String(word[word.index(after: eq)...])
            }
            guard let option = options.first(where: { $0.names.contains(name) }) else {
                parsed.stop = unknownWord(word); return parsed
            }
            let canonical = option.names[0]
            guard let needs = option.value else {
                guard inline == nil else { parsed.stop = unknownWord(word); return parsed }
                parsed.arguments.append(.flag(canonical))
                continue
            }
            if let inline {
                parsed.arguments.append(.value(canonical, inline))
            } else if i < words.count {
                parsed.arguments.append(.value(canonical, words[i]))
                i += 1
            } else {
                parsed.stop = invalid("\(word) needs \(needs)"); return parsed
            }
        }
        return parsed
    }

    private func addPositional(_ word: String, to parsed: inout ParsedArguments) -> ArgumentStop? {
        let given = parsed.arguments.compactMap { if case .positional(let p) = $0 { p } else { nil } }
        guard given.count < positionals else {
            if let surplus, let first = given.first { return .usage(surplus(first, word)) }
            return unknownWord(word)
        }
        parsed.arguments.append(.positional(word))
        return nil
    }
}

/// One word (or option and value) of a command line, in the order given.
public enum Argument: Equatable, Sendable {
    /// A flag, by its first name.
    case flag(String)
    /// An option with its value, by the option's first name.
    case value(String, String)
    case positional(String)
}

/// Why a command does not run: help was asked for (exit 0), or a usage error (exit 2). The text
/// is what to print, ending in a newline: help on standard output, errors on standard error.
public enum ArgumentStop: Equatable, Sendable {
    case help(String)
    case usage(String)

    public var exitStatus: Int32 {
        switch self {
        case .help: 0
        case .usage: 2
        }
    }
}

/// What `CommandSyntax.parse` found: the arguments in order, up to the first stop.
public struct ParsedArguments: Equatable, Sendable {
    public var arguments: [Argument] = []
    /// Help or a usage error; the arguments are those before it.
    public var stop: ArgumentStop?

    public init(arguments: [Argument] = [], stop: ArgumentStop? = nil) {
        self.arguments = arguments
        self.stop = stop
    }
}
