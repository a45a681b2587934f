// Test support: the real `gestured` binary as a child process, and a blocking socket client with
// a receive timeout (so a broken daemon fails a test instead of hanging it).
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GestureWire
import LinuxSystem

enum TestPaths {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = repo.appendingPathComponent("Tests/Fixtures")

    /// `gestured` next to the test bundle (.build/<triple>/debug/), else .build/debug.
    static var binary: String? {
        var candidates: [String] = []
        if let arg0 = CommandLine.arguments.first {
            var dir = URL(fileURLWithPath: arg0).deletingLastPathComponent()
            for _ in 0..<4 {
                candidates.append(dir.appendingPathComponent("gestured").path)
                dir = dir.deletingLastPathComponent()
            }
        }
        candidates.append(repo.appendingPathComponent(".build/debug/gestured").path)
        return candidates.first { access($0, X_OK) == 0 && !$0.hasSuffix(".xctest/gestured") }
    }

    /// Runs `bin` with `args` to its end: the exit status and what it wrote (stdout and stderr).
    static func run(_ bin: String, _ args: [String]) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: bin)
        p.arguments = args
        let pipe = Pipe()
        p.standardOutput = pipe; p.standardError = pipe
        try p.run()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, out)
    }

    static func fixture(_ prefix: String) -> String {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []
        let name = names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".evemu") }.sorted().first ?? prefix
        return fixtures.appendingPathComponent(name).path
    }

    static func tempDirectory() -> String {
        var t = Array("/tmp/gestured-test.XXXXXX".utf8CString)
        return t.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }
}

struct TestFailure: Error, CustomStringConvertible { var description: String }

/// `gestured run --socket DIR/s.sock …` with stderr captured to DIR/log.
final class DaemonProcess {
    let process = Process()
    let dir: String
    let socket: String
    let logPath: String

    static func withEnvironment(_ extra: [String: String]) throws -> DaemonProcess {
        try DaemonProcess([], extraEnvironment: extra)
    }

    /// `fileLimit`: the daemon starts with RLIMIT_NOFILE at this soft and hard limit.
    init(_ args: [String], config: String? = nil, extraEnvironment: [String: String] = [:], directory: String? = nil,
         fileLimit: Int? = nil) throws {
        guard let bin = TestPaths.binary else { throw TestFailure(description: "the gestured binary is not built next to the tests") }
        dir = directory ?? TestPaths.tempDirectory()
        socket = dir + "/s.sock"
        logPath = dir + "/log"
        var argv = ["run", "--socket", socket, "--no-discovery"]
        if let config {
            let path = dir + "/config.yaml"
            try config.write(toFile: path, atomically: true, encoding: .utf8)
            argv += ["--config", path]
        } else {
            argv += ["--config", "/dev/null"]
        }
        FileManager.default.createFile(atPath: logPath, contents: nil)
        if let fileLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(fileLimit) && exec \"$0\" \"$@\"", bin] + argv + args
        } else {
            process.executableURL = URL(fileURLWithPath: bin)
            process.arguments = argv + args
        }
        process.standardError = FileHandle(forWritingAtPath: logPath)
        process.standardOutput = FileHandle.nullDevice
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NOTIFY_SOCKET"); env.removeValue(forKey: "LISTEN_FDS"); env.removeValue(forKey: "JOURNAL_STREAM")
        env.merge(extraEnvironment) { $1 }
        process.environment = env
        try process.run()
        for _ in 0..<400 {
            if access(socket, F_OK) == 0 { return }
            if !process.isRunning { throw TestFailure(description: "gestured run exited: \(log)") }
            usleep(25_000)
        }
        throw TestFailure(description: "no socket after 10 s: \(log)")
    }

    var configPath: String { dir + "/config.yaml" }
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
    var pid: Int32 { process.processIdentifier }

    func signal(_ s: Int32) { kill(pid, s) }

    /// Waits (up to 10 s) for the log to contain `text`.
    func waitForLog(_ text: String) -> Bool {
        for _ in 0..<400 { if log.contains(text) { return true }; usleep(25_000) }
        return false
    }

    func stop() -> Int32 {
        if process.isRunning { signal(SIGTERM) }
        for _ in 0..<400 where process.isRunning { usleep(25_000) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: dir)
        return process.terminationStatus
    }

    deinit { if process.isRunning { kill(pid, SIGKILL) } }
}

/// A blocking client: lines in (with a timeout), lines out.
final class TestClient: @unchecked Sendable {
    let fd: Int32
    /// Where lines are read from: the socket, or the pipe `streamThroughPipe` got.
    private(set) var pipe: Int32 = -1
    private var buffer: [UInt8] = []
    private(set) var lines: [String] = []

    /// Connects; the daemon's socket file appears at bind(), a moment before listen() (longer
    /// on a loaded machine), so a refused connection is tried again for up to 2 s.
    init(_ path: String, receiveBuffer: Int32? = nil) throws {
        var attempts = 0
        while true {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, 4) }
            var tv = timeval(tv_sec: 15, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            var addr = sockaddr_un()
            addr.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b }; raw[bytes.count] = 0 }
            let rc = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            if rc == 0 { self.fd = fd; return }
            let e = errno
            close(fd)
            attempts += 1
            guard e == ECONNREFUSED, attempts < 80 else {
                throw TestFailure(description: "connect \(path): \(String(cString: strerror(e)))")
            }
            usleep(25_000)
        }
    }

    deinit { close(fd); if pipe >= 0 { close(pipe) } }

    /// Asks for the daemon's lines through a pipe: every line up to the `ok` that carries the
    /// pipe's read end comes from the socket (returned, the `ok` last), every later one from the
    /// pipe. Throws when the answer is not an `ok` with a descriptor.
    func streamThroughPipe() throws -> [String] {
        send(#"{"type":"stream","via":"pipe"}"#)
        while true {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let got = try chunk.withUnsafeMutableBytes { try FileDescriptor(rawValue: fd).receiveWithDescriptor(into: $0) }
            guard got.count > 0 else { throw TestFailure(description: "the daemon closed before answering the stream request") }
            buffer.append(contentsOf: chunk[0..<got.count])
            let text = String(decoding: buffer, as: UTF8.self)
            guard let p = got.descriptor else {
                // Lines queued before the reply come first; an answer without a pipe ends it.
                if text.contains(#""request":"stream""#) { throw TestFailure(description: "an ok for the stream came without a pipe") }
                if text.contains(#""type":"error""#) { throw TestFailure(description: "stream refused: \(text)") }
                continue
            }
            // The descriptor comes with the reply's first byte: the reply is the last line.
            guard text.hasSuffix("\n"), let last = text.dropLast().split(separator: "\n").last,
                  last == #"{"type":"ok","request":"stream"}"# else {
                p.close(); throw TestFailure(description: "a descriptor came with \(text)")
            }
            buffer.removeAll()
            pipe = p.rawValue
            return text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
    }

    /// Stops reading the pipe (closes its read end); later reads see the end of the stream.
    func closePipe() { if pipe >= 0 { close(pipe); pipe = -2 } }

    func send(_ line: String) {
        let b = Array((line + "\n").utf8)
        _ = b.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next line; nil at end of stream or after the timeout.
    func next() -> String? {
        while true {
            if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let l = String(decoding: buffer[0..<nl], as: UTF8.self)
                buffer.removeSubrange(0...nl)
                lines.append(l)
                return l
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            if pipe == -2 { return nil }
            if pipe >= 0 {
                // A pipe has no receive timeout: wait for it as the socket's SO_RCVTIMEO would.
                var p = pollfd(fd: pipe, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 15_000) == 1 else { return nil }
            }
            let n = chunk.withUnsafeMutableBytes { pipe >= 0 ? Glibc.read(pipe, $0.baseAddress, $0.count) : recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    /// Messages until one satisfies `done` (included); throws at end of stream / timeout.
    func read(until done: (ServerMessage, String) -> Bool) throws -> [(ServerMessage, String)] {
        var out: [(ServerMessage, String)] = []
        while let l = next() {
            let m = try WireDecoder.serverMessage(l)
            out.append((m, l))
            if done(m, l) { return out }
        }
        throw TestFailure(description: "stream ended or timed out; got: \(out.suffix(5).map(\.1))")
    }
}

extension ServerMessage {
    var isDeviceRemoved: Bool { if case .deviceRemoved = self { return true }; return false }
    var gesture: (kind: String, phase: String, fingers: Int, direction: String?)? {
        if case .gesture(let g, _) = self { return (g.kind.rawValue, g.phase.rawValue, g.fingers, g.direction?.rawValue) }
        return nil
    }
}
