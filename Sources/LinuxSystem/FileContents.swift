#if canImport(Glibc)
import Glibc
#endif

/// Reading a whole file: the config and recording loaders' one read of the disk.
public enum FileContents {
    /// Why a file could not be read whole.
    public enum Failure: Error, Equatable {
        case open(SystemError)
        case read(SystemError)
        /// More than the `maximumBytes` the caller allowed.
        case tooLarge
    }

    /// Every byte of `path` (standard input when `path` is "-" and `dashIsStandardInput`), at
    /// most `maximumBytes`.
    public static func bytes(of path: String, maximumBytes: Int,
                             dashIsStandardInput: Bool = false) throws(Failure) -> [UInt8] {
        let fromStandardInput = dashIsStandardInput && path == "-"
        let fd: Int32 = fromStandardInput ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .open(.last) }
        defer { if !fromStandardInput { close(fd) } }
        var out: [UInt8] = []
        // No larger than the most that may be read (and one byte to tell "too large"): a
        // /proc/PID/stat read, a few hundred bytes, must not clear and dirty 64 kB of heap.
        var chunk = [UInt8](repeating: 0, count: Swift.min(1 << 16, Swift.max(maximumBytes, 0) + 1))
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                let error = SystemError.last
                if error == .interrupted { continue }
                throw .read(error)
            }
            if n == 0 { return out }
            guard out.count + n <= maximumBytes else { throw .tooLarge }
            out.append(contentsOf: chunk[0..<n])
        }
    }
}

extension FileContents {
    /// The names in directory `path` (with "." and ".."), nil when it cannot be opened.
    public static func names(inDirectory path: String) -> [String]? {
        guard let d = opendir(path) else { return nil }
        defer { closedir(d) }
        var names: [String] = []
        while let entry = readdir(d) {
            names.append(withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            })
        }
        return names
    }
}
