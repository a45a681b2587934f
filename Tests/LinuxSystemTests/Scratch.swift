#if canImport(Glibc)
import Glibc
#endif
import LinuxSystem

/// What the LinuxSystem suites share: a fresh directory under /tmp, and a connected pair of
/// stream sockets (the listening end kept open, nothing ever sent).
enum Scratch {
    static func directory() -> String {
        var template = Array("/tmp/linuxsystem-XXXXXX".utf8CString)
        precondition(mkdtemp(&template) != nil)
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A client connected to a listening socket at a fresh path; `body` gets the client.
    static func withConnectedClient(_ body: (FileDescriptor) throws -> Void) throws {
        let dir = directory(), path = dir + "/s"
        defer { unlink(path); rmdir(dir) }
        let server = try UnixSocket.open(.stream)
        defer { server.close() }
        try server.bind(to: UnixAddress(path: path)!)
        try server.listen(backlog: 1)
        let client = try FileDescriptor.connectUnix(path)
        defer { client.close() }
        try body(client)
    }
}
