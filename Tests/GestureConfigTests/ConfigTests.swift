import GestureConfig
import GestureCore
import GestureTestSupport
import Testing

/// Parses `text` expecting failure; returns the diagnostics.
private func errors(_ text: String, file: String = "t.yaml") -> [ConfigDiagnostic] {
    do {
        _ = try Config.parse(text, file: file)
        Issue.record("expected config errors, got none")
        return []
    } catch {
        return error.diagnostics
    }
}

private func touchpad(name: String = "Synaptics TM3053-004", vendor: UInt16 = 0x06cb, product: UInt16 = 0x0001) -> DeviceDescription {
    TestDevices.anonymous(name, x: TestDevices.axis(0, 1000, 10), y: TestDevices.axis(0, 700, 10), properties: [],
                          keys: [KeyCode.btnToolFinger, KeyCode.btnTouch], vendor: vendor, product: product)
}

private func touchscreen(name: String = "ELAN Touchscreen") -> DeviceDescription {
    TestDevices.anonymous(name, x: TestDevices.axis(0, 3000, 10), y: TestDevices.axis(0, 2000, 10),
                          vendor: 0x04f3, product: 0x2b7c)
}

@Suite struct ConfigParsingTests {
    @Test func test_emptyDocument_isTheDefaults() throws {
        let c = try Config.parse("", file: "e.yaml")
        #expect(c.bindings.isEmpty && c.devices.isEmpty)
        #expect(c.socket.path == "/run/gestured/gestured.sock")
        #expect(c.socket.mode == 0o660 && c.socket.queueLimit == 256 && c.socket.rawFrames == false)
        #expect(c.hooks.maxConcurrent == 8 && c.hooks.timeout == .milliseconds(5000))
        #expect(c.hooks.killAfter == .milliseconds(2000) && c.hooks.outputLinesPerMinute == 60)
        #expect(try Config.parse("# only a comment\n", file: "e.yaml") == c)
    }

    @Test func test_missingFileAtDefaultPath_isDefaults_butNamedFileMustExist() throws {
        // The default path on this machine may or may not exist; a named missing file is an error.
        #expect(throws: ConfigError.self) { try Config.load(path: "/nonexistent/gestured.yaml") }
    }

    @Test func test_fullConfig_readsEverySection() throws {
        let text = """
        thresholds:
          touchpad: {tap_timeout_ms: 150, swipe_minimum_distance_mm: 8}
        devices:
          - match: {kind: touchscreen, name: "ELAN*", id: "04f3:2b7c"}
            rotation: 90
            invert_y: true
        bindings:
          - gesture: swipe
            fingers: [3, 4]
            direction: [left, upLeft]
            command: echo hi
            cooldown_ms: 250
          - gesture: pinch
            phase: changed
            every: "0.1scale"
            device: {kind: touchscreen}
            command: echo pinch
            timeout_ms: 100
          - gesture: edgeSwipe
            edge: left
            command: echo edge
        socket: {path: /tmp/g.sock, mode: "0600", group: input, allowed_uids: [1000], queue_limit: 16, raw_frames: true}
        hooks: {max_concurrent: 2, timeout_ms: 300, kill_after_ms: 50, output_lines_per_minute: 10}
        log: {level: debug}
        """
        let c = try Config.parse(text, file: "full.yaml")
        #expect(c.bindings.count == 3)
        let s = c.bindings[0]
        #expect(s.gesture == .swipe && s.phase == .recognized && s.fingers == .counts([3, 4]))
        #expect(s.directions == [.left, .upLeft] && s.effectiveDirectionCount == 8)
        #expect(s.cooldown == .milliseconds(250) && s.command == "echo hi")
        #expect(s.location.line == 8 && s.location.column == 5)
        let p = c.bindings[1]
        #expect(p.phase == .changed && p.every == .scale(0.1) && p.timeout == .milliseconds(100))
        #expect(p.device == DeviceMatch(kind: .touchscreen))
        #expect(c.bindings[2].edges == [.left] && c.bindings[2].phase == .began)
        #expect(c.devices.count == 1 && c.devices[0].match.vendor == 0x04f3 && c.devices[0].match.product == 0x2b7c)
        #expect(c.socket.path == "/tmp/g.sock" && c.socket.mode == 0o600 && c.socket.group == "input")
        #expect(c.socket.allowedUIDs == [1000] && c.socket.queueLimit == 16 && c.socket.rawFrames)
        #expect(c.hooks.maxConcurrent == 2 && c.hooks.timeout == .milliseconds(300) && c.hooks.killAfter == .milliseconds(50))
        #expect(c.hooks.outputLinesPerMinute == 10 && c.log.level == .debug)
    }

    @Test func test_unknownKey_isAnErrorAtItsMark_withDidYouMean() {
        let d = errors("hooks:\n  max_concurent: 3\n")
        #expect(d.count == 1)
        #expect(d.first?.line == 2 && d.first?.column == 3)
        #expect(d.first?.hint == "did you mean 'max_concurrent'?")
        #expect(d.first?.description == "config error: t.yaml:2:3: unknown key 'max_concurent' in hooks (did you mean 'max_concurrent'?)")
    }

    @Test func test_unknownGesture_suggestsTheClosest() {
        let d = errors("bindings:\n  - gesture: tapp\n    command: x\n")
        #expect(d.map { "\($0.line):\($0.column) \($0.hint ?? "")" } == ["2:14 did you mean 'tap'?"])
    }

    @Test func test_wrongType_numberGivenAsQuotedString() {
        let d = errors("thresholds:\n  touchpad:\n    tap_timeout_ms: \"100\"\n")
        #expect(d.count == 1 && d[0].line == 3 && d[0].column == 21)
        #expect(d[0].message.contains("must be a number"))
    }

    @Test func test_wrongType_sectionIsAListInsteadOfAMapping() {
        let d = errors("socket:\n  - /tmp/x\n")
        #expect(d.count == 1 && d[0].line == 2 && d[0].column == 3 && d[0].message.contains("must be a mapping"))
    }

    @Test func test_badIndentation_isAYAMLSyntaxErrorWithLibyamlsMark() {
        // The over-indented line continues the scalar "4", and its ':' (column 14) is illegal there.
        let d = errors("hooks:\n  max_concurrent: 4\n   timeout_ms: 100\n")
        #expect(d.count == 1 && d[0].line == 3 && d[0].column == 14)
        #expect(d[0].message.hasPrefix("YAML syntax:"))
    }

    @Test func test_impossibleValues_areAllReported_notJustTheFirst() {
        let text = """
        bindings:
          - gesture: swipe
            fingers: 0
            direction: clockwise
            command: a
          - gesture: pan
            every: 10mm
            command: b
          - gesture: tap
            fingers: 6
            cooldown_ms: -1
            command: c
        """
        let d = errors(text)
        let places = d.map { "\($0.line):\($0.column)" }
        #expect(places == ["3:14", "4:16", "7:12", "10:14", "11:18"])
        #expect(d[1].message == "direction 'clockwise' is not valid for swipe")
        #expect(d[2].message == "every only applies with phase: changed")
    }

    @Test func test_duplicateKey_pointsAtTheSecond_andNamesTheFirst() {
        let d = errors("log:\n  level: info\n  level: debug\n")
        #expect(d.count == 1 && d[0].line == 3 && d[0].column == 3 && d[0].hint == "first given at 2:3")
    }

    @Test func test_phaseMustSuitTheKind() {
        let d = errors("bindings:\n  - {gesture: tap, phase: began, command: x}\n  - {gesture: pinch, phase: recognized, command: y}\n")
        #expect(d.map(\.line) == [2, 3])
    }

    @Test func test_everyUnitMustSuitTheKind() throws {
        let d = errors("bindings:\n  - {gesture: rotate, phase: changed, every: 10mm, command: x}\n")
        #expect(d.count == 1 && d[0].message == "every for rotate is in deg, not mm")
        let c = try Config.parse("bindings:\n  - {gesture: rotate, phase: changed, every: 15deg, command: x}\n", file: "t")
        #expect(c.bindings[0].every == .degrees(15))
    }

    @Test func test_bindingWithoutCommand_isAnError() {
        let d = errors("bindings:\n  - gesture: tap\n")
        #expect(d.count == 1 && d[0].line == 2 && d[0].column == 5 && d[0].message == "a binding needs a 'command:', 'keys:', 'button:' or 'touchpad:'")
    }

    @Test func test_rotationMustBeAQuarterTurn() {
        let d = errors("devices:\n  - match: {kind: touchscreen}\n    rotation: 45\n")
        #expect(d.count == 1 && d[0].line == 3 && d[0].column == 15)
    }

    @Test func test_fingersAny_andList() throws {
        let c = try Config.parse("bindings:\n  - {gesture: tap, fingers: any, command: x}\n  - {gesture: tap, fingers: [1, 2], command: y}\n", file: "t")
        #expect(c.bindings[0].fingers == .any && c.bindings[1].fingers == .counts([1, 2]))
    }
}

@Suite struct ThresholdResolutionTests {
    @Test func test_defaultsByKind_whenNothingConfigured() {
        let c = Config()
        #expect(c.thresholds(for: touchpad()).tapTimeout == .milliseconds(180))
        #expect(c.thresholds(for: touchscreen()).tapTimeout == .milliseconds(300))
    }

    @Test func test_globalPerKind_thenDeviceRulesInOrder() throws {
        let text = """
        thresholds:
          touchpad: {tap_timeout_ms: 150, swipe_minimum_distance_mm: 8}
          touchscreen: {swipe_minimum_distance_mm: 20}
        devices:
          - match: {kind: touchpad}
            thresholds: {swipe_minimum_distance_mm: 9, rotate_minimum_angle_deg: 20}
          - match: {name: "Synaptics*"}
            thresholds: {swipe_minimum_distance_mm: 10}
          - match: {id: "06cb:0001"}
            ignore: true
            invert_x: true
          - match: {name: "Other*"}
            thresholds: {swipe_minimum_distance_mm: 99}
        """
        let c = try Config.parse(text, file: "t")
        let tp = c.thresholds(for: touchpad())
        #expect(tp.tapTimeout == .milliseconds(150))
        #expect(tp.swipeMinimumDistance == 10)            // the later matching rule wins
        #expect(tp.rotateMinimumAngle == 20)
        #expect(tp.panSlop == Thresholds.touchpadDefaults.panSlop)
        let s = c.settings(for: touchpad())
        #expect(s.ignore && s.invertX && !s.invertY && s.rotation == 0)
        let ts = c.thresholds(for: touchscreen())
        #expect(ts.swipeMinimumDistance == 20 && ts.tapTimeout == .milliseconds(300))
        #expect(!c.settings(for: touchscreen()).ignore)
        // A different touchpad matches the kind rule but neither the name nor the id rule.
        let other = touchpad(name: "ELAN0501", vendor: 0x04f3, product: 0x3060)
        #expect(c.thresholds(for: other).swipeMinimumDistance == 9 && !c.settings(for: other).ignore)
    }
}

@Suite struct GlobTests {
    @Test func test_globs() {
        #expect(Glob.matches("ELAN*", "ELAN Touchscreen"))
        #expect(Glob.matches("*Touchpad", "SynPS/2 Synaptics Touchpad"))
        #expect(!Glob.matches("*Touchpad", "SynPS/2 Synaptics TouchPad"))
        #expect(Glob.matches("Wacom ?SDv4*", "Wacom ISDv4 E6 Finger"))
        #expect(Glob.matches("[A-E]LAN*", "ELAN x") && !Glob.matches("[!E]LAN*", "ELAN x"))
        #expect(Glob.matches("*", "") && !Glob.matches("?", ""))
    }
}

@Suite struct ShippedConfigTests {
    @Test func test_shippedDefaultConfig_parses_andDocumentsTheDefaults() throws {
        let path = String("\(#filePath)".split(separator: "/Tests/", omittingEmptySubsequences: false).first!)
            + "/config/gestured.yaml"
        let c = try Config.load(path: path)
        #expect(c.socket.path == SocketConfig.defaultPath)
        #expect(c.hooks == HookLimits())
        #expect(c.socket.mode == 0o660 && c.socket.queueLimit == 256 && !c.socket.rawFrames)
        #expect(c.bindings.count >= 1)
        // Hooks in the shipped file only log: nothing that needs a desktop tool or root.
        for b in c.bindings { #expect(b.command.hasPrefix("echo ")) }
    }
}

/// Issue 16 finding 9: a second YAML document was ignored and the first (empty) one gave the
/// defaults; `check` said ok.
@Suite struct MultiDocumentConfigTests {
    @Test func test_secondDocument_isAnErrorAtItsMarker() {
        let d = errors("---\n---\nhooks:\n  max_concurrent: 3\n")
        #expect(d.count == 1)
        #expect(d.first?.line == 2 && d.first?.column == 1, "\(d)")
        #expect(d.first?.message.contains("second YAML document") == true, "\(d)")
    }

    @Test func test_singleDocumentWithMarkers_isFine() throws {
        let c = try Config.parse("---\nhooks:\n  max_concurrent: 3\n...\n", file: "t.yaml")
        #expect(c.hooks.maxConcurrent == 3)
    }
}

@Suite struct RestingContactConfigTests {
    @Test func test_restingThumbPalmAndQuickTapKeys_applyInTheirUnits() throws {
        let c = try Config.parse("""
            thresholds:
              touchpad: {tap_quick_duration_ms: 60, tap_quick_maximum_movement_mm: 2.5,
                         resting_contact_maximum_travel_mm: 1, resting_contact_decision_travel_mm: 5,
                         resting_contact_landing_gap_ms: 200, thumb_zone_height_mm: 12,
                         thumb_minimum_touch_major_mm: 14, thumb_minimum_pressure_percent: 80,
                         palm_minimum_touch_major_mm: 30, edge_palm_zone_width_mm: 6,
                         edge_palm_release_travel_mm: 4}
            """, file: "t.yaml")
        let t = c.thresholds(for: touchpad())
        #expect(t.tapQuickDuration == .milliseconds(60) && t.tapQuickMaximumMovement == 2.5)
        #expect(t.restingContactMaximumTravel == 1 && t.restingContactDecisionTravel == 5)
        #expect(t.restingContactLandingGap == .milliseconds(200) && t.thumbZoneHeight == 12)
        #expect(t.thumbMinimumTouchMajor == 14 && t.thumbMinimumPressurePercent == 80 && t.palmMinimumTouchMajor == 30)
        #expect(t.edgePalmZoneWidth == 6 && t.edgePalmReleaseTravel == 4)
        for key in ThresholdKey.all { #expect(key.value(in: t) != 0 || key.name.hasSuffix("_per_extra_finger_ms") || key.name == "double_tap_minimum_gap_ms" || key.name == "long_press_cancels_on_movement" || key.name == "long_press_drag", "\(key) has no value") }
    }
    @Test func test_holdJumpAndQuickExcursionKeys_applyInTheirUnits() throws {
        let c = try Config.parse("""
            thresholds:
              touchpad: {long_press_drag: true, tap_quick_maximum_excursion_mm: 4.5,
                         touch_jump_distance_mm: 25, touch_jump_increase_mm: 0, edge_swipe_landing_gap_ms: 60}
            """, file: "t.yaml")
        let t = c.thresholds(for: touchpad())
        #expect(t.longPressDrag && t.tapQuickMaximumExcursion == 4.5)
        #expect(t.touchJumpDistance == 25 && t.touchJumpIncrease == 0 && t.edgeSwipeLandingGap == .milliseconds(60))
        let d = Thresholds.defaults(for: touchpad())
        #expect(!d.longPressDrag && d.tapQuickMaximumExcursion == 5 && d.touchJumpDistance == 20 && d.touchJumpIncrease == 7)
    }
    @Test func test_percentAbove100_isAnError() {
        let d = errors("thresholds:\n  touchpad: {thumb_minimum_pressure_percent: 120}\n")
        #expect(d.first?.message.contains("between 0 and 100") == true, "\(d)")
    }
}
