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
        // A read buffer no larger than the most that may be read (and one byte to tell "too
        // large"), left uninitialized: a /proc/PID/stat read, a few hundred bytes, must neither
        // clear nor dirty 64 kB of heap.
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: Swift.min(1 << 16, Swift.max(maximumBytes, 0) + 1), alignment: 1)
        defer { chunk.deallocate() }
        var out: [UInt8] = []
        while true {
            let n = read(fd, chunk.baseAddress, chunk.count)
            if n < 0 {
                let error = SystemError.last
                if error == .interrupted { continue }
                throw .read(error)
            }
            if n == 0 { return out }
            guard out.count + n <= maximumBytes else { throw .tooLarge }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<n]))   // one copy, not byte by byte
        }
    }
}

extension FileContents {
    /// The names in directory `path` (with "." and ".."), nil when it cannot be opened.
    public static func names(inDirectory path: String) -> [String]? {
        var names: [String] = []
        let opened = forEachName(inDirectory: path) { names.append(String(decoding: $0, as: UTF8.self)) }
        return opened ? names : nil
    }

    /// Calls `body` with the bytes of each name in directory `path` (with "." and ".."), valid
    /// only during the call; false when the directory cannot be opened.
    public static func forEachName(inDirectory path: String, _ body: (UnsafeRawBufferPointer) -> Void) -> Bool {
        guard let d = opendir(path) else { return false }
        defer { closedir(d) }
        while let entry = readdir(d) {
            withUnsafeBytes(of: entry.pointee.d_name) { raw in
                body(UnsafeRawBufferPointer(rebasing: raw.prefix(while: { $0 != 0 })))
            }
        }
        return true
    }
}
