#if canImport(Glibc)
import Glibc
#endif
import CLinuxSys

/// The Unix-domain socket calls on a `FileDescriptor`: open, bind, listen, accept, the peer's
/// credentials, send and receive. Sockets are always close-on-exec. EINTR is retried; every other
/// failure (EAGAIN included) is thrown as a `SystemError` for the caller to decide.
public enum UnixSocket {
    public enum Kind { case stream, datagram }

    /// A new AF_UNIX socket.
    public static func open(_ kind: Kind, nonBlocking: Bool = false) throws(SystemError) -> FileDescriptor {
        var type = Int32((kind == .stream ? SOCK_STREAM : SOCK_DGRAM).rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        if nonBlocking { type |= Int32(SOCK_NONBLOCK.rawValue) }
        let fd = socket(AF_UNIX, type, 0)
        guard fd >= 0 else { throw .last }
        return FileDescriptor(rawValue: fd)
    }

    /// The process, user and group at the other end of a connected socket (SO_PEERCRED).
    public struct Peer: Hashable, Sendable {
        public var pid: Int32
        public var uid: UInt32
        public var gid: UInt32
    }
}

extension FileDescriptor {
    public func bind(to address: UnixAddress) throws(SystemError) {
        guard address.withSockaddr({ Glibc.bind(rawValue, $0, $1) }) == 0 else { throw .last }
    }

    public func listen(backlog: Int32) throws(SystemError) {
        guard Glibc.listen(rawValue, backlog) == 0 else { throw .last }
    }

    /// The next pending connection, non-blocking and close-on-exec.
    public func acceptNonBlocking() throws(SystemError) -> FileDescriptor {
        while true {
            let fd = gestured_accept4(rawValue, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
            if fd >= 0 { return FileDescriptor(rawValue: fd) }
            let error = SystemError.last
            if error != .interrupted { throw error }
        }
    }

    /// SO_PEERCRED; pid -1 and uid/gid UInt32.max when the kernel does not say.
    public func peer() -> UnixSocket.Peer {
        var cred = gestured_peer_credentials(pid: -1, uid: UInt32.max, gid: UInt32.max)
        _ = gestured_peer_credentials(rawValue, &cred)
        return UnixSocket.Peer(pid: cred.pid, uid: cred.uid, gid: cred.gid)
    }

    /// The peer's supplementary groups (SO_PEERGROUPS, Linux 4.13+), or nil when unavailable.
    public func peerGroups() -> [UInt32]? {
        var groups = [UInt32](repeating: 0, count: 256)
        var len = socklen_t(groups.count * 4)
        let soPeerGroups: Int32 = 59   // SO_PEERGROUPS, <asm-generic/socket.h>
        guard getsockopt(rawValue, SOL_SOCKET, soPeerGroups, &groups, &len) == 0 else { return nil }
        return Array(groups.prefix(Int(len) / 4))
    }

    /// SO_RCVTIMEO: a blocking receive gives up after `timeout` with `.wouldBlock`.
    public func setReceiveTimeout(_ timeout: Duration) {
        let parts = timeout.components
        var tv = timeval(tv_sec: Int(parts.seconds), tv_usec: Int(parts.attoseconds / 1_000_000_000_000))
        _ = setsockopt(rawValue, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// SO_RCVBUF: how much the kernel buffers for receiving.
    public func setReceiveBufferSize(_ bytes: Int32) {
        var size = bytes
        _ = setsockopt(rawValue, SOL_SOCKET, SO_RCVBUF, &size, 4)
    }

    /// SO_SNDBUF: how much the kernel buffers for sending.
    public func setSendBufferSize(_ bytes: Int32) {
        var size = bytes
        _ = setsockopt(rawValue, SOL_SOCKET, SO_SNDBUF, &size, 4)
    }

    /// One send(2) without SIGPIPE (a closed peer is `.brokenPipe`); `dontWait`: MSG_DONTWAIT.
    public func send(_ buffer: UnsafeRawBufferPointer, dontWait: Bool = false) throws(SystemError) -> Int {
        let flags = Int32(MSG_NOSIGNAL) | (dontWait ? Int32(MSG_DONTWAIT) : 0)
        while true {
            let n = gestured_send(rawValue, buffer.baseAddress, buffer.count, flags)
            if n >= 0 { return n }
            let error = SystemError.last
            if error != .interrupted { throw error }
        }
    }

    /// One send of `buffer` with `descriptor` attached (SCM_RIGHTS), without SIGPIPE; the
    /// receiver gets its own copy of the descriptor with the first of these bytes.
    public func send(_ buffer: UnsafeRawBufferPointer, passing descriptor: FileDescriptor,
                     dontWait: Bool = false) throws(SystemError) -> Int {
        let flags = Int32(MSG_NOSIGNAL) | (dontWait ? Int32(MSG_DONTWAIT) : 0)
        while true {
            let n = gestured_send_with_descriptor(rawValue, buffer.baseAddress, buffer.count, descriptor.rawValue, flags)
            if n >= 0 { return n }
            let error = SystemError.last
            if error != .interrupted { throw error }
        }
    }

    /// One sendto(2) of a datagram to `address`, without SIGPIPE.
    public func send(_ buffer: UnsafeRawBufferPointer, to address: UnixAddress) throws(SystemError) -> Int {
        let n = address.withSockaddr { Glibc.sendto(rawValue, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL), $0, $1) }
        guard n >= 0 else { throw .last }
        return n
    }

    /// One blocking receive that also takes a descriptor sent with the bytes (SCM_RIGHTS),
    /// close-on-exec: the bytes received (0 when the peer closed) and the descriptor, if one came.
    public func receiveWithDescriptor(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> (count: Int, descriptor: FileDescriptor?) {
        var fd: Int32 = -1
        while true {
            let n = gestured_receive_with_descriptor(rawValue, buffer.baseAddress, buffer.count, &fd)
            if n >= 0 { return (n, fd >= 0 ? FileDescriptor(rawValue: fd) : nil) }
            let error = SystemError.last
            if error != .interrupted { throw error }
        }
    }

    /// One recv(2): the bytes received, 0 when the peer closed. EINTR is retried; `dontWait`:
    /// MSG_DONTWAIT (nothing there is `.wouldBlock`, whatever the fd's flags).
    public func receive(into buffer: UnsafeMutableRawBufferPointer, dontWait: Bool = false) throws(SystemError) -> Int {
        while true {
            let n = recv(rawValue, buffer.baseAddress, buffer.count, dontWait ? Int32(MSG_DONTWAIT) : 0)
            if n >= 0 { return n }
            let error = SystemError.last
            if error != .interrupted { throw error }
        }
    }
}
