import CommandArguments

// What the commands (gestured, gestured-listen) write to their standard streams.

/// Writes all of `text` to `fd`, unbuffered, retrying on EINTR; false on any other error.
@discardableResult
public func writeAll(_ fd: Int32, _ text: String) -> Bool {
    (try? FileDescriptor(rawValue: fd).writeAll(Array(text.utf8))) != nil
}

/// Writes a line (or text) to standard error, unbuffered.
public func eprint(_ text: String, terminator: String = "\n") {
    writeAll(2, text + terminator)
}

extension ArgumentStop {
    /// Prints the help (standard output) or the usage error (standard error); the exit status.
    public func report() -> Int32 {
        switch self {
        case .help(let text): print(text, terminator: "")
        case .usage(let text): eprint(text, terminator: "")
        }
        return exitStatus
    }
}
