// Issue 26 item 5, through the real daemon binary: a hook owns every process it starts, `setsid`
// included. A tap-bound hook runs on each of the nine taps of a real recording (Atmel maXTouch,
// RECORDINGS.md: nine 1-finger taps about 230 ms apart).
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

@Suite(.serialized) struct HookTreeTests {
    static let taps = TestPaths.fixture("touchscreen-atmel-1finger-repeated-taps")

    /// /proc/PID/stat: (state letter, parent pid), nil when the process is gone.
    static func stat(_ pid: Int32) -> (state: Character, parent: Int32)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 2, let state = fields[0].first, let parent = Int32(fields[1]) else { return nil }
        return (state, parent)
    }

    /// Alive and not a zombie.
    static func running(_ pid: Int32) -> Bool { stat(pid).map { $0.state != "Z" } ?? false }

    /// The zombies whose parent is `parent`.
    static func zombieChildren(of parent: Int32) -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap(Int32.init).filter { pid in
            guard let s = stat(pid) else { return false }
            return s.parent == parent && s.state == "Z"
        }
    }

    static func pids(in file: String) -> [Int32] {
        ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int32($0) }
    }

    /// Waits up to `seconds` for `condition`.
    static func eventually(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end { if condition() { return true }; usleep(50_000) }
        return condition()
    }

    /// What a test leaves: the pids it wrote down are killed, and reaped if this process adopted
    /// them (it is a subreaper once a HookRunner test ran here); only those pids are waited for.
    static func cleanUp(_ pids: [Int32]) {
        for pid in pids where running(pid) { kill(pid, SIGKILL) }
        for pid in pids {
            for _ in 0..<40 {
                guard let s = stat(pid), s.parent == getpid() else { break }
                if s.state == "Z" { var status: Int32 = 0; waitpid(pid, &status, 0); break }
                usleep(25_000)
            }
        }
    }

    static func config(_ command: String, maxConcurrent: Int = 8, timeoutMs: Int = 5000, killAfterMs: Int = 500) -> String {
        """
        hooks:
          max_concurrent: \(maxConcurrent)
          timeout_ms: \(timeoutMs)
          kill_after_ms: \(killAfterMs)
        bindings:
          - gesture: tap
            command: '\(command)'
        """
    }

    /// Starts the daemon replaying the taps once a client is connected, and returns once the
    /// replay is over (the device removed).
    static func replayTaps(config: String, in dir: String) throws -> DaemonProcess {
        let d = try DaemonProcess(["--replay", taps, "--replay-wait-for-clients", "1"], config: config,
                                  directory: (dir + "/d").created)
        let client = try TestClient(d.socket)
        _ = try client.read(until: { m, _ in m.isDeviceRemoved })
        return d
    }

    /// Before: each `setsid sh -c 'sleep 0.2'` left the daemon a zombie nobody reaped, nine for
    /// nine taps (27 in 12 s looping). The daemon reaps what it adopts from its hooks.
    @Test func test_setsidChildOfAHook_leavesNoZombieChildrenOfTheDaemon() throws {
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let ran = dir + "/ran"
        let d = try Self.replayTaps(config: Self.config("echo x >> \(ran); setsid sh -c \"sleep 0.2\" &"), in: dir)
        defer { _ = d.stop() }
        let runs = { ((try? String(contentsOfFile: ran, encoding: .utf8)) ?? "").split(separator: "\n").count }
        #expect(Self.eventually(5) { runs() == 9 }, "the hook ran \(runs()) times for 9 taps; log: \(d.log)")
        // Every setsid'd sleep has ended (0.2 s); give the daemon a moment past its scan period.
        usleep(1_000_000)
        var zombies = Self.zombieChildren(of: d.pid)
        if !zombies.isEmpty { usleep(2_000_000); zombies = Self.zombieChildren(of: d.pid) }
        #expect(zombies.isEmpty, "\(zombies.count) zombie children of the daemon: \(zombies); log: \(d.log)")
    }

    /// Before: `setsid sleep 62 &` left the hook's process group at once, so the hook was over
    /// when its shell exited: nine sleeps for nine taps at a cap of two, running past the hook's
    /// timeout. Now each sleep is its hook's while it lives: two run, and the timeout ends them.
    @Test func test_setsidChild_countsAgainstTheCap_andIsKilledAtTheTimeout() throws {
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pidFile = dir + "/pids"
        let d = try Self.replayTaps(config: Self.config("setsid sleep 62 & echo $! >> \(pidFile)", maxConcurrent: 2,
                                                        timeoutMs: 4000, killAfterMs: 500), in: dir)
        defer { Self.cleanUp(Self.pids(in: pidFile)); _ = d.stop() }
        // The nine taps took about 2 s, inside the first hooks' 4 s timeout.
        let started = Self.pids(in: pidFile)
        #expect(started.count == 2, "\(started.count) setsid'd sleeps started at hooks.max_concurrent 2; log: \(d.log)")
        #expect(Self.eventually(8) { started.allSatisfy { !Self.running($0) } },
                "still running past the 4 s timeout: \(started.filter(Self.running)); log: \(d.log)")
        #expect(d.log.contains("timed out, sent SIGTERM"), "log: \(d.log)")
        #expect(Self.eventually(3) { Self.zombieChildren(of: d.pid).isEmpty }, "zombies: \(Self.zombieChildren(of: d.pid))")
    }

    /// Before: the setsid'd sleeps still ran after the daemon exited. SIGTERM to the daemon now
    /// ends every hook's whole tree before it exits.
    @Test func test_setsidChild_doesNotSurviveTheDaemonsSIGTERM() throws {
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pidFile = dir + "/pids"
        let d = try Self.replayTaps(config: Self.config("setsid sleep 62 & echo $! >> \(pidFile)", timeoutMs: 60_000), in: dir)
        var started: [Int32] = []
        defer { Self.cleanUp(started) }
        #expect(Self.eventually(3) { !Self.pids(in: pidFile).isEmpty })
        started = Self.pids(in: pidFile)
        #expect(!started.isEmpty && started.allSatisfy(Self.running), "the setsid'd sleeps: \(started); log: \(d.log)")
        // The daemon's own exit, seen in /proc (Foundation's Process may report it only once
        // every process that inherited its descriptors has ended).
        d.signal(SIGTERM)
        #expect(Self.eventually(10) { !Self.running(d.pid) }, "the daemon did not exit; log: \(d.log)")
        #expect(Self.eventually(3) { started.allSatisfy { !Self.running($0) } },
                "still running after the daemon exited: \(started.filter(Self.running))")
        #expect(d.log.contains("stopping (signal"), "log: \(d.log)")
        Self.cleanUp(started)
        #expect(d.stop() == 0)
    }
}
