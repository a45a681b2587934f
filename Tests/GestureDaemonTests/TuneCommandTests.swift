import Foundation
import Testing

/// `gestured tune --from` on real recordings of known gestures (the person's taps and swipes,
/// from the fixtures' names and `.expected` files). Starting from thresholds that miss them
/// (a config far too strict for these hands), tune's snippet, added to that config, must be
/// accepted by `gestured check` and make `gestured replay` find every gesture the person made.
@Suite struct TuneCommandTests {
    static let taps = "touchscreen-atmel-1finger-repeated-taps__whot-evemu-devices.evemu"   // nine 1-finger taps
    static let swipe2 = "touchscreen-ep0430m09-2finger-swipe-up__whot-evemu-devices.evemu"  // a 2-finger swipe up
    static let swipe4 = "touchscreen-ep0430m09-4finger-swipe-up__whot-evemu-devices.evemu"  // a 4-finger swipe up
    static let strict = "thresholds:\n  touchscreen: {tap_timeout_ms: 50, swipe_minimum_distance_mm: 60}\n"

    static func gestured(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
        guard let bin = TestPaths.binary else { throw TestFailure(description: "the gestured binary is not built next to the tests") }
        return try ReplayPageBrowserTests.run(bin, args)
    }
    static func fixture(_ name: String) -> String { TestPaths.fixtures.appendingPathComponent(name).path }
    static func replay(_ config: String, _ recording: String) throws -> [String] {
        let r = try gestured(["replay", "--config", config, recording])
        #expect(r.status == 0, "\(r.err)")
        return r.out.split(separator: "\n").map(String.init)
    }

    /// Tunes from `sources` over `base`, checks the snippet, returns base + snippet's path.
    static func tuned(_ sources: [String], base: String, in dir: String) throws -> (config: String, snippet: String) {
        let r = try gestured(["tune", "--config", base] + sources.flatMap { ["--from", $0] })
        try #require(r.status == 0, "\(r.err)")
        let combined = dir + "/tuned.yaml"
        try (String(contentsOfFile: base, encoding: .utf8) + r.out).write(toFile: combined, atomically: true, encoding: .utf8)
        let check = try gestured(["check", "--config", combined])
        #expect(check.status == 0, "check rejects the snippet:\n\(r.out)\n\(check.err)")
        return (combined, r.out)
    }

    @Test func test_tune_fromTaps_makesReplayFindAllNineTaps() throws {
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.strict.write(toFile: dir + "/strict.yaml", atomically: true, encoding: .utf8)
        func taps(_ lines: [String]) -> Int {
            lines.filter { $0.contains(" tap recognized") && $0.contains("fingers=1") }.count
                + 2 * lines.filter { $0.contains(" doubleTap recognized") && $0.contains("fingers=1") }.count
        }
        #expect(taps(try Self.replay(dir + "/strict.yaml", Self.fixture(Self.taps))) == 0, "the strict config already finds taps: no test")
        let t = try Self.tuned(["tap=" + Self.fixture(Self.taps)], base: dir + "/strict.yaml", in: dir)
        #expect(t.snippet.contains("tap_timeout_ms:"), "\(t.snippet)")
        #expect(taps(try Self.replay(t.config, Self.fixture(Self.taps))) == 9, "\(t.snippet)")
    }

    @Test func test_tune_fromSwipes_makesReplayFindBothSwipes() throws {
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.strict.write(toFile: dir + "/strict.yaml", atomically: true, encoding: .utf8)
        for f in [Self.swipe2, Self.swipe4] {
            #expect(!(try Self.replay(dir + "/strict.yaml", Self.fixture(f))).contains { $0.contains(" swipe ") }, "the strict config already finds the swipe: no test")
        }
        let t = try Self.tuned(["swipe=" + Self.fixture(Self.swipe2), "swipe=" + Self.fixture(Self.swipe4)], base: dir + "/strict.yaml", in: dir)
        for (f, n) in [(Self.swipe2, 2), (Self.swipe4, 4)] {
            let lines = try Self.replay(t.config, Self.fixture(f))
            #expect(lines.contains { $0.contains(" swipe recognized") && $0.contains("fingers=\(n)") && $0.contains("direction=up") },
                    "\(f):\n\(t.snippet)\n\(lines.joined(separator: "\n"))")
            #expect(!lines.contains { $0.contains(" swipe ") && !$0.contains("direction=up") })
        }
    }

    /// Thresholds that already recognize the gestures are left alone.
    @Test func test_tune_whenTheDefaultsFit_changesNothing() throws {
        let r = try Self.gestured(["tune", "--config", "/dev/null", "--from", "tap=" + Self.fixture(Self.taps)])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("nothing to change") && !r.out.contains("thresholds:"), "\(r.out)")
    }

    /// A device name with YAML and glob syntax in it still makes a rule that matches that device.
    @Test func test_tune_snippet_matchesAnOddlyNamedDevice() throws {
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var lines = try String(contentsOfFile: Self.fixture(Self.taps), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let n = try #require(lines.firstIndex { $0.hasPrefix("N: ") })
        lines[n] = "N: Pad \"[1]\" *: {x} \\ 'y'"
        try lines.joined(separator: "\n").write(toFile: dir + "/odd.evemu", atomically: true, encoding: .utf8)
        try Self.strict.write(toFile: dir + "/strict.yaml", atomically: true, encoding: .utf8)
        let t = try Self.tuned(["tap=" + dir + "/odd.evemu"], base: dir + "/strict.yaml", in: dir)
        let found = try Self.replay(t.config, dir + "/odd.evemu").filter { $0.contains("ap recognized") }
        #expect(!found.isEmpty, "the rule does not match the device:\n\(t.snippet)")
    }

    @Test func test_tune_badArguments_exit2() throws {
        let a = try Self.gestured(["tune", "--from", "wave=x.evemu"])
        #expect(a.status == 2 && a.err.contains("--from expects GESTURE=FILE"), "\(a.err)")
        let b = try Self.gestured(["tune", "--config", "/dev/null", "--from", "tap=" + Self.fixture(Self.taps), "--from", "swipe=" + Self.fixture(Self.swipe2)])
        #expect(b.status == 2 && b.err.contains("tune one device at a time"), "\(b.err)")
    }
}
