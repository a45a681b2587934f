import GestureCore

extension DeviceOrientation {
    /// The orientation a device opens with: the panel's calibration from udev, then the config's
    /// rotation and inversion. The udev matrix counts for touchscreens only, as in libinput (a
    /// touchpad's axes are not the picture's). `notes` say what was left out or approximated.
    public static func atOpen(kind: DeviceKind, settings: DeviceSettings, calibrationMatrix: String?,
                              output: String? = nil) -> (orientation: DeviceOrientation, notes: [String]) {
        var o = DeviceOrientation(config: AxisTransform(rotationDegrees: settings.rotation,
                                                        invertX: settings.invertX, invertY: settings.invertY))
        var notes: [String] = []
        if kind == .touchscreen { o.output = output }
        if let text = calibrationMatrix {
            let (t, problem) = AxisTransform.calibration(text)
            if kind != .touchscreen {
                notes.append("LIBINPUT_CALIBRATION_MATRIX ignored: libinput applies it to touchscreens only")
            } else if let t {
                o.calibration = t
                o.calibrationSource = "udev LIBINPUT_CALIBRATION_MATRIX"
                if let problem { notes.append("LIBINPUT_CALIBRATION_MATRIX '\(TextEscaping.escaped(text))': \(problem) (\(t.matrixText))") }
            } else if let problem {
                notes.append("LIBINPUT_CALIBRATION_MATRIX ignored: \(problem)")
            }
        }
        return (o, notes)
    }
}
