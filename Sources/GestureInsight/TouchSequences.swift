import GestureCore

/// One contact's path through a recording: where it was in every frame from landing to lift, in
/// millimetres from the surface's top-left corner.
public struct ContactPath: Sendable {
    public var id: Int
    public var tool: TouchTool
    public var times: [Instant] = []
    public var xs: [Millimeters] = []
    public var ys: [Millimeters] = []
    /// The frame it left in ended it `cancelled` (SYN_DROPPED, the device went away).
    public var cancelled = false

    public init(id: Int, tool: TouchTool) { self.id = id; self.tool = tool }

    public var landed: Instant { times.first ?? .zero }
    public var lifted: Instant { times.last ?? .zero }
    /// Straight-line distance from where it landed to where it lifted, mm.
    public var displacement: Millimeters { xs.isEmpty ? 0 : distance(xs.last! - xs[0], ys.last! - ys[0]) }
    /// The furthest it was from where it landed at any moment, mm.
    public var excursion: Millimeters {
        guard let x0 = xs.first, let y0 = ys.first else { return 0 }
        var m = 0.0
        for i in xs.indices { m = Swift.max(m, distance(xs[i] - x0, ys[i] - y0)) }
        return m
    }
}

/// One frame as a sequence keeps it: the contacts on the surface after it (fingers only: pens
/// and palms make no gesture), the finger count the device reported, a button held.
public struct SequenceFrame: Sendable {
    public var time: Instant
    public var ids: [Int]
    public var xs: [Millimeters]
    public var ys: [Millimeters]
    public var fingerCount: Int
    public var buttonDown: Bool
    /// How many fingers the recognizers count: the device's count or the contacts, whichever is more.
    public var fingers: Int { Swift.max(fingerCount, ids.count) }
}

/// A touch sequence: from the first contact landing on an empty surface until the surface is
/// empty again, the unit `explain` and `tune` measure and the recognizers decide on.
public struct TouchSequence: Sendable {
    public var number: Int
    public var frames: [SequenceFrame] = []
    public var contacts: [ContactPath] = []
    public var start: Instant { frames.first?.time ?? .zero }
    public var end: Instant { frames.last?.time ?? .zero }
    public var duration: Duration { end - start }
    /// The most fingers down at once.
    public var maxFingers: Int { frames.reduce(0) { Swift.max($0, $1.fingers) } }
}

extension TouchSequence {
    /// The sequence without the contacts `ids` (set aside as palms): the finger count the
    /// device reported drops by those of them down in each frame.
    public func without(_ ids: Set<Int>) -> TouchSequence {
        guard !ids.isEmpty else { return self }
        var out = TouchSequence(number: number)
        out.contacts = contacts.filter { !ids.contains($0.id) }
        for f in frames {
            var g = SequenceFrame(time: f.time, ids: [], xs: [], ys: [], fingerCount: f.fingerCount, buttonDown: f.buttonDown)
            for i in f.ids.indices {
                if ids.contains(f.ids[i]) { g.fingerCount = Swift.max(0, g.fingerCount - 1); continue }
                g.ids.append(f.ids[i]); g.xs.append(f.xs[i]); g.ys.append(f.ys[i])
            }
            out.frames.append(g)
        }
        return out
    }
}

/// Cuts a stream of frames into touch sequences and keeps every contact's path (for the page).
public struct SequenceCollector: Sendable {
    public private(set) var sequences: [TouchSequence] = []
    /// Every contact of the recording, in landing order, pens and palms included.
    public private(set) var contacts: [ContactPath] = []
    private var open: TouchSequence?
    private var openContacts: [Int: Int] = [:]   // touch id → index in `contacts`
    private var sequenceContacts: [Int: Int] = [:]   // touch id → index in open.contacts

    public init() {}

    public mutating func add(_ frame: TouchFrame) {
        var seq = open ?? TouchSequence(number: sequences.count + 1)
        var row = SequenceFrame(time: frame.time, ids: [], xs: [], ys: [], fingerCount: frame.fingerCount,
                                buttonDown: frame.buttonDown)
        for t in frame.touches {
            let index: Int
            if let i = openContacts[t.id] { index = i } else {
                index = contacts.count
                contacts.append(ContactPath(id: t.id, tool: t.tool))
                openContacts[t.id] = index
            }
            contacts[index].times.append(frame.time)
            contacts[index].xs.append(t.x)
            contacts[index].ys.append(t.y)
            if t.tool == .finger {
                let j: Int
                if let k = sequenceContacts[t.id] { j = k } else {
                    j = seq.contacts.count
                    seq.contacts.append(ContactPath(id: t.id, tool: t.tool))
                    sequenceContacts[t.id] = j
                }
                seq.contacts[j].times.append(frame.time)
                seq.contacts[j].xs.append(t.x)
                seq.contacts[j].ys.append(t.y)
                if t.phase == .cancelled { seq.contacts[j].cancelled = true }
                if t.phase.isActive { row.ids.append(t.id); row.xs.append(t.x); row.ys.append(t.y) }
            }
            if !t.phase.isActive {
                if t.phase == .cancelled { contacts[index].cancelled = true }
                openContacts[t.id] = nil
            }
        }
        if seq.frames.isEmpty && row.fingers == 0 && seq.contacts.isEmpty { return }
        seq.frames.append(row)
        if row.fingers == 0 {
            sequences.append(seq)
            open = nil
            sequenceContacts.removeAll(keepingCapacity: true)
        } else {
            open = seq
        }
    }

    /// Ends the sequence still open when the recording stops with fingers down.
    public mutating func finish() {
        if let seq = open { sequences.append(seq); open = nil }
    }
}

@inline(__always) func distance(_ dx: Double, _ dy: Double) -> Double { (dx * dx + dy * dy).squareRoot() }
