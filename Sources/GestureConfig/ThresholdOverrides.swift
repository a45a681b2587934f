import GestureCore

/// A set of threshold values from the config, applied over the defaults in order.
/// Keys carry their unit: `_ms`, `_mm`, `_deg`, `_percent`; `pinch_direction_scale_delta` is a
/// ratio and `long_press_cancels_on_movement` a boolean.
public struct ThresholdOverrides: Hashable, Sendable {
    /// (key, value) in file order.
    public var values: [(key: ThresholdKey, value: Double)] = []
    public init() {}

    public var isEmpty: Bool { values.isEmpty }

    public func apply(to t: inout Thresholds) {
        for (key, value) in values { key.apply(value, to: &t) }
    }

    public static func == (a: ThresholdOverrides, b: ThresholdOverrides) -> Bool {
        a.values.count == b.values.count && zip(a.values, b.values).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
    public func hash(into h: inout Hasher) { for (k, v) in values { h.combine(k); h.combine(v) } }
}

/// One configurable field of `Thresholds`, named as in the config file.
public struct ThresholdKey: Hashable, Sendable, CustomStringConvertible {
    public enum Unit: Hashable, Sendable { case milliseconds, millimeters, degrees, ratio, percent, boolean }
    public var name: String
    public var unit: Unit
    public var description: String { name }

    public static let all: [ThresholdKey] = [
        .init(name: "tap_timeout_ms", unit: .milliseconds),
        .init(name: "tap_timeout_per_extra_finger_ms", unit: .milliseconds),
        .init(name: "tap_maximum_excursion_mm", unit: .millimeters),
        .init(name: "tap_maximum_movement_mm", unit: .millimeters),
        .init(name: "tap_quick_duration_ms", unit: .milliseconds),
        .init(name: "tap_quick_maximum_movement_mm", unit: .millimeters),
        .init(name: "double_tap_maximum_gap_ms", unit: .milliseconds),
        .init(name: "double_tap_gap_per_extra_finger_ms", unit: .milliseconds),
        .init(name: "double_tap_minimum_gap_ms", unit: .milliseconds),
        .init(name: "double_tap_maximum_distance_mm", unit: .millimeters),
        .init(name: "long_press_duration_ms", unit: .milliseconds),
        .init(name: "long_press_maximum_movement_mm", unit: .millimeters),
        .init(name: "long_press_cancels_on_movement", unit: .boolean),
        .init(name: "pan_slop_mm", unit: .millimeters),
        .init(name: "pan_slop_per_extra_finger_mm", unit: .millimeters),
        .init(name: "swipe_minimum_distance_mm", unit: .millimeters),
        .init(name: "pinch_minimum_span_change_mm", unit: .millimeters),
        .init(name: "pinch_direction_scale_delta", unit: .ratio),
        .init(name: "rotate_minimum_angle_deg", unit: .degrees),
        .init(name: "edge_zone_mm", unit: .millimeters),
        .init(name: "edge_swipe_commit_distance_mm", unit: .millimeters),
        .init(name: "edge_swipe_maximum_angle_deg", unit: .degrees),
        .init(name: "finger_count_debounce_ms", unit: .milliseconds),
        .init(name: "resting_contact_maximum_travel_mm", unit: .millimeters),
        .init(name: "resting_contact_decision_travel_mm", unit: .millimeters),
        .init(name: "resting_contact_landing_gap_ms", unit: .milliseconds),
        .init(name: "thumb_zone_height_mm", unit: .millimeters),
        .init(name: "thumb_minimum_touch_major_mm", unit: .millimeters),
        .init(name: "thumb_minimum_pressure_percent", unit: .percent),
        .init(name: "palm_minimum_touch_major_mm", unit: .millimeters),
    ]

    public static func named(_ name: String) -> ThresholdKey? { all.first { $0.name == name } }

    /// The value of this field in `t`, in the key's unit (booleans are 0 or 1).
    public func value(in t: Thresholds) -> Double {
        func ms(_ d: Duration) -> Double { Double(d.totalMicroseconds) / 1000 }
        switch name {
        case "tap_timeout_ms": return ms(t.tapTimeout)
        case "tap_timeout_per_extra_finger_ms": return ms(t.tapTimeoutPerExtraFinger)
        case "tap_maximum_excursion_mm": return t.tapMaximumExcursion
        case "tap_maximum_movement_mm": return t.tapMaximumMovement
        case "tap_quick_duration_ms": return ms(t.tapQuickDuration)
        case "tap_quick_maximum_movement_mm": return t.tapQuickMaximumMovement
        case "double_tap_maximum_gap_ms": return ms(t.doubleTapMaximumGap)
        case "double_tap_gap_per_extra_finger_ms": return ms(t.doubleTapGapPerExtraFinger)
        case "double_tap_minimum_gap_ms": return ms(t.doubleTapMinimumGap)
        case "double_tap_maximum_distance_mm": return t.doubleTapMaximumDistance
        case "long_press_duration_ms": return ms(t.longPressDuration)
        case "long_press_maximum_movement_mm": return t.longPressMaximumMovement
        case "long_press_cancels_on_movement": return t.longPressCancelsOnMovement ? 1 : 0
        case "pan_slop_mm": return t.panSlop
        case "pan_slop_per_extra_finger_mm": return t.panSlopPerExtraFinger
        case "swipe_minimum_distance_mm": return t.swipeMinimumDistance
        case "pinch_minimum_span_change_mm": return t.pinchMinimumSpanChange
        case "pinch_direction_scale_delta": return t.pinchDirectionScaleDelta
        case "rotate_minimum_angle_deg": return t.rotateMinimumAngle
        case "edge_zone_mm": return t.edgeZone
        case "edge_swipe_commit_distance_mm": return t.edgeSwipeCommitDistance
        case "edge_swipe_maximum_angle_deg": return t.edgeSwipeMaximumAngle
        case "finger_count_debounce_ms": return ms(t.fingerCountDebounce)
        case "resting_contact_maximum_travel_mm": return t.restingContactMaximumTravel
        case "resting_contact_decision_travel_mm": return t.restingContactDecisionTravel
        case "resting_contact_landing_gap_ms": return ms(t.restingContactLandingGap)
        case "thumb_zone_height_mm": return t.thumbZoneHeight
        case "thumb_minimum_touch_major_mm": return t.thumbMinimumTouchMajor
        case "thumb_minimum_pressure_percent": return t.thumbMinimumPressurePercent
        case "palm_minimum_touch_major_mm": return t.palmMinimumTouchMajor
        default: return 0
        }
    }

    public func apply(_ v: Double, to t: inout Thresholds) {
        let d = Duration.microseconds(Int64((v * 1000).rounded()))
        switch name {
        case "tap_timeout_ms": t.tapTimeout = d
        case "tap_timeout_per_extra_finger_ms": t.tapTimeoutPerExtraFinger = d
        case "tap_maximum_excursion_mm": t.tapMaximumExcursion = v
        case "tap_maximum_movement_mm": t.tapMaximumMovement = v
        case "tap_quick_duration_ms": t.tapQuickDuration = d
        case "tap_quick_maximum_movement_mm": t.tapQuickMaximumMovement = v
        case "double_tap_maximum_gap_ms": t.doubleTapMaximumGap = d
        case "double_tap_gap_per_extra_finger_ms": t.doubleTapGapPerExtraFinger = d
        case "double_tap_minimum_gap_ms": t.doubleTapMinimumGap = d
        case "double_tap_maximum_distance_mm": t.doubleTapMaximumDistance = v
        case "long_press_duration_ms": t.longPressDuration = d
        case "long_press_maximum_movement_mm": t.longPressMaximumMovement = v
        case "long_press_cancels_on_movement": t.longPressCancelsOnMovement = v != 0
        case "pan_slop_mm": t.panSlop = v
        case "pan_slop_per_extra_finger_mm": t.panSlopPerExtraFinger = v
        case "swipe_minimum_distance_mm": t.swipeMinimumDistance = v
        case "pinch_minimum_span_change_mm": t.pinchMinimumSpanChange = v
        case "pinch_direction_scale_delta": t.pinchDirectionScaleDelta = v
        case "rotate_minimum_angle_deg": t.rotateMinimumAngle = v
        case "edge_zone_mm": t.edgeZone = v
        case "edge_swipe_commit_distance_mm": t.edgeSwipeCommitDistance = v
        case "edge_swipe_maximum_angle_deg": t.edgeSwipeMaximumAngle = v
        case "finger_count_debounce_ms": t.fingerCountDebounce = d
        case "resting_contact_maximum_travel_mm": t.restingContactMaximumTravel = v
        case "resting_contact_decision_travel_mm": t.restingContactDecisionTravel = v
        case "resting_contact_landing_gap_ms": t.restingContactLandingGap = d
        case "thumb_zone_height_mm": t.thumbZoneHeight = v
        case "thumb_minimum_touch_major_mm": t.thumbMinimumTouchMajor = v
        case "thumb_minimum_pressure_percent": t.thumbMinimumPressurePercent = v
        case "palm_minimum_touch_major_mm": t.palmMinimumTouchMajor = v
        default: break
        }
    }
}
