// Fault tests on the input side: recordings that push the decoder's bookkeeping (tracking ids,
// slots) far beyond what a person produces, written and read back through the evemu files a user
// would replay.
import Testing
import GestureCore
import GestureTestSupport
import GestureRecording

@Suite struct FaultRecordingTests {
    static let device = TestDevices.slots("fault 10-slot touchscreen", slots: 10,
                                          x: TestDevices.axis(0, 4000, 20), y: TestDevices.axis(0, 3000, 20))

    /// 10 000 tracking-id changes over the 10 slots: even changes go through −1 (lift, then a new
    /// contact a frame later), odd ones switch id→id′ in one event (end + begin in one frame), and
    /// the tracking id wraps past the axis maximum as the kernel's does.
    static func manyTrackingIds(_ changes: Int) -> [InputEvent] {
        var events: [InputEvent] = []
        var t: Int64 = 1_000_000
        var slotIDs = [Int32](repeating: -1, count: 10)
        var next: Int32 = 65_000   // wraps at 65 535 partway through
        func ev(_ type: UInt16, _ code: UInt16, _ value: Int32) { events.append(GestureTestSupport.ev(us: t, type, code, value)) }
        func syn() { ev(EventType.syn, SynCode.report, 0); t += 4167 }
        var made = 0
        var i = 0
        while made < changes {
            let s = Int32(i % 10)
            i += 1
            ev(EventType.abs, AbsCode.mtSlot, s)
            if slotIDs[Int(s)] >= 0 && made % 2 == 0 {
                ev(EventType.abs, AbsCode.mtTrackingId, -1)
                slotIDs[Int(s)] = -1
                syn()
                ev(EventType.abs, AbsCode.mtSlot, s)
            }
            slotIDs[Int(s)] = next
            ev(EventType.abs, AbsCode.mtTrackingId, next)
            next = next == 65_535 ? 0 : next + 1
            ev(EventType.abs, AbsCode.mtPositionX, 100 + Int32(i % 37) * 100)
            ev(EventType.abs, AbsCode.mtPositionY, 100 + Int32(i % 23) * 100)
            ev(EventType.key, KeyCode.btnTouch, 1)
            syn()
            made += 1
        }
        for s in 0..<10 where slotIDs[s] >= 0 {
            ev(EventType.abs, AbsCode.mtSlot, Int32(s)); ev(EventType.abs, AbsCode.mtTrackingId, -1)
        }
        ev(EventType.key, KeyCode.btnTouch, 0)
        syn()
        return events
    }

    @Test func test_decoder_with10000TrackingIdChanges_beginsAndEndsEveryTouchOnce() throws {
        let written = EvemuWriter.write(Recording(description: Self.device, events: Self.manyTrackingIds(10_000)))
        let recording = try EvemuReader.parse(Array(written.utf8), file: "many-tracking-ids.evemu")
        #expect(recording.events.count > 40_000)

        var pipeline = GesturePipeline(device: recording.description)
        var began = Set<Int>(), ended = Set<Int>()
        var active = Set<Int>()
        var maxTouchesInFrame = 0
        var gestures = 0
        var frames: [TouchFrame] = []
        var diagnostics: [String] = []
        let collect: (GesturePipeline.Output) -> Void = { o in
            switch o {
            case .frame(let f): frames.append(f)
            case .gesture: gestures += 1
            case .diagnostic(let d): diagnostics.append(d)
            }
        }
        for e in recording.events { pipeline.feed(e, collect) }
        pipeline.finish(tail: .seconds(5), collect)
        for frame in frames {
            maxTouchesInFrame = max(maxTouchesInFrame, frame.touches.count)
            for touch in frame.touches {
                switch touch.phase {
                case .began:
                    #expect(began.insert(touch.id).inserted, "touch id \(touch.id) reused")
                    active.insert(touch.id)
                case .ended, .cancelled:
                    #expect(ended.insert(touch.id).inserted, "touch id \(touch.id) ended twice")
                    #expect(active.remove(touch.id) != nil, "touch id \(touch.id) ended without being active")
                default:
                    #expect(active.contains(touch.id), "touch id \(touch.id) moved without beginning")
                }
            }
            #expect(active.count <= 10)
        }
        #expect(began.count == 10_000)
        #expect(ended == began)
        #expect(active.isEmpty)
        // One frame carries at most the 10 slots' touches plus the ones that left in it.
        #expect(maxTouchesInFrame <= 20)
        #expect(diagnostics.filter { $0.hasPrefix("gestured bug:") }.isEmpty)
        _ = gestures
    }

    /// Tests/Fuzz/crashers/librecord-time-overflow.yml: an event time of 77 777 777 777 777 s
    /// trapped in Instant(seconds:microseconds:); the reader now rejects it with its line.
    @Test func test_libinputRecord_withHugeEventTime_isAnErrorNotACrash() throws {
        let text = """
        version: 1
        ndevices: 1
        devices:
        - node: /dev/input/event9
          evdev:
            name: "pad"
            id: [17, 2, 7, 433]
            codes:
              0: [0, 1, 2]
              3: [0, 1, 47, 53, 54, 57]
            absinfo:
              0: [0, 1000, 0, 0, 12]
              1: [0, 800, 0, 0, 12]
              47: [0, 1, 0, 0, 0]
              53: [0, 1000, 0, 0, 12]
              54: [0, 800, 0, 0, 12]
              57: [0, 65535, 0, 0, 0]
            properties: [0, 2]
          events:
          - evdev:
            - [  77777777777777,  12000,   3,  53,  3100]
            - [  77777777777777,  12000,   0,   0,     0]

        """
        let error = #expect(throws: RecordingError.self) {
            try LibinputRecordReader.parse(Array(text.utf8), file: "huge-time.yml")
        }
        #expect(error?.description.contains("huge-time.yml:") == true)
        #expect(error?.description.contains("seconds") == true)
    }
}
