import GestureCore

/// Which bindings apply to what, worked out once from a config: the daemon builds one at start
/// and one at each reload and hands it to every consumer (device sessions, hooks, actions,
/// exclusive devices); nothing re-derives it. A pure value: no I/O.
public struct BindingPlan: Hashable, Sendable {
    public let config: Config
    /// Kinds the arenas emit. Socket clients may want any gesture, so every kind is emitted, but
    /// a double tap makes every tap wait (300 ms on a touchscreen): doubleTap is recognized only
    /// for the finger counts a doubleTap binding names.
    public let recognizedKinds: Set<GestureKind>
    public let doubleTapFingerCounts: Set<Int>
    /// The bindings that run a command (hooks), in file order, and the kinds they name: a
    /// gesture of any other kind matches no hook and changes no `every:` progress.
    public let commandBindings: [Binding]
    public let hookKinds: [GestureKind]
    /// The bindings that send keys or click (the daemon's virtual devices).
    public let actionBindings: [Binding]
    /// Every kind some binding names (what `gestured listen` subscribes to).
    public let boundKinds: Set<GestureKind>

    public init(_ config: Config) {
        self.config = config
        var kinds = Set(GestureKind.all)
        var fingers = Set<Int>()
        for b in config.bindings where b.gesture == .doubleTap { fingers.formUnion(b.fingers.acceptedCounts) }
        if fingers.isEmpty { kinds.remove(.doubleTap) }
        recognizedKinds = kinds
        doubleTapFingerCounts = fingers
        commandBindings = config.bindings.filter { !$0.command.isEmpty }
        var hook: [GestureKind] = []
        for b in commandBindings where !hook.contains(b.gesture) { hook.append(b.gesture) }
        hookKinds = hook
        actionBindings = config.bindings.filter { !$0.keys.isEmpty || $0.button != nil }
        boundKinds = Set(config.bindings.map(\.gesture))
    }

    /// What the plan asks of one device.
    public func device(_ d: DeviceDescription) -> DevicePlan {
        let s = config.settings(for: d)
        var plan = DevicePlan(settings: s, recognizedKinds: recognizedKinds, doubleTapFingerCounts: doubleTapFingerCounts,
                              transform: AxisTransform(rotationDegrees: s.rotation, invertX: s.invertX, invertY: s.invertY))
        plan.claimBindings = config.bindings.filter { b in b.app == nil && (b.device.map { $0.matches(d) } ?? true) }
        return plan
    }
}

/// One device's part of a `BindingPlan`: what to recognize with which thresholds, its axes,
/// whether it is ignored or exclusive, and what an exclusive device claims.
public struct DevicePlan: Hashable, Sendable {
    public var settings: DeviceSettings
    public var recognizedKinds: Set<GestureKind>
    public var doubleTapFingerCounts: Set<Int>
    public var transform: AxisTransform
    /// The bindings whose gestures an exclusive device keeps from the compositor: the daemon's
    /// own (`listen`'s, with `app:`, are the session's) that apply to this device.
    public var claimBindings: [Binding] = []
    public var thresholds: Thresholds { settings.thresholds }

    /// The finger counts `claimBindings` name (what the exclusive gate holds back while recognition decides).
    public var claimFingerCounts: Set<Int> {
        claimBindings.reduce(into: Set<Int>()) { $0.formUnion($1.fingers.acceptedCounts) }
    }

    public init(settings: DeviceSettings, recognizedKinds: Set<GestureKind> = Set(GestureKind.all),
                doubleTapFingerCounts: Set<Int> = Set(1...5), transform: AxisTransform = .identity) {
        self.settings = settings; self.recognizedKinds = recognizedKinds
        self.doubleTapFingerCounts = doubleTapFingerCounts; self.transform = transform
    }

    /// What the recognizers need to know (the axes are the orientation's business, and ignore
    /// and the exclusive settings the daemon's).
    public var recognition: Recognition {
        Recognition(thresholds: settings.thresholds, kinds: recognizedKinds, doubleTapFingerCounts: doubleTapFingerCounts)
    }

    public struct Recognition: Hashable, Sendable {
        public var thresholds: Thresholds
        public var kinds: Set<GestureKind>
        public var doubleTapFingerCounts: Set<Int>
    }

    /// What differs from `old`, in words for the log ("thresholds: swipe_minimum_distance_mm 20 →
    /// 900"); empty when recognition is the same.
    public func recognitionChanges(from old: DevicePlan) -> [String] {
        var out: [String] = []
        let added = recognizedKinds.subtracting(old.recognizedKinds).map(\.rawValue).sorted()
        let removed = old.recognizedKinds.subtracting(recognizedKinds).map(\.rawValue).sorted()
        if !added.isEmpty { out.append("recognizes \(added.joined(separator: ", "))") }
        if !removed.isEmpty { out.append("no longer recognizes \(removed.joined(separator: ", "))") }
        if doubleTapFingerCounts != old.doubleTapFingerCounts && recognizedKinds.contains(.doubleTap) {
            out.append("doubleTap for \(doubleTapFingerCounts.sorted().map(String.init).joined(separator: ", ")) finger(s)")
        }
        let keys = ThresholdOverrides.changedKeys(from: old.settings.thresholds, to: settings.thresholds)
        if !keys.isEmpty { out.append("thresholds: " + keys.joined(separator: ", ")) }
        if transform != old.transform {
            out.append("axes: \(transform.summary) (config)")
        }
        return out
    }
}
