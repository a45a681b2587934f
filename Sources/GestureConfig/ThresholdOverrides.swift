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

/// One configurable field of `Thresholds`, named as in the config file. `all` is the one list
/// of threshold names: parsing, `value(in:)` and `apply(_:to:)` all go through it.
public struct ThresholdKey: Hashable, Sendable, CustomStringConvertible {
    public enum Unit: Hashable, Sendable { case milliseconds, millimeters, degrees, ratio, percent, boolean }
    public var name: String
    public var unit: Unit
    public var description: String { name }

    /// Where the value lives in `Thresholds`.
    private enum Field: Sendable {
        case duration(WritableKeyPath<Thresholds, Duration> & Sendable)
        case number(WritableKeyPath<Thresholds, Double> & Sendable)
        case flag(WritableKeyPath<Thresholds, Bool> & Sendable)
    }
    private let field: Field

    private init(_ name: String, _ unit: Unit, _ field: Field) { self.name = name; self.unit = unit; self.field = field }
    private static func ms(_ n: String, _ k: WritableKeyPath<Thresholds, Duration> & Sendable) -> ThresholdKey { .init(n, .milliseconds, .duration(k)) }
    private static func mm(_ n: String, _ k: WritableKeyPath<Thresholds, Double> & Sendable) -> ThresholdKey { .init(n, .millimeters, .number(k)) }
    private static func deg(_ n: String, _ k: WritableKeyPath<Thresholds, Double> & Sendable) -> ThresholdKey { .init(n, .degrees, .number(k)) }

    public static func == (a: ThresholdKey, b: ThresholdKey) -> Bool { a.name == b.name }
    public func hash(into h: inout Hasher) { h.combine(name) }

    public static let all: [ThresholdKey] = [
        ms("tap_timeout_ms", \.tapTimeout),
        ms("tap_timeout_per_extra_finger_ms", \.tapTimeoutPerExtraFinger),
        mm("tap_maximum_excursion_mm", \.tapMaximumExcursion),
        mm("tap_quick_maximum_excursion_mm", \.tapQuickMaximumExcursion),
        mm("tap_maximum_movement_mm", \.tapMaximumMovement),
        ms("tap_quick_duration_ms", \.tapQuickDuration),
        mm("tap_quick_maximum_movement_mm", \.tapQuickMaximumMovement),
        ms("double_tap_maximum_gap_ms", \.doubleTapMaximumGap),
        ms("double_tap_gap_per_extra_finger_ms", \.doubleTapGapPerExtraFinger),
        ms("double_tap_minimum_gap_ms", \.doubleTapMinimumGap),
        mm("double_tap_maximum_distance_mm", \.doubleTapMaximumDistance),
        ms("long_press_duration_ms", \.longPressDuration),
        mm("long_press_maximum_movement_mm", \.longPressMaximumMovement),
        .init("long_press_cancels_on_movement", .boolean, .flag(\.longPressCancelsOnMovement)),
        .init("long_press_drag", .boolean, .flag(\.longPressDrag)),
        mm("pan_slop_mm", \.panSlop),
        mm("pan_slop_per_extra_finger_mm", \.panSlopPerExtraFinger),
        mm("swipe_minimum_distance_mm", \.swipeMinimumDistance),
        mm("pinch_minimum_span_change_mm", \.pinchMinimumSpanChange),
        .init("pinch_direction_scale_delta", .ratio, .number(\.pinchDirectionScaleDelta)),
        deg("rotate_minimum_angle_deg", \.rotateMinimumAngle),
        mm("edge_zone_mm", \.edgeZone),
        mm("edge_swipe_commit_distance_mm", \.edgeSwipeCommitDistance),
        deg("edge_swipe_maximum_angle_deg", \.edgeSwipeMaximumAngle),
        ms("edge_swipe_landing_gap_ms", \.edgeSwipeLandingGap),
        ms("finger_count_debounce_ms", \.fingerCountDebounce),
        mm("resting_contact_maximum_travel_mm", \.restingContactMaximumTravel),
        mm("resting_contact_decision_travel_mm", \.restingContactDecisionTravel),
        ms("resting_contact_landing_gap_ms", \.restingContactLandingGap),
        mm("thumb_zone_height_mm", \.thumbZoneHeight),
        mm("thumb_minimum_touch_major_mm", \.thumbMinimumTouchMajor),
        .init("thumb_minimum_pressure_percent", .percent, .number(\.thumbMinimumPressurePercent)),
        mm("palm_minimum_touch_major_mm", \.palmMinimumTouchMajor),
        mm("edge_palm_zone_width_mm", \.edgePalmZoneWidth),
        mm("edge_palm_release_travel_mm", \.edgePalmReleaseTravel),
        mm("touch_jump_distance_mm", \.touchJumpDistance),
        mm("touch_jump_increase_mm", \.touchJumpIncrease),
    ]

    public static func named(_ name: String) -> ThresholdKey? { all.first { $0.name == name } }

    /// The value of this field in `t`, in the key's unit (booleans are 0 or 1).
    public func value(in t: Thresholds) -> Double {
        switch field {
        case .duration(let k): return Double(t[keyPath: k].totalMicroseconds) / 1000
        case .number(let k): return t[keyPath: k]
        case .flag(let k): return t[keyPath: k] ? 1 : 0
        }
    }

    public func apply(_ v: Double, to t: inout Thresholds) {
        switch field {
        case .duration(let k): t[keyPath: k] = .microseconds(Int64((v * 1000).rounded()))
        case .number(let k): t[keyPath: k] = v
        case .flag(let k): t[keyPath: k] = v != 0
        }
    }
}

extension ThresholdOverrides {
    /// The keys whose values differ between `old` and `new`, as "key old → new" (for the log).
    public static func changedKeys(from old: Thresholds, to new: Thresholds) -> [String] {
        ThresholdKey.all.compactMap { k in
            let a = k.value(in: old), b = k.value(in: new)
            return a == b ? nil : "\(k.name) \(Self.format(a)) → \(Self.format(b))"
        }
    }

    private static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }
}
