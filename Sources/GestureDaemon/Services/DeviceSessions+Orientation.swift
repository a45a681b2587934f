import GestureConfig
import GestureCore
import GestureWire
import LinuxInput

/// How a device's axes meet the picture (docs/CONFIG.md, "Orientation"): at open, the panel's
/// calibration from udev and the config's rotation; while open, the screen's orientation (see
/// `DeviceOrientation` for the order).
extension DeviceSessions {
    /// The orientation a device opens with (`DeviceOrientation.atOpen`), its notes logged.
    static func openingOrientation(node: String, kind: DeviceKind, settings: DeviceSettings,
                                   calibrationMatrix: String?, output: String?, log: Logger) -> DeviceOrientation {
        let (o, notes) = DeviceOrientation.atOpen(kind: kind, settings: settings, calibrationMatrix: calibrationMatrix,
                                                  output: output)
        for n in notes { log.warning("devices: \(node): \(n)") }
        return o
    }

    /// udev changed an open device (`udevadm trigger` after a rule was edited): a new
    /// `LIBINPUT_CALIBRATION_MATRIX` or `WL_OUTPUT` applies from the next moment no finger is down.
    func udevChanged(_ s: DeviceSession, _ d: DiscoveredDevice) {
        let settings = plan.device(s.source.description).settings
        let fresh = Self.openingOrientation(node: s.wire.node, kind: s.source.description.kind, settings: settings,
                                            calibrationMatrix: d.calibrationMatrix, output: d.output, log: log)
        var o = s.wantedOrientation
        guard o.calibration != fresh.calibration || o.calibrationSource != fresh.calibrationSource || o.output != fresh.output else { return }
        o.calibration = fresh.calibration; o.calibrationSource = fresh.calibrationSource; o.output = fresh.output
        if !s.setOrientation(o) { log.info("devices: \(s.wire.node): udev changed its calibration; taking it once no finger is down") }
    }

    /// Says an open device's orientation: at open when it is not the device's own, and each
    /// time it changes.
    func logOrientation(_ s: DeviceSession, changed: Bool) {
        let t = s.orientation.transform
        guard changed || !t.isIdentity || !s.orientation.sources.isEmpty else { return }
        log.info("devices: \(s.wire.node): \(changed ? "now " : "")\(t.summary) (\(s.orientation.sources.joined(separator: "; ")))")
    }

    /// A session's new orientation came into force: clicks at the touch, the log, the socket.
    func orientationChanged(_ s: DeviceSession) {
        actions?.deviceTransformChanged(id: s.id, transform: s.transform)
        logOrientation(s, changed: true)
        bus.publish(.deviceChanged(s.wire))
    }

    // MARK: - The session's screen (`orientation` requests)

    /// Takes `orientation` requests on the socket.
    func startOrientation(server: SocketServer) {
        server.onOrientation = { [unowned self] request, peer in self.orientationRequested(request, peer: peer) }
    }

    /// Who may say how the screen turns: those who may `emit` (root, the seat's active session
    /// user, `actions.allowed_uids/gids`), whether or not `actions.emit` is on: turning the
    /// axes sends nothing, but another user must not be able to turn someone else's gestures.
    func orientationRefusal(_ peer: PeerCredentials) -> String? {
        var rules = plan.config.actions
        rules.emit = true
        guard let why = EmitPolicy(config: rules).refusal(for: peer) else { return nil }
        return "orientation refused" + why.dropFirst("emit refused".count)
    }

    /// The reply line. A touchscreen takes the screen's turn from the next moment no finger is down.
    func orientationRequested(_ r: OrientationRequest, peer: PeerCredentials) -> String {
        if let why = orientationRefusal(peer) {
            log.notice("socket: \(why) (pid \(peer.pid))")
            return WireEncoder.error(why)
        }
        guard let s = sessionList.first(where: { $0.id == r.device }) else {
            return WireEncoder.error("orientation: no device \(r.device) (ids are in hello and deviceAdded)")
        }
        guard s.wire.kind == .touchscreen else {
            return WireEncoder.error("orientation: device \(r.device) is a \(s.wire.kind.rawValue); only touchscreens follow the screen")
        }
        var o = s.wantedOrientation
        o.screen = .screen(clockwiseDegrees: r.rotation, flipped: r.flipped)
        let source = TextEscaping.escaped(r.source.isEmpty ? "the session" : r.source)
        o.screenSource = "\(source) (uid \(peer.uid))"
        if s.setOrientation(o) == false {
            log.info("devices: \(s.wire.node): the screen turned (\(source)); taking it once no finger is down")
        }
        return WireEncoder.ok("orientation")
    }

    // MARK: - The accelerometer (`orientation: accelerometer`)

    /// A touchscreen whose rule says `orientation: accelerometer` turns with iio-sensor-proxy's
    /// AccelerometerOrientation, read by the daemon itself (connected on the first such device).
    func followAccelerometerIfAsked(_ s: DeviceSession, settings: DeviceSettings) {
        guard settings.followAccelerometer else { return }
        guard s.wire.kind == .touchscreen else {
            log.warning("devices: \(s.wire.node): orientation: accelerometer is for touchscreens; a \(s.wire.kind.rawValue) follows no screen")
            return
        }
        let f = accelerometerFollowers
        f.sessions.insert(s.id)
        if !f.tried {
            f.tried = true
            let a = AccelerometerOrientation(loop: loop)
            a.onChange = { [unowned self] rotation, value in self.accelerometerTurned(rotation, value) }
            if let problem = a.start() {
                log.warning("devices: orientation: accelerometer: \(problem); those devices keep the orientation they have")
            } else {
                f.watcher = a
                log.info("devices: following iio-sensor-proxy's AccelerometerOrientation (\(a.value ?? "not known yet"))")
            }
        }
        if let a = f.watcher, let r = a.rotation { turn(s, clockwise: r, source: "iio-sensor-proxy AccelerometerOrientation \(a.value ?? "")") }
    }

    private func accelerometerTurned(_ rotation: Int, _ value: String) {
        for s in sessionList where accelerometerFollowers.sessions.contains(s.id) {
            turn(s, clockwise: rotation, source: "iio-sensor-proxy AccelerometerOrientation \(value)")
        }
    }

    private func turn(_ s: DeviceSession, clockwise: Int, source: String) {
        var o = s.wantedOrientation
        o.screen = .screen(clockwiseDegrees: clockwise)
        o.screenSource = source
        if !s.setOrientation(o) { log.info("devices: \(s.wire.node): the screen turned (\(source)); taking it once no finger is down") }
    }
}

/// The devices that follow the accelerometer, and the one connection they share.
final class AccelerometerFollowers {
    var watcher: AccelerometerOrientation?
    var tried = false
    var sessions = Set<Int>()
}
