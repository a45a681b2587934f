import GestureConfig
import Testing

/// `app:` on bindings: only the listen config takes it, the daemon's names where it belongs.
@Suite struct AppConfigTests {
    private func listen(_ yaml: String) throws -> [Binding] {
        try Config.parse(yaml, file: "l.yaml", purpose: .listen).bindings
    }

    private func errors(_ yaml: String, purpose: ConfigPurpose) -> [ConfigDiagnostic] {
        do {
            _ = try Config.parse(yaml, file: "a.yaml", purpose: purpose)
            Issue.record("expected config errors, got none")
            return []
        } catch { return error.diagnostics }
    }

    @Test func test_listenConfig_takesAGlobAListAndNone() throws {
        let b = try listen("""
        bindings:
          - {gesture: swipe, app: "firefox*", command: a}
          - {gesture: swipe, app: [foot, "org.kde.*"], command: b}
          - {gesture: swipe, app: none, command: c}
          - {gesture: swipe, app: [none, "Navigator"], command: d}
          - {gesture: swipe, command: e}
        """)
        #expect(b.map(\.app) == [
            AppMatch(patterns: ["firefox*"]),
            AppMatch(patterns: ["foot", "org.kde.*"]),
            AppMatch(patterns: [], matchesNothingFocused: true),
            AppMatch(patterns: ["Navigator"], matchesNothingFocused: true),
            nil,
        ])
    }

    @Test func test_quotedNone_isAnApplicationCalledNone() throws {
        let b = try listen("bindings:\n  - {gesture: tap, app: \"none\", command: x}\n")
        #expect(b[0].app == AppMatch(patterns: ["none"]))
    }

    @Test func test_daemonConfig_rejectsAppAndSaysWhereItBelongs() {
        let e = errors("bindings:\n  - gesture: swipe\n    app: firefox\n    command: x\n", purpose: .daemon)
        #expect(e.count == 1)
        #expect(e.first?.line == 3 && e.first?.column == 5)
        #expect(e.first?.message == "app: belongs in the listen config, not the daemon's")
        #expect(e.first?.hint?.contains("gestured listen") == true)
        #expect(e.first?.hint?.contains("gestured check --listen") == true)
    }

    @Test func test_defaultPurpose_isTheDaemons() {
        #expect(throws: ConfigError.self) { _ = try Config.parse("bindings:\n  - {gesture: tap, app: x, command: y}\n", file: "d") }
    }

    @Test func test_badAppValues_areErrorsWithTheirPlace() {
        let e = errors("""
        bindings:
          - {gesture: tap, app: "", command: a}
          - {gesture: tap, app: [], command: b}
          - {gesture: tap, app: {x: 1}, command: c}
          - {gesture: tap, app: " foot", command: d}
          - {gesture: tap, app: [foot, [x]], command: e}
        """, purpose: .listen)
        #expect(e.map(\.line) == [2, 3, 4, 5, 6])
        #expect(e[0].message == "app must not be empty")
        #expect(e[1].message == "app must not be an empty list")
        #expect(e[2].message.hasPrefix("app must be an application id glob"))
        #expect(e[3].message == "app ' foot' has spaces around it")
        #expect(e[4].column == 32)                                  // the inner list
    }

    @Test func test_match_comparesEveryIdIgnoringCase() {
        let m = AppMatch(patterns: ["firefox*", "org.?de.*"])
        #expect(m.matches(.app(ids: ["Navigator", "Firefox-ESR"])))     // X11: instance, class
        #expect(m.matches(.app(ids: ["org.kde.dolphin"])))
        #expect(!m.matches(.app(ids: ["foot"])))
        #expect(!m.matches(.app(ids: [])))                               // a window with no id
        #expect(!m.matches(.nothing))
        #expect(!m.matches(.unknown))
        let none = AppMatch(patterns: [], matchesNothingFocused: true)
        #expect(none.matches(.nothing))
        #expect(!none.matches(.unknown))                                 // no backend: global only
        #expect(!none.matches(.app(ids: [])))
    }
}
