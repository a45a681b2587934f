import LinuxSystem

/// `gestured listen ARGS`: replaces this process with gestured-listen from the same directory
/// (Sources/gestured-listen), which carries the focus tracking the daemon has no use for.
func listenMain(_ arguments: [String]) -> Int32 {
    let program = CurrentProcess.siblingPath("gestured-listen") ?? "./gestured-listen"
    let error = CurrentProcess.replace(with: program, arguments: [program] + arguments)
    eprint("gestured listen: cannot run \(program): \(error) (it is installed beside gestured: "
        + "`make install`, or copy .build/release/gestured-listen next to gestured)")
    return 127
}
