#if canImport(Glibc)
import Glibc
#endif
import GestureConfig
import GestureCore
@testable import GestureDaemon
import LinuxSystem
import Synchronization
import Testing

/// Collects what the runner logs.
final class LogBox: Sendable {
    let lines = Mutex<[(Int, String)]>([])
    var log: HookLog { { p, m in self.lines.withLock { $0.append((p, m)) } } }
    var all: [String] { lines.withLock { $0.map(\.1) } }
    func contains(_ s: String) -> Bool { all.contains { $0.contains(s) } }
    /// pids the runner reported starting.
    var startedPIDs: [pid_t] {
        all.compactMap { line in
            let parts = line.split(separator: "started pid ", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            return pid_t(String(parts[1].prefix { $0.isNumber }))
        }
    }
}

/// Waits (polling) until `condition` holds or `seconds` pass; the result says which.
func waitFor(seconds: Double = 15, _ condition: () -> Bool) -> Bool {
    let end = MonotonicClock.now() + .microseconds(Int64(seconds * 1e6))
    while MonotonicClock.now() < end {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

func tempDir() -> String {
    var template = Array("/tmp/gestured-hooktest-XXXXXX".utf8CString)
    let p = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    return String(cString: p!)
}

/// Deletes a flat directory made by `tempDir()` and the files in it.
func removeDir(_ dir: String) {
    guard let d = opendir(dir) else { return }
    while let e = readdir(d) {
        let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { unlink(dir + "/" + name) }
    }
    closedir(d)
    rmdir(dir)
}

func readText(_ path: String) -> String? {
    guard let f = fopen(path, "r") else { return nil }
    defer { fclose(f) }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&buf, 1, buf.count, f)
        if n <= 0 { break }
        out += buf[0..<n]
    }
    return String(decoding: out, as: UTF8.self)
}

func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

let swipeLeft = GestureEvent(kind: .swipe, phase: .recognized, id: 7, fingers: 3, time: .milliseconds(1200),
                             direction: .left, dxMillimeters: -21.5, dyMillimeters: 1.25,
                             velocityMillimetersPerSecond: 180, x: 0.25, y: 0.5)
let pad = HookDevice(id: 1, name: "SynPS/2 Synaptics TouchPad", kind: .touchpad, node: "/dev/input/event7")

func binding(_ command: String, cooldownMs: Int = 0, timeoutMs: Int? = nil) -> Binding {
    var b = Binding(gesture: .swipe, command: command)
    b.cooldown = .milliseconds(cooldownMs)
    if let t = timeoutMs { b.timeout = .milliseconds(t) }
    b.location = SourceLocation(file: "test.yaml", line: 3, column: 5)
    return b
}

func limits(max: Int = 8, timeoutMs: Int = 5000, killAfterMs: Int = 2000, lines: Int = 60) -> HookLimits {
    var l = HookLimits()
    l.maxConcurrent = max; l.timeout = .milliseconds(timeoutMs); l.killAfter = .milliseconds(killAfterMs)
    l.outputLinesPerMinute = lines
    return l
}

/// True when `pid` is a zombie child of this process.
func isZombieChild(_ pid: pid_t) -> Bool {
    guard let stat = readText("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return false }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    return fields.count > 2 && fields[0] == "Z" && pid_t(fields[1]) == getpid()
}

@Suite(.serialized) struct HookRunnerTests {
    @Test func test_child_getsTheGestureEnvironment_andInheritsPath() throws {
        let dir = tempDir(), out = dir + "/env"
        defer { removeDir(dir) }
        let logs = LogBox()
        let runner = HookRunner(bindings: [binding("env > '\(out)'")], limits: limits(), log: logs.log)
        defer { runner.shutdown() }
        runner.handle(swipeLeft, device: pad)
        #expect(waitFor { runner.statistics.exited == 1 })
        let env = Set((readText(out) ?? "").split(separator: "\n").map(String.init))
        let expected = [
            "GESTURE_KIND=swipe", "GESTURE_PHASE=recognized", "GESTURE_FINGERS=3", "GESTURE_DIRECTION=left",
            "GESTURE_EDGE=", "GESTURE_DX_MM=-21.5", "GESTURE_DY_MM=1.25", "GESTURE_SCALE=",
            "GESTURE_ROTATION_DEG=", "GESTURE_VELOCITY_MM_S=180", "GESTURE_X=0.25", "GESTURE_Y=0.5",
            "GESTURE_DEVICE_NAME=SynPS/2 Synaptics TouchPad", "GESTURE_DEVICE_KIND=touchpad",
            "GESTURE_DEVICE_NODE=/dev/input/event7",
        ]
        for e in expected { #expect(env.contains(e), "missing \(e)") }
        let path = String(cString: getenv("PATH"))
        #expect(env.contains("PATH=\(path)"))
    }

    @Test func test_gestureData_isNeverSplicedIntoTheCommand() throws {
        let dir = tempDir(), victim = dir + "/pwned", out = dir + "/out"
        defer { removeDir(dir) }
        var evil = swipeLeft
        evil.direction = GestureDirection(rawValue: "left; touch \(victim)")
        let device = HookDevice(id: 1, name: "$(touch \(victim))`touch \(victim)`", kind: .touchpad, node: "/dev/null")
        // Bind to any direction so the evil value reaches the child.
        let runner = HookRunner(bindings: [binding("printf '%s|%s' \"$GESTURE_DIRECTION\" \"$GESTURE_DEVICE_NAME\" > '\(out)'")],
                                limits: limits(), log: LogBox().log)
        defer { runner.shutdown() }
        runner.handle(evil, device: device)
        #expect(waitFor { runner.statistics.exited == 1 })
        #expect(!exists(victim))
        #expect(readText(out) == "left; touch \(victim)|$(touch \(victim))`touch \(victim)`")
    }

    @Test func test_cooldown_skipsARepeatWithinIt() throws {
        let dir = tempDir(), out = dir + "/count"
        defer { removeDir(dir) }
        let runner = HookRunner(bindings: [binding("echo x >> '\(out)'", cooldownMs: 60_000)], limits: limits(), log: LogBox().log)
        defer { runner.shutdown() }
        runner.handle(swipeLeft, device: pad)
        runner.handle(swipeLeft, device: pad)
        runner.handle(swipeLeft, device: pad)
        #expect(waitFor { runner.statistics.exited == 1 })
        #expect(runner.statistics.started == 1 && runner.statistics.skippedInCooldown == 2)
        #expect(readText(out) == "x\n")
        // Without a cooldown every gesture runs.
        let out2 = dir + "/count2"
        let free = HookRunner(bindings: [binding("echo x >> '\(out2)'")], limits: limits(), log: LogBox().log)
        defer { free.shutdown() }
        free.handle(swipeLeft, device: pad); free.handle(swipeLeft, device: pad)
        #expect(waitFor { free.statistics.exited == 2 })
        #expect(readText(out2) == "x\nx\n")
    }

    @Test func test_timeout_sendsSIGTERM() throws {
        let logs = LogBox()
        let runner = HookRunner(bindings: [binding("sleep 30", timeoutMs: 200)], limits: limits(killAfterMs: 10_000), log: logs.log)
        defer { runner.shutdown() }
        runner.handle(swipeLeft, device: pad)
        #expect(waitFor { runner.statistics.exited == 1 })
        #expect(runner.statistics.terminated == 1 && runner.statistics.killed == 0)
        #expect(logs.contains("killed by signal \(SIGTERM)"))
    }

    @Test func test_timeout_aChildThatIgnoresSIGTERM_getsSIGKILL() throws {
        let logs = LogBox()
        let runner = HookRunner(bindings: [binding("trap '' TERM; sleep 30; true", timeoutMs: 200)],
                                limits: limits(killAfterMs: 200), log: logs.log)
        defer { runner.shutdown() }
        runner.handle(swipeLeft, device: pad)
        #expect(waitFor { runner.statistics.exited == 1 })
        #expect(runner.statistics.terminated == 1 && runner.statistics.killed == 1)
        #expect(logs.contains("killed by signal \(SIGKILL)"))
    }

    @Test func test_concurrencyCap_dropsTheExcess_andShutdownEndsTheRest() throws {
        let logs = LogBox()
        let runner = HookRunner(bindings: [binding("sleep 30")], limits: limits(max: 2, killAfterMs: 500), log: logs.log)
        for _ in 0..<5 { runner.handle(swipeLeft, device: pad) }
        #expect(waitFor { runner.statistics.started == 2 && logs.startedPIDs.count == 2 })
        #expect(runner.statistics.running == 2)
        let s = runner.statistics
        #expect(s.started == 2 && s.droppedAtCap == 3)
        #expect(logs.contains("dropped: 2 hooks already running"))
        let pids = logs.startedPIDs
        #expect(pids.count == 2)
        runner.shutdown()
        #expect(runner.statistics.running == 0 && runner.statistics.exited == 2)
        for pid in pids { #expect(!isZombieChild(pid)); #expect(kill(pid, 0) != 0) }
    }

    @Test func test_exitedChildren_areReaped_noZombies() throws {
        let logs = LogBox()
        let runner = HookRunner(bindings: [binding("exit 3")], limits: limits(), log: logs.log)
        defer { runner.shutdown() }
        for _ in 0..<4 { runner.handle(swipeLeft, device: pad) }
        #expect(waitFor { runner.statistics.exited == 4 })
        let pids = logs.startedPIDs
        #expect(pids.count == 4)
        for pid in pids { #expect(!isZombieChild(pid), "pid \(pid) is a zombie") }
        #expect(logs.contains("exited with status 3"))
    }

    @Test func test_output_isLoggedLineByLine_andRateLimited() throws {
        let logs = LogBox()
        let runner = HookRunner(bindings: [binding("echo hello; echo oops >&2; printf 'no newline'")], limits: limits(), log: logs.log)
        runner.handle(swipeLeft, device: pad)
        #expect(waitFor { runner.statistics.exited == 1 })
        runner.shutdown()
        #expect(logs.contains("stdout: hello"))
        #expect(logs.contains("stderr: oops"))
        #expect(logs.contains("stdout: no newline"))

        let limited = LogBox()
        let chatty = HookRunner(bindings: [binding("for i in 1 2 3 4 5 6 7 8 9 10; do echo line$i; done")],
                                limits: limits(lines: 3), log: limited.log)
        chatty.handle(swipeLeft, device: pad)
        #expect(waitFor { chatty.statistics.exited == 1 })
        chatty.shutdown()
        let logged = limited.all.filter { $0.contains("stdout: line") }
        #expect(logged.count == 3)
        #expect(chatty.statistics.outputLinesSuppressed == 7)
    }

    @Test func test_handle_returnsWhileTheChildRuns() throws {
        let runner = HookRunner(bindings: [binding("sleep 30")], limits: limits(killAfterMs: 500), log: LogBox().log)
        runner.handle(swipeLeft, device: pad)
        // handle() came back although the child sleeps for 30 s; it is running now.
        #expect(waitFor { runner.statistics.running == 1 })
        runner.shutdown()
        #expect(runner.statistics.running == 0)
    }
}

@Suite(.serialized) struct HookRunnerConfigTests {
    @Test func test_bindingsFromAConfigFile_runOnlyForMatchingGestures_andReloadReplacesThem() throws {
        let dir = tempDir(), out = dir + "/ran"
        defer { removeDir(dir) }
        let config = try Config.parse("""
        bindings:
          - gesture: swipe
            fingers: 3
            direction: left
            device: {kind: touchpad}
            command: 'echo "first $GESTURE_DIRECTION" >> "\(out)"'
          - gesture: swipe
            fingers: 3
            direction: right
            command: 'echo right >> "\(out)"'
        hooks: {max_concurrent: 1}
        """, file: "c.yaml")
        let runner = HookRunner(bindings: config.bindings, limits: config.hooks, log: LogBox().log)
        defer { runner.shutdown() }
        let screen = HookDevice(id: 2, name: "ELAN", kind: .touchscreen, node: "/dev/input/event9")
        runner.handle(swipeLeft, device: screen)          // wrong device kind: nothing runs
        runner.handle(swipeLeft, device: pad)
        #expect(waitFor { runner.statistics.exited == 1 })
        #expect(runner.statistics.started == 1)
        #expect(readText(out) == "first left\n")

        let reloaded = try Config.parse("bindings:\n  - {gesture: swipe, command: 'echo second >> \"\(out)\"'}\n", file: "c.yaml")
        runner.update(bindings: reloaded.bindings, limits: reloaded.hooks)
        runner.handle(swipeLeft, device: screen)
        #expect(waitFor { runner.statistics.exited == 2 })
        #expect(readText(out) == "first left\nsecond\n")
    }
}
