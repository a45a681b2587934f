import GestureConfig
import GestureCore
import GestureWire

extension EmitRequest {
    /// What a `listen` binding with keys:/button: asks the daemon to do for gesture `g` on the
    /// device with daemon id `deviceId`.
    public init(binding b: Binding, gesture g: GestureEvent, deviceId: Int?) {
        self.init()
        keys = b.keys.map(\.text)
        keyDelayMilliseconds = Double(b.keyDelay.totalMicroseconds) / 1000
        keyHoldMilliseconds = Double(b.keyHold.totalMicroseconds) / 1000
        button = b.button?.button.rawValue
        if b.button?.atTouch == true, let id = deviceId, let x = g.x, let y = g.y { at = (id, x, y) }
        whenLocked = b.whenLocked
    }
}
