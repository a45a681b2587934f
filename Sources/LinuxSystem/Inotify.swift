#if canImport(Glibc)
import Glibc
#endif

/// A non-blocking, close-on-exec inotify instance (device discovery without udevd watches
/// /dev/input with it). The caller owns `descriptor` and closes it.
public struct Inotify {
    /// The events a watch reports (the IN_* masks).
    public struct Events: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let created = Events(rawValue: UInt32(IN_CREATE))
        public static let deleted = Events(rawValue: UInt32(IN_DELETE))
        public static let attributesChanged = Events(rawValue: UInt32(IN_ATTRIB))
        public static let movedIn = Events(rawValue: UInt32(IN_MOVED_TO))
        public static let movedOut = Events(rawValue: UInt32(IN_MOVED_FROM))
        /// The kernel's queue overflowed: events were lost (the watcher rescans).
        public static let queueOverflow = Events(rawValue: UInt32(IN_Q_OVERFLOW))
    }

    /// One event: what happened to which name in a watched directory.
    public struct Event: Equatable, Sendable {
        public let events: Events
        public let name: String
        public static func == (a: Event, b: Event) -> Bool { a.events.rawValue == b.events.rawValue && a.name == b.name }
    }

    public let descriptor: FileDescriptor

    public init() throws(SystemError) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw .last }
        descriptor = FileDescriptor(rawValue: fd)
    }

    /// Watches `path` for `events`.
    public func watch(_ path: String, for events: Events) throws(SystemError) {
        guard inotify_add_watch(descriptor.rawValue, path, events.rawValue) >= 0 else { throw .last }
    }

    /// Everything queued now; empty at EAGAIN.
    public func read() -> [Event] {
        var out: [Event] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let n = buffer.withUnsafeMutableBytes { try? descriptor.read(into: $0) } ?? 0
            if n <= 0 { break }
            var offset = 0
            // struct inotify_event: wd (4), mask (4), cookie (4), len (4), then len bytes of name.
            while offset + 16 <= n {
                func u32(_ at: Int) -> UInt32 {
                    UInt32(buffer[at]) | UInt32(buffer[at + 1]) << 8 | UInt32(buffer[at + 2]) << 16 | UInt32(buffer[at + 3]) << 24
                }
                let mask = u32(offset + 4), len = Int(u32(offset + 12))
                let nameBytes = buffer[(offset + 16)..<min(n, offset + 16 + len)].prefix { $0 != 0 }
                out.append(Event(events: Events(rawValue: mask), name: String(decoding: nameBytes, as: UTF8.self)))
                offset += 16 + len
            }
        }
        return out
    }
}
