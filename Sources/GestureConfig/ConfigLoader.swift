#if canImport(Glibc)
import Glibc
#endif

extension Config {
    /// Reads and parses a config file. With `path` nil the default path is read, and a missing
    /// file there means the built-in defaults; a file named explicitly must exist. An empty file
    /// is the defaults either way. `purpose`: see `parse`.
    public static func load(path: String?, purpose: ConfigPurpose = .daemon) throws(ConfigError) -> Config {
        let file = path ?? Config.defaultPath
        switch readFile(file) {
        case .success(let text):
            return try parse(text, file: file, purpose: purpose)
        case .failure(let err):
            if path == nil && err.code == ENOENT {
                var c = Config()
                c.file = "\(file) (missing: defaults)"
                return c
            }
            let hint: String
            switch err.code {
            case ENOENT: hint = "no such file; `gestured check --config FILE` names another"
            case EACCES: hint = "permission denied: the daemon's user must be able to read it"
            case EISDIR: hint = "that is a directory, not a file"
            default: hint = err.message
            }
            throw ConfigError([ConfigDiagnostic(file: file, line: 0, column: 0, message: "cannot read the file", hint: hint)])
        }
    }
}

struct ReadError: Error { var code: Int32; var message: String }

/// The whole file as UTF-8 text (invalid bytes become U+FFFD).
func readFile(_ path: String) -> Result<String, ReadError> {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { let e = errno; return .failure(ReadError(code: e, message: String(cString: strerror(e)))) }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            let e = errno; return .failure(ReadError(code: e, message: String(cString: strerror(e))))
        }
        if n == 0 { break }
        bytes.append(contentsOf: buf[0..<n])
        if bytes.count > 16 << 20 { return .failure(ReadError(code: EFBIG, message: "larger than 16 MiB")) }
    }
    return .success(String(decoding: bytes, as: UTF8.self))
}
