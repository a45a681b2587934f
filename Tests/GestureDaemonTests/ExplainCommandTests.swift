import Foundation
import Testing

/// `gestured explain` on real recordings whose outcome is known. Each case is a `known`
/// directive of a fixture's `.expected` file (a gesture the recognizers miss or make wrongly,
/// with the reason written in the comment above it); explain must name, for the touch sequence
/// in question, the threshold that decided it, with its value and config key.
@Suite struct ExplainCommandTests {
    struct Case {
        var fixture: String
        /// The `known` lines of the `.expected` file this case covers.
        var known: [Int]
        var from: String, to: String
        /// Text each of which must appear in the explanation of that time.
        var says: [String]
    }

    static let cases: [Case] = [
        // "A swipe is recognized when the first 6 mm are covered (not at lift), so it reports
        // the starting direction": the 2-finger stroke starts upward and ends left.
        Case(fixture: "touchpad-protoA-bcm5974-1f-move-2f-swipe-left-3f-swipe-right-4f-taps__whot-evemu.evemu",
             known: [7, 12], from: "2.3", to: "4.1",
             says: ["swipe (recognized): 2 fingers moved", "heading up, over swipe_minimum_distance_mm 6",
                    "by the lift they had moved 28.3 mm left"]),
        Case(fixture: "touchpad-protoA-bcm5974-1f-move-2f-swipe-left-3f-swipe-right-4f-taps__whot-evemu.evemu",
             known: [8, 13], from: "5.4", to: "6.8",
             says: ["swipe (recognized): 3 fingers moved", "heading down, over swipe_minimum_distance_mm 6",
                    "by the lift they had moved 8.6 mm right"]),
        // "One stroke (at 17.3 s) starts at 48 degrees up-right and turns right: its swipe is
        // decided on the first 8 mm and says up".
        Case(fixture: "touchpad-synaptics-t440s-1finger-strokes-and-clicks__whot-input-data-analysis.evemu",
             known: [11], from: "17.3", to: "17.4",
             says: ["heading up, over swipe_minimum_distance_mm 6", "(the direction is decided when swipe_minimum_distance_mm is reached)"]),
        // "the pan begins rightwards": the finger goes right first and ends left; the phantom
        // at x = 0 is an edge palm, left out.
        Case(fixture: "touchpad-goodix-dell0a78-clicks-scrolls-pinches-beside-edge-phantom__linux-input-list.yml",
             known: [36], from: "0.7", to: "2.8",
             says: ["landed in the left edge-palm zone (edge_palm_zone_width_mm 8)", "pan (recognized): 1 finger moved",
                    "heading right, over pan_slop_mm 1.5", "by the lift they had moved 27.9 mm left"]),
        // The 25 mm jump of a finger landing in a ghost's slot makes the two-finger move a pinch
        // and a rotate.
        Case(fixture: "touchpad-synaptics-dll0945-3finger-swipe-then-kernel-ghost-contacts__linux-input-list.evtest",
             known: [35, 36, 37, 38], from: "0.93", to: "1.12",
             says: ["pinch (recognized): the span of 2 fingers closed", "over pinch_minimum_span_change_mm 3",
                    "rotate (recognized): 2 fingers turned", "over rotate_minimum_angle_deg 15"]),
        // The 2-finger turn starts with translation: the pan slop is passed before the turn.
        Case(fixture: "touchscreen-3m-10finger-mixed-rotate-pinch-drags__whot-evemu.evemu",
             known: [12], from: "3.9", to: "6.4",
             says: ["pan (recognized): 2 fingers moved", "pan_slop_mm 2 + pan_slop_per_extra_finger_mm 1 × 1 = 3",
                    "rotate (recognized)", "over rotate_minimum_angle_deg 15"]),
        // The infrared grid's ghosts make six contacts: nothing is recognized while they are down.
        Case(fixture: "touchscreen-nexio-ir-1finger-drag-with-edge-ghosts-2finger-hold-then-slide__bentiss-hid-devices.evemu",
             known: [17], from: "0", to: "3.8",
             says: ["6 contacts at once, more than 5: no gesture while they are down"]),
        // The 48 ms brush, moving 1.8 mm, is quick and short enough to be a tap.
        Case(fixture: "touchscreen-sharp-1finger-drag-2finger-pinches-10finger-slide__bentiss-hid-devices.evemu",
             known: [15], from: "0", to: "0.05",
             says: ["tap (recognized): the contact lasted 48 ms, within tap_timeout_ms 300",
                    "lifted 1.8 mm from where it landed, within tap_quick_maximum_movement_mm 3"]),
        // The two brushes at the left edge make the drag a three-finger pan for a moment.
        Case(fixture: "touchscreen-sharp-1finger-drag-2finger-pinches-10finger-slide__bentiss-hid-devices.evemu",
             known: [18], from: "0.07", to: "1.8",
             says: ["recognized: pan 3 fingers right (cancelled)", "pan_slop_mm 2"]),
    ]

    static func explain(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
        guard let bin = TestPaths.binary else { throw TestFailure(description: "the gestured binary is not built next to the tests") }
        return try ReplayPageBrowserTests.run(bin, ["explain"] + args)
    }

    @Test(arguments: cases.indices)
    func test_explain_namesTheDecidingThreshold_ofEachKnownDirective(_ i: Int) throws {
        let c = Self.cases[i]
        let expected = try String(contentsOf: TestPaths.fixtures.appendingPathComponent(
            c.fixture.replacingOccurrences(of: ".evemu", with: "").replacingOccurrences(of: ".evtest", with: "")
                .replacingOccurrences(of: ".yml", with: "") + ".expected"), encoding: .utf8)
        let lines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        for n in c.known { #expect(lines[n - 1].hasPrefix("known "), "\(c.fixture):\(n) is no known directive") }
        let r = try Self.explain(["--config", "/dev/null", "--from", c.from, "--to", c.to,
                                  TestPaths.fixtures.appendingPathComponent(c.fixture).path])
        #expect(r.status == 0, "\(r.err)")
        for s in c.says { #expect(r.out.contains(s), "\(c.fixture) \(c.from)–\(c.to) s: missing '\(s)' in\n\(r.out)") }
    }

    /// Every known directive of every fixture is covered by a case above.
    @Test func test_everyKnownDirective_hasACase() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: TestPaths.fixtures.path).filter { $0.hasSuffix(".expected") }
        for f in files {
            let lines = try String(contentsOf: TestPaths.fixtures.appendingPathComponent(f), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (i, l) in lines.enumerated() where l.hasPrefix("known ") {
                let covered = Self.cases.contains { $0.fixture.hasPrefix(f.replacingOccurrences(of: ".expected", with: "")) && $0.known.contains(i + 1) }
                #expect(covered, "\(f):\(i + 1) '\(l)' has no explain case")
            }
        }
    }

    /// A config's per-device override is what explain compares with (the daemon's thresholds).
    @Test func test_explain_usesTheConfigsDeviceRule() throws {
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "devices:\n  - match: {name: \"Sharp*\"}\n    thresholds: {tap_timeout_ms: 40}\n".write(toFile: dir + "/c.yaml", atomically: true, encoding: .utf8)
        let r = try Self.explain(["--config", dir + "/c.yaml", "--to", "0.05",
                                  TestPaths.fixtures.appendingPathComponent(Self.cases[7].fixture).path])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("tap: the contact lasted 48 ms, over tap_timeout_ms 40"), "\(r.out)")
        #expect(r.out.contains("recognized: nothing"), "\(r.out)")
    }

    @Test func test_explain_badArguments_exit2_badConfig_exits1() throws {
        let f = TestPaths.fixtures.appendingPathComponent(Self.cases[7].fixture).path
        let a = try Self.explain(["--from", "soon", f])
        #expect(a.status == 2 && a.err.contains("--from expects seconds"), "\(a.err)")
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "thresholds:\n  touchscreen: {tap_timeout: 3}\n".write(toFile: dir + "/bad.yaml", atomically: true, encoding: .utf8)
        let b = try Self.explain(["--config", dir + "/bad.yaml", f])
        #expect(b.status == 1 && b.err.contains("bad.yaml:2:"), "\(b.err)")
    }
}
