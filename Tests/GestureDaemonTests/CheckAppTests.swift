// `gestured check` on a config with app: — the real binary: the daemon's reading rejects it
// and says where it belongs, `check --listen` accepts it.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

@Suite struct CheckAppTests {
    static func check(_ args: [String]) throws -> (Int32, String) {
        guard let bin = TestPaths.binary else { throw TestFailure(description: "no gestured binary") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: bin)
        p.arguments = ["check"] + args
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func check_daemonRejectsApp_listenAcceptsIt() throws {
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/c.yaml"
        try "bindings:\n  - gesture: swipe\n    app: [firefox, none]\n    command: x\n".write(toFile: file, atomically: true, encoding: .utf8)
        let (bad, text) = try Self.check(["--config", file])
        #expect(bad == 1)
        #expect(text.contains("\(file):3:5: app: belongs in the listen config, not the daemon's"), "\(text)")
        let (ok, summary) = try Self.check(["--listen", "--config", file])
        #expect(ok == 0, "\(summary)")
        #expect(summary.contains("ok: 1 binding"))
    }
}
