import CSystemd
import GestureCore
import LinuxSystem

/// The screen's orientation from the accelerometer, for devices with `orientation:
/// accelerometer` (kiosks, the console: no session turns the input). iio-sensor-proxy on the
/// system bus: ClaimAccelerometer on net.hadess.SensorProxy, then its AccelerometerOrientation
/// property, read at start and again on each PropertiesChanged signal (a match on the bus, its
/// fd in the event loop: nothing is polled).
///
/// The values are where the device's own edge points: `normal`, `bottom-up` (upside down),
/// `left-up` (its left edge up: turned a quarter clockwise, so the desktop turns the picture a
/// quarter counterclockwise, 270° clockwise), `right-up` (90° clockwise), `undefined` (flat on
/// a table: the last orientation stays).
public final class AccelerometerOrientation {
    public static let service = "net.hadess.SensorProxy", path = "/net/hadess/SensorProxy"
    public static let interface = "net.hadess.SensorProxy"

    private var bus: OpaquePointer?
    private var slot: OpaquePointer?
    private let loop: EventLoop
    /// The last orientation iio-sensor-proxy gave, as the screen's clockwise turn (nil: none yet).
    public private(set) var rotation: Int?
    /// Its value as iio-sensor-proxy wrote it.
    public private(set) var value: String?
    /// Called when `rotation` changes.
    public var onChange: (Int, String) -> Void = { _, _ in }

    public init(loop: EventLoop) { self.loop = loop }

    /// The screen's clockwise turn for an AccelerometerOrientation value; nil for `undefined`
    /// and anything unknown.
    public static func rotation(of value: String) -> Int? {
        switch value {
        case "normal": 0
        case "right-up": 90
        case "bottom-up": 180
        case "left-up": 270
        default: nil
        }
    }

    /// Connects and claims the accelerometer; nil when following, else why not (said once by
    /// the caller).
    public func start() -> String? {
        if let problem = SeatSession.libraryProblem { return problem }
        var b: OpaquePointer?
        let rc = gsd_bus_open_system(&b)
        guard rc >= 0, let b else { return "no system D-Bus (\(SystemError(negated: rc)))" }
        bus = b
        loop.add(FileDescriptor(rawValue: gsd_bus_get_fd(b))) { [unowned self] _ in self.processBus() }
        var s: OpaquePointer?
        let me = Unmanaged.passUnretained(self).toOpaque()
        let mrc = gsd_bus_match_signal(b, &s, Self.service, Self.path, "org.freedesktop.DBus.Properties", "PropertiesChanged",
                                      { _, userdata, _ in
            guard let userdata else { return 0 }
            Unmanaged<AccelerometerOrientation>.fromOpaque(userdata).takeUnretainedValue().refresh()
            return 0
        }, me)
        if mrc >= 0 { slot = s } else { return "cannot watch \(Self.service): \(SystemError(negated: mrc))" }
        var m: OpaquePointer?
        var r = gsd_bus_message_new_method_call(b, &m, Self.service, Self.path, Self.interface, "ClaimAccelerometer")
        var err = sd_bus_error()
        defer { gsd_bus_error_free(&err) }
        var reply: OpaquePointer?
        if r >= 0 { r = gsd_bus_call(b, m, 3_000_000, &err, &reply) }
        gsd_bus_message_unref(m); gsd_bus_message_unref(reply)
        guard r >= 0 else {
            let text = err.message.map { String(cString: $0) } ?? SystemError(negated: r).description
            return "\(Self.service) ClaimAccelerometer: \(text) (is iio-sensor-proxy installed and running?)"
        }
        refresh()
        processBus()
        return nil
    }

    public func stop() {
        slot.map { _ = gsd_bus_slot_unref($0) }; slot = nil
        if let b = bus { loop.remove(FileDescriptor(rawValue: gsd_bus_get_fd(b))); _ = gsd_bus_flush_close_unref(b); bus = nil }
    }

    /// Re-reads AccelerometerOrientation.
    func refresh() {
        guard let bus else { return }
        var out: UnsafeMutablePointer<CChar>?
        var err = sd_bus_error()
        let rc = gsd_bus_get_property_string(bus, Self.service, Self.path, Self.interface, "AccelerometerOrientation", &err, &out)
        gsd_bus_error_free(&err)
        guard rc >= 0, let text = CMemory.takeString(out) else { return }
        value = text
        guard let r = Self.rotation(of: text), r != rotation else { return }
        rotation = r
        onChange(r, text)
    }

    private func processBus() {
        guard let bus else { return }
        while gsd_bus_process(bus, nil) > 0 {}
    }
}
