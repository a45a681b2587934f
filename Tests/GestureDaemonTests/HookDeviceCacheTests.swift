import GestureCore
@testable import GestureDaemon
import GestureWire
import Testing

/// HookDevice.Cache: the hook view of the device a gesture came from, made once per device.
@Suite struct HookDeviceCacheTests {
    static func device(_ id: Int, _ name: String, _ kind: DeviceKind, _ node: String) -> WireDevice {
        WireDevice(id: id, name: name, kind: kind, node: node, widthMillimeters: 100, heightMillimeters: 60,
                   sizeKnown: true, slots: 5, contactProtocol: "B")
    }

    @Test func eachGesture_getsItsOwnDevice_asDevicesTakeTurns() {
        var cache = HookDevice.Cache()
        let pad = Self.device(1, "pad", .touchpad, "/dev/input/event5")
        let screen = Self.device(2, "screen", .touchscreen, "/dev/input/event9")
        for d in [pad, pad, screen, pad, screen, screen] {
            #expect(cache.of(d) == HookDevice(id: d.id, name: d.name, kind: d.kind, node: d.node))
        }
    }
}
