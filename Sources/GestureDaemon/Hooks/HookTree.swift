import GestureCore
import LinuxSystem

/// Finds every process a running hook started, `setsid` included, so that all of them count
/// against `hooks.max_concurrent`, get the hook's timeout signals and are ended when the runner
/// stops (docs/CONFIG.md, "What a hook owns").
///
/// A hook's shell runs in a process group of its own, but `setsid` (or `setpgid`) takes a process
/// out of it, and once the shell exits such a process is adopted by this process (the runner
/// makes it a child subreaper) or by init. So each hook's environment carries a marker,
/// `GESTURED_HOOK=<token>:<hook id>`, the token this runner's own (pid and 64 random bits), and
/// while any hook runs the worker reads /proc every `scanInterval`: a process of our uid whose
/// environment holds our token belongs to that hook, and so does a child of a known member
/// (one that cleared its environment is still found through its parent, if seen while the parent
/// lived). A member is known by pid and start time, so a reused pid is never taken for it.
///
/// A scan reads /proc/PID/stat only of the processes it must: its members, and processes it has
/// not placed yet. One found not to be a hook's (a stranger) is not read again while the pids
/// cannot have wrapped since the last scan (`ProcessTable.lastPid` did not go down, and that scan
/// was at most `incrementalWindow` ago): pids are handed out upwards, so a listed pid that was a
/// stranger's is still that stranger. Otherwise every process is read again. On a host with a
/// hundred processes this is a few syscalls a scan instead of three hundred, which a burst of
/// short hooks (a `rotate` binding with `every:`) pays every time a shell exits.
///
/// Zombies: a member that exited and whose parent is this process (adopted) is reaped here by its
/// pid. A zombie never seen alive (a short `setsid` child that exited between two scans) cannot be
/// told apart from another child of this process by /proc alone; it is reaped only when
/// `reapsAdoptedChildren` is on, which the daemon and `listen` turn on (their only children are
/// hooks) and the unit tests never do (swift-testing's exit tests are the test process's children
/// too: docs/ARCHITECTURE.md, "Child processes in tests"). It never waits for any pid but one it
/// names (no `waitpid(-1)`).
///
/// Owned by the hook runner's worker thread.
final class HookTree {
    /// The environment variable that marks a hook's processes.
    static let variable = "GESTURED_HOOK"
    /// How often /proc is read while a hook runs (also right after a hook's shell exits).
    static let scanInterval: Duration = .milliseconds(100)

    let token: String
    /// `GESTURED_HOOK=<token>:`, what every marker of this runner starts with; a hook's ends
    /// with its id (`HookEnvironment.make`).
    let markerPrefix: String
    let reapsAdoptedChildren: Bool
    private let ownPid = CurrentProcess.id
    private let ownUID = CurrentProcess.effectiveUserID
    private var nextID = 1
    private var lastScan: Instant?
    /// `ProcessTable.lastPid()` at the last scan.
    private var lastPidAtScan: Int32?
    /// The longest time between two scans for the second to trust the first's strangers without
    /// reading them again (a wrap of every pid within it would take over 32 000 forks a second).
    static let incrementalWindow: Duration = .seconds(1)
    /// Processes read once and found not to be a hook's, by pid with their start time (their
    /// environment does not change, and a process forked from a member is new).
    private var strangers = PidMap<UInt64>()
    /// Processes of our uid whose environment read empty, and in how many scans in a row. In
    /// the middle of execve a process's environment reads empty for a moment, so one such read
    /// decides nothing; three do (a process started with no environment at all).
    private var emptyReads = PidMap<(startTime: UInt64, scans: Int)>()
    static let emptyReadsToDecide = 3
    /// The last scan met a process it could not yet place (its environment read empty): no hook
    /// may be taken for over until a scan places it, since it may be that hook's.
    private(set) var undecided = false

    init(reapsAdoptedChildren: Bool) {
        var random = SystemRandomNumberGenerator()
        token = "\(CurrentProcess.id)-\(String(random.next() as UInt64, radix: 16))"
        markerPrefix = "\(Self.variable)=\(token):"
        self.reapsAdoptedChildren = reapsAdoptedChildren
    }

    /// A new hook's id: its marker is `markerPrefix` and the id.
    func newMarker() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    /// When the next scan is due while hooks run.
    var nextScan: Instant? { lastScan.map { $0 + Self.scanInterval } }

    func scanDue(now: Instant) -> Bool { lastScan.map { now - $0 >= Self.scanInterval } ?? true }

    /// What one scan found.
    struct Findings {
        /// Processes newly attributed to a running hook.
        var joined: [(hook: ChildProcess, pid: Int32)] = []
        /// Processes carrying this runner's token whose hook is already over: to be killed.
        var strays: [(pid: Int32, startTime: UInt64, hookID: Int)] = []
        /// Adopted zombies reaped (members and, with `reapsAdoptedChildren`, any other).
        var reaped = 0
    }

    /// Reads /proc once: drops members that ended (reaping the ones adopted here), attributes new
    /// processes to `hooks`, and reports strays. `hooks` are the running hooks.
    func scan(_ hooks: [ChildProcess], now: Instant) -> Findings {
        let lastPid = ProcessTable.lastPid()   // before the listing: a pid made after it is read as new
        let trusted = Self.strangersStillHold(previousScan: lastScan, now: now, previousLastPid: lastPidAtScan, lastPid: lastPid)
        lastScan = now
        lastPidAtScan = lastPid
        undecided = false
        var findings = Findings()
        var table = PidMap<ProcessTable.Entry>()
        let listed = ProcessTable.pids().sorted()
        for pid in listed where !(trusted && strangers.contains(pid)) {
            if let e = ProcessTable.entry(pid) { table[pid] = e }
        }
        if trusted {
            var present = PidMap<Void>()
            for pid in listed { present[pid] = () }
            strangers.keep { pid, _ in present.contains(pid) }
        }
        // Members that ended: gone, their pid reused, or a zombie (reaped here when ours).
        var owner = PidMap<ChildProcess>()
        for hook in hooks {
            var ended: [Int32] = []
            hook.members.forEach { pid, start in
                guard let e = table[pid], e.startTime == start else { ended.append(pid); return }
                if e.isZombie {
                    if e.parent == ownPid, (try? ChildSpawn.waitNoHang(pid)) != nil { findings.reaped += 1 }
                    ended.append(pid)
                    return
                }
                owner[pid] = hook
            }
            for pid in ended { hook.members[pid] = nil }
            if !hook.leaderReaped { owner[hook.pid] = hook }
        }
        var leaders = PidMap<Void>()   // collected by the runner itself
        for hook in hooks where !hook.leaderReaped { leaders[hook.pid] = () }
        let prefix = markerPrefix
        // Parents start before their children: in start-time order a new member's children
        // are attributed in the same pass.
        for e in table.values.sorted(by: { ($0.startTime, $0.pid) < ($1.startTime, $1.pid) }) {
            if owner[e.pid] != nil || leaders.contains(e.pid) { continue }
            if e.isZombie {
                // Never seen alive, so not provably a hook's: only the daemon reaps it.
                if e.parent == ownPid && reapsAdoptedChildren, (try? ChildSpawn.waitNoHang(e.pid)) != nil {
                    findings.reaped += 1
                }
                continue
            }
            if strangers[e.pid] == e.startTime { continue }
            if let hook = owner[e.parent] {
                join(hook, e, &owner, &findings)
                continue
            }
            // A kernel thread (kthreadd or its child): its environment is empty or, on newer
            // kernels, unreadable (ESRCH), and it never runs a hook's code.
            if e.pid == 2 || e.parent == 2 { strangers[e.pid] = e.startTime; continue }
            guard ProcessTable.owner(e.pid) == ownUID else { strangers[e.pid] = e.startTime; continue }
            switch ProcessTable.environment(of: e.pid, entryStartingWith: prefix) {
            case .found(let idText)?:
                if let id = Int(idText), let hook = hooks.first(where: { $0.hookID == id }) {
                    join(hook, e, &owner, &findings)
                } else if let id = Int(idText) {
                    findings.strays.append((e.pid, e.startTime, id))
                }
            case .absent?: strangers[e.pid] = e.startTime
            case .empty?:
                // Perhaps a process in the middle of execve, a hook's among them: read it again
                // next scan.
                let scans = (emptyReads[e.pid].map { $0.startTime == e.startTime ? $0.scans : 0 } ?? 0) + 1
                if scans >= Self.emptyReadsToDecide {
                    strangers[e.pid] = e.startTime
                    emptyReads[e.pid] = nil
                } else {
                    emptyReads[e.pid] = (e.startTime, scans)
                    undecided = true
                }
            case nil: break   // unreadable for now (exiting): next scan
            }
        }
        if !trusted { strangers.keep { pid, start in table[pid]?.startTime == start } }
        emptyReads.keep { pid, read in table[pid]?.startTime == read.startTime && !strangers.contains(pid) }
        return findings
    }

    /// Whether the strangers of the scan before still name the same processes by pid alone: it
    /// was recent and the pids have not wrapped since (see the type's comment).
    static func strangersStillHold(previousScan: Instant?, now: Instant, previousLastPid: Int32?, lastPid: Int32?) -> Bool {
        guard let previousScan, let previousLastPid, let lastPid else { return false }
        return now - previousScan <= incrementalWindow && lastPid >= previousLastPid
    }

    private func join(_ hook: ChildProcess, _ e: ProcessTable.Entry, _ owner: inout PidMap<ChildProcess>,
                      _ findings: inout Findings) {
        hook.members[e.pid] = e.startTime
        owner[e.pid] = hook
        findings.joined.append((hook, e.pid))
    }

    /// Sends `signal` to `pid` if it is still the process that started at `startTime`.
    static func signal(_ pid: Int32, startTime: UInt64, _ signal: Signal) {
        guard ProcessTable.entry(pid)?.startTime == startTime else { return }
        ChildSpawn.signal(pid, signal)
    }
}
