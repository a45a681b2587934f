import GestureCore
@testable import GestureDaemon
import LinuxSystem
import Testing

/// HookEnvironment writes a hook's variables as bytes; `Reference` is the String-built form they
/// had before (and the docs' table), field for field.
@Suite struct HookEnvironmentTests {
    enum Reference {
        static func variables(_ e: GestureEvent, _ device: HookDevice) -> [String] {
            [
                ("GESTURE_KIND", e.kind.rawValue), ("GESTURE_PHASE", e.phase.rawValue),
                ("GESTURE_FINGERS", String(e.fingers)), ("GESTURE_DIRECTION", e.direction?.rawValue ?? ""),
                ("GESTURE_EDGE", e.edge?.rawValue ?? ""),
                ("GESTURE_DX_MM", number(e.dxMillimeters, 2)), ("GESTURE_DY_MM", number(e.dyMillimeters, 2)),
                ("GESTURE_SCALE", number(e.scale, 3)), ("GESTURE_ROTATION_DEG", number(e.rotationDegrees, 2)),
                ("GESTURE_VELOCITY_MM_S", number(e.velocityMillimetersPerSecond, 1)),
                ("GESTURE_X", number(e.x, 3)), ("GESTURE_Y", number(e.y, 3)),
                ("GESTURE_DEVICE_NAME", device.name), ("GESTURE_DEVICE_KIND", device.kind.rawValue),
                ("GESTURE_DEVICE_NODE", device.node),
            ].map { "\($0.0)=\(String($0.1.map { $0 == "\0" ? " " : $0 }))" }
        }

        static func number(_ v: Double?, _ decimals: Int) -> String {
            guard let v, v.isFinite else { return "" }
            var scale: Int64 = 1
            for _ in 0..<decimals { scale *= 10 }
            let scaled = (abs(v) * Double(scale)).rounded()
            guard scaled < 9e17 else { return String(v) }
            let n = Int64(scaled)
            var s = String(n / scale)
            var frac = String(n % scale)
            frac = String(repeating: "0", count: decimals - frac.count) + frac
            while frac.last == "0" { frac.removeLast() }
            if !frac.isEmpty { s += "." + frac }
            return (v < 0 && n != 0 ? "-" : "") + s
        }
    }

    @Test func randomEvents_matchTheReference_byteForByte() {
        var rng = SystemRandomNumberGenerator()
        let values: [Double?] = [nil, 0, -0.0, 0.004, -0.005, 0.005, 1.2345, -21.5, 99.995, 1e20, -3e18, .nan, .infinity]
        let kinds = GestureKind.all + [GestureKind(rawValue: "newKind")]
        let devices = [HookDevice(id: 1, name: "Synaptics TM3276-022", kind: .touchpad, node: "/dev/input/event5"),
                       HookDevice(id: 2, name: "odd\u{0}name é", kind: DeviceKind(rawValue: "other"), node: "rec.evemu")]
        let inherited = CStringList(["PATH=/usr/bin", "HOME=/root"])
        for n in 0..<3_000 {
            func value() -> Double? {
                rng.next() % 3 == 0 ? values[Int(rng.next() % UInt64(values.count))] : Double(Int64(rng.next() % 2_000_001) - 1_000_000) / 997
            }
            var e = GestureEvent(kind: kinds[n % kinds.count], phase: GesturePhase.allCases[n % 5], id: UInt64(n),
                                 fingers: Int(rng.next() % 12) - 1, time: .zero)
            e.direction = n % 4 == 0 ? nil : GestureDirection.all[n % GestureDirection.all.count]
            e.edge = n % 3 == 0 ? nil : Edge.allCases[n % 4]
            e.dxMillimeters = value(); e.dyMillimeters = value(); e.scale = value(); e.rotationDegrees = value()
            e.velocityMillimetersPerSecond = value(); e.x = value(); e.y = value()
            let device = devices[n % 2]
            let made = HookEnvironment.make(event: e, device: device, inherited: inherited).strings
            #expect(made == ["PATH=/usr/bin", "HOME=/root"] + Reference.variables(e, device), "event \(n)")
        }
    }

    @Test func numbers_matchTheReference() {
        for decimals in 1...3 {   // what hooks use (the reference traps at 0)
            for k in -20_000...20_000 {
                let v = Double(k) / 1_024 + Double(k % 7) * 0.0005
                #expect(HookEnvironment.number(v, decimals) == Reference.number(v, decimals), "\(v) \(decimals)")
            }
        }
    }

    @Test func whatIsInherited_dropsGestureVariablesAndTheMarker() {
        let kept = HookEnvironment.inheritable(["PATH=/bin", "GESTURE_KIND=pan", "GESTURED_HOOK=1-2:3", "GESTURES=x"],
                                               dropping: ["GESTURED_HOOK="])
        #expect(kept.strings == ["PATH=/bin", "GESTURES=x"])
    }
}

extension HookEnvironmentTests {
    @Test func theMarker_comesLast_asPrefixAndId() {
        let e = GestureEvent(kind: .swipe, phase: .recognized, id: 1, fingers: 3, time: .zero)
        let d = HookDevice(id: 1, name: "pad", kind: .touchpad, node: "/dev/input/event5")
        for id in [1, 9, 10, 12_345] {
            let env = HookEnvironment.make(event: e, device: d, inherited: CStringList(), marker: ("GESTURED_HOOK=42-ab:", id)).strings
            #expect(env.last == "GESTURED_HOOK=42-ab:\(id)" && env.count == 16)
        }
    }
}
