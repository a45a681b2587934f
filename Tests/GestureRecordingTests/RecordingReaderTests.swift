import GestureCore
import GestureRecording
import Testing

@Suite struct EvemuReaderTests {
    static let header = """
        # EVEMU 1.3
        N: Test Pad
        I: 0011 0002 0007 01b1
        P: 01 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 20 64 00 00 00 00 00 00
        B: 03 03 00 00 00 00 80 60 02
        A: 00 0 1000 0 0 10
        A: 01 0 500 0 0 10
        A: 2f 0 1 0 0 0
        A: 35 0 1000 0 0 10
        A: 36 0 500 0 0 10
        A: 39 0 65535 0 0 0

        """

    func parse(_ text: String, file: String = "t.evemu") throws(RecordingError) -> Recording {
        try EvemuReader.parse(Array(text.utf8), file: file)
    }

    func error(_ text: String, file: String = "t.evemu") -> String? {
        do { _ = try parse(text, file: file); return nil } catch { return error.description }
    }

    @Test func header_bitmasksContinueAcrossLines_absInfoWithResolution() throws {
        let r = try parse(Self.header + "E: 10.000001 0003 0039 5\nE: 10.000500 0000 0000 0\n")
        let d = r.description
        #expect(d.name == "Test Pad")
        #expect(d.bustype == 0x11 && d.vendor == 2 && d.product == 7 && d.version == 0x1b1)
        #expect(d.properties == [InputProperty.pointer])
        // byte 41 (0x20, 0x64 at 40, 41) → 0x145 BTN_TOOL_FINGER, 0x14a BTN_TOUCH, 0x14d, 0x14e
        #expect(d.keys == [KeyCode.btnToolFinger, KeyCode.btnTouch, KeyCode.btnToolDoubleTap, KeyCode.btnToolTripleTap])
        #expect(d.absInfo[AbsCode.mtPositionX] == AbsInfo(minimum: 0, maximum: 1000, resolution: 10))
        #expect(d.slotCount == 2)
        #expect(d.kind == .touchpad)
        #expect(r.events == [InputEvent(time: Instant(microseconds: 10_000_001), type: 3, code: 0x39, value: 5),
                             InputEvent(time: Instant(microseconds: 10_000_500), type: 0, code: 0, value: 0)])
    }

    @Test func evemu1_0_fourFieldAbsLines_noPropertiesLine() throws {
        let text = """
            N: Old
            I: 0003 0001 0002 0000
            B: 00 0b
            B: 03 03
            A: 00 -10 1010 4 8
            A: 01 0 200 0 0
            E: 1.5 0003 0000 -3

            """
        let r = try parse(text)
        #expect(r.description.properties.isEmpty)
        #expect(r.description.absInfo[AbsCode.x] == AbsInfo(minimum: -10, maximum: 1010, fuzz: 4, flat: 8, resolution: 0))
        #expect(r.events.first?.time == Instant(microseconds: 1_500_000))
        #expect(r.events.first?.value == -3)
    }

    @Test func trailingCommentsAndCRLF_areAccepted() throws {
        let r = try parse(Self.header + "E: 1.000010 0003 0035 0106\t# EV_ABS / ABS_MT_POSITION_X 106\r\n# a comment\r\n")
        #expect(r.events.map(\.value) == [106])
    }

    @Test func descPlusEvents_concatenated_isOneStream() throws {
        let dir = Fixtures.directory
        let desc = try RecordingLoader.readAll(path: dir + "touchscreen-wacom-isdv4__whot-evemu-devices.desc", name: "d")
        let events = try RecordingLoader.readAll(path: dir + "touchscreen-wacom-isdv4-2finger-tap__whot-evemu-devices.events", name: "e")
        let joined = try EvemuReader.parse(desc + events, file: "<stdin>")
        let paired = try RecordingLoader.load(path: dir + "touchscreen-wacom-isdv4-2finger-tap__whot-evemu-devices.events")
        let explicit = try RecordingLoader.load(path: dir + "touchscreen-wacom-isdv4-2finger-tap__whot-evemu-devices.events",
                                               descriptionPath: dir + "touchscreen-wacom-isdv4__whot-evemu-devices.desc")
        #expect(joined.description.name == "Wacom ISDv4 E6 Finger")
        #expect(joined.description == paired.description && joined.description == explicit.description)
        #expect(joined.events == paired.events && joined.events.count > 10)
    }

    @Test func writer_roundTrips() throws {
        for name in ["touchpad-semimt-cypress-3finger-tap__whot-evemu-devices.evemu",
                     "touchpad-protoA-bcm5974-1f-move-2f-swipe-left-3f-swipe-right-4f-taps__whot-evemu.evemu"] {
            let r = try Fixtures.load(name)
            let text = EvemuWriter.write(r)
            let back = try parse(text, file: "written")
            #expect(back.description == r.description, "\(name)")
            #expect(back.events == r.events, "\(name)")
            #expect(EvemuWriter.write(back) == text)
        }
    }

    @Test func writer_negativeAndSubsecondTimes() throws {
        let d = DeviceDescription(name: "x", absInfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: 9), AbsCode.y: AbsInfo(minimum: 0, maximum: 9)])
        let events = [InputEvent(time: Instant(microseconds: 7), type: 3, code: 0, value: -4),
                      InputEvent(time: Instant(microseconds: 3_000_123), type: 0, code: 0, value: 0)]
        let text = EvemuWriter.write(Recording(description: d, events: events))
        #expect(text.contains("E: 0.000007 0003 0000 -4\n"))
        #expect(try parse(text).events == events)
    }

    // MARK: errors: FILE:LINE: what was expected

    @Test func truncatedEventLine() {
        #expect(error(Self.header + "E: 1.000000 0003 0035 10\nE: 1.000001 0003") ==
                "t.evemu:20: expected 'E: <sec>.<usec> <type> <code> <value>' (4 fields), found 2")
    }

    @Test func lastEventLineWithoutNewline_isATruncatedFile() {
        #expect(error(Self.header + "E: 1.000000 0003 0035 10\nE: 1.000001 0003 0035 1") ==
                "t.evemu:20: expected a newline at the end of the last event line; the file looks truncated")
    }

    @Test func garbledNumbers() {
        #expect(error(Self.header + "E: 1.000000 0003 0q35 10\n") ==
                "t.evemu:19: expected an event code (hexadecimal), found '0q35'")
        #expect(error(Self.header + "E: 1.000000 0003 0035 1x0\n") ==
                "t.evemu:19: expected an event value (a decimal integer), found '1x0'")
        #expect(error(Self.header + "E: 1,5 0003 0035 10\n") ==
                "t.evemu:19: expected a timestamp <sec>.<usec>, found '1,5'")
        #expect(error("N: x\nI: 0003 zz 0 0\n") == "t.evemu:2: expected a vendor id (hexadecimal), found 'zz'")
        #expect(error("N: x\nA: 00 0 10 0\n") ==
                "t.evemu:2: expected 'A: <code> <min> <max> <fuzz> <flat> [<resolution>]' (5 or 6 fields), found 4")
        #expect(error("N: x\nE: 1.0 0003 0000 99999999999\n") ==
                "t.evemu:2: expected an event value within 32 bits, found '99999999999'")
    }

    @Test func missingHeader() {
        #expect(error("# only events\nE: 1.000000 0003 0035 10\n", file: "x.events") ==
                "x.events:2: expected an evemu device description (N:, I:, B:, A: lines) before the first E: line; for a .events file pass its .desc (--device-description DESC)")
        #expect(error("") == "t.evemu:1: expected an evemu recording (N:, I:, B:, A: and E: lines), found no header and no events")
    }

    @Test func unknownLinesAndHeaderAfterEvents() {
        #expect(error("N: x\nhello\n") ==
                "t.evemu:2: expected an evemu line (N:, I:, P:, B:, A:, E: or a # comment), found 'hello'")
        #expect(error("N: x\nE: 1.0 0 0 0\nA: 00 0 1 0 0\n") ==
                "t.evemu:3: expected only E: lines after the first event, found a 'A:' line")
    }

    @Test func descriptionWithEvents_isAnError() {
        do {
            _ = try EvemuReader.parseDescription(Array("N: x\nE: 1.0 0 0 0\n".utf8), file: "d.desc")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "d.desc:2: expected only description lines (N:, I:, P:, B:, A:) in a description, found an E: line")
        }
    }

    @Test func unreadableFile() {
        do {
            _ = try RecordingLoader.load(path: "/nonexistent/x.evemu")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "/nonexistent/x.evemu: cannot open: No such file or directory")
        }
    }

    @Test func arbitraryBytesNeverCrash() {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("NIPBAE: 0123456789abcdefx.-#\n\t".utf8)
        for _ in 0..<300 {
            let n = Int.random(in: 0..<200, using: &rng)
            let bytes = (0..<n).map { _ in alphabet.randomElement(using: &rng)! }
            _ = try? EvemuReader.parse(bytes, file: "fuzz")
        }
    }
}

@Suite struct LibinputRecordReaderTests {
    /// Written by hand after libinput-record(1)'s FILE FORMAT section.
    static let text = """
        # libinput record
        version: 1
        ndevices: 1
        libinput:
          version: "1.22.1"
        system:
          os: "debian:12"
          kernel: "6.1.0"
          dmi: "dmi:bvnX"
        devices:
        - node: /dev/input/event9
          evdev:
            # Name: Test TP
            name: "Test TP"
            id: [24, 1739, 0, 0]
            codes:
              0: [0, 1, 2, 3] # EV_SYN
              1: [272, 325, 330, 333] # EV_KEY
              3: [0, 1, 47, 53, 54, 57] # EV_ABS
            absinfo:
              0: [0, 4089, 0, 0, 42]
              1: [0, 2811, 0, 0, 41]
              47: [0, 4, 0, 0, 0]
              53: [0, 4089, 0, 0, 42]
              54: [0, 2811, 0, 0, 41]
              57: [0, 65535, 0, 0, 0]
            properties: [0, 2]
          udev:
            properties:
            - ID_INPUT_TOUCHPAD=1
          events:
          - evdev:
            - [  0,      0,   3,  57,  1420] # EV_ABS / ABS_MT_TRACKING_ID   1420
            - [  0,      0,   3,  53,  1218] # EV_ABS / ABS_MT_POSITION_X    1218
            - [  0,      0,   3,  54,  1922] # EV_ABS / ABS_MT_POSITION_Y    1922
            - [  0,      0,   1, 330,     1] # EV_KEY / BTN_TOUCH               1
            - [  0,      0,   1, 325,     1] # EV_KEY / BTN_TOOL_FINGER         1
            - [  0,      0,   0,   0,     0] # ------------ SYN_REPORT (0) ------- +0ms
          - hid:
              time: [0, 5000]
              hidraw0: [1, 2, 3]
          - evdev:
            - [  0,  11879,   3,  53,  1330]
            - [  0,  11879,   0,   0,     0]
          - evdev:
            - [  1,      5,   3,  57,    -1]
            - [  1,      5,   1, 330,     0]
            - [  1,      5,   1, 325,     0]
            - [  1,      5,   0,   0,     0]

        """

    @Test func readsDeviceAndEvents_andDecodes() throws {
        let bytes = Array(Self.text.utf8)
        #expect(LibinputRecordReader.looksLikeLibinputRecord(bytes))
        let r = try LibinputRecordReader.parse(bytes, file: "t.yml")
        #expect(r.format == .libinputRecord)
        let d = r.description
        #expect(d.name == "Test TP" && d.bustype == 24 && d.vendor == 1739)
        #expect(d.properties == [InputProperty.pointer, InputProperty.buttonpad])
        #expect(d.absInfo[AbsCode.mtPositionX] == AbsInfo(minimum: 0, maximum: 4089, resolution: 42))
        #expect(d.slotCount == 5 && d.kind == .touchpad)
        #expect(r.events.count == 12)
        #expect(r.events[6] == InputEvent(time: Instant(microseconds: 11879), type: 3, code: 53, value: 1330))
        #expect(r.events[8].time == Instant(microseconds: 1_000_005) && r.events[8].value == -1)
        var dec = SlotDecoder(device: d)
        let frames = r.events.compactMap { dec.decode($0) }
        #expect(frames.map { $0.touches.map(\.phase) } == [[.began], [.moved], [.ended]])
        #expect(abs(frames[1].touches[0].x - 1330.0 / 42) < 1e-9)
    }

    @Test func errorsNameTheLine() {
        func err(_ t: String) -> String? {
            do { _ = try LibinputRecordReader.parse(Array(t.utf8), file: "t.yml"); return nil } catch { return error.description }
        }
        #expect(err("version: 2\ndevices: []\n") == "t.yml:1: expected libinput record file format version 1, found 2")
        let bad = Self.text.replacingFirst("[  0,  11879,   3,  53,  1330]", with: "[  0,  11879,   3,  53]")
        #expect(err(bad) == "t.yml:43: expected an event [sec, usec, type, code, value], found 4 numbers")
        let garbled = Self.text.replacingFirst("[  0,  11879,   0,   0,     0]", with: "[  0,  11879,   0,   x,     0]")
        #expect(err(garbled) == "t.yml:44: expected an event code (a decimal integer), found 'x'")
        #expect(err("version: 1\ndevices: [\n")?.hasPrefix("t.yml:") == true)
    }

    @Test func loaderPicksTheFormatByContent() throws {
        let path = "/tmp/gestured-decoder-test-\(UInt32.random(in: 0...UInt32.max)).yml"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(fd >= 0)
        let bytes = Array(Self.text.utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        defer { unlink(path) }
        let r = try RecordingLoader.load(path: path)
        #expect(r.format == .libinputRecord && r.events.count == 12)
    }
}

#if canImport(Glibc)
import Glibc
#endif

extension String {
    func replacingFirst(_ a: String, with b: String) -> String {
        guard let r = firstRange(of: a) else { return self }
        return String(self[..<r.lowerBound]) + b + String(self[r.upperBound...])
    }
}
