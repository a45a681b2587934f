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

    @Test func test_bind_missingDirectory_throwsNoSuchFile() throws {
        let socket = try UnixSocket.open(.datagram)
        defer { socket.close() }
        let address = try #require(UnixAddress(path: "/nonexistent-gestured-test/s"))
        #expect(throws: SystemError.noSuchFile) { try socket.bind(to: address) }
        #expect(throws: SystemError.noSuchFile) { _ = try Array("x".utf8).withUnsafeBytes { try socket.send($0, to: address) } }
    }
}
