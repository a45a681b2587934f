#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import LinuxSystem

/// LinuxSystem's Unix-socket calls over a real listening socket in a temporary directory.
@Suite struct UnixSocketTests {
    @Test func test_listenAcceptSendReceive_peerIsThisProcess() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gestured-us-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s").path
        let server = try UnixSocket.open(.stream, nonBlocking: true)
        defer { server.close() }
        try server.bind(to: try #require(UnixAddress(path: path)))
        try server.listen(backlog: 4)
        #expect(throws: SystemError.wouldBlock) { try server.acceptNonBlocking() }

        let client = try FileDescriptor.connectUnix(path)
        defer { client.close() }
        let accepted = try server.acceptNonBlocking()
        defer { accepted.close() }
        let peer = accepted.peer()
        #expect(peer.pid == getpid() && peer.uid == getuid() && peer.gid == getgid())
        #expect(accepted.peerGroups() != nil)

        let sent = try Array("hello\n".utf8).withUnsafeBytes { try client.send($0) }
        #expect(sent == 6)
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = try buffer.withUnsafeMutableBytes { try accepted.receive(into: $0) }
        #expect(String(decoding: buffer[..<n], as: UTF8.self) == "hello\n")
        #expect(throws: SystemError.wouldBlock) { _ = try buffer.withUnsafeMutableBytes { try accepted.receive(into: $0) } }

        client.close()
        #expect(try buffer.withUnsafeMutableBytes { try accepted.receive(into: $0) } == 0)
        #expect(throws: SystemError.brokenPipe) { _ = try Array("x".utf8).withUnsafeBytes { try accepted.send($0) } }
    }

    @Test func aDescriptorSentWithBytes_arrivesWithThem_andWorks() throws {
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        let a = FileDescriptor(rawValue: pair[0]), b = FileDescriptor(rawValue: pair[1])
        defer { a.close(); b.close() }
        let ends = try FileDescriptor.pipe()
        defer { ends.writeEnd.close() }
        _ = try Array("before\n".utf8).withUnsafeBytes { try a.send($0) }
        let sent = try Array("with\n".utf8).withUnsafeBytes { try a.send($0, passing: ends.readEnd, dontWait: true) }
        ends.readEnd.close()                       // the receiver's copy keeps the pipe open
        #expect(sent == 5)
        var buffer = [UInt8](repeating: 0, count: 64)
        var text = "", descriptor: FileDescriptor?
        while text.count < 12 {
            let got = try buffer.withUnsafeMutableBytes { try b.receiveWithDescriptor(into: $0) }
            if got.count == 0 { break }
            text += String(decoding: buffer[..<got.count], as: UTF8.self)
            if let d = got.descriptor { #expect(descriptor == nil); descriptor = d }
        }
        #expect(text == "before\nwith\n")
        let passed = try #require(descriptor)
        defer { passed.close() }
        #expect(fcntl(passed.rawValue, F_GETFD) & FD_CLOEXEC != 0, "received close-on-exec")
        #expect(try Array("through".utf8).withUnsafeBytes { try ends.writeEnd.write($0) } == 7)
        let n = try buffer.withUnsafeMutableBytes { try passed.read(into: $0) }
        #expect(String(decoding: buffer[..<n], as: UTF8.self) == "through")
        // Bytes with no descriptor: none is made up.
        _ = try Array("plain".utf8).withUnsafeBytes { try a.send($0) }
        let plain = try buffer.withUnsafeMutableBytes { try b.receiveWithDescriptor(into: $0) }
        #expect(plain.count == 5 && plain.descriptor == nil)
    }

    @Test func test_bind_missingDirectory_throwsNoSuchFile() throws {
        let socket = try UnixSocket.open(.datagram)
        defer { socket.close() }
        let address = try #require(UnixAddress(path: "/nonexistent-gestured-test/s"))
        #expect(throws: SystemError.noSuchFile) { try socket.bind(to: address) }
        #expect(throws: SystemError.noSuchFile) { _ = try Array("x".utf8).withUnsafeBytes { try socket.send($0, to: address) } }
    }
}
