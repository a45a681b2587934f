import GestureCore
import GestureRecording
import Testing

/// Every recording in Tests/Fixtures, decoded and checked against what the person did
/// (Tests/Fixtures/RECORDINGS.md): contact counts and their order, durations, direction, protocol.
enum Fixtures {
    static let directory: String = {
        let path = #filePath
        let dir = path[..<path.lastIndex(of: "/")!]
        let tests = dir[..<dir.lastIndex(of: "/")!]
        return String(tests) + "/Fixtures/"
    }()

    static func load(_ name: String) throws -> Recording {
        try RecordingLoader.load(path: directory + name)
    }

    static func frames(_ r: Recording) -> [TouchFrame] {
        var d = SlotDecoder(device: r.description)
        return r.events.compactMap { d.decode($0) }
    }
}

/// One touch sequence: from the first frame with a finger to the next frame with none.
struct TouchSequence {
    var frames: [TouchFrame] = []
    var maxFingers: Int { frames.map(\.fingerCount).max() ?? 0 }
    var maxPositioned: Int { frames.map(\.activeTouches.count).max() ?? 0 }
    var start: Instant { frames.first!.time }
    var end: Instant { frames.last!.time }
    var duration: Double { (end - start).doubleSeconds }
    var touchIds: Set<Int> { Set(frames.flatMap { $0.touches.map(\.id) }) }
    /// Distinct finger counts in order, repeats collapsed.
    var countSteps: [Int] {
        var out: [Int] = []
        for f in frames where f.fingerCount > 0 && out.last != f.fingerCount { out.append(f.fingerCount) }
        return out
    }
    /// Centroid of the active touches in the first and last frame that has any.
    var firstCentroid: (x: Double, y: Double) { Self.centroid(frames.first { !$0.activeTouches.isEmpty }!) }
    var lastCentroid: (x: Double, y: Double) { Self.centroid(frames.last { !$0.activeTouches.isEmpty }!) }
    var travel: (dx: Double, dy: Double) {
        (lastCentroid.x - firstCentroid.x, lastCentroid.y - firstCentroid.y)
    }
    /// Centroid travel over the frames where exactly `n` positioned touches are down.
    func travel(with n: Int) -> (dx: Double, dy: Double) {
        let full = frames.filter { $0.activeTouches.count == n }
        guard let a = full.first, let b = full.last else { return (0, 0) }
        let ca = Self.centroid(a), cb = Self.centroid(b)
        return (cb.x - ca.x, cb.y - ca.y)
    }
    static func centroid(_ f: TouchFrame) -> (x: Double, y: Double) {
        let a = f.activeTouches
        return (a.map(\.x).reduce(0, +) / Double(a.count), a.map(\.y).reduce(0, +) / Double(a.count))
    }

    static func split(_ frames: [TouchFrame]) -> [TouchSequence] {
        var out: [TouchSequence] = []
        var current: TouchSequence?
        for f in frames {
            if f.fingerCount > 0 {
                if current == nil { current = TouchSequence() }
                current!.frames.append(f)
            } else if var c = current {
                c.frames.append(f)
                out.append(c); current = nil
            }
        }
        if let c = current { out.append(c) }
        return out
    }
}

@Suite struct RecordingFixtureTests {
    func sequences(_ name: String) throws -> (Recording, [TouchSequence]) {
        let r = try Fixtures.load(name)
        let frames = Fixtures.frames(r)
        let synReports = r.events.filter(\.isSynReport).count
        #expect(frames.count == synReports, "one frame per SYN_REPORT")
        return (r, TouchSequence.split(frames))
    }

    @Test func bcm5974_protocolA_oneTwoThreeFourFourFingers() throws {
        let (r, seqs) = try sequences("touchpad-protoA-bcm5974-1f-move-2f-swipe-left-3f-swipe-right-4f-taps__whot-evemu.evemu")
        #expect(r.description.contactProtocol == .anonymous)
        #expect(r.description.kind == .touchpad)
        #expect(seqs.map(\.maxFingers) == [1, 2, 3, 4, 4])
        guard seqs.count == 5 else { return }
        let two = seqs[1].travel(with: 2), three = seqs[2].travel(with: 3)
        #expect(two.dx < -5 && abs(two.dx) > abs(two.dy), "2-finger swipe left")
        #expect(three.dx > 5 && abs(three.dx) > abs(three.dy), "3-finger swipe right")
        for tap in seqs[3...4] { #expect(tap.duration < 0.3, "4-finger tap is short") }
    }

    @Test func alps_semiMT_oneFingerDoubleTap() throws {
        let (r, seqs) = try sequences("touchpad-semimt-alps-1finger-double-tap__whot-evemu-devices.evemu")
        #expect(r.description.isSemiMT)
        #expect(seqs.map(\.maxFingers) == [1, 1])
        guard seqs.count == 2 else { return }
        for s in seqs { #expect(s.duration < 0.3); #expect(s.frames.allSatisfy { $0.flags.contains(.semiMT) }) }
        #expect((seqs[1].start - seqs[0].end).doubleSeconds < 0.5, "the second tap follows the first")
    }

    @Test func alps_semiMT_twoFingerTap() throws {
        let (_, seqs) = try sequences("touchpad-semimt-alps-2finger-tap__whot-evemu-devices.evemu")
        #expect(seqs.map(\.maxFingers) == [2])
        #expect((seqs.first?.duration ?? 9) < 0.4)
    }

    @Test func cypress_threeFingersOnlyThroughTripleTap() throws {
        let (r, seqs) = try sequences("touchpad-semimt-cypress-3finger-tap__whot-evemu-devices.evemu")
        #expect(r.description.slotCount == 2)
        #expect(r.description.hasKey(KeyCode.btnToolTripleTap))
        #expect(seqs.map(\.maxFingers) == [3])
        #expect((seqs.first?.maxPositioned ?? 9) <= 2, "only 2 slots carry positions")
        #expect((seqs.first?.duration ?? 9) < 0.4)
    }

    @Test func synaptics_oneFingerAtTheRightEdgeMovingDown() throws {
        let (r, seqs) = try sequences("touchpad-synaptics-hp8470p-1finger-right-edge-swipe-down__whot-evemu-devices.events")
        #expect(r.description.name == "SynPS/2 Synaptics TouchPad")
        #expect(seqs.map(\.maxFingers) == [1])
        guard let s = seqs.first else { return }
        #expect(s.travel.dy > 5, "moves down")
        #expect(abs(s.travel.dx) < s.travel.dy / 2)
        #expect(s.firstCentroid.x > 0.85 * r.description.size.width, "at the right edge")
    }

    @Test func threeM_tenFingersAtMost_sixtySlots() throws {
        let (r, seqs) = try sequences("touchscreen-3m-10finger-mixed-rotate-pinch-drags__whot-evemu.evemu")
        #expect(r.description.slotCount == 60)
        #expect(seqs.map(\.maxFingers).max() == 10)
        #expect(seqs.contains { $0.maxFingers == 5 })
        #expect(seqs.contains { $0.maxFingers == 1 })
    }

    @Test func atmel_oneFingerDragUpThenDown() throws {
        let (_, seqs) = try sequences("touchscreen-atmel-1finger-drag-up-then-down__whot-evemu-devices.evemu")
        #expect(seqs.map(\.maxFingers) == [1])
        guard let s = seqs.first else { return }
        let ys = s.frames.compactMap { $0.activeTouches.first?.y }
        let top = ys.min()!
        let topIndex = ys.firstIndex(of: top)!
        #expect(ys.first! - top > 10, "went up")
        #expect(ys.last! - top > 10, "then came down")
        #expect(topIndex > 0 && topIndex < ys.count - 1)
    }

    @Test func atmel_nineSeparateTaps() throws {
        let (_, seqs) = try sequences("touchscreen-atmel-1finger-repeated-taps__whot-evemu-devices.evemu")
        #expect(seqs.count == 9)
        #expect(seqs.allSatisfy { $0.maxFingers == 1 && $0.duration < 0.3 })
        let ids = seqs.map(\.touchIds)
        #expect(ids.allSatisfy { $0.count == 1 })
        #expect(Set(ids.flatMap { $0 }).count == 9, "nine separate touches")
        for (a, b) in zip(seqs, seqs.dropFirst()) {
            let gap = (b.start - a.start).doubleSeconds
            #expect(gap > 0.1 && gap < 0.5, "taps ~230 ms apart")
        }
    }

    @Test func atmel_twoFingersStillFor0_65s() throws {
        let (_, seqs) = try sequences("touchscreen-atmel-2finger-tap-hold__whot-evemu-devices.evemu")
        #expect(seqs.map(\.maxFingers) == [2])
        guard let s = seqs.first else { return }
        let two = s.frames.filter { $0.fingerCount == 2 }
        let held = (two.last!.time - two.first!.time).doubleSeconds
        #expect(held > 0.5 && held < 0.8)
        #expect(abs(s.travel.dx) < 3 && abs(s.travel.dy) < 3, "still")
    }

    @Test func dellCanvas_twoStill_fourPan_fivePinchIn_oneFlick() throws {
        let (_, seqs) = try sequences("touchscreen-dellcanvas-mixed-4finger-drag-5finger-pinch-in__whot-evemu-devices.evemu")
        #expect(seqs.map(\.maxFingers) == [2, 4, 5, 1])
        guard seqs.count == 4 else { return }
        let four = seqs[1].frames.filter { $0.fingerCount == 4 }
        let dy = TouchSequence.centroid(four.last!).y - TouchSequence.centroid(four.first!).y
        let dx = TouchSequence.centroid(four.last!).x - TouchSequence.centroid(four.first!).x
        #expect(abs(dy) > abs(dx), "4-finger vertical pan")
        let five = seqs[2].frames.filter { $0.fingerCount == 5 }
        #expect(spread(five.last!) < spread(five.first!), "5-finger pinch in")
        #expect(seqs[3].travel.dx > 0 && seqs[3].travel.dy < 0, "flick up-right")
    }

    func spread(_ f: TouchFrame) -> Double {
        let c = TouchSequence.centroid(f)
        let a = f.activeTouches
        return a.map { (($0.x - c.x) * ($0.x - c.x) + ($0.y - c.y) * ($0.y - c.y)).squareRoot() }.reduce(0, +) / Double(a.count)
    }

    @Test func ep0430m09_twoAndFourFingerSwipesUp() throws {
        for (name, fingers) in [("touchscreen-ep0430m09-2finger-swipe-up__whot-evemu-devices.evemu", 2),
                                ("touchscreen-ep0430m09-4finger-swipe-up__whot-evemu-devices.evemu", 4)] {
            let (_, seqs) = try sequences(name)
            #expect(seqs.map(\.maxFingers) == [fingers], "\(name)")
            guard let s = seqs.first else { continue }
            let full = s.frames.filter { $0.fingerCount == fingers }
            let dy = TouchSequence.centroid(full.last!).y - TouchSequence.centroid(full.first!).y
            #expect(dy < -10, "\(name): up")
        }
    }

    @Test func ntrig_protocolA_cornerSwipeNorthWestToSouthEast() throws {
        let (r, seqs) = try sequences("touchscreen-protoA-ntrig-1finger-corner-swipe-NW-SE__whot-evemu-devices.events")
        #expect(r.description.contactProtocol == .anonymous)
        #expect(seqs.map(\.maxFingers) == [1])
        guard let s = seqs.first else { return }
        let size = r.description.size
        #expect(s.firstCentroid.x < 0.1 * size.width && s.firstCentroid.y < 0.1 * size.height, "from the top-left corner")
        #expect(s.travel.dx > 0.5 * size.width && s.travel.dy > 0.5 * size.height, "to the bottom-right")
    }

    @Test func ntrig_oneFinger_thenTwo_thenOne() throws {
        let (_, seqs) = try sequences("touchscreen-protoA-ntrig-2finger-touch-release__whot-evemu-devices.events")
        #expect(seqs.count == 1)
        guard let s = seqs.first else { return }
        #expect(s.countSteps == [1, 2, 1])
        let firstTwo = s.frames.first { $0.fingerCount == 2 }!.time
        let lastTwo = s.frames.last { $0.fingerCount == 2 }!.time
        #expect(abs((firstTwo - s.start).doubleSeconds - 1.26) < 0.15, "1 finger held 1.26 s")
        #expect(abs((lastTwo - firstTwo).doubleSeconds - 0.63) < 0.15, "a 2nd joins for 0.63 s")
        #expect(abs((s.end - lastTwo).doubleSeconds - 1.0) < 0.2, "then 1 finger 1 s more")
    }

    @Test func wacomISDv4_oneFingerFromNearTheLeftEdgeSwipingRight() throws {
        let (r, seqs) = try sequences("touchscreen-wacom-isdv4-1finger-swipe-from-left-edge__whot-evemu-devices.events")
        #expect(seqs.map(\.maxFingers) == [1])
        guard let s = seqs.first else { return }
        let w = r.description.size.width
        #expect(s.firstCentroid.x < 0.06 * w, "starts about 4 % off the left edge")
        #expect(s.travel.dx > 0.2 * w && abs(s.travel.dy) < s.travel.dx, "swipes right")
        #expect(s.firstCentroid.y < 0.25 * r.description.size.height, "along the top")
    }

    @Test func wacomISDv4_twoFingersCircling() throws {
        let (_, seqs) = try sequences("touchscreen-wacom-isdv4-2finger-circle-pan__whot-evemu-devices.events")
        #expect(seqs.map(\.maxFingers) == [2])
    }

    @Test func wacomISDv4_shortestTwoFingerTap() throws {
        let (_, seqs) = try sequences("touchscreen-wacom-isdv4-2finger-tap__whot-evemu-devices.events")
        #expect(seqs.map(\.maxFingers) == [2])
        guard let s = seqs.first else { return }
        #expect(s.frames.filter { $0.fingerCount == 2 }.count <= 3)
        #expect(s.duration < 0.2)
    }

    @Test func bamboo_twoFingerSwipeRightFromTheLeftEdge() throws {
        let (r, seqs) = try sequences("touchtablet-wacom-bamboo16fg-2finger-swipe-from-left-edge__whot-evemu-devices.events")
        #expect(r.description.kind == .touchpad)
        #expect(seqs.map(\.maxFingers) == [2])
        guard let s = seqs.first else { return }
        let two = s.frames.filter { $0.fingerCount == 2 }
        let dx = TouchSequence.centroid(two.last!).x - TouchSequence.centroid(two.first!).x
        #expect(dx > 10, "right")
        #expect(s.firstCentroid.x < 0.15 * r.description.size.width, "from the left edge")
    }

    @Test func intuos5_oneFingerFromXZeroSwipingRight() throws {
        let (r, seqs) = try sequences("touchtablet-wacom-intuos5-1finger-swipe-from-left-edge__whot-evemu-devices.events")
        #expect(seqs.map(\.maxFingers) == [1])
        guard let s = seqs.first else { return }
        #expect(s.firstCentroid.x < 0.5, "starts at x = 0")
        #expect(s.travel.dx > 0.2 * r.description.size.width)
    }

    @Test func everyFixtureLoads_andEventsAreInTimeOrder() throws {
        let names = ["touchpad-protoA-bcm5974-1f-move-2f-swipe-left-3f-swipe-right-4f-taps__whot-evemu.evemu",
                     "touchscreen-3m-10finger-mixed-rotate-pinch-drags__whot-evemu.evemu",
                     "touchscreen-wacom-isdv4-2finger-circle-pan__whot-evemu-devices.events"]
        for n in names {
            let r = try Fixtures.load(n)
            #expect(!r.events.isEmpty)
            #expect(zip(r.events, r.events.dropFirst()).allSatisfy { $0.time <= $1.time }, "\(n)")
        }
    }
}
