// fuzz-modules: GestureCore CommandArguments LinuxSystem YAML GestureConfig GestureTestSupport
// The config parser: any bytes must give a Config or a ConfigError whose every diagnostic points
// at a line:column of the input; a Config that parses must give every device finite,
// non-negative thresholds.
import GestureCore
import GestureTestSupport
import GestureConfig

private let probes: [DeviceDescription] = [
    TestDevices.slots("probe touchscreen", slots: 10, x: TestDevices.axis(0, 4000, 20), y: TestDevices.axis(0, 3000, 20),
                      trackingIds: false),
    TestDevices.slots("probe touchpad", slots: 2, x: TestDevices.axis(0, 1000), y: TestDevices.axis(0, 700), trackingIds: false,
                      properties: [], keys: [KeyCode.btnTouch, KeyCode.btnToolFinger], vendor: 0x2, product: 0x7),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = text(data, size)
    let lines = input.utf8.reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
    // libyaml also breaks lines on \r (and NEL, LS, PS): only judge lines of plain-\n input.
    let plainLines = !input.utf8.contains(13) && !input.unicodeScalars.contains { $0 == "\u{85}" || $0 == "\u{2028}" || $0 == "\u{2029}" }
    do {
        let config = try Config.parse(input, file: "fuzz.yaml")
        for device in probes {
            let t = config.thresholds(for: device)
            for (name, v) in [("tapMaximumMovement", t.tapMaximumMovement), ("doubleTapMaximumDistance", t.doubleTapMaximumDistance),
                              ("longPressMaximumMovement", t.longPressMaximumMovement), ("panSlop", t.panSlop),
                              ("panSlopPerExtraFinger", t.panSlopPerExtraFinger), ("swipeMinimumDistance", t.swipeMinimumDistance),
                              ("pinchMinimumSpanChange", t.pinchMinimumSpanChange), ("pinchDirectionScaleDelta", t.pinchDirectionScaleDelta),
                              ("rotateMinimumAngle", t.rotateMinimumAngle), ("edgeZone", t.edgeZone),
                              ("edgeSwipeCommitDistance", t.edgeSwipeCommitDistance), ("edgeSwipeMaximumAngle", t.edgeSwipeMaximumAngle)] {
                if !v.isFinite || v < 0 { violated("threshold \(name) = \(v) accepted for \(device.name)") }
            }
            for (name, d) in [("tapTimeout", t.tapTimeout), ("doubleTapMaximumGap", t.doubleTapMaximumGap),
                              ("longPressDuration", t.longPressDuration), ("fingerCountDebounce", t.fingerCountDebounce)] {
                if d < .zero { violated("threshold \(name) = \(d) accepted for \(device.name)") }
            }
            _ = config.settings(for: device)
        }
    } catch {
        if error.diagnostics.isEmpty { violated("ConfigError without a diagnostic") }
        for d in error.diagnostics {
            if d.line < 1 || (plainLines && d.line > lines) || d.column < 1 { violated("diagnostic outside the input (\(lines) lines): \(d)") }
            if d.message.isEmpty { violated("empty diagnostic message at \(d.line):\(d.column)") }
        }
    }
    return 0
}
