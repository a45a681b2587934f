#if canImport(Glibc)
import Glibc
#endif
import CLinuxSys

/// An epoll instance (close-on-exec), level-triggered, keyed by fd. Thin: the caller keeps the
/// handlers and the loop; this owns only the calls.
public struct Epoll {
    public let descriptor: FileDescriptor

    public static let readable = UInt32(EPOLLIN.rawValue)
    public static let writable = UInt32(EPOLLOUT.rawValue)
    public static let hangup = UInt32(EPOLLHUP.rawValue) | UInt32(EPOLLERR.rawValue)

    public init() throws(SystemError) {
        let fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard fd >= 0 else { throw .last }
        descriptor = FileDescriptor(rawValue: fd)
    }

    public func add(_ fd: FileDescriptor, events: UInt32) throws(SystemError) {
        try control(EPOLL_CTL_ADD, fd, events)
    }

    public func modify(_ fd: FileDescriptor, events: UInt32) throws(SystemError) {
        try control(EPOLL_CTL_MOD, fd, events)
    }

    public func remove(_ fd: FileDescriptor) throws(SystemError) {
        try control(EPOLL_CTL_DEL, fd, 0)
    }

    private func control(_ op: Int32, _ fd: FileDescriptor, _ events: UInt32) throws(SystemError) {
        var ev = epoll_event()
        ev.events = events
        ev.data.fd = fd.rawValue
        guard epoll_ctl(descriptor.rawValue, op, fd.rawValue, &ev) == 0 else { throw .last }
    }

    /// Where `wait` puts the ready fds; allocated once and reused for every wait.
    public struct Events {
        @usableFromInline var storage: [epoll_event]
        public init(capacity: Int) { storage = [epoll_event](repeating: epoll_event(), count: capacity) }
        /// Inlinable: the event loop reads one entry per ready fd of every wakeup.
        @inlinable
        public subscript(i: Int) -> (fd: FileDescriptor, events: UInt32) {
            (FileDescriptor(rawValue: storage[i].data.fd), storage[i].events)
        }
    }

    /// Blocks until an fd is ready (or `timeoutMilliseconds` passes; -1: forever). The number of
    /// entries filled in `events`. EINTR is thrown as `.interrupted` for the caller to decide.
    public func wait(into events: inout Events, timeoutMilliseconds: Int32 = -1) throws(SystemError) -> Int {
        let n = events.storage.withUnsafeMutableBufferPointer {
            gestured_epoll_wait(descriptor.rawValue, $0.baseAddress, Int32($0.count), timeoutMilliseconds)
        }
        guard n >= 0 else { throw .last }
        return Int(n)
    }
}
