#if canImport(Glibc)
import Glibc
#endif

/// Writes a line (or text) to standard error, unbuffered.
func eprint(_ text: String, terminator: String = "\n") {
    let s = text + terminator
    var bytes = Array(s.utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
        if n <= 0 { if n < 0 && errno == EINTR { continue }; return }
        offset += n
    }
    _ = bytes.count
}
