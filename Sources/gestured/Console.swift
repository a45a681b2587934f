#if canImport(Glibc)
import Glibc
#endif
import GestureDaemon
import CommandArguments
import LinuxSystem

/// Writes all of `text` to `fd`, unbuffered, retrying on EINTR; false on any other error
/// (errno says which) or when nothing could be written.
@discardableResult
func writeAll(_ fd: Int32, _ text: String) -> Bool {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if n <= 0 {
            if n < 0 && SystemError.last == .interrupted { continue }
            return false
        }
        offset += n
    }
    return true
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
