import GestureCore
import GestureWire

/// A device's orientation while it is open: the screen turned (listen's `orientation` request,
/// the accelerometer). The pipeline takes the new transform at the next moment no finger is down
/// and no gesture waits (GesturePipeline+Orientation.swift); then the session's wire device says
/// the new orientation and size, and `onOrientationChanged` tells the daemon.
extension DeviceSession {
    /// Asks for `o`. True when it is in force at once, false when it waits for the fingers to lift.
    @discardableResult
    public func setOrientation(_ o: DeviceOrientation) -> Bool {
        if o == orientation && pendingOrientation == nil { return true }
        pendingOrientation = o
        _ = setPipelineTransform(o.transform)
        orientationMayHaveChanged()
        return pendingOrientation == nil
    }

    /// The orientation asked for, or the one in force when none waits.
    public var wantedOrientation: DeviceOrientation { pendingOrientation ?? orientation }

    func orientationMayHaveChanged() {
        guard let o = pendingOrientation, !pipelineTransformPending else { return }
        pendingOrientation = nil
        orientation = o
        setWire(Self.wireDevice(id: id, node: source.node, pipelineDevice, o))
        onOrientationChanged?(self)
    }

    static func wireDevice(id: Int, node: String, _ d: DeviceDescription, _ o: DeviceOrientation) -> WireDevice {
        var w = WireDevice(id: id, node: node, description: d)
        let t = o.transform
        w.orientation = WireOrientation(matrix: t.matrixText, summary: t.summary, sources: o.sources)
        w.output = o.output
        return w
    }
}
