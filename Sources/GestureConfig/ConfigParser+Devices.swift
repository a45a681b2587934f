import GestureCore
import YAML

/// The `thresholds:` section and the `devices:` rules (match, rotation, inversion, exclusive).
extension Reader {
    mutating func readGlobalThresholds(_ node: Node, into config: inout Config) {
        guard let pairs = mapping(node, "thresholds", keys: ["touchpad", "touchscreen"]) else { return }
        for (key, _, value) in pairs {
            let kind = key == "touchpad" ? DeviceKind.touchpad : DeviceKind.touchscreen
            config.thresholds[kind] = readThresholds(value, "thresholds.\(key)")
        }
    }

    mutating func readThresholds(_ node: Node, _ what: String) -> ThresholdOverrides {
        var o = ThresholdOverrides()
        guard let pairs = mapping(node, what, keys: ThresholdKey.all.map(\.name)) else { return o }
        for (key, _, value) in pairs {
            guard let k = ThresholdKey.named(key) else { continue }
            let name = "\(what).\(key)"
            switch k.unit {
            case .boolean:
                if let b = bool(value, name) { o.values.append((k, b ? 1 : 0)) }
            case .milliseconds:
                if let d = milliseconds(value, name) { o.values.append((k, Double(d.totalMicroseconds) / 1000)) }
            case .millimeters, .degrees, .ratio, .percent:
                guard let v = number(value, name) else { continue }
                let limit: Double = k.unit == .degrees ? 180 : k.unit == .ratio ? 10 : k.unit == .percent ? 100 : 1000
                if v < 0 || v > limit {
                    error(value.mark, "\(name) must be between 0 and \(format(limit)), not \(format(v))",
                          hint: v < 0 ? "a distance or angle cannot be negative" : nil)
                    continue
                }
                o.values.append((k, v))
            }
        }
        return o
    }

    static let deviceKinds: [(String, DeviceKind)] = [("touchpad", .touchpad), ("touchscreen", .touchscreen)]

    mutating func readDevices(_ node: Node, into config: inout Config) {
        guard case .sequence(let items, _) = node else {
            if node.isNull { return }
            error(node.mark, "devices must be a list, not \(node.kindName)", hint: "start each device rule with '- match:'")
            return
        }
        for item in items {
            var rule = DeviceRule()
            rule.mark = location(item.mark)
            guard let pairs = mapping(item, "a device rule",
                                      keys: ["match", "ignore", "thresholds", "rotation", "invert_x", "invert_y",
                                             "exclusive", "exclusive_hold_ms", "exclusive_landing_ms", "orientation"]) else { continue }
            var hasMatch = false
            for (key, _, value) in pairs {
                switch key {
                case "match":
                    hasMatch = true
                    if let m = readMatch(value, "match", allowID: true) { rule.match = m }
                case "ignore": rule.ignore = bool(value, "ignore")
                case "thresholds": rule.thresholds = readThresholds(value, "thresholds")
                case "rotation":
                    if let (s, q) = scalar(value, "rotation", expected: "0, 90, 180 or 270") {
                        if !q, let v = Int(s), [0, 90, 180, 270].contains(v) { rule.rotation = v }
                        else { error(value.mark, "rotation must be 0, 90, 180 or 270, not '\(s)'", hint: "degrees clockwise") }
                    }
                case "orientation":
                    if let (s, _) = scalar(value, "orientation", expected: "session or accelerometer") {
                        switch s {
                        case "session": rule.followAccelerometer = false
                        case "accelerometer": rule.followAccelerometer = true
                        default:
                            error(value.mark, "orientation must be session or accelerometer, not '\(s)'",
                                  hint: "accelerometer: the daemon follows iio-sensor-proxy itself (a kiosk, the console); session (the default): gestured listen tells it")
                        }
                    }
                case "invert_x": rule.invertX = bool(value, "invert_x")
                case "invert_y": rule.invertY = bool(value, "invert_y")
                case "exclusive": rule.exclusive = bool(value, "exclusive")
                case "exclusive_hold_ms", "exclusive_landing_ms":
                    if let d = milliseconds(value, key) {
                        if d > .seconds(2) {
                            error(value.mark, "\(key) must be at most 2000",
                                  hint: "it is how long a new touch may wait before the compositor gets it; \((key == "exclusive_hold_ms" ? DeviceSettings.defaultExclusiveHold : DeviceSettings.defaultExclusiveLanding).totalMicroseconds / 1000) is the default")
                        } else if key == "exclusive_hold_ms" { rule.exclusiveHold = d } else { rule.exclusiveLanding = d }
                    }
                default: break
                }
            }
            if !hasMatch {
                error(item.mark, "a device rule needs a 'match:'",
                      hint: "e.g. match: {kind: touchscreen, name: \"ELAN*\"}; an empty match: {} matches every device")
            }
            config.devices.append(rule)
        }
    }

    mutating func readMatch(_ node: Node, _ what: String, allowID: Bool) -> DeviceMatch? {
        let keys = allowID ? ["kind", "name", "id"] : ["kind", "name"]
        guard let pairs = mapping(node, what, keys: keys) else { return nil }
        var m = DeviceMatch()
        for (key, _, value) in pairs {
            switch key {
            case "kind": m.kind = word(value, "device kind", Reader.deviceKinds)
            case "name": m.name = string(value, "\(what).name")
            case "id":
                guard let s = string(value, "\(what).id") else { continue }
                let parts = s.split(separator: ":", omittingEmptySubsequences: false)
                if parts.count == 2, let v = UInt16(parts[0], radix: 16), let p = UInt16(parts[1], radix: 16) {
                    m.vendor = v; m.product = p
                } else {
                    error(value.mark, "\(what).id must be \"VENDOR:PRODUCT\" in hex, not '\(s)'",
                          hint: "e.g. \"04f3:2b7c\", as `gestured devices` or lsusb print it")
                }
            default: break
            }
        }
        return m
    }
}
