import GestureCore
import GestureTestSupport
import Testing

// The scenario language (GestureTestSupport's `Scenario`, `Expected`, `ScenarioDevices`) run
// against a RecognizerArena, with what it cannot parse recorded as test issues.

extension Scenario {
    /// Parses `text`; every statement it cannot read is an issue at `sourceLocation`.
    init(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        self.init(parsing: text)
        for problem in problems { Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation) }
    }
}

/// Runs a scenario on a device and compares the non-`changed` events with `expected`, in order.
@discardableResult
func check(_ scenario: String, on device: DeviceDescription, expect expected: String,
           bound: Set<GestureKind> = Set(GestureKind.all), directions: Int = 4,
           tweak: (inout Thresholds) -> Void = { _ in },
           sourceLocation: SourceLocation = #_sourceLocation) -> [GestureEvent] {
    var t = Thresholds.defaults(for: device)
    tweak(&t)
    var arena = RecognizerArena(device: device, thresholds: t, boundKinds: bound, swipeDirections: directions)
    let events = Scenario(scenario, sourceLocation: sourceLocation).run(&arena)
    let actual = events.filter { $0.phase != .changed }
    let want = Expected.parse(expected)
    let ok = actual.count == want.count && zip(want, actual).allSatisfy { $0.matches($1) }
    #expect(ok, """
        scenario: \(scenario)
        expected:
          \(want.map(\.description).joined(separator: "\n  "))
        actual:
          \(actual.map(describe).joined(separator: "\n  "))
        """, sourceLocation: sourceLocation)
    let diagnostics = arena.drainDiagnostics()
    #expect(diagnostics.isEmpty, "\(diagnostics)", sourceLocation: sourceLocation)
    return events
}
