#if canImport(Glibc)
import Glibc
#endif

/// poll(2) over a few descriptors: the hook runner's worker, the one-shot waits of the commands.
/// A descriptor whose raw value is negative is skipped by the kernel (its `returned` stays empty),
/// so a closed pipe can keep its place in the list.
public enum Poll {
    /// The events asked for and returned (POLLIN, POLLOUT, POLLERR, POLLHUP, POLLNVAL).
    public struct Events: OptionSet, Hashable, Sendable {
        public let rawValue: Int16
        public init(rawValue: Int16) { self.rawValue = rawValue }
        public static let readable = Events(rawValue: Int16(POLLIN))
        public static let writable = Events(rawValue: Int16(POLLOUT))
        /// Only returned: an error condition on the descriptor.
        public static let error = Events(rawValue: Int16(POLLERR))
        /// Only returned: the other end hung up.
        public static let hangUp = Events(rawValue: Int16(POLLHUP))
        /// Only returned: the descriptor is not open.
        public static let invalid = Events(rawValue: Int16(POLLNVAL))
    }

    /// A place holder poll skips (fd -1): an entry for a pipe already closed keeps its index.
    public static let skipped = FileDescriptor(rawValue: -1)

    public struct Entry: Sendable {
        public var descriptor: FileDescriptor
        public var events: Events
        /// What poll found (empty until `wait` returns).
        public var returned: Events = []
        public init(_ descriptor: FileDescriptor, _ events: Events) {
            self.descriptor = descriptor; self.events = events
        }
    }

    /// Waits until one entry is ready or `timeoutMilliseconds` passed (-1: no limit) and fills
    /// in each entry's `returned`. Returns how many are ready (0: timed out). EINTR is thrown as
    /// `.interrupted`, so the caller re-checks its state before waiting again.
    @discardableResult
    public static func wait(_ entries: inout [Entry], timeoutMilliseconds: Int32) throws(SystemError) -> Int {
        var fds = entries.map { pollfd(fd: $0.descriptor.rawValue, events: $0.events.rawValue, revents: 0) }
        let n = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds) }
        guard n >= 0 else { throw .last }
        for i in entries.indices { entries[i].returned = Events(rawValue: fds[i].revents) }
        return Int(n)
    }

    /// Waits for one descriptor: what it returned, empty on timeout. EINTR is thrown.
    public static func wait(for descriptor: FileDescriptor, _ events: Events,
                            timeoutMilliseconds: Int32) throws(SystemError) -> Events {
        var entries = [Entry(descriptor, events)]
        try wait(&entries, timeoutMilliseconds: timeoutMilliseconds)
        return entries[0].returned
    }
}
