import LinuxInput

/// Where `TouchpadReplay` puts the virtual touchpad's contacts, and the timings it keeps so that
/// libinput (1.22, evdev-mt-touchpad*.c) reads them as a hand on a real touchpad.
extension TouchpadReplay {
    /// libinput reports no motion for a touch's first frame after it lands, and tells a swipe
    /// from a pinch in the frame where the two contacts it tracks have each moved 1.5 mm + 0.5 mm
    /// per finger beyond two — but reports the begin only with the next frame's motion unless the
    /// touches had moved before. So the contacts of a swipe land when the pan that may become the
    /// swipe begins (still, and one device unit of settle move on the next frame), and when the
    /// swipe is recognized they move that distance + 0.5 mm in its direction at once (the
    /// lead-in): libinput begins the swipe on that very frame. A pan's or pinch's contacts land at
    /// its begin and take the lead-in with the first move (libinput then begins one frame later).
    /// The compositor sees the lead-in as the motion the fingers made before recognition (more
    /// than this, always). It stays under libinput's jump limit (7 mm more than the frame before,
    /// per 12 ms) for frames `minimumFrameInterval` apart.
    static func leadInMillimeters(fingers: Int) -> Double { 1.5 + 0.5 * Double(max(0, fingers - 2)) + 0.5 }
    /// Frames are written at least this far apart. libinput takes a contact that moves more than
    /// 20 mm, or 7 mm more than in the frame before, per 12 ms for a jump and drops the motion
    /// (for frames 0 to 24 ms apart); touchscreen frames that reach the daemon in a burst
    /// (a loaded machine) would look like that if written as they come.
    static let minimumFrameInterval: Duration = .milliseconds(8)
    /// How long contacts that have barely moved stay down at least: libinput's tap timeout is
    /// 180 ms (DEFAULT_TAP_TIMEOUT_PERIOD); lifted later, no tap, whatever the tap setting.
    static let tapSafe: Duration = .milliseconds(250)
    /// Movement past which libinput's tap gives up (DEFAULT_TAP_MOVE_THRESHOLD is 1.3 mm).
    static let tapSafeTravelMillimeters = 3.0
    /// A replay whose followed gesture sends nothing for this long is lifted (an end event that
    /// never comes must not leave contacts down).
    static let idleLimit: Duration = .seconds(5)
    /// Swipe contacts sit in a row this far apart (mm); pinch contacts on a circle of this radius.
    static let fingerSpacingMillimeters = 18.0, pinchRadiusMillimeters = 20.0
    static let pinchRadiusRangeMillimeters = 4.0...50.0
    /// Kept between the contacts and the surface's edge (mm).
    static let edgeMarginMillimeters = 3.0

    /// n points evenly spaced on the unit circle, the first on the left (angles 180° + 360°·i/n):
    /// two contacts side by side, as fingers pinch on a touchpad.
    static let circle: [Int: [(x: Double, y: Double)]] = [
        2: [(-1, 0), (1, 0)],
        3: [(-1, 0), (0.5, -0.8660254), (0.5, 0.8660254)],
        4: [(-1, 0), (0, -1), (1, 0), (0, 1)],
        5: [(-1, 0), (-0.3090170, -0.9510565), (0.8090170, -0.5877853), (0.8090170, 0.5877853), (-0.3090170, 0.9510565)],
    ]

    /// Where the contacts go (touchpad mm): the group translated by (tx, ty) from the centre, a
    /// pinch's circle grown by `radiusChange`. The group stays inside the surface whole: at an
    /// edge it stops rather than deforming, which libinput would read as a pinch.
    func contacts(_ r: Replay, tx: Double, ty: Double, radiusChange: Double) -> [(x: Double, y: Double)] {
        var offsets: [(x: Double, y: Double)] = []
        if r.kind == .pinch {
            let range = Self.pinchRadiusRangeMillimeters
            let radius = min(range.upperBound, max(range.lowerBound, Self.pinchRadiusMillimeters + radiusChange))
            offsets = (Self.circle[r.fingers] ?? []).map { (radius * $0.x, radius * $0.y) }
        } else {
            offsets = (0..<r.fingers).map { ((Double($0) - Double(r.fingers - 1) / 2) * Self.fingerSpacingMillimeters, 0) }
        }
        let (w, h, m) = (VirtualTouchpad.widthMillimeters, VirtualTouchpad.heightMillimeters, Self.edgeMarginMillimeters)
        let minX = offsets.map(\.x).min() ?? 0, maxX = offsets.map(\.x).max() ?? 0
        let minY = offsets.map(\.y).min() ?? 0, maxY = offsets.map(\.y).max() ?? 0
        let centre = VirtualTouchpad.centre
        let gx = min(w - m - maxX, max(m - minX, centre.x + tx))
        let gy = min(h - m - maxY, max(m - minY, centre.y + ty))
        return offsets.map { (gx + $0.x, gy + $0.y) }
    }
}
