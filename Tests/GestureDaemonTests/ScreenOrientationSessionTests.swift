// The screen's orientation end to end, with a real headless sway: its output turned with
// `swaymsg output HEADLESS-1 transform 90|180|270`; `gestured listen` learns it from the
// compositor (wl_output, pushed) and tells the daemon, which names a replayed touchscreen swipe
// up and a left-edge swipe as the person holding the turned device would: on the socket, in
// the daemon's hooks and in listen's bindings.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GestureWire
import Testing

@Suite(.serialized) struct ScreenOrientationSessionTests {
    /// A 2-finger swipe up on a real touchscreen (RECORDINGS.md).
    static let swipeUp = TestPaths.fixture("touchscreen-ep0430m09-2finger-swipe-up")

    /// The Intuos5's recorded 1-finger swipe right from the left edge, played as a touchscreen
    /// (INPUT_PROP_DIRECT for INPUT_PROP_POINTER: only touchscreens follow the screen, and no
    /// real touchscreen recording of an edge swipe is in Tests/Fixtures). The events are its own.
    static func leftEdgeAsTouchscreen(in dir: String) throws -> String {
        let f = TestPaths.fixtures.path + "/"
        let desc = try String(contentsOfFile: f + "touchtablet-wacom-intuos5__whot-evemu-devices.desc", encoding: .utf8)
        let events = try String(contentsOfFile: f + "touchtablet-wacom-intuos5-1finger-swipe-from-left-edge__whot-evemu-devices.events", encoding: .utf8)
        let header = desc.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("P:") ? "P: 02 00 00 00 00 00 00 00" : String($0) }.joined(separator: "\n")
        let path = dir + "/intuos5-left-edge-as-touchscreen.evemu"
        try (header + (header.hasSuffix("\n") ? "" : "\n") + events).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// What the person names, from geometry (written before running): sway turns the picture
    /// clockwise, so they hold the device turned counterclockwise; the stroke towards the
    /// panel's top is their left (90), down (180), right (270); the panel's left edge is their
    /// bottom (90), right (180), top (270) edge, and the stroke away from it goes up, left, down.
    static let turns: [(transform: String, swipe: String, edge: String, edgeDirection: String)] = [
        ("normal", "up", "left", "right"), ("90", "left", "bottom", "up"),
        ("180", "down", "right", "left"), ("270", "right", "top", "down"),
    ]

    @Test func sway_turnedThroughFourTransforms_namesSwipesAndEdgesAsThePersonDoes() throws {
        let s = try DesktopSession.sway()
        try Self.turnThroughFour(s, listenEnvironment: s.environment, output: "HEADLESS-1") { try s.swaymsg("output HEADLESS-1 transform \($0)") }
    }

    /// Turns the screen through `turns` with `turnScreen` (given sway's transform name) and
    /// checks, each time, the replayed swipe and edge swipe on the socket, in the daemon's
    /// hooks and in the bindings of a `listen` started with `listenEnvironment` (so with the
    /// backend that environment picks), which must say the turn came from `output`.
    static func turnThroughFour(_ s: DesktopSession, listenEnvironment: [String: String], output: String,
                                turnScreen: (String) throws -> Void) throws {
        guard let bin = TestPaths.binary else { throw TestFailure(description: "no gestured binary") }
        let edgeReplay = try Self.leftEdgeAsTouchscreen(in: s.dir)
        for turn in Self.turns {
            try turnScreen(turn.transform)
            let dir = s.dir + "/\(turn.transform)"
            try FileManager.default.createDirectory(atPath: dir + "/daemon", withIntermediateDirectories: true)
            let hooks = dir + "/hooks.out", bindings = dir + "/listen.out"
            let command = #"echo "$GESTURE_KIND $GESTURE_FINGERS $GESTURE_EDGE $GESTURE_DIRECTION" >> "#
            // Three clients start the replays: this test's two and listen.
            let d = try DaemonProcess(["--replay", Self.swipeUp, "--replay", edgeReplay, "--replay-wait-for-clients", "3"],
                                      config: """
                                      bindings:
                                        - {gesture: swipe, fingers: 2, command: '\(command)\(hooks)'}
                                        - {gesture: edgeSwipe, command: '\(command)\(hooks)'}
                                      """, directory: dir + "/daemon")
            defer { _ = d.stop() }
            let watcher = try TestClient(d.socket)
            guard case .hello(_, _, let devices) = try WireDecoder.serverMessage(watcher.next() ?? "") else {
                throw TestFailure(description: "no hello")
            }
            #expect(devices.count == 2 && devices.allSatisfy { $0.kind == .touchscreen }, "\(devices)")

            let cfg = dir + "/listen.yaml"
            try """
            bindings:
              - {gesture: swipe, fingers: 2, command: '\(command)\(bindings)'}
              - {gesture: edgeSwipe, command: '\(command)\(bindings)'}
            """.write(toFile: cfg, atomically: true, encoding: .utf8)
            let listen = Process()
            listen.executableURL = URL(fileURLWithPath: bin)
            listen.arguments = ["listen", "--config", cfg, "--socket", d.socket]
            var env = ["PATH": "/usr/bin:/bin", "HOME": s.dir]
            env.merge(listenEnvironment) { $1 }
            listen.environment = env
            let listenLog = dir + "/listen.log"
            _ = FileManager.default.createFile(atPath: listenLog, contents: nil)
            listen.standardError = FileHandle(forWritingAtPath: listenLog)
            try listen.run()
            defer {
                // listen dies of SIGTERM without reaping a binding's shell that just ended: noted
                // before, collected after (`OrphanedProcess`), or its zombie stays with this process.
                let started = OrphanedProcess.descendants(of: listen.processIdentifier)
                listen.terminate(); listen.waitUntilExit()
                for p in started { p.collect() }
            }

            // listen turns both touchscreens with the only output before any touch.
            var turned = Set<Int>()
            _ = try watcher.read { m, _ in
                if case .deviceChanged(let w) = m, w.orientation.sources.contains(where: { $0.contains("\(output) transform \(turn.transform)") }) {
                    turned.insert(w.id)
                }
                return turned.count == 2
            }
            let starter = try TestClient(d.socket)   // the third client: the replays begin
            _ = starter.next()

            var swipe: String?, edge: (String, String)?
            _ = try watcher.read { m, _ in
                if case .gesture(let g, _) = m {
                    if g.kind == .swipe && g.phase == .recognized { swipe = g.direction?.rawValue }
                    if g.kind == .edgeSwipe, let e = g.edge, let dir = g.direction, edge == nil { edge = (e.rawValue, dir.rawValue) }
                }
                return swipe != nil && edge != nil
            }
            #expect(swipe == turn.swipe, "transform \(turn.transform): the socket's swipe")
            #expect(edge?.0 == turn.edge && edge?.1 == turn.edgeDirection, "transform \(turn.transform): the socket's edge swipe \(String(describing: edge))")

            let want = ["swipe 2  \(turn.swipe)", "edgeSwipe 1 \(turn.edge) \(turn.edgeDirection)"]
            for (what, path) in [("the daemon's hooks", hooks), ("listen's bindings", bindings)] {
                try s.waitUntil("\(what) for transform \(turn.transform); listen: \((try? String(contentsOfFile: listenLog, encoding: .utf8)) ?? "")", seconds: 20) {
                    let lines = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
                    return want.allSatisfy { w in lines.contains { $0.hasPrefix(w) } }
                }
                let lines = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
                #expect(!lines.contains { $0.hasPrefix("swipe") && !$0.hasPrefix(want[0]) }, "\(what), transform \(turn.transform): \(lines)")
            }
            let log = (try? String(contentsOfFile: listenLog, encoding: .utf8)) ?? ""
            #expect(log.contains("shows on \(output) (the only output): transform \(turn.transform)"), "listen's log: \(log)")
        }
    }

    /// `gestured listen --print-screen` prints the output's transform as sway turns it, without
    /// a daemon.
    @Test func sway_printScreen_showsEachTransform() throws {
        guard let bin = TestPaths.binary else { throw TestFailure(description: "no gestured binary") }
        let s = try DesktopSession.sway()
        let listen = Process()
        listen.executableURL = URL(fileURLWithPath: bin)
        listen.arguments = ["listen", "--print-screen"]
        var env = ["PATH": "/usr/bin:/bin", "HOME": s.dir]
        env.merge(s.environment) { $1 }
        listen.environment = env
        let outPath = s.dir + "/print-screen.out"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        listen.standardOutput = FileHandle(forWritingAtPath: outPath)
        listen.standardError = FileHandle.nullDevice
        try listen.run()
        defer { listen.terminate(); listen.waitUntilExit() }
        func out() -> String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }
        try s.waitUntil("the first report") { out().contains("outputs: HEADLESS-1: transform normal") }
        for t in ["90", "flipped-180", "270"] {
            try s.swaymsg("output HEADLESS-1 transform \(t)")
            try s.waitUntil("transform \(t): \(out())") { out().contains("outputs: HEADLESS-1: transform \(t)\n") }
        }
    }
}
