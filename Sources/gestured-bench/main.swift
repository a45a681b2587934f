// gestured-bench: measured speed, not claims. Prints one `name: value unit` line per figure (or
// `name: unavailable (reason)`) and exits 0. Build and run in release mode:
//
//     swift run -c release gestured-bench [--quick]
//
// `--quick` shortens every section (for a smoke run); the figures in the README come from a full run.
#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
if arguments.count == 4 && arguments[1] == "--serve" {   // the daemon child of the socket figures
    exit(serveMain(socketPath: arguments[2], configPath: arguments[3]))
}
let quick = arguments.contains("--quick")
signal(SIGPIPE, SIG_IGN)

benchDecodeAndRecognize(quick: quick)
benchSocket(quick: quick)
benchHooks(quick: quick)
benchActions(quick: quick)
benchIdle(quick: quick)
exit(0)
