/// Protocol A (SYN_MT_REPORT packets, no slots): contacts are matched to the previous frame's by
/// ABS_MT_TRACKING_ID when the device sends one, otherwise by nearest position; a frame with no
/// packet (or only empty packets) means every contact lifted. Touches down at open are ignored
/// until everything lifts; palms are suppressed for their contact's life.
struct AnonymousContacts: Sendable {
    private struct Contact {
        var x: Int32 = 0, y: Int32 = 0
        var pressure: Int32 = 0, major: Int32 = 0
        var trackingId: Int32 = -1
        var tool: Int32 = MTToolType.finger
        var hasPosition = false
        /// The packet carried an x (y) position; one it lacks is the picture's minimum.
        var hasX = false, hasY = false
        var hasMajor = false
        /// While a frame is matched: the index in `tracks` of the track it continues (−1: new).
        var track = -1
    }
    private struct Track {
        var contact: Contact
        var touchId: Int
        var slot: Int
        var suppressed: Bool
        /// While a frame is matched: the index in `contacts` of the contact continuing it (−1: lifted).
        var matchedContact = -1

        /// `c` continues this track: its phase in the frame, nil while it is hidden (a palm is
        /// cancelled once, then hidden). A mutating method, so the frame updates the track with
        /// one in-place access instead of copying it out and back.
        mutating func continued(by c: Contact) -> TouchPhase? {
            let moved = contact.x != c.x || contact.y != c.y
            contact = c
            if suppressed { return nil }
            if c.tool == MTToolType.palm { suppressed = true; return .cancelled }
            return moved ? .moved : .stationary
        }
    }
    static let maxContacts = 32

    private let scale: AxisScale
    private let picture: AxisPicture
    private let deviceName: String
    private let hasTouchKey: Bool
    private var packet = Contact()
    /// This frame's contacts, one per packet: the first `contactCount` of `maxContacts` entries,
    /// forgotten at each frame's end by setting the count to 0. The tracks likewise: the first
    /// `trackCount`. Each contact continues one track or begins one, and a track no contact
    /// continues ends, so there are never more tracks than `maxContacts` after a frame. Both are
    /// written in place through their buffers: a frame neither allocates, nor copies them, nor
    /// checks their uniqueness more than once.
    private var contacts: [Contact]
    private var contactCount = 0
    private var tracks: [Track]
    private var trackCount = 0
    private var ignoreUntilLift = false
    /// Some protocol-A drivers (bcm5974) keep reporting lifted contacts with ABS_MT_TOUCH_MAJOR 0:
    /// once a device has shown a non-zero major, a zero one means "not touching".
    private var sawNonzeroMajor = false

    init(device: DeviceDescription, scale: AxisScale, picture: AxisPicture, ignoreUntilLift: Bool) {
        self.scale = scale
        self.picture = picture
        deviceName = TextEscaping.escaped(device.name)
        hasTouchKey = device.hasKey(KeyCode.btnTouch)
        self.ignoreUntilLift = ignoreUntilLift
        packet.x = scale.rawXMin; packet.y = scale.rawYMin
        contacts = Array(repeating: Contact(), count: Self.maxContacts)
        tracks = Array(repeating: Track(contact: Contact(), touchId: 0, slot: 0, suppressed: false), count: Self.maxContacts)
    }

    mutating func abs(code: UInt16, value: Int32) {
        switch code {
        case AbsCode.mtPositionX: packet.x = value; packet.hasPosition = true; packet.hasX = true
        case AbsCode.mtPositionY: packet.y = value; packet.hasPosition = true; packet.hasY = true
        case AbsCode.mtPressure: packet.pressure = value
        case AbsCode.mtTouchMajor: packet.major = value; packet.hasMajor = true
        case AbsCode.mtTrackingId: packet.trackingId = value
        case AbsCode.mtToolType: packet.tool = value
        default: break
        }
    }

    /// SYN_MT_REPORT: the packet so far is one contact (an empty packet is none).
    mutating func endPacket(_ ctx: inout DecoderContext) {
        defer { packet = Contact(); packet.x = scale.rawXMin; packet.y = scale.rawYMin }
        guard packet.hasPosition else { return }
        if scale.hasMajor {
            if packet.major != 0 { sawNonzeroMajor = true } else if sawNonzeroMajor && packet.hasMajor { return }
        }
        if contactCount < Self.maxContacts {
            contacts[contactCount] = packet
            contactCount += 1
        } else {
            ctx.diagnose("kernel bug: \(deviceName): more than \(Self.maxContacts) protocol-A contacts in one frame, the rest ignored")
        }
    }

    private static func touch(_ t: Track, phase: TouchPhase, _ scale: AxisScale, _ picture: AxisPicture) -> Touch {
        scale.touch(id: t.touchId, slot: t.slot, phase: phase, x: t.contact.x, y: t.contact.y,
                    pressure: t.contact.pressure, major: t.contact.major, tool: t.contact.tool,
                    xKnown: t.contact.hasX, yKnown: t.contact.hasY, picture)
    }

    private func touch(_ t: Track, phase: TouchPhase) -> Touch { Self.touch(t, phase: phase, scale, picture) }

    mutating func frame(into touches: inout [Touch], _ ctx: inout DecoderContext) -> (active: Int, hidden: Int) {
        // A packet still open at SYN_REPORT (no closing SYN_MT_REPORT) counts as one.
        if packet.hasPosition { endPacket(&ctx) }
        // BTN_TOUCH released: whatever packets say, nothing touches.
        if hasTouchKey && !ctx.touchKey { contactCount = 0 }
        let n = contactCount
        contactCount = 0
        if n == 0 { ignoreUntilLift = false }
        let ignoring = ignoreUntilLift
        var trackCount = self.trackCount
        var counts = (active: 0, hidden: 0)
        tracks.withUnsafeMutableBufferPointer { allTracks in
            contacts.withUnsafeMutableBufferPointer { allContacts in
                let contacts = UnsafeMutableBufferPointer(rebasing: allContacts[..<n])
                // When every track continues (a frame like the one before) the closing up below
                // would leave everything where it is: skipped.
                if !Self.match(contacts, UnsafeMutableBufferPointer(rebasing: allTracks[..<trackCount])) {
                    // Unmatched tracks lifted; the matched ones close up in their order.
                    var kept = 0
                    for ti in 0..<trackCount {
                        let t = allTracks[ti]
                        if t.matchedContact < 0 {
                            if !t.suppressed { touches.append(Self.touch(t, phase: .ended, scale, picture)) }
                            continue
                        }
                        contacts[t.matchedContact].track = kept
                        if kept != ti { allTracks[kept] = t }
                        kept += 1
                    }
                    trackCount = kept
                }
                for ci in contacts.indices {
                    let c = contacts[ci]
                    if c.track >= 0 {
                        switch allTracks[c.track].continued(by: c) {
                        case nil:
                            counts.hidden += 1
                        case .cancelled?:
                            var out = Self.touch(allTracks[c.track], phase: .cancelled, scale, picture); out.tool = .palm
                            touches.append(out)
                            counts.hidden += 1
                        case let phase?:
                            touches.append(Self.touch(allTracks[c.track], phase: phase, scale, picture))
                            counts.active += 1
                        }
                    } else {
                        var used: UInt64 = 0
                        for r in allTracks[..<trackCount] where r.slot < 64 { used |= 1 << UInt64(r.slot) }
                        let slot = (~used).trailingZeroBitCount
                        var t = Track(contact: c, touchId: 0, slot: slot, suppressed: false)
                        if ignoring || c.tool == MTToolType.palm {
                            t.suppressed = true
                            counts.hidden += 1
                        } else {
                            t.touchId = ctx.newTouchId()
                            touches.append(Self.touch(t, phase: .began, scale, picture))
                            counts.active += 1
                        }
                        allTracks[trackCount] = t
                        trackCount += 1
                    }
                }
            }
        }
        self.trackCount = trackCount
        return counts
    }

    /// Pairs this frame's `contacts` with the previous frame's `tracks`: each contact's `track`
    /// is the track it continues (−1: a new contact), each track's `matchedContact` the contact
    /// continuing it (−1: lifted). True when every track is continued.
    private static func match(_ contacts: UnsafeMutableBufferPointer<Contact>, _ tracks: UnsafeMutableBufferPointer<Track>) -> Bool {
        var paired = 0
        // Contacts and tracks without a tracking id: step 2 pairs one of each a round until one
        // side runs out, so it runs exactly min(of the two) rounds, with no last, empty round
        // rescanning every contact.
        var idlessTracks = 0, idlessContacts = 0
        for i in tracks.indices {
            tracks[i].matchedContact = -1
            if tracks[i].contact.trackingId < 0 { idlessTracks += 1 }
        }
        // 1. By tracking id where the device sends one.
        for ci in contacts.indices {
            let id = contacts[ci].trackingId
            if id < 0 { idlessContacts += 1; continue }
            if let ti = tracks.firstIndex(where: { $0.matchedContact < 0 && $0.contact.trackingId == id }) {
                tracks[ti].matchedContact = ci; contacts[ci].track = ti
                paired += 1
            }
        }
        // 2. The rest (no id) by nearest position, greedily, closest pair first.
        var rounds = Swift.min(idlessTracks, idlessContacts)
        while rounds > 0 {
            rounds -= 1
            var best = Int64.max, bc = -1, bt = -1
            for ci in contacts.indices where contacts[ci].track < 0 && contacts[ci].trackingId < 0 {
                let cx = Int64(contacts[ci].x), cy = Int64(contacts[ci].y)
                for ti in tracks.indices where tracks[ti].matchedContact < 0 && tracks[ti].contact.trackingId < 0 {
                    let dx = cx - Int64(tracks[ti].contact.x)
                    let dy = cy - Int64(tracks[ti].contact.y)
                    let d = dx * dx + dy * dy
                    if d < best { best = d; bc = ci; bt = ti }
                }
            }
            if bc < 0 { break }
            tracks[bt].matchedContact = bc; contacts[bc].track = bt
            paired += 1
        }
        return paired == tracks.count
    }

    /// The device went away: every reported touch is cancelled.
    mutating func removeAll(into touches: inout [Touch]) {
        for t in tracks[..<trackCount] where !t.suppressed { touches.append(touch(t, phase: .cancelled)) }
        trackCount = 0
    }

    /// The watchdog: every reported touch ends.
    mutating func endStuck(into touches: inout [Touch]) {
        let before = touches.count
        for t in tracks[..<trackCount] where !t.suppressed { touches.append(touch(t, phase: .ended)) }
        if touches.count > before { trackCount = 0 }
    }
}
