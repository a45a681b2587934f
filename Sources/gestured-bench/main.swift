// gestured-bench: measured speed, not claims. Prints one `name: value unit` line per figure (or
// `name: unavailable (reason)`) and exits 0. Build and run in release mode:
//
//     swift run -c release gestured-bench [--quick] [--only SECTION,…]
//
// `--quick` shortens every section (for a smoke run); the figures in docs/PERFORMANCE.md come from a full run.
#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
if arguments.count == 4 && arguments[1] == "--serve" {   // the daemon child of the socket figures
    exit(serveMain(socketPath: arguments[2], configPath: arguments[3]))
}
let quick = arguments.contains("--quick")
signal(SIGPIPE, SIG_IGN)

// `--only NAME[,NAME…]` runs some sections: decode, socket, hooks, actions, idle, exclusive (e.g. in the
// kernel VM, the only place here with /dev/uinput for the actions figures).
let only = arguments.firstIndex(of: "--only").flatMap { $0 + 1 < arguments.count ? Set(arguments[$0 + 1].split(separator: ",").map(String.init)) : nil }
func section(_ name: String, _ run: (Bool) -> Void) { if only?.contains(name) ?? true { run(quick) } }
section("decode", benchDecodeAndRecognize)
section("socket", benchSocket)
section("hooks", benchHooks)
section("actions", benchActions)
section("idle", benchIdle)
section("exclusive", benchExclusive)
exit(0)
