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
        return try readAll(fd, maximumBytes: maximumBytes, cutShort: false)
    }

    /// The first `maximumBytes` of `path`, all of a shorter file: a longer one is cut short, not
    /// refused (/proc/PID/environ).
    public static func prefix(of path: String, maximumBytes: Int) throws(Failure) -> [UInt8] {
        try readOpened(open(path, O_RDONLY | O_CLOEXEC), maximumBytes: maximumBytes, cutShort: true)
    }

    /// `bytes(of:maximumBytes:)` of a path given as a C string.
    static func bytes(ofPath path: UnsafePointer<CChar>, maximumBytes: Int) throws(Failure) -> [UInt8] {
        try readOpened(open(path, O_RDONLY | O_CLOEXEC), maximumBytes: maximumBytes, cutShort: false)
    }

    /// `prefix(of:maximumBytes:)` of a path given as a C string.
    static func prefix(ofPath path: UnsafePointer<CChar>, maximumBytes: Int) throws(Failure) -> [UInt8] {
        try readOpened(open(path, O_RDONLY | O_CLOEXEC), maximumBytes: maximumBytes, cutShort: true)
    }

    /// `fd`, just opened (negative: the open failed, errno says why), read and closed.
    private static func readOpened(_ fd: Int32, maximumBytes: Int, cutShort: Bool) throws(Failure) -> [UInt8] {
        guard fd >= 0 else { throw .open(.last) }
        defer { close(fd) }
        return try readAll(fd, maximumBytes: maximumBytes, cutShort: cutShort)
    }

    /// `fd` read to its end, or to `maximumBytes` (then cut short, or `.tooLarge` if more follows).
    private static func readAll(_ fd: Int32, maximumBytes: Int, cutShort: Bool) throws(Failure) -> [UInt8] {
        let limit = Swift.max(maximumBytes, 0)
        // A read buffer no larger than the most that may be read (and one byte to tell "too
        // large"), left uninitialized: a /proc/PID/stat read, a few hundred bytes, must neither
        // clear nor dirty 64 kB of heap.
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: Swift.min(1 << 16, limit + 1), alignment: 1)
        defer { chunk.deallocate() }
        var out: [UInt8] = []
        while !(cutShort && out.count == limit) {
            let n = read(fd, chunk.baseAddress, cutShort ? Swift.min(chunk.count, limit - out.count) : chunk.count)
            if n < 0 {
                let error = SystemError.last
                if error == .interrupted { continue }
                throw .read(error)
            }
            if n == 0 { break }
            guard out.count + n <= limit else { throw .tooLarge }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<n]))   // one copy, not byte by byte
        }
        return out
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
