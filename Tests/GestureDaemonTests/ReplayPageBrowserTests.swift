import Foundation
import Testing

/// `gestured replay --html` opened in a real headless Chromium (Debian's `chromium`, installed by
/// Tests/test.sh): for every recording in Tests/Fixtures the page runs without a console message
/// or an error, holds one path per contact and one span per gesture (both counted from
/// `gestured replay --frames --json`, not from the page's code), and choosing a moment
/// (`#t=SECONDS`) shows the contacts down at that frame.
@Suite(.serialized) struct ReplayPageBrowserTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let extensions = [".evemu", ".events", ".evtest", ".yml"]
    static var recordings: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: TestPaths.fixtures.path)) ?? []
        return files.filter { f in extensions.contains { f.hasSuffix($0) } }.sorted()
    }

    /// Runs a program to its end: status, standard output, standard error.
    static func run(_ program: String, _ args: [String]) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program)
        p.arguments = args
        // Standard error goes to a file: reading two pipes in turn could stall on the other.
        let errPath = TestPaths.tempDirectory() + "/stderr"
        defer { try? FileManager.default.removeItem(atPath: (errPath as NSString).deletingLastPathComponent) }
        FileManager.default.createFile(atPath: errPath, contents: nil)
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let out = Pipe()
        p.standardOutput = out; p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        try err.close()
        let e = (try? Data(contentsOf: URL(fileURLWithPath: errPath))) ?? Data()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    /// Opens `page` in headless Chromium: the DOM after the script ran and the console lines.
    static func open(_ page: String, fragment: String, screenshot: String? = nil, profile: String) throws -> (dom: String, console: [String]) {
        guard let chromium else { throw TestFailure(description: "chromium is not installed (Tests/test.sh installs it)") }
        var args = ["--headless", "--no-sandbox", "--no-zygote", "--disable-gpu", "--disable-crash-reporter", "--disable-breakpad",
                    "--user-data-dir=\(profile)", "--enable-logging=stderr", "--v=0", "--window-size=1200,900"]
        args += screenshot.map { ["--screenshot=\($0)"] } ?? ["--dump-dom"]
        args.append("file://\(page)#\(fragment)")
        let r = try run(chromium, args)
        reapChromiumOrphans()
        #expect(r.status == 0, "chromium: \(r.err)")
        let console = r.err.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map { String($0) }
        return (r.out, console)
    }

    /// Chromium double-forks helpers; when their parent ends they are orphaned to this test
    /// process (a subreaper once any hook runner ran in it), and an unreaped zombie hangs every
    /// exit test still running (docs/ARCHITECTURE.md, "Child processes in tests"). Reaps this
    /// process's children named chromium, chrome_* or exe (the zygote; nothing else here starts them), by pid,
    /// waiting up to 3 s for them to end and killing what is left then.
    static func reapChromiumOrphans() {
        let me = getpid()
        for round in 0..<300 {
            var left = false
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                guard let pid = pid_t(entry), let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                      let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")") else { continue }
                let name = text[text.index(after: open)..<close]
                let fields = text[text.index(after: close)...].split(separator: " ")
                // "exe": the zygote, which Chromium starts by executing /proc/self/exe.
                guard fields.count > 2, pid_t(fields[1]) == me, name.hasPrefix("chrom") || name == "exe" else { continue }
                if fields[0] == "Z" {
                    var status: Int32 = 0
                    _ = waitpid(pid, &status, WNOHANG)
                } else {
                    left = true
                    if round == 200 { kill(pid, SIGKILL) }
                }
            }
            if !left { return }
            usleep(10_000)
        }
    }

    /// What the recording holds, from `gestured replay --frames --json`: distinct touch ids,
    /// distinct gesture ids, and a frame where the most touches are down (none leaving).
    static func facts(_ bin: String, _ recording: String) throws -> (contacts: Int, gestures: Int, ms: Int, down: Int) {
        let r = try run(bin, ["replay", "--frames", "--json", recording])
        #expect(r.status == 0, "\(r.err)")
        var touches = Set<Int>(), gestures = Set<Int>(), best = (ms: 0, down: 0)
        for line in r.out.split(separator: "\n") {
            guard let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
            if o["type"] as? String == "gesture", let id = o["id"] as? Int { gestures.insert(id) }
            guard o["type"] as? String == "frame", let ts = o["touches"] as? [[String: Any]], let time = o["time"] as? Double else { continue }
            for t in ts { if let id = t["id"] as? Int { touches.insert(id) } }
            let phases = ts.compactMap { $0["phase"] as? String }
            if phases.allSatisfy({ $0 != "ended" && $0 != "cancelled" }) && phases.count > best.down {
                best = (Int((time * 1000).rounded()), phases.count)
            }
        }
        return (touches.count, gestures.count, best.ms, best.down)
    }

    static func count(_ needle: String, in s: String) -> Int { s.components(separatedBy: needle).count - 1 }

    @Test func test_replayPage_ofEveryFixture_rendersInChromium_withOnePathPerContactAndOneSpanPerGesture() throws {
        guard Self.chromium != nil else { print("skipped: chromium is not installed (Tests/test.sh installs it)"); return }
        guard let bin = TestPaths.binary else { throw TestFailure(description: "the gestured binary is not built next to the tests") }
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(Self.recordings.count >= 29)
        for name in Self.recordings {
            let recording = TestPaths.fixtures.appendingPathComponent(name).path
            let page = dir + "/\(name).html"
            let w = try Self.run(bin, ["replay", "--html", page, recording])
            try #require(w.status == 0, "\(name): \(w.err)")
            let facts = try Self.facts(bin, recording)
            let moment = String(format: "t=%.3f", Double(facts.ms) / 1000)
            let (dom, console) = try Self.open(page, fragment: moment, profile: dir + "/profile")
            #expect(console.isEmpty, "\(name): console: \(console)")
            #expect(dom.contains("data-ready=\"1\""), "\(name): the page's script did not finish")
            #expect(!dom.contains("data-error"), "\(name): the page's script threw")
            #expect(Self.count("<path class=\"contact\"", in: dom) == facts.contacts, "\(name): contact paths")
            #expect(Self.count("<g class=\"gesture\"", in: dom) == facts.gestures, "\(name): gesture spans")
            #expect(dom.contains("data-contacts=\"\(facts.down)\""), "\(name): at \(moment) \(facts.down) contacts are down")
            #expect(!dom.contains("src=\"http") && !dom.contains("href=\"http"), "\(name): the page fetches nothing")
            if let r = dom.range(of: "data-render-ms=\"") {
                print("replay page \(name): script \(dom[r.upperBound...].prefix { $0.isNumber }) ms")
            }
        }
    }

    @Test func test_replayPage_screenshot_ofThe3MRecording_isAPicture() throws {
        guard Self.chromium != nil else { print("skipped: chromium is not installed (Tests/test.sh installs it)"); return }
        guard let bin = TestPaths.binary else { throw TestFailure(description: "the gestured binary is not built next to the tests") }
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let recording = TestPaths.fixtures.appendingPathComponent("touchscreen-3m-10finger-mixed-rotate-pinch-drags__whot-evemu.evemu").path
        let page = dir + "/3m.html", png = dir + "/3m.png"
        try #require(try Self.run(bin, ["replay", "--html", page, recording]).status == 0)
        let started = Date()
        let (_, console) = try Self.open(page, fragment: "t=17.5", screenshot: png, profile: dir + "/profile")
        print("replay page 3M (3 MB, 29 s, 10 fingers): chromium start to screenshot \(Int(Date().timeIntervalSince(started) * 1000)) ms")
        #expect(console.isEmpty, "console: \(console)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "not a PNG")
        #expect(bytes.count > 20_000, "a blank screenshot is a few kB; got \(bytes.count) bytes")
    }

    @Test func test_replayPage_escapesTheDeviceName() throws {
        guard let bin = TestPaths.binary else { throw TestFailure(description: "the gestured binary is not built next to the tests") }
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let source = try String(contentsOfFile: TestPaths.fixtures.appendingPathComponent("touchscreen-atmel-1finger-repeated-taps__whot-evemu-devices.evemu").path, encoding: .utf8)
        var lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let n = try #require(lines.firstIndex { $0.hasPrefix("N: ") })
        lines[n] = "N: <script>alert(1)</script>&\"x'"
        try lines.joined(separator: "\n").write(toFile: dir + "/evil.evemu", atomically: true, encoding: .utf8)
        let r = try Self.run(bin, ["replay", "--html", dir + "/evil.html", dir + "/evil.evemu"])
        try #require(r.status == 0, "\(r.err)")
        let page = try String(contentsOfFile: dir + "/evil.html", encoding: .utf8)
        #expect(!page.contains("<script>alert"))
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;x&#39;"))
    }
}
