#if canImport(Glibc)
import Glibc
#endif
import GestureCore

/// What /proc says about other processes: the hook runner reads it to find every process a hook
/// started, `setsid` included (docs/CONFIG.md, "What a hook owns").
public enum ProcessTable {
    /// One line of /proc/PID/stat, the fields the hook runner needs.
    public struct Entry: Hashable, Sendable {
        public var pid: Int32
        public var parent: Int32
        /// The state letter: R, S, D, T, Z (a zombie: it has exited, its parent has not reaped it)…
        public var state: UInt8
        /// When it started, in clock ticks after boot (field 22). With the pid it names a process
        /// for good: a reused pid has a later start time.
        public var startTime: UInt64

        public var isZombie: Bool { state == UInt8(ascii: "Z") || state == UInt8(ascii: "X") }

        public init(pid: Int32, parent: Int32, state: UInt8, startTime: UInt64) {
            self.pid = pid
            self.parent = parent
            self.state = state
            self.startTime = startTime
        }
    }

    /// The pids /proc lists now.
    public static func pids() -> [Int32] {
        var pids: [Int32] = []
        _ = FileContents.forEachName(inDirectory: "/proc") { name in
            guard let first = name.first, first >= UInt8(ascii: "1"), first <= UInt8(ascii: "9"),
                  let pid = decimal(name, 0..<name.count).flatMap({ Int32(exactly: $0) }) else { return }
            pids.append(pid)
        }
        return pids
    }

    /// The pid the kernel handed out last in this pid namespace (/proc/sys/kernel/ns_last_pid);
    /// nil where it cannot be read. Pids are handed out upwards from it and only wrap around at
    /// pid_max, so while it has not wrapped, no pid at or below an earlier reading was reused.
    public static func lastPid() -> Int32? {
        guard let bytes = try? FileContents.bytes(of: "/proc/sys/kernel/ns_last_pid", maximumBytes: 32) else { return nil }
        var first = 0, end = bytes.count
        while first < end && (bytes[first] == UInt8(ascii: " ") || bytes[first] == UInt8(ascii: "\n")) { first += 1 }
        while end > first && (bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\n")) { end -= 1 }
        return decimal(bytes, first..<end).flatMap { Int32(exactly: $0) }
    }

    /// /proc/PID/stat parsed; nil when the process is gone (or the line cannot be read).
    public static func entry(_ pid: Int32) -> Entry? {
        guard let bytes = procPath(pid, "/stat", { p in try? FileContents.bytes(ofPath: p, maximumBytes: 4096) }) else { return nil }
        return parseStat(bytes)
    }

    /// Parses a /proc/PID/stat line. The command name (field 2) is in parentheses and may hold
    /// spaces and parentheses itself, so the fields after it are counted from the last ')'. One
    /// pass over the bytes, no field copied: the hook runner parses every process's line in a
    /// full scan.
    public static func parseStat(_ bytes: [UInt8]) -> Entry? {
        let space = UInt8(ascii: " ")
        guard let open = bytes.firstIndex(of: UInt8(ascii: "(")),
              let close = bytes.lastIndex(of: UInt8(ascii: ")")), close > open else { return nil }
        var first = 0, last = open
        while first < last && bytes[first] == space { first += 1 }
        while last > first && bytes[last - 1] == space { last -= 1 }
        guard let pid = decimal(bytes, first..<last).flatMap({ Int32(exactly: $0) }) else { return nil }
        // After ") ": state (field 3), ppid (4) … starttime (22), numbered here from 0.
        var field = -1, i = close + 1
        var state: UInt8 = 0, parent: Int32 = 0
        while i < bytes.count {
            while i < bytes.count && bytes[i] == space { i += 1 }
            guard i < bytes.count else { break }
            field += 1
            let start = i
            while i < bytes.count && bytes[i] != space { i += 1 }
            switch field {
            case 0: state = bytes[start]
            case 1:
                guard let p = decimal(bytes, start..<i).flatMap({ Int32(exactly: $0) }) else { return nil }
                parent = p
            case 19:
                guard let t = decimal(bytes, start..<i) else { return nil }
                return Entry(pid: pid, parent: parent, state: state, startTime: t)
            default: break
            }
        }
        return nil
    }

    /// The unsigned decimal number `range` of `bytes` holds, all of it digits; nil otherwise.
    private static func decimal<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ range: Range<Int>) -> UInt64? where Bytes.Index == Int {
        guard !range.isEmpty else { return nil }
        var n: UInt64 = 0
        for i in range {
            let d = bytes[i] &- UInt8(ascii: "0")
            guard d < 10 else { return nil }
            let (times10, o1) = n.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(d))
            guard !o1 && !o2 else { return nil }
            n = sum
        }
        return n
    }

    /// `/proc/PID` and `leaf` as a C string for `body`, written on the stack: a scan reads
    /// several such files for every process, and a String made for each path was most of its
    /// cost in the static runtime's string code.
    static func procPath<R>(_ pid: Int32, _ leaf: StaticString, _ body: (UnsafePointer<CChar>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 32) { buf in
            var i = 0
            for b in "/proc/".utf8 { buf[i] = CChar(bitPattern: b); i += 1 }
            DecimalText.write(Int64(UInt32(bitPattern: pid))) { buf[i] = CChar(bitPattern: $0); i += 1 }
            for k in 0..<leaf.utf8CodeUnitCount where i < 31 { buf[i] = CChar(bitPattern: leaf.utf8Start[k]); i += 1 }
            buf[i] = 0
            return body(buf.baseAddress!)
        }
    }

    /// The uid owning /proc/PID (the process's effective uid as /proc shows it); nil when gone.
    public static func owner(_ pid: Int32) -> UInt32? {
        var st = stat()
        guard procPath(pid, "", { stat($0, &st) }) == 0 else { return nil }
        return st.st_uid
    }

    /// What /proc/PID/environ held for a prefix.
    public enum EnvironmentMatch: Equatable, Sendable {
        /// Nothing to read: a zombie, a kernel thread, a process started with no environment,
        /// or one in the middle of execve (between dropping its old memory and setting up the
        /// new stack, which includes the moment posix_spawn returns in the parent).
        case empty
        /// Strings, none with the prefix.
        case absent
        /// The rest of the first NAME=value string that starts with the prefix.
        case found(String)
    }

    /// Whether /proc/PID/environ (NAME=value strings separated by NUL) holds a string starting
    /// with `prefix`; nil when it cannot be read (gone, not ours).
    public static func environment(of pid: Int32, entryStartingWith prefix: String) -> EnvironmentMatch? {
        // 1 MiB: more than ARG_MAX's usual share for the environment; a larger one is cut short.
        guard let bytes = procPath(pid, "/environ", { p in try? FileContents.prefix(ofPath: p, maximumBytes: 1 << 20) }) else { return nil }
        if bytes.isEmpty { return .empty }
        let wanted = Array(prefix.utf8)
        // String by string in place: `split` would make an array of slices for every process
        // every scan, and free it through the runtime's generic destroy.
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0) ?? bytes.count
            if bytes[start..<end].starts(with: wanted) {
                return .found(String(decoding: bytes[(start + wanted.count)..<end], as: UTF8.self))
            }
            start = end + 1
        }
        return .absent
    }
}
