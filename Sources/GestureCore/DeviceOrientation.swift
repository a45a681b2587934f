/// Where a device's axes point relative to the picture, and why: the parts of its
/// `AxisTransform`, in the order they apply.
///
/// 1. `calibration`: the panel's calibration from udev (`LIBINPUT_CALIBRATION_MATRIX`, which
///    libinput applies to touchscreens): how the panel is mounted under the picture.
/// 2. `config`: the config's `rotation`/`invert_x`/`invert_y` for the device, on top.
/// 3. `screen`: how the screen shows its picture now (the session's output transform, or the
///    accelerometer), the part that changes while the device is open.
public struct DeviceOrientation: Hashable, Sendable {
    public var calibration: AxisTransform = .identity
    /// Where `calibration` came from ("udev LIBINPUT_CALIBRATION_MATRIX"), nil when none.
    public var calibrationSource: String?
    public var config: AxisTransform = .identity
    public var screen: AxisTransform = .identity
    /// Where `screen` came from ("sway output eDP-1 transform 90"), nil when none.
    public var screenSource: String?
    /// The output the touchscreen shows on, from udev (`WL_OUTPUT`), when udev says it: the
    /// session's client turns the device with that output.
    public var output: String?

    public init(calibration: AxisTransform = .identity, calibrationSource: String? = nil,
                config: AxisTransform = .identity, screen: AxisTransform = .identity, screenSource: String? = nil) {
        self.calibration = calibration; self.calibrationSource = calibrationSource
        self.config = config; self.screen = screen; self.screenSource = screenSource
    }

    /// The three parts, one after the other.
    public var transform: AxisTransform { calibration.then(config).then(screen) }

    /// The parts in force, each with its source, for logs and the socket: "udev
    /// LIBINPUT_CALIBRATION_MATRIX=0 -1 1 1 0 0", "config rotated 90°", "screen: sway …".
    public var sources: [String] {
        var out: [String] = []
        if let s = calibrationSource { out.append("\(s)=\(calibration.matrixText)") }
        if !config.isIdentity { out.append("config \(config.summary)") }
        if let s = screenSource { out.append("screen \(screen.isIdentity ? "upright" : screen.summary): \(s)") }
        return out
    }
}
