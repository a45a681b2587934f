// Issue 16: hostile input against the real `gestured` binary and its parts — crafted recordings,
// control characters in device names. Each test names the finding it guards.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import GestureCore
import GestureDaemon
import LinuxSystem
import GestureRecording

/// Runs `gestured ARGS` (stdin from `input`, or /dev/null) to completion, killing it after
/// `timeout` seconds; returns its exit status, standard output and standard error.
func runGestured(_ args: [String], input: String? = nil, environment: [String: String] = [:], timeout: Double = 30) throws -> (status: Int32, out: String, err: String) {
    guard let bin = TestPaths.binary else { throw TestFailure(description: "the gestured binary is not built next to the tests") }
    let dir = TestPaths.tempDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: bin)
    p.arguments = args
    FileManager.default.createFile(atPath: dir + "/out", contents: nil)
    FileManager.default.createFile(atPath: dir + "/err", contents: nil)
    p.standardOutput = FileHandle(forWritingAtPath: dir + "/out")
    p.standardError = FileHandle(forWritingAtPath: dir + "/err")
    if let input {
        try input.write(toFile: dir + "/in", atomically: true, encoding: .utf8)
        p.standardInput = FileHandle(forReadingAtPath: dir + "/in")
    } else {
        p.standardInput = FileHandle.nullDevice
    }
    var env = ProcessInfo.processInfo.environment
    env.removeValue(forKey: "NOTIFY_SOCKET"); env.removeValue(forKey: "JOURNAL_STREAM")
    env.merge(environment) { $1 }
    p.environment = env
    try p.run()
    var waited = 0.0
    while p.isRunning && waited < timeout { usleep(20_000); waited += 0.02 }
    if p.isRunning { kill(p.processIdentifier, SIGKILL) }
    p.waitUntilExit()
    let out = (try? String(contentsOfFile: dir + "/out", encoding: .utf8)) ?? ""
    let err = (try? String(contentsOfFile: dir + "/err", encoding: .utf8)) ?? ""
    return (p.terminationReason == .uncaughtSignal ? 128 + p.terminationStatus : p.terminationStatus, out, err)
}

@Suite struct HostileInputTests {
    static let swipe2 = TestPaths.fixture("touchscreen-ep0430m09-2finger-swipe-up")

    /// The fixture (a 2-finger swipe up, 5 slots) with one header line replaced.
    static func fixture(replacing old: String, with new: String) throws -> String {
        let text = try String(contentsOfFile: swipe2, encoding: .utf8)
        #expect(text.contains(old + "\n"))
        return text.replacingOccurrences(of: old + "\n", with: new + "\n")
    }

    static func writeTemp(_ text: String, name: String) throws -> String {
        let path = TestPaths.tempDirectory() + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Finding 3: `A: 2f 0 2147483647` (ABS_MT_SLOT maximum) made replay allocate 120 GB and abort.
    /// Now the slot count is capped (libevdev's 256), said once, and the swipe is still found.
    @Test func test_replay_withHugeSlotMaximum_capsSlotsAndFindsTheSwipe() throws {
        let path = try Self.writeTemp(try Self.fixture(replacing: "A: 2f 0 4 0 0 0", with: "A: 2f 0 2147483647 0 0 0"),
                                      name: "huge-slots.evemu")
        let r = try runGestured(["replay", path], timeout: 20)
        #expect(r.status == 0, "exit \(r.status): \(r.err.suffix(300))")
        #expect(r.err.contains("claims 2147483648 slots, only the first 256 are tracked"), "\(r.err.prefix(300))")
        #expect(r.out.contains("swipe recognized") && r.out.contains("direction=up"), "\(r.out)")
    }

    @Test func test_slotCount_isCappedForAnyMaximum() {
        for (maximum, expected) in [(Int32.max, 256), (255, 256), (256, 256), (9, 10), (-5, 0), (Int32.min, 0)] {
            let d = DeviceDescription(name: "x", absInfo: [AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: maximum)])
            #expect(d.slotCount == expected, "maximum \(maximum)")
        }
    }

    /// Finding 8: a device name with ESC sequences and a carriage return reached the daemon's log
    /// and `replay`'s diagnostics raw. (A newline cannot be in an N: line; see the logger test.)
    @Test func test_daemonLog_escapesControlCharactersInDeviceNames() throws {
        let evil = "Evil\u{1b}[2J\rgestured: forged"
        let path = try Self.writeTemp(try Self.fixture(replacing: "N: EP0430M09", with: "N: \(evil)"), name: "evil.evemu")
        let daemon = try DaemonProcess(["--replay", path])
        #expect(daemon.waitForLog("devices: "))
        let log = daemon.log
        _ = daemon.stop()
        #expect(log.contains(#"Evil\x1b[2J\rgestured: forged"#), "\(log)")
        #expect(!log.utf8.contains(0x1b) && !log.utf8.contains(0x0d))
    }

    /// Finding 8, the logger itself: a message holding a control character (hook output, a name
    /// a caller forgot to escape) cannot drive the terminal; a newline still splits lines.
    @Test func test_logger_escapesControlCharactersButKeepsLines() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let logger = Logger(level: .debug, journal: false, fd: FileDescriptor(rawValue: fds[1]))
        logger.log(.notice, "a\u{1b}[31mb\u{07}\nsecond")
        close(fds[1])
        var buf = [UInt8](repeating: 0, count: 4096)
        let n = read(fds[0], &buf, buf.count)
        close(fds[0])
        let text = String(decoding: buf[0..<max(0, n)], as: UTF8.self)
        #expect(text == "gestured: notice: a\\x1b[31mb\\x07\ngestured: notice: second\n", "\(text.debugDescription)")
    }

    /// The logger escapes on the UTF-8 in one pass; what it writes is what splitting the message
    /// into lines and escaping each with `TextEscaping.controlsEscaped` gives (the former code,
    /// written out here as the reference), for messages mixing every kind of character it treats
    /// differently: C0 controls, DEL, C1 controls, other two-byte characters after 0xC2 (NBSP,
    /// `©`), backslashes, newlines (leading, trailing, doubled), CR LF, combining marks, emoji.
    @Test func test_logger_bytesMatchLineByLineEscaping() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let pieces = ["a", "kernel bug: ", "\n", "\r\n", "\t", "\u{1b}[2J", "\u{07}", "\u{7f}", "\u{80}", "\u{9b}",
                      "\u{9f}", "\u{a0}", "©", "\\", "\\n", "e\u{301}", "🖐️", "…", "\u{0}", "µs"]
        var rng = SystemRandomNumberGenerator()
        var messages = ["", "\n", "plain", "ends with a newline\n", "\n\nstarts with two"]
        for _ in 0..<300 {
            messages.append((0..<Int.random(in: 1...12, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined())
        }
        for (journal, level) in [(false, Logger.Level.warning), (false, .info), (true, .error)] {
            let logger = Logger(level: .debug, journal: journal, fd: FileDescriptor(rawValue: fds[1]))
            let prefix = journal ? "<\(level.rawValue)>" : level == .info ? "gestured: " : "gestured: warning: "
            for m in messages {
                logger.log(level, m)
                var expected = ""
                for line in m.split(separator: "\n", omittingEmptySubsequences: false) {
                    expected += prefix + TextEscaping.controlsEscaped(String(line)) + "\n"
                }
                var buf = [UInt8](repeating: 0, count: 65536)
                let n = read(fds[0], &buf, buf.count)
                let got = String(decoding: buf[0..<max(0, n)], as: UTF8.self)
                #expect(got == expected, "\(m.debugDescription): \(got.debugDescription) != \(expected.debugDescription)")
            }
        }
    }

    /// Finding 5: `replay -` read all of standard input before printing anything (1 GiB of stdin
    /// peaked at 1.6 GB). It streams now: the swipe is printed while stdin is still open.
    @Test func test_replayStdin_printsGesturesBeforeEndOfInput() throws {
        guard let bin = TestPaths.binary else { throw TestFailure(description: "gestured not built") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: bin)
        p.arguments = ["replay", "-"]
        let input = Pipe(), output = Pipe()
        p.standardInput = input; p.standardOutput = output; p.standardError = FileHandle.nullDevice
        try p.run()
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) }; p.waitUntilExit() }
        // The fixture, then more events far later so the swipe is not the end of the input.
        try input.fileHandleForWriting.write(contentsOf: Data(contentsOf: URL(fileURLWithPath: Self.swipe2)))
        let fd = output.fileHandleForReading.fileDescriptor
        var seen = ""
        for _ in 0..<500 where !seen.contains("swipe recognized") {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 20) > 0 else { continue }
            var buf = [UInt8](repeating: 0, count: 4096)
            let n = read(fd, &buf, buf.count)
            if n <= 0 { break }
            seen += String(decoding: buf[0..<n], as: UTF8.self)
        }
        #expect(seen.contains("swipe recognized"), "nothing printed within 10 s while stdin stayed open: \(seen)")
        try input.fileHandleForWriting.close()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
    }

    /// Streaming prints what loading the whole file printed, for every evemu fixture.
    @Test func test_replayFile_streamedMatchesWholeFile() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: TestPaths.fixtures.path)
            .filter { $0.hasSuffix(".evemu") || $0.hasSuffix(".events") }
        #expect(names.count >= 10)
        for name in names {
            let path = TestPaths.fixtures.appendingPathComponent(name).path
            let recording = try RecordingLoader.load(path: path)
            var lines = 0
            GesturePipeline.run(recording) { if case .gesture = $0 { lines += 1 } }
            let r = try runGestured(["replay", path])
            #expect(r.status == 0, "\(name): \(r.err.suffix(200))")
            #expect(r.out.split(separator: "\n").count == lines, "\(name)")
        }
    }

    /// Finding 9: an evemu file cut off inside its header (no E: line) was accepted silently.
    @Test func test_replay_ofRecordingCutOffInItsHeader_failsNamingTheFile() throws {
        let text = try String(contentsOfFile: Self.swipe2, encoding: .utf8)
        let header = text[..<text.range(of: "\nE: ")!.lowerBound] + "\n"
        let path = try Self.writeTemp(String(header), name: "cut.evemu")
        for args in [["replay", path], ["replay", "-"]] {
            let r = try runGestured(args, input: args[1] == "-" ? String(header) : nil)
            #expect(r.status == 2, "\(args): \(r.err)")
            #expect(r.err.contains("looks truncated"), "\(r.err)")
        }
        #expect(throws: RecordingError.self) { try RecordingLoader.load(path: path) }
    }

    /// Finding 9: time running backwards in a recording printed `gestured bug:` and negative times.
    @Test func test_replay_withTimeGoingBackwards_saysSoOnceAndKeepsTimesForward() throws {
        let text = try String(contentsOfFile: Self.swipe2, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let events = lines.indices.filter { lines[$0].hasPrefix("E: ") }
        for i in events[..<(events.count / 3)] {     // the first third 0.5 s later: time then goes back
            var f = lines[i].split(separator: " ").map(String.init)
            let t = Double(f[1])! + 0.5
            f[1] = String(format: "%.6f", t)
            lines[i] = f.joined(separator: " ")
        }
        let path = try Self.writeTemp(lines.joined(separator: "\n"), name: "backwards.evemu")
        let r = try runGestured(["replay", path])
        #expect(r.status == 0)
        #expect(!r.err.contains("gestured bug"), "\(r.err)")
        #expect(r.err.components(separatedBy: "event time went back").count == 2, "said once: \(r.err)")
        #expect(!r.out.split(separator: "\n").contains { $0.hasPrefix("-") }, "negative times: \(r.out.prefix(400))")
    }

    /// Finding 9: `--replay-delay inf` trapped converting to microseconds.
    @Test func test_run_withInfiniteReplayDelay_isAnArgumentError() throws {
        for v in ["inf", "1e300", "nan"] {
            let r = try runGestured(["run", "--no-discovery", "--config", "/dev/null", "--socket", "/tmp/gestured-never.sock",
                                     "--replay-delay", v, "--replay", Self.swipe2], timeout: 10)
            #expect(r.status == 2, "\(v): exit \(r.status) \(r.err.suffix(200))")
            #expect(r.err.contains("--replay-delay expects seconds"), "\(r.err)")
        }
    }

    /// Finding 9: a startup config error said `config error: config error:`, and under journald
    /// it had no priority prefix.
    @Test func test_run_withBadConfig_saysConfigErrorOnceWithAPriority() throws {
        let path = try Self.writeTemp("hooks:\n  max_concurent: 3\n", name: "bad.yaml")
        let plain = try runGestured(["run", "--no-discovery", "--config", path, "--socket", "/tmp/gestured-never.sock"], timeout: 10)
        #expect(plain.status == 1)
        #expect(plain.err.components(separatedBy: "config error:").count == 2, "\(plain.err)")
        #expect(plain.err.contains("bad.yaml:2:3: unknown key 'max_concurent'"))
        let journal = try runGestured(["run", "--no-discovery", "--config", path, "--socket", "/tmp/gestured-never.sock"],
                                      environment: ["JOURNAL_STREAM": "8:1234"], timeout: 10)
        #expect(journal.err.hasPrefix("<3>config error: "), "\(journal.err)")
    }

    /// Finding 9: `check` accepted a socket.group that does not exist (then `run` failed).
    @Test func test_check_withMissingSocketGroup_failsAtTheValue() throws {
        let path = try Self.writeTemp("socket:\n  group: no-such-group-gestured\n", name: "group.yaml")
        let r = try runGestured(["check", "--config", path])
        #expect(r.status == 1)
        #expect(r.err.contains("group.yaml:2:10: socket.group 'no-such-group-gestured' does not exist"), "\(r.err)")
    }

    /// Finding 9: a multi-document config was checked as the (empty) first document.
    @Test func test_check_withTwoDocuments_fails() throws {
        let path = try Self.writeTemp("---\n---\nhooks:\n  max_concurrent: 3\n", name: "two.yaml")
        let r = try runGestured(["check", "--config", path])
        #expect(r.status == 1, "\(r.out)")
        #expect(r.err.contains("two.yaml:2:1:"), "\(r.err)")
    }
}

