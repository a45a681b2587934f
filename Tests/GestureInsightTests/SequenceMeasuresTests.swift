import Foundation
import GestureConfig
import GestureCore
import GestureTestSupport
import Testing
@testable import GestureInsight

/// Touch sequences measured from hand-made frames (virtual time, millimetres).
@Suite struct SequenceMeasuresTests {
    /// Frames of contacts following `path(id, step) -> (x, y)` for `steps` frames 10 ms apart,
    /// then one frame lifting them all.
    static func frames(ids: [Int], steps: Int, start: Int64 = 0, _ path: (Int, Int) -> (Double, Double)) -> [TouchFrame] {
        var out: [TouchFrame] = []
        for k in 0...steps {
            let last = k == steps
            let touches = ids.map { id -> Touch in
                let (x, y) = path(id, Swift.min(k, steps - 1))
                return Touch(id: id, slot: id, phase: k == 0 ? .began : last ? .ended : .moved, x: x, y: y)
            }
            out.append(TouchFrame(time: .milliseconds(start + Int64(k) * 10), touches: touches, fingerCount: last ? 0 : ids.count))
        }
        return out
    }

    static func sequences(_ frames: [TouchFrame]) -> [TouchSequence] {
        var c = SequenceCollector()
        for f in frames { c.add(f) }
        c.finish()
        return c.sequences
    }

    @Test func test_oneFingerMovingRight_measuresItsTravelAndHeading() throws {
        let seqs = Self.sequences(Self.frames(ids: [1], steps: 11) { _, k in (10 + Double(k), 20) })
        try #require(seqs.count == 1)
        let m = SequenceMeasures(seqs[0])
        #expect(abs(m.final.distance - 10) < 1e-9)
        #expect(Words.heading(m.final.totalX, m.final.totalY) == "right")
        #expect(abs(m.displacement - 10) < 1e-9)
        #expect(m.liftAfterLastLanding == .milliseconds(110))
        #expect(m.fingers == 1)
    }

    @Test func test_twoFingersSpreading_isASpanChange_notATranslation() throws {
        let seqs = Self.sequences(Self.frames(ids: [1, 2], steps: 11) { id, k in (50 + (id == 1 ? -1.0 : 1.0) * (10 + Double(k)), 50) })
        let m = SequenceMeasures(try #require(seqs.first))
        #expect(abs(m.maxSpanChange - 20) < 1e-6, "\(m.maxSpanChange)")   // 20 → 40 mm apart
        #expect(m.maxDistance < 1e-9)
        #expect(!m.samples[m.samples.count - 2].translationDominates)
    }

    @Test func test_twoFingersTurningClockwise_measuresTheAngle() throws {
        // A quarter turn around (50, 50), 20 mm apart, y down: clockwise is positive.
        let seqs = Self.sequences(Self.frames(ids: [1, 2], steps: 19) { id, k in
            let a = Double(k) / 18 * Double.pi / 2 + (id == 1 ? 0 : Double.pi)
            return (50 + 10 * cos(a), 50 + 10 * sin(a))
        })
        let m = SequenceMeasures(try #require(seqs.first))
        #expect(abs((m.samples.last?.rotation ?? 0) - 90) < 0.5, "\(m.samples.last?.rotation ?? 0)")
    }

    @Test func test_twoSequences_areCutWhereTheSurfaceIsEmpty() {
        let a = Self.frames(ids: [1], steps: 3) { _, _ in (5, 5) }
        let b = Self.frames(ids: [2], steps: 3, start: 500) { _, _ in (8, 8) }
        let seqs = Self.sequences(a + b)
        #expect(seqs.map(\.number) == [1, 2])
        #expect(seqs.map(\.start) == [.milliseconds(0), .milliseconds(500)])
    }

    @Test func test_aSlowStillTouch_isNoTap_becauseOfTheTapTimeout() throws {
        let device = ScenarioDevices.touchscreen()
        let seqs = Self.sequences(Self.frames(ids: [1], steps: 40) { _, _ in (100, 100) })   // 400 ms, still
        let e = Explainer.explain(seqs, spans: [], thresholds: .defaults(for: device), device: device)
        let tap = try #require(e.first?.verdicts.first { $0.kind == .tap })
        #expect(tap.text == "the contact lasted 400 ms, over tap_timeout_ms 300", "\(tap.text)")
        #expect(!tap.recognized && tap.keys == ["tap_timeout_ms"])
        let swipe = try #require(e.first?.verdicts.first { $0.kind == .swipe })
        #expect(swipe.text.contains("of the 15 mm needed (swipe_minimum_distance_mm 15)"), "\(swipe.text)")
    }

    @Test func test_threeFingersGoingOutAndBackTogether_areNoTap_wobblingApartAreOne() throws {
        // Touchpad: each finger 3 mm right and back within 100 ms (a tap by the excursion), all
        // the same way: past the 3-finger pan slop (2.5 mm), as the recognizer decides.
        let device = ScenarioDevices.touchpad()
        let out: (Int, Int) -> Double = { _, k in k <= 4 ? 0.75 * Double(k) : Swift.max(0, 3 - 0.6 * Double(k - 4)) }
        let together = Self.sequences(Self.frames(ids: [1, 2, 3], steps: 10) { id, k in (15 * Double(id) + out(id, k), 35) })
        let e = Explainer.explain(together, spans: [], thresholds: .defaults(for: device), device: device)
        let tap = try #require(e.first?.verdicts.first { $0.kind == .tap })
        #expect(tap.text == "all 3 fingers went 3 mm or more right together, past pan_slop_mm 1.5 + pan_slop_per_extra_finger_mm 0.5 × 2 = 2.5: a pan, not a tap's wobble", "\(tap.text)")
        #expect(!tap.recognized && tap.keys == ["pan_slop_mm", "pan_slop_per_extra_finger_mm"])
        // Each finger its own way, as far: a tap.
        let apart = Self.sequences(Self.frames(ids: [1, 2, 3], steps: 10) { id, k in
            (15 * Double(id) + (id == 2 ? 0 : (id == 1 ? -1 : 1) * out(id, k)), 35 + (id == 2 ? out(id, k) : 0))
        })
        let verdict = try #require(Explainer.explain(apart, spans: [], thresholds: .defaults(for: device), device: device)
            .first?.verdicts.first { $0.kind == .tap })
        #expect(verdict.text.hasPrefix("the contact lasted 100 ms, within tap_timeout_ms"), "\(verdict.text)")
    }

    @Test func test_tuner_slowTaps_raiseTheTapTimeout_andNothingElse() throws {
        let device = ScenarioDevices.touchscreen()
        let seqs = Self.sequences(Self.frames(ids: [1], steps: 35) { _, _ in (100, 100) })   // 350 ms
        let (proposals, conflicts) = Tuner.propose(seqs.map { Tuner.Sample(kind: .tap, measures: SequenceMeasures($0)) }, .defaults(for: device))
        #expect(proposals.map(\.key) == ["tap_timeout_ms"])
        #expect(proposals.first?.value == 440)   // 350 ms × 1.25, rounded up to 10 ms
        #expect(conflicts.isEmpty)
        let snippet = Tuner.snippet(device: device, counts: [(.tap, 1)], proposals: proposals, conflicts: conflicts)
        #expect(snippet.contains("tap_timeout_ms: 440"))
    }

    @Test func test_tuner_aTapTimeoutReachingTheHold_isAConflict() {
        let device = ScenarioDevices.touchscreen()
        let seqs = Self.sequences(Self.frames(ids: [1], steps: 45) { _, _ in (100, 100) })   // 450 ms
        let (_, conflicts) = Tuner.propose(seqs.map { Tuner.Sample(kind: .tap, measures: SequenceMeasures($0)) }, .defaults(for: device))
        #expect(conflicts.contains { $0.contains("long_press_duration_ms 500 is not above tap_timeout_ms 570") }, "\(conflicts)")
    }

    @Test func test_replayPage_html_escapesOutsideText() {
        #expect(ReplayPage.html("<b a=\"1\">&'\u{1b}") == "&lt;b a=&quot;1&quot;&gt;&amp;&#39;&#xFFFD;")
    }

    /// Every config key explain and tune name is a real threshold key (GestureConfig's list).
    @Test func test_everyKeyNamed_isAConfigKey() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/GestureInsight")
        var names: Set<String> = []
        for f in try FileManager.default.contentsOfDirectory(atPath: dir.path) where f.hasSuffix(".swift") {
            let text = try String(contentsOf: dir.appendingPathComponent(f), encoding: .utf8)
            let regex = try NSRegularExpression(pattern: "\\b[a-z]+(?:_[a-z]+)+_(?:ms|mm|deg|percent)\\b")
            let ns = text as NSString
            for m in regex.matches(in: text, range: NSRange(location: 0, length: ns.length)) { names.insert(ns.substring(with: m.range)) }
        }
        #expect(names.count >= 15, "\(names)")
        for n in names { #expect(ThresholdKey.named(n) != nil, "'\(n)' is no config key") }
    }
}
