import CommandArguments
import Testing

/// The parser every `gestured` command uses: the words of a command line → flags, values and
/// positionals in order, or the help / usage error the command prints.
@Suite struct CommandSyntaxTests {
    static let help = "usage: tool [--json] [--config FILE] [-o FILE] [FILE]\n"
    static let tool = CommandSyntax(command: "gestured tool", help: help, options: [
        .flag("--json"), .value("--config", "-c", needs: "a file"), .value("--output", "-o"),
    ], positionals: 1)
    static let noPositionals = CommandSyntax(command: "gestured bare", help: help, options: [.flag("--json")],
                                             unknown: "unknown argument")

    @Test func test_parse_flagsValuesAndPositional_inOrder() {
        let p = Self.tool.parse(["--json", "--config", "a.yaml", "rec.evemu", "-o", "out"])
        #expect(p.stop == nil)
        #expect(p.arguments == [.flag("--json"), .value("--config", "a.yaml"), .positional("rec.evemu"), .value("--output", "out")])
    }

    @Test func test_parse_inlineValue_isTheOptionsValue() {
        #expect(Self.tool.parse(["--config=a=b.yaml"]).arguments == [.value("--config", "a=b.yaml")])
        #expect(Self.tool.parse(["--config="]).arguments == [.value("--config", "")])
    }

    @Test func test_parse_aliases_reportTheFirstName() {
        #expect(Self.tool.parse(["-c", "x", "-o", "y"]).arguments == [.value("--config", "x"), .value("--output", "y")])
    }

    @Test func test_parse_valueStartingWithADash_isTakenAsTheValue() {
        #expect(Self.tool.parse(["--config", "--json"]).arguments == [.value("--config", "--json")])
        #expect(Self.tool.parse(["--config", "-h"]).stop == nil)
    }

    @Test func test_parse_repeatedOption_appearsOncePerOccurrence() {
        let p = Self.tool.parse(["--config", "a", "--json", "--config", "b", "--json"])
        #expect(p.arguments == [.value("--config", "a"), .flag("--json"), .value("--config", "b"), .flag("--json")])
        #expect(p.stop == nil)
    }

    @Test func test_parse_unknownOption_isAUsageErrorWithTheHelp() {
        let p = Self.tool.parse(["--json", "--frobnicate", "--config", "x"])
        #expect(p.arguments == [.flag("--json")])
        #expect(p.stop == .usage("gestured tool: unknown option '--frobnicate'\n\n" + Self.help))
        #expect(p.stop?.exitStatus == 2)
        #expect(Self.noPositionals.parse(["-x"]).stop == .usage("gestured bare: unknown argument '-x'\n\n" + Self.help))
    }

    @Test func test_parse_flagWithInlineValue_isUnknown() {
        #expect(Self.tool.parse(["--json=yes"]).stop == .usage("gestured tool: unknown option '--json=yes'\n\n" + Self.help))
    }

    @Test func test_parse_missingValue_namesTheOptionAsTyped() {
        #expect(Self.tool.parse(["--config"]).stop == .usage("gestured tool: --config needs a file\n"))
        #expect(Self.tool.parse(["--json", "-o"]).stop == .usage("gestured tool: -o needs a value\n"))
        #expect(Self.tool.parse(["--json", "-o"]).arguments == [.flag("--json")])
    }

    @Test func test_parse_help_stopsWhereverItIs() {
        let p = Self.tool.parse(["--json", "--help", "--frobnicate"])
        #expect(p.arguments == [.flag("--json")])
        #expect(p.stop == .help(Self.help))
        #expect(p.stop?.exitStatus == 0)
        #expect(Self.noPositionals.parse(["-h"]).stop == .help(Self.help))
        // A mistake before the help is reported, not the help.
        #expect(Self.tool.parse(["--bad", "-h"]).stop == .usage("gestured tool: unknown option '--bad'\n\n" + Self.help))
    }

    @Test func test_parse_dash_isAPositional() {
        #expect(Self.tool.parse(["-", "--json"]).arguments == [.positional("-"), .flag("--json")])
        #expect(Self.noPositionals.parse(["-"]).stop == .usage("gestured bare: unknown argument '-'\n\n" + Self.help))
    }

    @Test func test_parse_doubleDash_endsTheOptions_whereThereArePositionals() {
        let p = Self.tool.parse(["--json", "--", "--config"])
        #expect(p.arguments == [.flag("--json"), .positional("--config")])
        #expect(p.stop == nil)
        #expect(Self.tool.parse(["--"]).arguments == [])
        #expect(Self.noPositionals.parse(["--"]).stop == .usage("gestured bare: unknown argument '--'\n\n" + Self.help))
    }

    @Test func test_parse_surplusPositional_isReportedLikeAnUnknownWord_orByTheCommand() {
        #expect(Self.tool.parse(["a", "b"]).stop == .usage("gestured tool: unknown option 'b'\n\n" + Self.help))
        #expect(Self.noPositionals.parse(["a"]).stop == .usage("gestured bare: unknown argument 'a'\n\n" + Self.help))
        var one = Self.tool
        one.surplus = { "gestured tool: one at a time (got '\($0)' and '\($1)')\n" }
        let p = one.parse(["a", "--json", "b", "c"])
        #expect(p.arguments == [.positional("a"), .flag("--json")])
        #expect(p.stop == .usage("gestured tool: one at a time (got 'a' and 'b')\n"))
    }

    @Test func test_parse_nothing_isNothing() {
        #expect(Self.tool.parse([]) == ParsedArguments())
    }

    @Test func test_invalid_prefixesTheCommand() {
        #expect(Self.tool.invalid("--seconds expects a positive number, got 'x'") == .usage("gestured tool: --seconds expects a positive number, got 'x'\n"))
    }
}
