import GestureConfig
import GestureCore
import Synchronization
import LinuxSystem

/// Where hook messages go: a syslog priority (3 err, 4 warning, 6 info, 7 debug) and a line.
public typealias HookLog = @Sendable (_ priority: Int, _ message: String) -> Void

/// Counters of what the hook runner did, for logs and tests.
public struct HookStatistics: Hashable, Sendable {
    public var started = 0
    public var exited = 0
    /// Dropped because `hooks.max_concurrent` children were already running.
    public var droppedAtCap = 0
    public var skippedInCooldown = 0
    public var failedToStart = 0
    public var terminated = 0
    public var killed = 0
    public var outputLinesSuppressed = 0
    public var running = 0
}

/// Runs the commands of matching bindings as `/bin/sh -c COMMAND`, with the gesture in GESTURE_*
/// environment variables (never in the command text). The caller never waits: `handle` only
/// matches, checks cooldown and the concurrency cap, and queues; one thread of the runner spawns
/// children with posix_spawn and poll()s over their pidfds and output pipes, sleeping without a
/// timeout when nothing runs. A hook is its whole tree, `setsid` included (`HookTree`): it counts
/// against the cap until every process of it has ended, and the timeout (SIGTERM, then SIGKILL
/// after `killAfter`) and `shutdown()` reach all of it. It reaps every child, and logs output
/// line by line, rate-limited. Call `shutdown()` before dropping it.
public final class HookRunner: Sendable {
    private struct Request: Sendable {
        var binding: Binding
        var event: GestureEvent
        var device: HookDevice
    }
    private struct Shared: Sendable {
        var matcher: BindingMatcher
        var limits: HookLimits
        var generation = 0
        var lastStart: [Binding: Instant] = [:]    // each binding with a cooldown: its last start
        var pending: [Request] = []
        var stats = HookStatistics()
        var stopping = false
        var lastDropLog: Instant? = nil
        var dropsSinceLog = 0
    }

    private let shared: Mutex<Shared>
    private let sink: HookLog
    /// Whether a message of this priority would be written: a message is built only then (a
    /// debug line per hook run cost the hook thread more than the run's own bookkeeping).
    private let logs: @Sendable (Int) -> Bool
    /// Write end wakes the worker; read end is polled by it.
    private let wakeRead: FileDescriptor
    private let wakeWrite: FileDescriptor
    private let thread: Mutex<SystemThread?>
    /// Whether adopted zombies never seen alive are reaped too (HookTree).
    private let reapsAdoptedChildren: Bool
    /// The daemon's environment as every hook inherits it, taken once: nothing in the process
    /// changes its environment after start.
    private let inherited = HookEnvironment.inheritable(ChildSpawn.environment(), dropping: [HookTree.variable + "="])
    /// Drops at the cap are logged at most once per this interval (and at shutdown).
    static let dropReportInterval: Duration = .seconds(10)

    private func log(_ priority: Int, _ message: @autoclosure () -> String) {
        if logs(priority) { sink(priority, message()) }
    }

    /// poll's timeout until `instant`: whole milliseconds rounded up, 0 when it has passed.
    private static func milliseconds(until instant: Instant) -> Int32 {
        Int32(clamping: Swift.max(0, ((instant - MonotonicClock.now()).totalMicroseconds + 999) / 1000))
    }

    /// `reapsAdoptedChildren`: this process starts no children but hooks (the daemon, `listen`),
    /// so any zombie adopted as the subreaper is a hook's and is reaped; never in the test
    /// process, whose other children are not ours to wait for.
    public init(bindings: [Binding] = [], limits: HookLimits = HookLimits(), reapsAdoptedChildren: Bool = false,
                logs: @escaping @Sendable (Int) -> Bool = { _ in true }, log: @escaping HookLog) {
        shared = Mutex(Shared(matcher: BindingMatcher(bindings: bindings), limits: limits))
        sink = log
        self.logs = logs
        self.reapsAdoptedChildren = reapsAdoptedChildren
        // A hook's background children (`cmd &`, `setsid cmd &`) are orphaned when its shell
        // exits; as their reaper we can reap and end them instead of leaving them to pid 1.
        ChildSpawn.becomeSubreaper()
        var ends = (Poll.skipped, Poll.skipped)
        do {
            let pipe = try FileDescriptor.pipe()
            for end in [pipe.readEnd, pipe.writeEnd] { end.setNonBlocking() }
            ends = (pipe.readEnd, pipe.writeEnd)
        } catch { log(3, "gestured bug: cannot create the hook runner's wake pipe: \(error)") }
        (wakeRead, wakeWrite) = ends
        thread = Mutex(nil)
        do {
            // The worker holds the runner until it ends (shutdown joins it).
            let started = try SystemThread.start { [self] in workerLoop() }
            thread.withLock { $0 = started }
        } catch {
            log(3, "gestured bug: cannot start the hook thread: \(error); hooks will not run")
        }
    }

    /// Replaces the bindings and limits (config reload). Cooldowns restart; running children
    /// keep their old timeouts.
    public func update(bindings: [Binding], limits: HookLimits) {
        shared.withLock {
            $0.matcher = BindingMatcher(bindings: bindings)
            $0.limits = limits
            $0.lastStart = [:]
            $0.generation += 1
        }
    }

    public var statistics: HookStatistics { shared.withLock { $0.stats } }

    /// Runs every binding `event` matches (with `focus`, the focused application, for `app:`).
    /// Never blocks on a child.
    public func handle(_ event: GestureEvent, device: HookDevice, focus: AppFocus = .unknown) {
        let queued = shared.withLock { s -> Bool in
            guard !s.stopping else { return false }
            let hits = s.matcher.match(event, device: device, focus: focus)
            var any = false
            for i in hits { if enqueue(&s, binding: s.matcher.bindings[i], event: event, device: device) { any = true } }
            return any
        }
        if queued { wake() }
    }

    /// Runs one binding for `event` without matching (cooldown and the cap still apply).
    /// `gestured listen` and tests use it. Returns false when it was skipped or dropped.
    @discardableResult
    public func run(_ binding: Binding, event: GestureEvent, device: HookDevice) -> Bool {
        let queued = shared.withLock { s -> Bool in
            guard !s.stopping else { return false }
            return enqueue(&s, binding: binding,
                           event: event, device: device)
        }
        if queued { wake() }
        return queued
    }

    private func enqueue(_ s: inout Shared, binding: Binding, event: GestureEvent, device: HookDevice) -> Bool {
        let now = MonotonicClock.now()
        if binding.cooldown > .zero, let last = s.lastStart[binding],
           now - last < binding.cooldown {
            s.stats.skippedInCooldown += 1
            log(7, "hook \(binding.location): in cooldown, skipped \(event.kind) \(event.phase.rawValue)")
            return false
        }
        if s.stats.running + s.pending.count >= s.limits.maxConcurrent {
            s.stats.droppedAtCap += 1
            s.dropsSinceLog += 1
            if s.lastDropLog.map({ now - $0 >= Self.dropReportInterval }) ?? true {
                log(4, "hook \(binding.location): \(s.dropsSinceLog) gesture(s) dropped: \(s.limits.maxConcurrent) hooks already running (hooks.max_concurrent)")
                s.lastDropLog = now; s.dropsSinceLog = 0
            }
            return false
        }
        // Read only for a binding with a cooldown: hashing every binding that runs (its strings,
        // chords and sets) would cost each hook run a walk through all of it.
        if binding.cooldown > .zero { s.lastStart[binding] = now }
        s.pending.append(Request(binding: binding, event: event, device: device))
        return true
    }

    private func wake() {
        // A full pipe already means "wake up".
        _ = [UInt8(1)].withUnsafeBytes { try? wakeWrite.write($0) }
    }

    /// Stops accepting gestures, sends SIGTERM to running children, SIGKILL to those still there
    /// after `killAfter`, reaps them and ends the thread. Blocks for at most about `killAfter`.
    public func shutdown() {
        let already = shared.withLock { s -> Bool in defer { s.stopping = true }; return s.stopping }
        wake()
        guard !already, let worker = thread.withLock({ t -> SystemThread? in defer { t = nil }; return t }) else { return }
        worker.join()
        wakeRead.close(); wakeWrite.close()
    }

    // MARK: the worker thread

    private func workerLoop() {
        if !PidFD.available {
            log(4, "hooks: pidfd_open is not available (Linux < 5.3 or glibc < 2.36): checking running hooks every 50 ms")
        }
        let tree = HookTree(reapsAdoptedChildren: reapsAdoptedChildren)
        var children: [ChildProcess] = []
        var limiter = OutputRateLimiter()
        var stopSent = false
        while true {
            // Requests move from pending to running under one lock, so the cap check in
            // `enqueue` (running + pending) never sees them in neither.
            let (requests, stopping, limits) = shared.withLock { s -> ([Request], Bool, HookLimits) in
                defer { s.pending.removeAll() }
                if !s.stopping { s.stats.running += s.pending.count }
                return (s.pending, s.stopping, s.limits)
            }
            for r in requests {
                if stopping { continue }
                if let c = spawn(r, limits: limits, tree: tree) {
                    children.append(c)
                    shared.withLock { $0.stats.started += 1 }
                } else {
                    shared.withLock { $0.stats.failedToStart += 1; $0.stats.running -= 1 }
                }
            }
            let now = MonotonicClock.now()
            if stopping && !stopSent {
                stopSent = true
                for c in children where c.timeout.stop(now: now) { c.signalTree(.terminate) }
            }
            let dropsDue = reportDrops(now: now, force: stopping)
            if stopping && children.isEmpty { break }
            for c in children { enforceTimeout(c, now: now) }

            // Poll: the wake pipe, each child's pidfd and open output pipes.
            var fds = [Poll.Entry(wakeRead, .readable)]
            for c in children {
                fds.append(Poll.Entry(c.pidfd ?? Poll.skipped, .readable))
                fds.append(Poll.Entry(c.stdout ?? Poll.skipped, .readable))
                fds.append(Poll.Entry(c.stderr ?? Poll.skipped, .readable))
            }
            do { try Poll.wait(&fds, timeoutMilliseconds: pollTimeout(children, tree: tree, dropsDue: dropsDue)) } catch {
                if error != .interrupted {
                    log(3, "gestured bug: hook poll failed: \(error)")
                    MonotonicClock.sleep(for: .milliseconds(10))
                }
            }
            if !fds[0].returned.isEmpty {
                var buf = [UInt8](repeating: 0, count: 64)
                while (buf.withUnsafeMutableBytes { try? wakeRead.read(into: $0) } ?? 0) > 0 {}
            }
            var shellExited = false
            for (i, c) in children.enumerated() {
                let base = 1 + 3 * i
                if c.stdout != nil && !fds[base + 1].returned.isEmpty { drain(c, stdout: true, limiter: &limiter, limits: limits) }
                if c.stderr != nil && !fds[base + 2].returned.isEmpty { drain(c, stdout: false, limiter: &limiter, limits: limits) }
                if collectShell(c, pidfdReady: !fds[base].returned.isEmpty) { shellExited = true }
            }
            // A shell that just exited may have left processes outside its group: look at once.
            if !children.isEmpty && (shellExited || tree.scanDue(now: MonotonicClock.now())) {
                scan(tree, children)
            }
            var finished: [Int] = []
            for (i, c) in children.enumerated() where isOver(c, tree: tree) { finished.append(i) }
            for i in finished.reversed() {
                let c = children.remove(at: i)
                drain(c, stdout: true, limiter: &limiter, limits: limits, final: true)
                drain(c, stdout: false, limiter: &limiter, limits: limits, final: true)
                c.closeAll()
                shared.withLock { $0.stats.exited += 1; $0.stats.running -= 1 }
            }
        }
        // Stopped: whatever still carries this runner's marker outlived its hook; end it.
        scan(tree, [])
        if limiter.suppressed > 0 { log(6, "hooks: \(limiter.suppressed) output line(s) suppressed (hooks.output_lines_per_minute)") }
    }

    /// Reads /proc for the hooks' trees: a process found for a hook already signalled gets the
    /// same signal; one whose hook is over is killed.
    private func scan(_ tree: HookTree, _ children: [ChildProcess]) {
        let found = tree.scan(children, now: MonotonicClock.now())
        for c in children where c.leaderReaped { c.scannedSinceReaped = true }
        for (c, pid) in found.joined {
            log(7, "hook \(c.label): process \(pid) found in the hook's tree")
            if let s = c.lastSignal, let start = c.members[pid] { HookTree.signal(pid, startTime: start, s) }
        }
        for stray in found.strays {
            log(4, "hooks: process \(stray.pid) of hook #\(stray.hookID) outlived its hook: sent SIGKILL")
            HookTree.signal(stray.pid, startTime: stray.startTime, .kill)
        }
    }

    /// Sends the signal the child's timeout calls for at `now`, if any.
    private func enforceTimeout(_ c: ChildProcess, now: Instant) {
        switch c.timeout.step(now: now) {
        case .terminate?:
            c.signalTree(.terminate)
            shared.withLock { $0.stats.terminated += 1 }
            log(4, "hook \(c.label): timed out, sent SIGTERM")
        case .kill?:
            c.signalTree(.kill)
            shared.withLock { $0.stats.killed += 1 }
            log(4, "hook \(c.label): still running \(c.timeout.killAfter.totalMicroseconds / 1000) ms after SIGTERM, sent SIGKILL")
        case nil:
            break
        }
    }

    /// How long poll may sleep (ms, -1: until something happens): until the next timeout step,
    /// the next /proc scan while a hook runs, at most 50 ms while a child has no pidfd, until
    /// the next report of drops.
    private func pollTimeout(_ children: [ChildProcess], tree: HookTree, dropsDue: Instant?) -> Int32 {
        var next = Instant.earliest(children.lazy.map(\.timeout.nextDeadline))
        if !children.isEmpty { next = Instant.earliest(next, tree.nextScan) }
        next = Instant.earliest(next, dropsDue)
        var timeout = next.map(Self.milliseconds(until:)) ?? -1
        if children.contains(where: { $0.pidfd == nil }) {
            timeout = timeout < 0 ? 50 : Swift.min(timeout, 50)
        }
        return timeout
    }

    /// Collects the hook's shell if it has exited, and logs how it ended. True when it just did.
    private func collectShell(_ c: ChildProcess, pidfdReady: Bool) -> Bool {
        guard !c.leaderReaped, c.pidfd == nil || pidfdReady, let exit = c.reap() else { return false }
        switch exit {
        case .status(let code): log(code == 0 ? 7 : 4, "hook \(c.label): exited with status \(code)")
        case .signal(let sig): log(c.timeout.termSent ? 6 : 4, "hook \(c.label): killed by signal \(sig)")
        case .unknown(let e): log(7, "hook \(c.label): exited (status not available: \(e))")
        }
        return true
    }

    /// True when the hook is over: its shell was collected, and a scan since found no process of
    /// its tree left (its group empty, no member outside it) and none it could not place.
    private func isOver(_ c: ChildProcess, tree: HookTree) -> Bool {
        guard c.leaderReaped, c.scannedSinceReaped, !tree.undecided else { return false }
        guard c.treeAlive() else { return true }
        if !c.reportedBackground {
            c.reportedBackground = true
            log(7, "hook \(c.label): exited, its background processes still run (they count against hooks.max_concurrent and hooks.timeout_ms)")
        }
        return false
    }

    /// Logs the gestures dropped at the cap since the last report once its 10 s are up (or now,
    /// when stopping), so a burst that ends inside the window is still counted in full. Returns
    /// when the next report is due, if drops are waiting.
    private func reportDrops(now: Instant, force: Bool) -> Instant? {
        let (n, cap, due) = shared.withLock { s -> (Int, Int, Instant?) in
            guard s.dropsSinceLog > 0, let last = s.lastDropLog else { return (0, 0, nil) }
            guard force || now - last >= Self.dropReportInterval else { return (0, 0, last + Self.dropReportInterval) }
            defer { s.dropsSinceLog = 0; s.lastDropLog = now }
            return (s.dropsSinceLog, s.limits.maxConcurrent, nil)
        }
        if n > 0 { log(4, "hooks: \(n) more gesture(s) dropped: \(cap) hooks already running (hooks.max_concurrent)") }
        return due
    }

    /// Logs the lines a child's pipe holds (at the end, also its last partial line), rate-limited.
    private func drain(_ c: ChildProcess, stdout: Bool, limiter: inout OutputRateLimiter, limits: HookLimits, final: Bool = false) {
        for line in c.readLines(stdout: stdout, final: final) {
            let (admitted, suppressedBefore) = limiter.admit(now: MonotonicClock.now(), limit: limits.outputLinesPerMinute)
            if suppressedBefore > 0 {
                log(6, "hooks: \(suppressedBefore) output line(s) suppressed in the last minute (hooks.output_lines_per_minute)")
            }
            guard admitted else {
                shared.withLock { $0.stats.outputLinesSuppressed += 1 }
                continue
            }
            log(6, "hook \(c.label) \(stdout ? "stdout" : "stderr"): \(OutputLineBuffer.text(line))")
        }
    }

    private func spawn(_ r: Request, limits: HookLimits, tree: HookTree) -> ChildProcess? {
        let binding = r.binding
        let label = { "\(binding.location) [\(binding.gesture)]" }
        let id = tree.newMarker()
        let env = HookEnvironment.make(event: r.event, device: r.device, inherited: inherited,
                                       marker: (tree.markerPrefix, id))
        do {
            let c = try ChildProcess(command: r.binding.command, environment: env, hookID: id, label: label(),
                                     timeout: r.binding.timeout ?? limits.timeout, killAfter: limits.killAfter)
            log(7, "hook \(label()): started pid \(c.pid) for \(r.event.kind) \(r.event.phase.rawValue)")
            return c
        } catch {
            log(3, "hook \(label()): \(error.message)")
            return nil
        }
    }
}
