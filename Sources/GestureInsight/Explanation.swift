import GestureCore

/// "Why not?" in words: for one touch sequence, each recognizer's deciding measurement against
/// the threshold it is compared with, named by its config key (docs/CONFIG.md) so the reader
/// knows what to change. The figures come from the frames (`SequenceMeasures`), compared with the
/// same `Thresholds` values the recognizers read.
public struct SequenceExplanation: Sendable {
    public struct Verdict: Sendable {
        public var kind: GestureKind
        /// The recognizer reported this kind in the sequence.
        public var recognized: Bool
        /// The deciding measurement, in words and units.
        public var text: String
        /// The config keys of the thresholds the text names.
        public var keys: [String]
    }
    public var sequence: TouchSequence
    public var measures: SequenceMeasures
    public var gestures: [GestureSpan]
    /// A note on the sequence as a whole (too many fingers).
    public var note: String?
    public var verdicts: [Verdict]
}

public enum Explainer {
    /// Explains every sequence; `spans` are the gestures the pipeline reported for the recording.
    /// A gesture belongs to the last sequence that began at or before it; a tap or double tap,
    /// reported at the lift or when the double-tap wait is over, to the last that ended by then.
    public static func explain(_ sequences: [TouchSequence], spans: [GestureSpan], thresholds t: Thresholds,
                               device: DeviceDescription) -> [SequenceExplanation] {
        var out: [SequenceExplanation] = []
        var previousTap: (end: Instant, x: Double, y: Double, fingers: Int)?
        for (i, seq) in sequences.enumerated() {
            let nextStart = i + 1 < sequences.count ? sequences[i + 1].start : Instant(microseconds: .max)
            let nextEnd = i + 1 < sequences.count ? sequences[i + 1].end : Instant(microseconds: .max)
            let mine = spans.filter {
                $0.kind == .tap || $0.kind == .doubleTap ? $0.start >= seq.end && $0.start < nextEnd
                                                         : $0.start >= seq.start && $0.start < nextStart
            }
            let (palms, palmNotes) = edgePalms(seq, t, device)
            let m = SequenceMeasures(seq.without(palms))
            var e = Explaining(m: m, t: t, device: device, spans: mine)
            let tapLike = e.tap()
            e.doubleTap(previous: previousTap, tapLike: tapLike)
            e.longPress(); e.pan(); e.swipe(); e.pinch(); e.rotate(); e.edgeSwipe()
            var notes = palmNotes
            if m.fingers > 5 {
                notes.append("\(m.fingers) contacts at once, more than 5: no gesture while they are down (a fixed limit, not configurable)")
            }
            let note = notes.isEmpty ? nil : notes.joined(separator: "\n  note: ")
            out.append(SequenceExplanation(sequence: seq, measures: m, gestures: mine, note: note, verdicts: e.verdicts))
            let landing = m.landing ?? (0, 0)
            previousTap = tapLike ? (seq.end, landing.x, landing.y, m.fingers) : nil
        }
        return out
    }

    /// Touchpad contacts that landed in the edge-palm zone and never moved
    /// `edgePalmReleaseTravel` from there: the daemon takes them for palms (RestingContacts.swift),
    /// so they are left out of the measurements, with a note saying so.
    public static func edgePalms(_ seq: TouchSequence, _ t: Thresholds, _ device: DeviceDescription) -> (Set<Int>, [String]) {
        let width = device.size.width
        guard device.kind == .touchpad, t.edgePalmZoneWidth > 0, width > 2 * t.edgePalmZoneWidth else { return ([], []) }
        var ids: [Int] = [], sides: Set<String> = []
        for c in seq.contacts {
            guard let x = c.xs.first, x <= t.edgePalmZoneWidth || x >= width - t.edgePalmZoneWidth,
                  c.excursion < t.edgePalmReleaseTravel else { continue }
            ids.append(c.id)
            sides.insert(x <= t.edgePalmZoneWidth ? "left" : "right")
        }
        guard !ids.isEmpty else { return ([], []) }
        let who = ids.count == 1 ? "contact \(ids[0])" : "contacts " + ids.map(String.init).joined(separator: ", ")
        let notes = ["\(who) landed in the \(sides.sorted().joined(separator: " and ")) edge-palm zone (edge_palm_zone_width_mm \(Words.num(t.edgePalmZoneWidth))) and never moved edge_palm_release_travel_mm \(Words.num(t.edgePalmReleaseTravel)) from there: \(ids.count == 1 ? "a palm" : "palms"), left out of every gesture and of the figures below"]
        return (Set(ids), notes)
    }
}

/// Builds one sequence's verdicts.
private struct Explaining {
    let m: SequenceMeasures
    let t: Thresholds
    let device: DeviceDescription
    let spans: [GestureSpan]
    var verdicts: [SequenceExplanation.Verdict] = []

    init(m: SequenceMeasures, t: Thresholds, device: DeviceDescription, spans: [GestureSpan]) {
        self.m = m; self.t = t; self.device = device; self.spans = spans
    }

    var n: Int { m.mainFingers }
    var fingerWords: String { Words.fingers(n) }
    func recognized(_ k: GestureKind) -> Bool { spans.contains { $0.kind == k } }
    /// "but pan took the sequence" for a recognizer whose threshold was met without a report.
    func takenBy(_ k: GestureKind) -> String {
        let others = spans.filter { $0.kind != k }.map(\.kind.rawValue)
        var seen: [String] = []
        for o in others where !seen.contains(o) { seen.append(o) }
        if seen.isEmpty { return m.fingers > 5 ? "; more than 5 fingers made no gesture" : "; not reported (another recognizer's wait or the finger-count debounce)" }
        return ", but \(seen.joined(separator: " and ")) took the sequence"
    }

    mutating func add(_ k: GestureKind, _ text: String, _ keys: [String], passed: Bool) {
        let r = recognized(k)
        verdicts.append(.init(kind: k, recognized: r, text: text + (passed && !r ? takenBy(k) : ""), keys: keys))
    }

    /// Returns true when the sequence is a tap by the figures.
    mutating func tap() -> Bool {
        let fingers = m.fingers
        let timeout = t.tapTimeout(fingers: fingers)
        let life = m.liftAfterLastLanding
        let timeoutText = "tap_timeout_ms \(Words.ms(t.tapTimeout))" + (fingers > 1 && t.tapTimeoutPerExtraFinger > .zero
            ? " + tap_timeout_per_extra_finger_ms \(Words.ms(t.tapTimeoutPerExtraFinger)) × \(fingers - 1) = \(Words.ms(timeout))" : "")
        let lasted = m.landingSpread > .zero ? "the contact lasted \(Words.ms(life)) ms after the last finger landed"
                                              : "the contact lasted \(Words.ms(life)) ms"
        if fingers > 5 { add(.tap, "\(fingers) fingers, more than 5", [], passed: false); return false }
        if m.buttonDown { add(.tap, "a button went down during the contact: a click, not a tap", [], passed: false); return false }
        if life > timeout {
            add(.tap, "\(lasted), over \(timeoutText)", ["tap_timeout_ms"], passed: false); return false
        }
        let motion = !(device.isSemiMT && fingers > 1)
        if motion && m.excursion > t.tapMaximumExcursion {
            add(.tap, "a finger strayed \(Words.mm(m.excursion)) mm from where it landed, over tap_maximum_excursion_mm \(Words.num(t.tapMaximumExcursion))",
                ["tap_maximum_excursion_mm"], passed: false)
            return false
        }
        // As TapRecognizer: two or more fingers, each gone the pan's slop the same way.
        if motion, let s = m.samples.first(where: { s in
            let slop = t.panSlop(fingers: s.fingers)
            return s.fingers >= 2 && s.fingers <= 5 && s.sharedTravel >= slop && s.distance >= slop && s.translationDominates
        }) {
            add(.tap, "all \(Words.fingers(s.fingers)) went \(Words.mm(s.sharedTravel)) mm or more \(Words.heading(s.totalX, s.totalY)) together, past pan_slop_mm \(Words.num(t.panSlop)) + pan_slop_per_extra_finger_mm \(Words.num(t.panSlopPerExtraFinger)) × \(s.fingers - 1) = \(Words.num(t.panSlop(fingers: s.fingers))): a pan, not a tap's wobble",
                ["pan_slop_mm", "pan_slop_per_extra_finger_mm"], passed: false)
            return false
        }
        let quick = m.sequence.duration <= t.tapQuickDuration
        let limit = t.tapMaximumMovement(duration: m.sequence.duration)
        let key = quick && t.tapQuickMaximumMovement > t.tapMaximumMovement ? "tap_quick_maximum_movement_mm" : "tap_maximum_movement_mm"
        if motion && m.displacement > limit {
            add(.tap, "a finger lifted \(Words.mm(m.displacement)) mm from where it landed, over \(key) \(Words.num(limit))", [key], passed: false)
            return false
        }
        add(.tap, "\(lasted), within \(timeoutText), and lifted \(Words.mm(m.displacement)) mm from where it landed, within \(key) \(Words.num(limit))",
            ["tap_timeout_ms", key], passed: !recognized(.doubleTap))
        return true
    }

    mutating func doubleTap(previous: (end: Instant, x: Double, y: Double, fingers: Int)?, tapLike: Bool) {
        let maxGap = t.doubleTapMaximumGap(fingers: m.fingers)
        guard tapLike else { add(.doubleTap, "this contact is no tap (above)", [], passed: false); return }
        guard let p = previous else {
            add(.doubleTap, "no tap just before it (a second tap must land within double_tap_maximum_gap_ms \(Words.ms(maxGap)) of the first's lift)", ["double_tap_maximum_gap_ms"], passed: false)
            return
        }
        let gap = m.sequence.start - p.end
        let landing = m.landing ?? (0, 0)
        let far = distance(landing.x - p.x, landing.y - p.y)
        if p.fingers != m.fingers {
            add(.doubleTap, "the tap before it had \(Words.fingers(p.fingers)), this one \(Words.fingers(m.fingers))", [], passed: false)
        } else if gap > maxGap {
            add(.doubleTap, "it landed \(Words.ms(gap)) ms after the previous tap lifted, over double_tap_maximum_gap_ms \(Words.ms(maxGap))", ["double_tap_maximum_gap_ms"], passed: false)
        } else if gap < t.doubleTapMinimumGap {
            add(.doubleTap, "it landed \(Words.ms(gap)) ms after the previous tap lifted, under double_tap_minimum_gap_ms \(Words.ms(t.doubleTapMinimumGap)) (a bounce)", ["double_tap_minimum_gap_ms"], passed: false)
        } else if far > t.doubleTapMaximumDistance {
            add(.doubleTap, "it landed \(Words.mm(far)) mm from the previous tap, over double_tap_maximum_distance_mm \(Words.num(t.doubleTapMaximumDistance))", ["double_tap_maximum_distance_mm"], passed: false)
        } else {
            add(.doubleTap, "it landed \(Words.ms(gap)) ms after the previous tap lifted (double_tap_maximum_gap_ms \(Words.ms(maxGap))) and \(Words.mm(far)) mm from it (double_tap_maximum_distance_mm \(Words.num(t.doubleTapMaximumDistance))); double taps are only waited for when one is bound",
                ["double_tap_maximum_gap_ms", "double_tap_maximum_distance_mm"], passed: true)
        }
    }

    mutating func longPress() {
        let h = m.stillHold(maxMovement: t.longPressMaximumMovement)
        let key = "long_press_duration_ms \(Words.ms(t.longPressDuration))"
        if m.buttonDown && !recognized(.longPress) { add(.longPress, "a button went down: a held click is a click", [], passed: false); return }
        if h.hold >= t.longPressDuration {
            add(.longPress, "\(Words.fingers(h.fingers)) stayed within long_press_maximum_movement_mm \(Words.num(t.longPressMaximumMovement)) for \(Words.ms(h.hold)) ms, over \(key)",
                ["long_press_duration_ms", "long_press_maximum_movement_mm"], passed: h.fingers <= 5)
        } else {
            let then = h.moved ? "then a finger moved \(Words.num(t.longPressMaximumMovement)) mm from where it landed (long_press_maximum_movement_mm)" : "then lifted or the finger count changed"
            add(.longPress, "the fingers stayed still \(Words.ms(h.hold)) ms of the \(Words.ms(t.longPressDuration)) ms needed (long_press_duration_ms), \(then)",
                ["long_press_duration_ms", "long_press_maximum_movement_mm"], passed: false)
        }
    }

    /// Shared by pan and swipe: the first frame the translation reached `need` and dominated.
    mutating func translation(_ k: GestureKind, need: (Int) -> Millimeters, key: String, needText: (Int) -> String) {
        let hit = m.samples.first { $0.fingers >= 1 && $0.fingers <= 5 && $0.distance >= need($0.fingers) && $0.translationDominates }
        if let s = hit {
            var text = "\(Words.fingers(s.fingers)) moved \(Words.mm(s.distance)) mm by \(Words.seconds(s.time - m.sequence.start)) s into the sequence, heading \(Words.heading(s.totalX, s.totalY)), over \(needText(s.fingers))"
            let f = m.final
            if f.distance >= need(s.fingers), Words.heading(f.totalX, f.totalY) != Words.heading(s.totalX, s.totalY) {
                text += "; by the lift they had moved \(Words.mm(f.distance)) mm \(Words.heading(f.totalX, f.totalY)) (the direction is decided when \(key) is reached)"
            }
            add(k, text, [key], passed: true)
            return
        }
        let best = m.samples.max { $0.distance < $1.distance }
        guard let b = best, b.fingers > 0 || m.maxDistance > 0 else {
            add(k, "the fingers did not move", [key], passed: false); return
        }
        let fingers = b.fingers > 0 ? b.fingers : n
        if b.distance >= need(fingers) {
            let why = abs(b.spanChange) * 2 > b.distance
                ? "they also spread or closed \(Words.mm(abs(b.spanChange))) mm (pinch_minimum_span_change_mm decides a pinch)"
                : "they also turned an arc of \(Words.mm(b.rotationArc)) mm (rotate_minimum_angle_deg decides a turn)"
            add(k, "\(Words.fingers(fingers)) moved \(Words.mm(b.distance)) mm, enough for \(needText(fingers)), but the move was not mostly a translation: \(why), and the translation must be twice that",
                [key], passed: false)
        } else if m.fingers > 5 {
            add(k, "\(Words.fingers(m.fingers)), more than 5", [], passed: false)
        } else {
            add(k, "\(Words.fingers(fingers)) moved \(Words.mm(b.distance)) mm of the \(Words.num(need(fingers))) mm needed (\(needText(fingers))), then lifted", [key], passed: false)
        }
    }

    mutating func pan() {
        let t = self.t
        translation(.pan, need: { t.panSlop(fingers: $0) }, key: "pan_slop_mm") { f in
            "pan_slop_mm \(Words.num(t.panSlop))" + (f > 1 ? " + pan_slop_per_extra_finger_mm \(Words.num(t.panSlopPerExtraFinger)) × \(f - 1) = \(Words.num(t.panSlop(fingers: f)))" : "")
        }
    }

    mutating func swipe() {
        let t = self.t
        translation(.swipe, need: { _ in t.swipeMinimumDistance }, key: "swipe_minimum_distance_mm") { _ in
            "swipe_minimum_distance_mm \(Words.num(t.swipeMinimumDistance))"
        }
    }

    mutating func pinch() {
        guard m.fingers >= 2 else { add(.pinch, "needs 2 fingers, 1 touched", [], passed: false); return }
        let key = "pinch_minimum_span_change_mm"
        if let s = m.samples.first(where: { $0.fingers >= 2 && $0.fingers <= 5 && abs($0.spanChange) >= t.pinchMinimumSpanChange }) {
            add(.pinch, "the span of \(Words.fingers(s.fingers)) \(s.spanChange < 0 ? "closed" : "opened") \(Words.mm(abs(s.spanChange))) mm by \(Words.seconds(s.time - m.sequence.start)) s into the sequence, over \(key) \(Words.num(t.pinchMinimumSpanChange))",
                [key], passed: true)
        } else {
            add(.pinch, "the span changed at most \(Words.mm(m.samples.filter { $0.fingers <= 5 }.reduce(0) { max($0, abs($1.spanChange)) })) mm of the \(Words.num(t.pinchMinimumSpanChange)) mm needed (\(key))", [key], passed: false)
        }
    }

    mutating func rotate() {
        guard m.fingers >= 2 else { add(.rotate, "needs 2 fingers, 1 touched", [], passed: false); return }
        let key = "rotate_minimum_angle_deg"
        if device.isSemiMT { add(.rotate, "semi-MT pads report a box, not contacts: no rotate", [], passed: false); return }
        if let s = m.samples.first(where: { $0.fingers >= 2 && $0.fingers <= 5 && abs($0.rotation) >= t.rotateMinimumAngle }) {
            add(.rotate, "\(Words.fingers(s.fingers)) turned \(Words.num(abs(s.rotation), 1))° by \(Words.seconds(s.time - m.sequence.start)) s into the sequence, over \(key) \(Words.num(t.rotateMinimumAngle))",
                [key], passed: true)
        } else {
            add(.rotate, "the fingers turned at most \(Words.num(m.samples.filter { $0.fingers <= 5 }.reduce(0) { max($0, abs($1.rotation)) }, 1))° of the \(Words.num(t.rotateMinimumAngle))° needed (\(key))", [key], passed: false)
        }
    }

    mutating func edgeSwipe() {
        let (w, h) = device.size
        guard let p = m.landing, w > 0, h > 0 else { add(.edgeSwipe, "no position", [], passed: false); return }
        let edges: [(Edge, Double)] = [(.left, p.x), (.right, w - p.x), (.top, p.y), (.bottom, h - p.y)]
        let near = edges.min { $0.1 < $1.1 }!
        if near.1 > t.edgeZone {
            add(.edgeSwipe, "the first finger landed \(Words.mm(near.1)) mm from the \(near.0.rawValue) edge, outside edge_zone_mm \(Words.num(t.edgeZone))", ["edge_zone_mm"], passed: false)
            return
        }
        let inZone = edges.filter { $0.1 <= t.edgeZone }.map(\.0)
        let limit = inZone.count > 1 ? t.edgeSwipeMaximumAngle / 2 : t.edgeSwipeMaximumAngle
        var best = 0.0, bestEdge = near.0
        for s in m.samples {
            for e in inZone {
                let (inward, along): (Double, Double) = switch e {
                case .left: (s.totalX, s.totalY)
                case .right: (-s.totalX, s.totalY)
                case .top: (s.totalY, s.totalX)
                case .bottom: (-s.totalY, s.totalX)
                }
                if inward > best && atan2(abs(along), inward) * 180 / .pi <= limit { best = inward; bestEdge = e }
            }
        }
        let landed = "landed \(Words.mm(near.1)) mm from the \(near.0.rawValue) edge (edge_zone_mm \(Words.num(t.edgeZone)))"
        if best >= t.edgeSwipeCommitDistance {
            add(.edgeSwipe, "\(landed) and moved \(Words.mm(best)) mm inward from the \(bestEdge.rawValue) edge, over edge_swipe_commit_distance_mm \(Words.num(t.edgeSwipeCommitDistance))",
                ["edge_zone_mm", "edge_swipe_commit_distance_mm"], passed: true)
        } else {
            add(.edgeSwipe, "\(landed), then moved \(Words.mm(best)) mm inward within edge_swipe_maximum_angle_deg \(Words.num(limit)) of the edge's normal, of the \(Words.num(t.edgeSwipeCommitDistance)) mm needed (edge_swipe_commit_distance_mm)",
                ["edge_swipe_commit_distance_mm", "edge_swipe_maximum_angle_deg"], passed: false)
        }
    }
}
