import Foundation
import Testing

/// `gestured listen` replaces itself with gestured-listen from its own directory (the daemon's
/// executable carries no focus tracking): the real binaries, run as a user runs them.
struct ListenForwardTests {
    @Test func test_listen_runsGesturedListenBesideIt_withTheArguments() throws {
        let bin = try #require(TestPaths.binary, "the gestured binary is not built next to the tests")
        let r = try TestPaths.run(bin, ["listen", "--focus-backend", "nowhere"])
        #expect(r.status == 2)
        #expect(r.output.contains("gestured listen: unknown focus backend 'nowhere'"))
        let help = try TestPaths.run(bin, ["listen", "--help"])
        #expect(help.status == 0 && help.output.hasPrefix("usage: gestured listen"))
    }

    @Test func test_listen_withoutGesturedListenBesideIt_saysWhatIsMissing() throws {
        let bin = try #require(TestPaths.binary, "the gestured binary is not built next to the tests")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("listen-forward-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let lone = dir.appendingPathComponent("gestured").path
        try FileManager.default.copyItem(atPath: bin, toPath: lone)
        let r = try TestPaths.run(lone, ["listen", "--help"])
        #expect(r.status == 127)
        #expect(r.output.contains("cannot run \(dir.path)/gestured-listen: No such file or directory"))
    }
}
