import GestureCore
import GestureRecording
import Testing

/// The evtest reader on hand-written logs in evtest's exact layout (one per feature or fault).
/// The real logs in Tests/Fixtures (*.evtest) are replayed by ReplayGestureTests.
@Suite struct EvtestReaderTests {
    static let header = """
        No device specified, trying to scan all of /dev/input/event*
        Available devices:
        /dev/input/event4:\tTest Touchpad
        Select the device event number [0-4]: 4
        Input driver version is 1.0.1
        Input device ID: bus 0x18 vendor 0x6cb product 0xcd3e version 0x100
        Input device name: "Test Touchpad"
        Supported events:
          Event type 0 (EV_SYN)
          Event type 1 (EV_KEY)
            Event code 272 (BTN_LEFT)
            Event code 325 (BTN_TOOL_FINGER)
            Event code 330 (BTN_TOUCH)
            Event code 333 (BTN_TOOL_DOUBLETAP)
          Event type 3 (EV_ABS)
            Event code 47 (ABS_MT_SLOT)
              Value      0
              Min        0
              Max        4
            Event code 53 (ABS_MT_POSITION_X)
              Value      0
              Min        0
              Max     1212
              Fuzz       2
              Resolution      12
            Event code 54 (ABS_MT_POSITION_Y)
              Value      0
              Min        0
              Max      792
              Resolution      12
            Event code 57 (ABS_MT_TRACKING_ID)
              Value      0
              Min        0
              Max    65535
          Event type 4 (EV_MSC)
            Event code 4 (MSC_SCAN)
            Event code 5 (MSC_TIMESTAMP)
        Key repeat handling:
          Repeat type 20 (EV_REP)
            Repeat code 0 (REP_DELAY)
              Value    250
        Properties:
          Property type 0 (INPUT_PROP_POINTER)
          Property type 2 (INPUT_PROP_BUTTONPAD)
        Testing ... (interrupt to exit)

        """

    func parse(_ text: String) throws(RecordingError) -> Recording {
        try EvtestReader.parse(Array(text.utf8), file: "t.evtest")
    }

    func error(_ text: String) -> RecordingError? {
        do { _ = try parse(text); return nil } catch { return error }
    }

    @Test func header_givesNameIdsAxesAndProperties() throws {
        let r = try parse(Self.header + "Event: time 1.000000, -------------- SYN_REPORT ------------\n")
        let d = r.description
        #expect(r.format == .evtest)
        #expect(d.name == "Test Touchpad")
        #expect(d.bustype == 0x18 && d.vendor == 0x6cb && d.product == 0xcd3e && d.version == 0x100)
        #expect(d.properties == [InputProperty.pointer, InputProperty.buttonpad])
        #expect(d.absInfo[AbsCode.mtPositionX] == AbsInfo(minimum: 0, maximum: 1212, fuzz: 2, resolution: 12))
        #expect(d.absInfo[AbsCode.mtSlot]?.maximum == 4)
        #expect(d.hasKey(KeyCode.btnToolFinger) && d.hasKey(KeyCode.btnToolDoubleTap))
        #expect(d.kind == .touchpad && d.slotCount == 5 && d.sizeKnown)
        #expect(d.has(type: EventType.msc, code: 4))
    }

    @Test func events_readTypesCodesValuesAndSynMarkers() throws {
        let r = try parse(Self.header + """
            Event: time 1678690001.311168, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value 1982
            Event: time 1678690001.311168, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 200
            Event: time 1678690001.311168, type 4 (EV_MSC), code 4 (MSC_SCAN), value 90001
            Event: time 1678690001.311168, ++++++++++++++ SYN_MT_REPORT ++++++++++++
            Event: time 1678690001.311168, -------------- SYN_REPORT ------------
            Event: time 1678690001.317604, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value -1
            Event: time 1678690001.317604, >>>>>>>>>>>>>> SYN_DROPPED <<<<<<<<<<<<
            Event: time 1678690001.4, -------------- SYN_REPORT ------------
            ^C

            """)
        let e = r.events
        #expect(e.count == 8)
        #expect(e[0] == InputEvent(time: Instant(seconds: 1678690001, microseconds: 311168), type: 3, code: 57, value: 1982))
        #expect(e[2].value == 0x90001, "MSC_SCAN is printed in hexadecimal")
        #expect(e[3].type == EventType.syn && e[3].code == SynCode.mtReport)
        #expect(e[4].type == EventType.syn && e[4].code == SynCode.report)
        #expect(e[5].value == -1)
        #expect(e[6].code == SynCode.dropped)
        #expect(e[7].time == Instant(seconds: 1678690001, microseconds: 400000))
    }

    @Test func indentedLog_asPastedInAMarkdownList_reads() throws {
        let indented = (Self.header + "Event: time 2.5, -------------- SYN_REPORT ------------\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
        let r = try parse(indented)
        #expect(r.description.name == "Test Touchpad" && r.events.count == 1)
    }

    @Test func loader_detectsEvtestByContent() throws {
        #expect(EvtestReader.looksLikeEvtest(Array(Self.header.utf8)))
        #expect(!EvtestReader.looksLikeEvtest(Array("# EVEMU 1.3\nN: x\nE: 0.000001 0000 0000 0000\n".utf8)))
        #expect(!EvtestReader.looksLikeEvtest(Array("version: 1\nndevices: 1\n".utf8)))
    }

    // Malformed logs: each error names the line and what was expected.

    @Test func headerlessLog_namesTheFirstEventLine() {
        let e = error("\nEvent: time 1.000000, -------------- SYN_REPORT ------------\n")
        #expect(e?.line == 2)
        #expect(e?.message.contains("header") == true)
    }

    @Test func garbageAmongEvents_namesItsLine() {
        let text = Self.header + "Event: time 1.000000, -------------- SYN_REPORT ------------\nsomething else\n"
        let e = error(text)
        #expect(e?.line == 47)
        #expect(e?.description.hasPrefix("t.evtest:47: expected an 'Event: time") == true)
    }

    @Test func badValue_badTime_badCode_areErrors() {
        let base = Self.header
        let bad = [
            "Event: time 1.000000, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value lots\n",
            "Event: time one, -------------- SYN_REPORT ------------\n",
            "Event: time 1.0000001, -------------- SYN_REPORT ------------\n",
            "Event: time 1.000000, type 3 (EV_ABS), code 999 (?), value 1\n",
            "Event: time 1.000000, type 3 (EV_ABS) value 1\n",
        ]
        for line in bad {
            let e = error(base + line)
            #expect(e?.line == 46, "\(line) → \(String(describing: e))")
        }
    }

    @Test func timeGoingBack_isAnError() {
        let e = error(Self.header + """
            Event: time 2.000000, -------------- SYN_REPORT ------------
            Event: time 1.000000, -------------- SYN_REPORT ------------

            """)
        #expect(e?.line == 47)
    }

    @Test func badHeaderLines_areErrors() {
        let badID = Self.header.replacingOccurrences(of: "vendor 0x6cb", with: "vendor cheese")
        #expect(error(badID)?.line == 6)
        let badAxis = Self.header.replacingOccurrences(of: "Max     1212", with: "Max     lots")
        #expect(error(badAxis)?.line == 23)
        let stray = Self.header.replacingOccurrences(of: "Properties:\n", with: "Properties:\n  what is this\n")
        #expect(error(stray)?.line == 43)
    }

    @Test func emptyFile_isAnError() {
        #expect(error("")?.line == 1)
    }
}
