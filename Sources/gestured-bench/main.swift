// gestured-bench: measured speed, not claims. Prints one `name: value unit` line per figure (or
// `name: unavailable (reason)`) and exits 0. Build and run in release mode:
//
//     swift run -c release gestured-bench [--quick] [--only SECTION,…]
//
// `--quick` shortens every section (for a smoke run); the figures in docs/PERFORMANCE.md come from a full run.
import CommandArguments
import LinuxSystem

let sections = ["decode", "socket", "hooks", "actions", "idle", "exclusive", "hostile"]
let benchHelp = """
    usage: gestured-bench [--quick] [--only SECTION,…]

    Measures gestured's speed and prints one `name: value unit` line per figure. Build it in
    release mode: swift run -c release gestured-bench.

      --quick          shorten every section (a smoke run)
      --only SECTIONS  run only these, comma-separated: \(sections.joined(separator: ", "))
                       (actions and exclusive need /dev/uinput: the kernel VM)

    """
let syntax = CommandSyntax(command: "gestured-bench", help: benchHelp,
                           options: [.flag("--quick"), .value("--only", needs: "section names"), .flag("--serve")],
                           positionals: 2, unknown: "unknown option")

var quick = false
var only: Set<String>?
var serve = false
var positionals: [String] = []
let parsed = syntax.parse(Array(CommandLine.arguments.dropFirst()))
for argument in parsed.arguments {
    switch argument {
    case .flag("--quick"): quick = true
    case .value("--only", let list): only = Set(list.split(separator: ",").map(String.init))
    case .flag("--serve"): serve = true   // internal: the daemon child of the socket figures
    case .positional(let p): positionals.append(p)
    default: fatalError("gestured-bench bug: its syntax has no \(argument)")
    }
}
func finish(_ stop: ArgumentStop) -> Never {
    let (fd, text): (FileDescriptor, String) = switch stop {
    case .help(let t): (.standardOutput, t)
    case .usage(let t): (.standardError, t)
    }
    _ = Array(text.utf8).withUnsafeBytes { try? fd.write($0) }
    CurrentProcess.exit(stop.exitStatus)
}
if let stop = parsed.stop { finish(stop) }
if serve {
    guard positionals.count == 2 else { finish(syntax.invalid("--serve needs SOCKET CONFIG")) }
    CurrentProcess.exit(serveMain(socketPath: positionals[0], configPath: positionals[1]))
}
if let word = positionals.first { finish(.usage("gestured-bench: unexpected argument '\(word)'\n\n" + benchHelp)) }
if let unknown = only?.subtracting(sections).sorted().first {
    finish(syntax.invalid("no section '\(unknown)' (sections: \(sections.joined(separator: ", ")))"))
}
CurrentProcess.ignore(.brokenPipe)

@MainActor func section(_ name: String, _ run: (Bool) -> Void) { if only?.contains(name) ?? true { run(quick) } }
section("decode", benchDecodeAndRecognize)
section("socket", benchSocket)
section("hooks", benchHooks)
section("actions", benchActions)
section("idle", benchIdle)
section("exclusive", benchExclusive)
section("hostile", benchHostile)
CurrentProcess.exit(0)
