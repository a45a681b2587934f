// gestured: argument parsing and subcommands only. Each subcommand lives in its own file as a
// function `xxxMain(_ arguments: [String]) -> Int32` taking the arguments after its name.

import LinuxSystem

let version = "0.1.0"

struct Subcommand {
    let name: String
    let summary: String
    let main: ([String]) -> Int32
}

let subcommands: [Subcommand] = [
    Subcommand(name: "run", summary: "run the daemon", main: runMain),
    Subcommand(name: "replay", summary: "decode a recording and print frames and gestures", main: replayMain),
    Subcommand(name: "explain", summary: "say why each touch of a recording was or was not a gesture", main: explainMain),
    Subcommand(name: "tune", summary: "fit thresholds to your own gestures (on a device or from recordings)", main: tuneMain),
    Subcommand(name: "check", summary: "validate a config file", main: checkMain),
    Subcommand(name: "monitor", summary: "print live gestures from the daemon's socket", main: monitorMain),
    Subcommand(name: "devices", summary: "list touch devices", main: devicesMain),
    Subcommand(name: "record", summary: "record a device's events as evemu", main: recordMain),
    Subcommand(name: "listen", summary: "run bindings in the user's session from the daemon's socket", main: listenMain),
    Subcommand(name: "doctor", summary: "check the setup and say how to fix what is wrong", main: doctorMain),
]

@MainActor func usage() -> String {
    var s = "usage: gestured COMMAND [OPTIONS]\n\ncommands:\n"
    for c in subcommands { s += "  \(c.name.padding(toLength: 9, withPad: " ", startingAt: 0)) \(c.summary)\n" }
    s += "\n`gestured COMMAND --help` describes each; `gestured --version` prints the version.\n"
    return s
}

extension String {
    fileprivate func padding(toLength n: Int, withPad pad: String, startingAt _: Int) -> String {
        count >= n ? self : self + String(repeating: pad, count: n - count)
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let first = arguments.first else {
    eprint(usage(), terminator: "")
    CurrentProcess.exit(2)
}
switch first {
case "--version", "-V", "version":
    print("gestured \(version)")
    CurrentProcess.exit(0)
case "--help", "-h", "help":
    print(usage(), terminator: "")
    CurrentProcess.exit(0)
default:
    guard let command = subcommands.first(where: { $0.name == first }) else {
        eprint("gestured: unknown command '\(first)'\n\n" + usage(), terminator: "")
        CurrentProcess.exit(2)
    }
    CurrentProcess.exit(command.main(Array(arguments.dropFirst())))
}
