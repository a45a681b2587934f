import CommandArguments
import GestureConfig
import GestureCore
import GestureWire
import LinuxInput
import LinuxSystem

private let devicesHelp = """
    usage: gestured devices [--json] [--config FILE]

    Lists the touchscreens and touchpads that gestured would use: kind, name, node, surface size
    in millimetres (marked "size unknown" when the kernel gives no resolution and thresholds fall
    back to fractions of the range), slots, and contact protocol (B slots, A anonymous,
    single-touch; semi-MT pads are marked). Found through udev, or by inotify on /dev/input and
    classification from capabilities when udevd is not running.

    Each device's orientation follows on a line of its own: the map from the panel's axes to
    the picture (six numbers, libinput's calibration-matrix layout) and where it comes from, in
    the order the parts apply: udev's LIBINPUT_CALIBRATION_MATRIX (touchscreens), the config's
    rotation and invert_x/invert_y, and WL_OUTPUT, the output the touchscreen is mapped to. The
    screen's own turn is known to the running daemon only: `gestured monitor` shows it.

      --json           one JSON object per device
      --config FILE    the config whose device rules count (default /etc/gestured/config.yaml)
    Exit status: 0 with at least one device, 1 with none, 2 on a usage error.

    """

private let devicesSyntax = CommandSyntax(command: "gestured devices", help: devicesHelp, options: [.flag("--json"), .value("--config", "-c", needs: "a file")])

/// One line of `gestured devices`.
func describeDevice(node: String, _ d: DeviceDescription) -> String {
    let (w, h) = d.size
    let size = d.sizeKnown ? "\(format1(w)) x \(format1(h)) mm" : "size unknown (nominal \(format1(w)) x \(format1(h)))"
    var proto = "protocol \(d.contactProtocol.rawValue)"
    if d.isSemiMT { proto += ", semi-MT" }
    let slots = d.slotCount > 0 ? "\(d.slotCount) slots" : "no slots"
    return "\(d.kind.rawValue.padded(11)) \(node.padded(18)) \(TextEscaping.escaped(d.name)) — \(size), \(slots), \(proto), up to \(d.maximumFingerCount) fingers, id \(hex4(d.vendor)):\(hex4(d.product))"
}

func devicesMain(_ arguments: [String]) -> Int32 {
    var json = false
    var configPath: String?
    let parsed = devicesSyntax.parse(arguments)
    for argument in parsed.arguments {
        switch argument {
        case .flag("--json"): json = true
        case .value("--config", let v): configPath = v
        default: fatalError("gestured bug: devices' syntax has no \(argument)")
        }
    }
    if let stop = parsed.stop { return stop.report() }
    var config: Config?
    do { config = try Config.load(path: configPath) } catch {
        eprint("gestured devices: \(error.description); orientations without the config's rules")
    }
    let monitor: DeviceMonitor
    do { monitor = try DeviceMonitor() } catch {
        if error.isDeviceGone {
            eprint("gestured devices: no input devices on this machine (/dev/input does not exist)")
        } else {
            eprint("gestured devices: cannot list input devices: \(error)")
        }
        return 1
    }
    var found = 0
    for change in monitor.enumerate() {
        switch change {
        case .added(let dev):
            do {
                let evdev = try EvdevDevice(path: dev.node)
                let d = evdev.description
                found += 1
                let settings = config?.settings(for: d) ?? DeviceSettings(thresholds: .defaults(for: d))
                let (o, notes) = DeviceOrientation.atOpen(kind: d.kind, settings: settings, calibrationMatrix: dev.calibrationMatrix)
                let t = o.transform
                var sources = o.sources
                if let out = dev.output { sources.append("udev WL_OUTPUT=\(TextEscaping.escaped(out))") }
                if json {
                    let (w, h) = d.size
                    print("{\"node\":\(jsonString(dev.node)),\"name\":\(jsonString(d.name)),\"kind\":\"\(d.kind.rawValue)\",\"width_mm\":\(format1(w)),\"height_mm\":\(format1(h)),\"size_known\":\(d.sizeKnown),\"slots\":\(d.slotCount),\"protocol\":\"\(d.contactProtocol.rawValue)\",\"semi_mt\":\(d.isSemiMT),\"max_fingers\":\(d.maximumFingerCount),\"vendor\":\"\(hex4(d.vendor))\",\"product\":\"\(hex4(d.product))\",\"orientation\":{\"matrix\":\(jsonString(t.matrixText)),\"summary\":\(jsonString(t.summary)),\"from\":[\(sources.map(jsonString).joined(separator: ","))],\"output\":\(dev.output.map(jsonString) ?? "null")}}")
                } else {
                    print(describeDevice(node: dev.node, d))
                    print("            orientation: \(t.summary), matrix \(t.matrixText) (\(sources.isEmpty ? "the device's own axes" : sources.joined(separator: "; ")))")
                }
                for n in notes { eprint("gestured devices: \(dev.node): \(n)") }
            } catch {
                eprint("gestured devices: \(dev.node) (\(dev.kind.rawValue)): \(error)")
            }
        case .unavailable(let node, let error):
            eprint("gestured devices: \(node): \(error)")
        case .ignored, .removed:
            break
        }
    }
    if found == 0 {
        eprint("gestured devices: no touchscreen or touchpad found (\(monitor.mode.rawValue) mode)")
        return 1
    }
    return 0
}

func format1(_ v: Double) -> String {
    guard v.isFinite else { return "0" }
    let tenths = Int((v * 10).rounded())
    return "\(tenths / 10).\(abs(tenths % 10))"
}

func hex4(_ v: UInt16) -> String {
    let s = String(v, radix: 16)
    return String(repeating: "0", count: max(0, 4 - s.count)) + s
}

func jsonString(_ s: String) -> String {
    var out = ""
    GestureJSON.appendString(s, to: &out)
    return out
}

extension String {
    func padded(_ n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }
}
