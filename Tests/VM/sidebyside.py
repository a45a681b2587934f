#!/usr/bin/env python3
"""Side by side: gestured and its peers reading the same kernel device at the same time.

Runs inside the kernel VM (started by Tests/VM/sidebyside.sh, as root, with real evdev, uinput and
udevd), against the release binaries built on the host and Debian's libinput-tools and lisgd.

usage: sidebyside.py --bin BIN --root ROOT [--quick] [--scenario=NAME] [--bare] [--split] [--spread] [--libinput-first] [--floor=PATH] [--last-bin=PATH] [throughput] [latency] [recognition] [profile] [syscalls] [instructions]

throughput   per scenario, one uinput device (gestured-uinput, from a recording's header) plays real
             recordings from Tests/Fixtures back to back, read at once by `gestured run` (realistic
             bindings, one client: Tests/VM/socketreader.py, a process of its own as the text
             stack's reader is, taking its lines through a pipe as that reader does),
             `gestured-socket` (the same with the client's lines on the socket itself),
             `libinput debug-events`, `lisgd` and `gestured-commands`
             (touchscreens: lisgd's swipes bound, no client, lisgd's own terms) and the
             text stack: `libinput debug-events` piped into tools/textstack.py, a stand-in for
             libinput-gestures. Prints `name: value` lines: CPU per 10 000 events (utime + stime of
             the whole process, all threads, from /proc/PID/stat; both processes for the text
             stack), Rss (smaps_rollup), VmRSS and Private_Dirty (highest sample while streaming), VmHWM, ratios.
             Every process of the run (this driver, the player, the readers, the processes
             reading their output) runs on one vCPU; --spread leaves them to the scheduler.
             --scenario=NAME runs only the scenarios whose name contains NAME (e.g. 3m, bcm5974);
             --bare adds `gestured-bare`: a second daemon with no bindings and no client, to
             tell the recognition path from what hooks and the socket cost; --split adds also
             `gestured-bindings` (the bindings, no client) and `gestured-client` (a client, no
             bindings). `gestured-last` (always) is a second copy of `gestured` at the other end
             of the order the readers open the device in. The kernel wakes a device's readers in
             that order and a reader's place in it moves its CPU (3-10 % on one vCPU; spread, the
             first reader's figure 1.4-1.8 times), so each scenario runs twice: every reader
             started only once the one before it has the device open, first in one order, then
             in the reverse one. Every figure is both passes together (`_by_order` shows each).
             `libinput-piped` is the text stack's libinput alone (libinput with a reader
             on its output, as gestured has one). --floor=PATH adds `floor` (Tests/VM/evdev-floor.c:
             epoll_wait and read, nothing else: what any reader pays) and each figure above it.
latency      Tests/VM/latency.py: one process, one monotonic clock, synthetic protocol-B gestures;
             every consumer at once, then each alone on a fresh device (`latency.KIND.alone.*`).
recognition  each touchpad recording played into uinput: libinput's gestures (with and without
             --enable-tap) next to gestured's.
profile      gestured alone on the 3M recording: syscalls and mallocs per frame, perf profile, smaps.
syscalls     strace -c of gestured, gestured-bare, libinput (and lisgd on a touchscreen) on one playback
             (bcm5974, or --scenario=NAME), per frame.
instructions user-mode instructions per event of gestured, gestured-bare, libinput (and the floor)
             under callgrind, each recording played once: what a real CPU would execute, which
             emulated CPU time does not show (Tests/VM/sidebyside_instructions.py).
"""
import json, os, select, subprocess, sys, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
ARGS = sys.argv[1:]
QUICK = "--quick" in ARGS
if QUICK: ARGS.remove("--quick")
BARE = "--bare" in ARGS
if BARE: ARGS.remove("--bare")
SPLIT = "--split" in ARGS
LIBINPUT_FIRST = "--libinput-first" in ARGS  # latency: a libinput opened before gestured (a control)
if LIBINPUT_FIRST: ARGS.remove("--libinput-first")
if SPLIT: ARGS.remove("--split"); BARE = True
# Throughput runs every process of a scenario on one vCPU (PLACE_CPU): the driver (this script),
# the uinput player, every reader and the processes reading their output. Under TCG a reader that
# runs while the other vCPU works costs more emulated time; spread over both vCPUs (--spread, the
# scheduler's choice), the reader the kernel wakes first (the one that opened the device first)
# ran beside the others and cost 1.4-1.8 times what the same binary cost opened last.
PLACE_CPU = 1
SPREAD = "--spread" in ARGS
if SPREAD: ARGS.remove("--spread")
ONLY = [a.split("=", 1)[1] for a in ARGS if a.startswith("--scenario=")]
ARGS = [a for a in ARGS if not a.startswith("--scenario=")]
FLOOR = next((a.split("=", 1)[1] for a in ARGS if a.startswith("--floor=")), None)
# --last-bin=PATH runs gestured-last from another build: an A/B of two builds in one run (swap
# them between runs, since the order the readers opened the device moves the figures too).
LAST_BIN = next((a.split("=", 1)[1] for a in ARGS if a.startswith("--last-bin=")), None)
ARGS = [a for a in ARGS if not a.startswith(("--floor=", "--last-bin="))]
sys.argv = [sys.argv[0]] + [a for a in ARGS if a.startswith("--") or os.path.sep in a]
sys.path.insert(0, HERE)
import suite  # noqa: E402  (Device, Daemon, Client, Lines, settle)
from suite import Device, Daemon, settle, FIX, GESTURED, WORK  # noqa: E402
MODES = [a for a in ARGS if not a.startswith("--") and os.path.sep not in a] or ["throughput", "latency"]
TEXTSTACK = os.path.join(HERE, "textstack.py")

CLK_TCK = os.sysconf("SC_CLK_TCK")

# Bindings a user might have (Tests/VM/sidebyside-bindings.yaml, shared with scripts/gen-order.sh).
BINDINGS = open(os.path.join(HERE, "sidebyside-bindings.yaml")).read()
# The same bindings for lisgd (touch events only; "P" fires while the fingers are down).
LISGD_GESTURES = ["3,LR,*,*,R,:", "3,RL,*,*,R,:", "4,DU,*,*,R,:", "4,UD,*,*,R,:", "2,LR,*,*,R,:"]
# lisgd's terms for gestured (`gestured-commands` on touchscreens): those swipes only, each
# running its command, no socket client, as lisgd runs.
LISGD_BINDINGS = """bindings:
  - {gesture: swipe, fingers: 3, direction: [left, right], command: ':'}
  - {gesture: swipe, fingers: 4, direction: [up, down], command: ':'}
  - {gesture: swipe, fingers: 2, direction: right, command: ':'}
log: {level: warning}
"""

SCENARIOS = [  # name, device header, recording, times played in each order (full run)
    ("touchscreen_3m_10f", f"{FIX}/touchscreen-3m-10finger-mixed-rotate-pinch-drags__whot-evemu.evemu", None, 1),
    ("touchpad_bcm5974_protoA", f"{FIX}/touchpad-protoA-bcm5974-1f-move-2f-swipe-left-3f-swipe-right-4f-taps__whot-evemu.evemu", None, 3),
    ("touchpad_hp8470p", f"{FIX}/touchpad-synaptics-hp8470p__whot-evemu-devices.desc",
     f"{FIX}/touchpad-synaptics-hp8470p-1finger-right-edge-swipe-down__whot-evemu-devices.events", 10),
]


ERRORS = []

def say(name, value):
    if name.endswith(".error"): ERRORS.append(f"{name}: {value}")
    print(f"{name}: {value}", flush=True)

def user_system_ticks(pid):
    """(utime, stime) of the whole process (every thread), in clock ticks."""
    with open(f"/proc/{pid}/stat") as f: fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]), int(fields[12])

def threads_user_system(pid):
    """{"main" | "other": (utime, stime)}: the process's first thread (the daemon's event loop)
    and the sum of every other (the hook runner's worker among them), in clock ticks."""
    out = {"main": (0, 0), "other": (0, 0)}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try: user, system = user_system_ticks(f"{pid}/task/{tid}")
        except OSError: continue
        key = "main" if int(tid) == pid else "other"
        u, s = out[key]; out[key] = (u + user, s + system)
    return out

def minor_faults(pid):
    """Minor page faults of the whole process so far (a fault is kernel time no syscall shows)."""
    with open(f"/proc/{pid}/stat") as f: return int(f.read().rsplit(")", 1)[1].split()[7])

def status_kb(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"): return int(line.split()[1])
    return 0

def rollup_kb(pid, key):
    """A field of /proc/PID/smaps_rollup (walked from the page tables: exact, where VmRSS in
    /proc/PID/status is a counter the 6.1 kernel updates every 64 page faults of a thread, so it
    can lag by megabytes when each fault maps 64 kB of code)."""
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            if line.startswith(key + ":"): return int(line.split()[1])
    return 0

def private_dirty_kb(pid): return rollup_kb(pid, "Private_Dirty")


def wakeups_and_syscalls(pid):
    """(voluntary context switches of every thread, read-like + write-like syscalls from /proc/PID/io)."""
    switches = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        switches += status_kb(f"{pid}/task/{tid}", "voluntary_ctxt_switches")
    io = dict(l.split(":") for l in open(f"/proc/{pid}/io"))
    return switches, int(io["syscr"]) + int(io["syscw"])


class Consumer:
    """One reader of the device: one or more processes measured together."""
    def __init__(self, name, procs):
        self.name, self.procs = name, procs
        self.rss = self.dirty = self.hwm = self.smaps_rss = self.huge = 0

    def pids(self): return [p.pid for p in self.procs]
    def user_system(self):
        """(utime, stime) of every process of the consumer, summed, read once."""
        pairs = [user_system_ticks(p) for p in self.pids()]
        return sum(u for u, _ in pairs), sum(s for _, s in pairs)
    def ticks(self): return sum(self.user_system())
    def sample(self):
        try:
            self.rss = max(self.rss, sum(status_kb(p, "VmRSS") for p in self.pids()))
            self.dirty = max(self.dirty, sum(private_dirty_kb(p) for p in self.pids()))
            self.smaps_rss = max(self.smaps_rss, sum(rollup_kb(p, "Rss") for p in self.pids()))
            # Transparent huge pages (the VM's kernel makes them always): 2 MB each.
            self.huge = max(self.huge, sum(rollup_kb(p, "AnonHugePages") for p in self.pids()))
        except OSError: pass
    def wakeups(self):
        """Voluntary context switches of every thread of every process (each is a wait that ended)."""
        try: return sum(wakeups_and_syscalls(p)[0] for p in self.pids())
        except OSError: return 0
    def preemptions(self):
        """Involuntary context switches of every thread of every process (another task ran first)."""
        try: return sum(status_kb(f"{p}/task/{t}", "nonvoluntary_ctxt_switches")
                        for p in self.pids() for t in os.listdir(f"/proc/{p}/task"))
        except OSError: return 0
    def faults(self):
        try: return sum(minor_faults(p) for p in self.pids())
        except OSError: return 0
    def finish(self): self.hwm = sum(status_kb(p, "VmHWM") for p in self.pids())
    def alive(self): return all(p.poll() is None for p in self.procs)
    def stop(self):
        for p in self.procs:
            if p.poll() is None: p.terminate()
        for p in self.procs:
            try: p.wait(timeout=5)
            except subprocess.TimeoutExpired: p.kill(); p.wait()


def connect(d):
    """A socket client; retried briefly (the socket file exists a moment before listen())."""
    deadline = time.monotonic() + 10
    while True:
        try: return d.client()
        except ConnectionRefusedError:
            if time.monotonic() > deadline: raise
            time.sleep(0.05)


SOCKETREADER = os.path.join(HERE, "socketreader.py")


class Reader:
    """A client of a daemon's socket in a process of its own (Tests/VM/socketreader.py), as the
    text stack's reader of libinput's pipe is one: it reads every line and counts them."""
    def __init__(self, d, via="pipe"):
        self.p = subprocess.Popen([sys.executable, SOCKETREADER, d.socket, f"--via={via}"], stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)
        self.lines = None
        self.wait_connected(d)

    def wait_connected(self, d, limit_s=30):
        """Until the reader says it connected, and the daemon has had a moment to greet it."""
        ready, _, _ = select.select([self.p.stdout], [], [], limit_s)
        if not ready or self.p.stdout.readline().strip() != "connected":
            raise RuntimeError(f"socketreader.py did not connect to {d.socket}")
        time.sleep(0.3)

    def close(self):
        """Stops the reader; how many lines it read."""
        if self.lines is None:
            if self.p.poll() is None: self.p.terminate()
            try: out, _ = self.p.communicate(timeout=5)
            except subprocess.TimeoutExpired: self.p.kill(); out, _ = self.p.communicate()
            try: self.lines = int(out.split()[-1])
            except (ValueError, IndexError): self.lines = 0
        return self.lines


def wait_opened(p, node, limit_s=30):
    """Until process p holds node open (/proc/PID/fd): the kernel wakes a device's readers in the
    order they opened it, so each reader starts only when the one before it has the device."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if p.poll() is not None: raise RuntimeError(f"{p.args[0]} exited before it opened {node}")
        try:
            for fd in os.listdir(f"/proc/{p.pid}/fd"):
                try:
                    if os.readlink(f"/proc/{p.pid}/fd/{fd}") == node: return
                except OSError: pass
        except OSError: pass
        time.sleep(0.05)
    raise RuntimeError(f"{p.args[0]} did not open {node} within {limit_s} s")


def start_consumers(node, touchscreen, config_path, reverse=False):
    """gestured (+ one socket client), libinput debug-events, the text stack, lisgd on touchscreens,
    and gestured-last, each started once the one before it has opened the device: in this order,
    or (reverse=True) the opposite one. Returns (daemon, its client, consumers in this order,
    the processes that read the consumers' output)."""
    null = open(os.devnull, "w")
    bindings = open(config_path).read()
    readers = []; made = {}
    def served(name, config, via="pipe", binary=None):
        """A daemon measured as `name` and its client, a process of its own reading `via`."""
        d = Daemon(config=config, binary=binary); r = Reader(d, via=via); readers.append(r.p)
        return d, r, [Consumer(name, [d.p])]
    def gestured():
        made["d"], made["client"], consumers = served("gestured", bindings)
        return consumers
    def libinput():
        return [Consumer("libinput", [subprocess.Popen(["libinput", "debug-events", "--device", node], stdout=null, stderr=null)])]
    def textstack():
        ts_li = subprocess.Popen(["stdbuf", "-oL", "libinput", "debug-events", "--device", node],
                                 stdout=subprocess.PIPE, stderr=null)
        ts_py = subprocess.Popen([sys.executable, TEXTSTACK], stdin=ts_li.stdout, stdout=null,
                                 stderr=open(f"{WORK}/textstack.err", "w"))
        ts_li.stdout.close(); readers.append(ts_py)
        # The text stack's libinput alone: libinput with a reader on its output, as gestured has one.
        return [Consumer("textstack", [ts_li, ts_py]), Consumer("libinput-piped", [ts_li])]
    def socket_client(): return served("gestured-socket", bindings, via="socket")[2]
    def bare(): return [Consumer("gestured-bare", [Daemon(config="log: {level: warning}\n").p])]
    def bindings_only(): return [Consumer("gestured-bindings", [Daemon(config=bindings).p])]
    def client_only(): return served("gestured-client", "log: {level: warning}\n")[2]
    def floor(): return [Consumer("floor", [subprocess.Popen([FLOOR, node], stdout=null, stderr=null)])]
    def lisgd():
        argv = ["lisgd", "-d", node, "-w", "3000", "-h", "2000"]
        for g in LISGD_GESTURES: argv += ["-g", g]
        return [Consumer("lisgd", [subprocess.Popen(argv, stdout=null, stderr=null)])]
    def commands(): return [Consumer("gestured-commands", [Daemon(config=LISGD_BINDINGS).p])]
    # A second copy of `gestured` at the other end of the order: in one order gestured opens the
    # device first and gestured-last last, in the reverse order the other way round.
    def last(): return served("gestured-last", bindings, binary=LAST_BIN)[2]
    starters = ([gestured, libinput, textstack, socket_client] + ([bare] if BARE else []) + ([bindings_only, client_only] if SPLIT else [])
                + ([floor] if FLOOR else []) + ([lisgd, commands] if touchscreen else []) + [last])
    for s in (starters[::-1] if reverse else starters):
        made[s] = s()
        wait_opened(made[s][0].procs[0], node)
    consumers = [c for s in starters for c in made[s]]
    return made["d"], made["client"], consumers, readers


def textstack_lines(consumers):
    """Stops the text stack (its CPU is already read) and returns how many lines libinput gave its
    reader (textstack.py writes the count to its stderr as it exits)."""
    next(c for c in consumers if c.name == "textstack").stop()
    try: return int(open(f"{WORK}/textstack.err").read().split()[-1])
    except (OSError, ValueError, IndexError): return 0


def pin_threads(pid, cpu):
    for tid in os.listdir(f"/proc/{pid}/task"):
        try: os.sched_setaffinity(int(tid), {cpu})
        except OSError: pass  # a thread that ended meanwhile


def pin(consumers, readers, dev):
    """Every thread of the run (and what each starts later) on vCPU PLACE_CPU: this script, the
    player, the readers and the processes reading their output."""
    for p in [os.getpid(), dev.p.pid] + [p for c in consumers for p in c.pids()] + [r.pid for r in readers]:
        pin_threads(p, PLACE_CPU)


def settle_cpu(consumers, limit_s=30):
    """Waits until no consumer uses CPU for 0.5 s (libinput loads libwacom's database at start:
    that must not count as event work)."""
    deadline = time.monotonic() + limit_s
    last = [c.ticks() for c in consumers]
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = [c.ticks() for c in consumers]
        if now == last: return
        last = now
    say("settle", f"consumers still busy after {limit_s} s")


def one_pass(header, recording, times, touchscreen, config, reverse):
    """Starts the consumers in one order, plays the recording `times` times and returns what each
    consumer used meanwhile: {"events", "wall", "ticks": {name: (user, system)}, "woken",
    "preempted", "faulted", "memory": {name: Consumer}, "socket_lines", "textstack_lines", "io",
    "dead", "dropped"}."""
    dev = Device(header)
    d, client, consumers, readers = start_consumers(dev.node, touchscreen, config, reverse)
    try:
        time.sleep(1.0); settle_cpu(consumers)  # every consumer has opened the device and is idle
        if not SPREAD: pin(consumers, readers, dev)
        before = {c.name: c.user_system() for c in consumers}
        io_before = wakeups_and_syscalls(d.p.pid)
        threads_before = threads_user_system(d.p.pid)
        woken_before = {c.name: c.wakeups() for c in consumers}
        preempted_before = {c.name: c.preemptions() for c in consumers}
        faults_before = {c.name: c.faults() for c in consumers}
        events = 0; stop = threading.Event()
        def sampler():
            while not stop.wait(0.5):
                for c in consumers: c.sample()
        threading.Thread(target=sampler, daemon=True).start()
        t0 = time.monotonic()
        for _ in range(times):
            answer = dev.do(f"play {recording or header}", timeout=600)
            events += int(answer.split()[2])
        time.sleep(1.5)  # let every reader drain what is queued
        stop.set()
        wall = time.monotonic() - t0
        for c in consumers: c.sample(); c.finish()
        after = {c.name: c.user_system() for c in consumers}
        io_after = wakeups_and_syscalls(d.p.pid)
        threads_after = threads_user_system(d.p.pid)
        r = {"events": events, "wall": wall,
             "ticks": {c.name: tuple(a - b for a, b in zip(after[c.name], before[c.name])) for c in consumers},
             "woken": {c.name: c.wakeups() - woken_before[c.name] for c in consumers},
             "preempted": {c.name: c.preemptions() - preempted_before[c.name] for c in consumers},
             "faulted": {c.name: c.faults() - faults_before[c.name] for c in consumers},
             "memory": {c.name: c for c in consumers},
             "io": tuple(a - b for a, b in zip(io_after, io_before)),
             "threads": {k: tuple(a - b for a, b in zip(threads_after[k], threads_before[k])) for k in threads_after},
             "dead": [c.name for c in consumers if not c.alive()]}
        r["socket_lines"] = client.close()
        r["textstack_lines"] = textstack_lines(consumers)
        r["dropped"] = d.stderr().count("SYN_DROPPED")
        return r
    finally:
        for c in consumers[1:]: c.stop()
        client.close(); d.stop(); dev.remove()
        for p in readers:
            if p.poll() is None: p.kill()
            p.wait()
        for tid in os.listdir("/proc/self/task"):  # the next pass, scenario and mode start unplaced
            try: os.sched_setaffinity(int(tid), range(os.cpu_count()))
            except OSError: pass
        settle()


def throughput():
    config = f"{WORK}/sidebyside.yaml"; open(config, "w").write(BINDINGS)
    say("cpu_clock", f"utime+stime from /proc/PID/stat, {CLK_TCK} ticks/s")
    say("placement", "spread over the vCPUs by the scheduler (--spread)" if SPREAD else
        f"every process of the run on vCPU {PLACE_CPU}")
    say("order", "two passes a scenario: readers opened in one order, then in the reverse order; figures are both passes'")
    for name, header, recording, times in SCENARIOS:
        if ONLY and not any(o in name for o in ONLY): continue
        times = 1 if QUICK else times
        touchscreen = "touchscreen" in name
        # The kernel wakes a device's readers in the order they opened it, and where a reader
        # stands in that order moves its CPU (3-10 % on one vCPU): every reader opens the device
        # once near the front and once near the back, and its figure is both passes together.
        passes = [one_pass(header, recording, times, touchscreen, config, reverse) for reverse in (False, True)]
        names = list(passes[0]["ticks"])
        total = lambda key: {n: sum(p[key][n] for p in passes) for n in names}
        events = sum(p["events"] for p in passes)
        say(f"{name}.events", f"{events} ({times}x in each order, {sum(p['wall'] for p in passes):.1f} s)")
        for p, order in zip(passes, ("first order", "reverse order")):
            if p["dead"]: say(f"{name}.error", f"exited during the run ({order}): {', '.join(p['dead'])}")
        per10k = lambda ticks, ev: ticks * 1000 / CLK_TCK * 10000 / max(ev, 1)
        cpu = {}
        for n in names:
            user = per10k(sum(p["ticks"][n][0] for p in passes), events)
            system = per10k(sum(p["ticks"][n][1] for p in passes), events)
            cpu[n] = user + system
            say(f"{name}.cpu_ms_per_10k_events.{n}", f"{cpu[n]:.0f}")
            say(f"{name}.cpu_user_system_ms_per_10k_events.{n}", f"{user:.0f} {system:.0f}")
        for n in names:
            say(f"{name}.cpu_ms_per_10k_events_by_order.{n}",
                " ".join(f"{order} {per10k(sum(p['ticks'][n]), p['events']):.0f}" for p, order in zip(passes, ("first", "reverse"))))
        for g in ("gestured", "gestured-last", "gestured-socket"):
            for n in names:
                if n.startswith("gestured") or n == "floor": continue
                ratio = cpu[g] / cpu[n] if cpu[n] else float("inf")
                say(f"{name}.ratio_cpu.{g}:{n}", f"{ratio:.2f}")
        if "gestured-commands" in cpu and cpu.get("lisgd"):
            say(f"{name}.ratio_cpu.gestured-commands:lisgd", f"{cpu['gestured-commands'] / cpu['lisgd']:.2f}")
        if "floor" in cpu:
            for n in names:
                if n != "floor":
                    say(f"{name}.cpu_ms_per_10k_events_above_floor.{n}", f"{cpu[n] - cpu['floor']:.0f}")
        for n in names:  # the highest of either pass
            m = [p["memory"][n] for p in passes]
            say(f"{name}.memory_kb.{n}", f"Rss {max(c.smaps_rss for c in m)} VmRSS {max(c.rss for c in m)} "
                f"VmHWM {max(c.hwm for c in m)} Private_Dirty {max(c.dirty for c in m)} AnonHugePages {max(c.huge for c in m)}")
        socket_lines = sum(p["socket_lines"] for p in passes)
        say(f"{name}.socket_lines", socket_lines)
        frames = frames_in(recording or header) * times * len(passes)
        # What each reader is sent a frame: a line that wakes a reader blocked in recv or read
        # is most of a line's cost under TCG, so more gestures found cost more wake-ups.
        say(f"{name}.lines_per_frame", f"gestured {socket_lines / frames:.2f} "
            f"libinput-piped {sum(p['textstack_lines'] for p in passes) / frames:.2f}")
        # Which of the daemon's threads the figure is: the event loop, or the others (hooks).
        say(f"{name}.cpu_user_system_ms_per_10k_events_by_thread.gestured", " ".join(
            f"{k} {per10k(sum(p['threads'][k][0] for p in passes), events):.0f} {per10k(sum(p['threads'][k][1] for p in passes), events):.0f}"
            for k in ("main", "other")))
        io = [sum(p["io"][i] for p in passes) for i in (0, 1)]
        say(f"{name}.gestured_per_frame", f"wakeups {io[0] / frames:.2f} read+write syscalls {io[1] / frames:.2f} ({frames} frames)")
        for key, label, fmt in (("woken", "wakeups_per_frame", ".2f"), ("preempted", "preemptions_per_frame", ".2f"),
                                ("faulted", "minor_faults_per_frame", ".3f")):
            t = total(key)
            for n in names: say(f"{name}.{label}.{n}", f"{t[n] / frames:{fmt}}")
        dropped = sum(p["dropped"] for p in passes)
        if dropped: say(f"{name}.gestured_syn_dropped", f"{dropped} (the kernel dropped events gestured read too late)")


# ---------------------------------------------------------------------------------------------
# Profile: gestured alone on the 3M recording: syscalls per frame (strace -c), CPU profile
# (perf, cpu-clock: software events work under TCG), malloc calls per frame (a uprobe on libc)

def frames_in(path, first_ms=None):
    """SYN_REPORTs in an evemu recording (in its first first_ms)."""
    n = 0; t0 = None
    for l in open(path):
        if not l.startswith("E:"): continue
        f = l.split(); t = float(f[1]); t0 = t if t0 is None else t0
        if first_ms is not None and (t - t0) * 1000 > first_ms: break
        if len(f) >= 5 and int(f[2], 16) == 0 and int(f[3], 16) == 0: n += 1
    return n

PROFILE_MS = 8000  # the first 8 s of the recording for each tool

def profile():
    config = f"{WORK}/sidebyside.yaml"; open(config, "w").write(BINDINGS)
    name, header, recording, _ = SCENARIOS[0]
    rec = recording or header
    frames = frames_in(rec, PROFILE_MS)
    dev = Device(header)
    d = Daemon(config=open(config).read()); client = connect(d)
    threading.Thread(target=lambda: [None for _ in iter(client.q.get, None)], daemon=True).start()
    pid = str(d.p.pid)
    try:
        time.sleep(1.5)
        perr = open(f"{WORK}/perf.err", "w")
        ps = subprocess.Popen(["perf", "stat", "-x", ",", "-e", "task-clock,context-switches", "-p", pid, "--", "sleep", "6"],
                              stdout=perr, stderr=perr)
        dev.do(f"play {rec} {PROFILE_MS}", timeout=600); ps.wait()
        pr = subprocess.Popen(["perf", "record", "-e", "task-clock", "-F", "999", "-g", "-o", f"{WORK}/perf.data", "-p", pid,
                               "--", "sleep", str(PROFILE_MS // 1000 + 3)], stdout=perr, stderr=perr)
        time.sleep(1.0); dev.do(f"play {rec} {PROFILE_MS}", timeout=600); pr.wait(); perr.close()
        for line in open(f"{WORK}/perf.err").read().strip().splitlines()[-8:]: say("profile.perf", line)
        rep = subprocess.run(["perf", "report", "-i", f"{WORK}/perf.data", "--stdio", "--no-children", "-g", "none",
                              "--percent-limit", "0.7", "--sort", "symbol"], capture_output=True, text=True)
        if rep.returncode: say("profile.perf_report", rep.stderr.strip()[-300:])
        for line in rep.stdout.splitlines():
            if "%" in line and not line.startswith("#"): say("profile.self", " ".join(line.split()))
        rep = subprocess.run(["perf", "report", "-i", f"{WORK}/perf.data", "--stdio", "--children", "-g", "none",
                              "--percent-limit", "4", "--sort", "symbol"], capture_output=True, text=True)
        for line in rep.stdout.splitlines():
            if "%" in line and not line.startswith("#"): say("profile.children", " ".join(line.split()))
        out = f"{WORK}/strace.txt"
        st = subprocess.Popen(["strace", "-c", "-f", "-o", out, "-p", pid], stderr=subprocess.DEVNULL)
        time.sleep(1.0); dev.do(f"play {rec} {PROFILE_MS}", timeout=600); time.sleep(1.0)
        st.terminate(); st.wait()
        say("profile.frames", f"{frames} ({name}, first {PROFILE_MS} ms)")
        for line in open(out):
            f = line.split()
            if len(f) >= 5 and f[3].isdigit():
                say(f"profile.syscalls_per_frame.{f[-1]}", f"{int(f[3]) / frames:.2f}")
        probe = subprocess.run(["perf", "probe", "-q", "-x", "/lib/x86_64-linux-gnu/libc.so.6", "malloc"], capture_output=True, text=True)
        if probe.returncode == 0:
            ps = subprocess.Popen(["perf", "stat", "-x", ",", "-e", "probe_libc:malloc", "-p", pid, "-o", f"{WORK}/malloc.txt"])
            time.sleep(1.0); dev.do(f"play {rec} {PROFILE_MS}", timeout=600); time.sleep(1.0)
            ps.send_signal(2); ps.wait()
            for line in open(f"{WORK}/malloc.txt"):
                if "probe_libc:malloc" in line:
                    say("profile.mallocs_per_frame", f"{int(line.split(',')[0]) / frames:.2f}")
        else:
            say("profile.mallocs_per_frame", f"unavailable (perf probe: {probe.stderr.strip()[-200:]})")
        smaps = {}
        for line in open(f"/proc/{pid}/smaps"):
            f = line.split()
            if "-" in f[0] and len(f[0]) > 12: region = f[5] if len(f) > 5 else "[anon]"
            elif f[0] in ("Rss:", "Private_Dirty:"): smaps.setdefault(region, [0, 0])[0 if f[0] == "Rss:" else 1] += int(f[1])
        for region, (rss, dirty) in sorted(smaps.items(), key=lambda kv: -kv[1][0])[:8]:
            say("profile.smaps", f"{os.path.basename(region)} Rss {rss} kB Private_Dirty {dirty} kB")
    finally:
        client.close(); d.stop(); dev.remove()


def versions():
    say("kernel", os.uname().release)
    r = subprocess.run(["libinput", "--version"], capture_output=True, text=True); say("libinput", r.stdout.strip())
    r = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "lisgd"], capture_output=True, text=True)
    say("lisgd", r.stdout.strip() or "?")
    r = subprocess.run([GESTURED, "--version"], capture_output=True, text=True); say("gestured", (r.stdout or r.stderr).strip())


def main():
    versions()
    for mode in MODES:
        if mode == "throughput": throughput()
        elif mode == "recognition":
            import sidebyside_recognition  # noqa: E402  (Tests/VM/sidebyside_recognition.py)
            sidebyside_recognition.recognition(say, connect)
        elif mode == "profile": profile()
        elif mode == "syscalls":
            import sidebyside_syscalls  # noqa: E402  (Tests/VM/sidebyside_syscalls.py)
            sidebyside_syscalls.syscalls(say, connect, frames_in, SCENARIOS, BINDINGS, LISGD_GESTURES, ONLY)
        elif mode == "instructions":
            import sidebyside_instructions  # noqa: E402  (Tests/VM/sidebyside_instructions.py)
            chosen = [s for s in SCENARIOS if not ONLY or any(o in s[0] for o in ONLY)]
            sidebyside_instructions.instructions(say, frames_in, chosen, BINDINGS, FLOOR,
                                                 lambda pid: sum(user_system_ticks(pid)))
        elif mode == "latency":
            config = f"{WORK}/sidebyside.yaml"; open(config, "w").write(BINDINGS)
            rc = subprocess.run([sys.executable, os.path.join(HERE, "latency.py"), "--bin", suite.BIN,
                                 "--config", config, "--alone"] + (["--libinput-first"] if LIBINPUT_FIRST else [])).returncode
            if rc: return rc
        else:
            print(f"sidebyside: unknown mode {mode}", file=sys.stderr); return 2
    if ERRORS: print(f"sidebyside: {len(ERRORS)} error(s)", flush=True)
    return 1 if ERRORS else 0

if __name__ == "__main__":
    sys.exit(main())
