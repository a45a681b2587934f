#if canImport(Glibc)
import Glibc
#endif
import Testing
import LinuxSystem

/// poll over real pipes: what it reports for data, an empty pipe, a hung-up writer, a skipped
/// (negative) descriptor, and a writable end.
@Suite struct PollTests {
    @Test func test_wait_pipeWithData_reportsReadableOnlyThere() throws {
        let a = try FileDescriptor.pipe(), b = try FileDescriptor.pipe()
        defer { for fd in [a.readEnd, a.writeEnd, b.readEnd, b.writeEnd] { fd.close() } }
        _ = try [UInt8(7)].withUnsafeBytes { try b.writeEnd.write($0) }
        var entries = [Poll.Entry(a.readEnd, .readable), Poll.Entry(b.readEnd, .readable)]
        let ready = try Poll.wait(&entries, timeoutMilliseconds: 1000)
        #expect(ready == 1)
        #expect(entries[0].returned.isEmpty)
        #expect(entries[1].returned == .readable)
    }

    @Test func test_wait_emptyPipe_timesOutWithNothingReturned() throws {
        let p = try FileDescriptor.pipe()
        defer { p.readEnd.close(); p.writeEnd.close() }
        #expect(try Poll.wait(for: p.readEnd, .readable, timeoutMilliseconds: 0).isEmpty)
    }

    @Test func test_wait_writerClosed_reportsHangUp() throws {
        let p = try FileDescriptor.pipe()
        defer { p.readEnd.close() }
        p.writeEnd.close()
        #expect(try Poll.wait(for: p.readEnd, .readable, timeoutMilliseconds: 1000).contains(.hangUp))
    }

    @Test func test_wait_negativeDescriptor_isSkipped() throws {
        let p = try FileDescriptor.pipe()
        defer { p.readEnd.close(); p.writeEnd.close() }
        var entries = [Poll.Entry(FileDescriptor(rawValue: -1), .readable), Poll.Entry(p.writeEnd, .writable)]
        #expect(try Poll.wait(&entries, timeoutMilliseconds: 1000) == 1)
        #expect(entries[0].returned.isEmpty)
        #expect(entries[1].returned == .writable)
    }

    @Test func test_wait_descriptorNotOpen_reportsInvalid() throws {
        // Far above any fd this process opens (a just-closed number could be reused at once by
        // a test running in parallel).
        let notOpen = FileDescriptor(rawValue: 900_000)
        #expect(fcntl(notOpen.rawValue, F_GETFD) == -1)
        #expect(try Poll.wait(for: notOpen, .readable, timeoutMilliseconds: 0) == .invalid)
    }

    @Test func test_wait_wakesWhenAnotherThreadWrites() throws {
        let p = try FileDescriptor.pipe()
        defer { p.readEnd.close(); p.writeEnd.close() }
        let writer = try SystemThread.start {
            MonotonicClock.sleep(for: .milliseconds(20))
            _ = try? [UInt8(1)].withUnsafeBytes { try p.writeEnd.write($0) }
        }
        defer { writer.join() }
        #expect(try Poll.wait(for: p.readEnd, .readable, timeoutMilliseconds: -1) == .readable)
    }
}
