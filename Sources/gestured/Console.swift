import GestureDaemon
import CommandArguments
import LinuxSystem

/// Writes all of `text` to `fd`, unbuffered, retrying on EINTR; false on any other error.
@discardableResult
func writeAll(_ fd: Int32, _ text: String) -> Bool {
    (try? FileDescriptor(rawValue: fd).writeAll(Array(text.utf8))) != nil
}

/// Writes a line (or text) to standard error, unbuffered.
func eprint(_ text: String, terminator: String = "\n") {
    writeAll(2, text + terminator)
}

extension ArgumentStop {
    /// Prints the help (standard output) or the usage error (standard error); the exit status.
    func report() -> Int32 {
        switch self {
        case .help(let text): print(text, terminator: "")
        case .usage(let text): eprint(text, terminator: "")
        }
        return exitStatus
    }
}
