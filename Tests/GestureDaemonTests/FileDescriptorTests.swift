#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import GestureCore
import LinuxSystem

/// The fd value type over real pipes and sockets: errors arrive as named SystemErrors, and
/// writeAll delivers every byte even when a non-blocking pipe fills up.
@Suite struct FileDescriptorTests {
    private func makePipe() -> (read: FileDescriptor, write: FileDescriptor) {
        var fds: [Int32] = [-1, -1]
        precondition(pipe(&fds) == 0)
        return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    }

    @Test func test_read_emptyNonBlockingPipe_throwsWouldBlock() {
        let (r, w) = makePipe()
        defer { r.close(); w.close() }
        r.setNonBlocking()
        #expect(fcntl(r.rawValue, F_GETFL) & O_NONBLOCK != 0)
        var buffer = [UInt8](repeating: 0, count: 4)
        #expect(throws: SystemError.wouldBlock) {
            _ = try buffer.withUnsafeMutableBytes { try r.read(into: $0) }
        }
    }

    @Test func test_writeAll_moreThanThePipeHolds_allBytesArriveInOrder() async throws {
        let (r, w) = makePipe()
        defer { r.close() }
        w.setNonBlocking()   // a full pipe makes write fail with EAGAIN; writeAll must wait and go on
        let bytes = (0..<(256 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let writer = Thread { try? w.writeAll(bytes); w.close() }
        writer.start()
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try r.read(into: $0) }
            if n == 0 { break }
            received += buffer[..<n]
        }
        #expect(received == bytes)
    }

    @Test func test_write_toPipeWithoutReader_throwsBrokenPipe() {
        let (r, w) = makePipe()
        r.close()
        defer { w.close() }
        let old = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, old) }
        #expect(throws: SystemError.brokenPipe) { try w.writeAll([1, 2, 3]) }
    }

    @Test func test_setCloseOnExec_setsTheFlag() {
        let (r, w) = makePipe()
        defer { r.close(); w.close() }
        #expect(fcntl(w.rawValue, F_GETFD) & FD_CLOEXEC == 0)
        w.setCloseOnExec()
        #expect(fcntl(w.rawValue, F_GETFD) & FD_CLOEXEC != 0)
    }

    @Test func test_connectUnix_nobodyListening_namesTheError() {
        #expect(throws: SystemError.noSuchFile) { try FileDescriptor.connectUnix("/nonexistent-gestured-test/sock") }
        #expect(throws: SystemError.nameTooLong) { try FileDescriptor.connectUnix("/" + String(repeating: "x", count: 200)) }
        #expect(UnixAddress(path: "@gestured-test") != nil)
    }

    @Test func test_epoll_wakesForAReadablePipeAndAnArmedTimer() throws {
        let epoll = try Epoll()
        defer { epoll.descriptor.close() }
        let (r, w) = makePipe()
        defer { r.close(); w.close() }
        let timer = try TimerFD()
        defer { timer.descriptor.close() }
        try epoll.add(r, events: Epoll.readable)
        try epoll.add(timer.descriptor, events: Epoll.readable)
        var events = Epoll.Events(capacity: 4)
        #expect(try epoll.wait(into: &events, timeoutMilliseconds: 0) == 0)

        try w.writeAll([42])
        #expect(try epoll.wait(into: &events, timeoutMilliseconds: 1000) == 1)
        #expect(events[0].fd == r && events[0].events & Epoll.readable != 0)
        try epoll.remove(r)

        timer.arm(at: MonotonicClock.now() + .milliseconds(5))
        #expect(try epoll.wait(into: &events, timeoutMilliseconds: 2000) == 1)
        #expect(events[0].fd == timer.descriptor)
        #expect(timer.acknowledge() == 1)
        #expect(timer.acknowledge() == 0)   // cleared: a non-blocking read finds nothing
    }
}
