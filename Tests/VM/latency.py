#!/usr/bin/env python3
"""Latency side by side: one process, one monotonic clock (CLOCK_MONOTONIC via time.monotonic_ns).

Runs inside the kernel VM (Tests/VM/sidebyside.py starts it). It makes a synthetic protocol-B
touchpad and touchscreen through /dev/uinput itself, starts the consumers on each (`gestured run`
with the harness's bindings, read through its socket by this process; `libinput debug-events`;
the text stack of textstack.py; `lisgd` on the touchscreen; `gestured-last`, the same daemon
opened after all of them), then writes a 3-finger swipe right
frame by frame, one frame every WINDOW_MS (a touchpad's 80 Hz), reading every consumer's output
meanwhile. A consumer's first matching line of a trial is charged to its triggering frame (see
`charge`), so the figure
is `read time − the time just before the triggering frame's write` (each consumer's own triggering frame:
libinput reports the touchscreen's first touch at once, the text stack and lisgd act when they
decide). p50 / p95 over TRIALS trials. With --alone, each consumer then runs again on a fresh
device with no other reader, on this process's vCPU (`latency.KIND.alone.NAME_ms`): side by side
on the VM's two vCPUs, which reader the scheduler runs first, and whether it waits for a halted
vCPU to wake, moves a p50 several-fold, so the alone rounds are the figure that compares the
consumers' own wake-up and work.

usage: latency.py --bin BIN [--config FILE] [--libinput-first] [--alone]
"""
import fcntl, json, os, select, socket, struct, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
def opt(name, default): return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default
BIN = opt("--bin", ".build/release")
CONFIG = opt("--config", None)  # the bindings of the throughput run
# A control for the order effect: a `libinput-first` reader opened before gestured, so gestured is
# no longer the first reader the kernel wakes (off by default: gestured first is the headline).
LIBINPUT_FIRST = "--libinput-first" in sys.argv
# --alone: after the side-by-side rounds, each consumer again on its own (see main).
ALONE = "--alone" in sys.argv
GESTURED = os.path.join(BIN, "gestured")
TRIALS = 20
WINDOW_MS = 12
WORK = "/tmp/sidebyside-latency"
os.makedirs(WORK, exist_ok=True)

EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
SYN_REPORT = 0
BTN_TOUCH, BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP, BTN_TOOL_QUADTAP, BTN_TOOL_QUINTTAP = 330, 325, 333, 334, 335, 328
BTN_LEFT = 272
ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0, 1, 0x2f, 0x35, 0x36, 0x39
INPUT_PROP_POINTER, INPUT_PROP_DIRECT, INPUT_PROP_BUTTONPAD = 0, 1, 2

def _IOW(nr, size): return (1 << 30) | (size << 16) | (ord("U") << 8) | nr
UI_DEV_CREATE, UI_DEV_DESTROY = 0x5501, 0x5502
UI_DEV_SETUP, UI_ABS_SETUP = _IOW(3, 92), _IOW(4, 28)
UI_SET_EVBIT, UI_SET_KEYBIT, UI_SET_ABSBIT, UI_SET_PROPBIT = _IOW(100, 4), _IOW(101, 4), _IOW(103, 4), _IOW(110, 4)
def UI_GET_SYSNAME(n): return (2 << 30) | (n << 16) | (ord("U") << 8) | 44


class UInput:
    """A protocol-B multitouch device made through /dev/uinput (UI_DEV_SETUP / UI_ABS_SETUP), on BUS (USB by
    default; 0x18, I2C, for a built-in touchpad)."""
    def __init__(self, name, keys, axes, props, bus=0x03):
        self.fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
        for ev in (EV_SYN, EV_KEY, EV_ABS): fcntl.ioctl(self.fd, UI_SET_EVBIT, ev)
        for k in keys: fcntl.ioctl(self.fd, UI_SET_KEYBIT, k)
        for p in props: fcntl.ioctl(self.fd, UI_SET_PROPBIT, p)
        for code, (lo, hi, res) in axes.items():
            fcntl.ioctl(self.fd, UI_SET_ABSBIT, code)
            fcntl.ioctl(self.fd, UI_ABS_SETUP, struct.pack("HH6i", code, 0, 0, lo, hi, 0, 0, res))
        fcntl.ioctl(self.fd, UI_DEV_SETUP, struct.pack("4H80sI", bus, 0x1234, 0x5678, 1, name.encode(), 0))
        fcntl.ioctl(self.fd, UI_DEV_CREATE)
        buf = bytearray(64)
        fcntl.ioctl(self.fd, UI_GET_SYSNAME(64), buf)
        sysname = buf.split(b"\0", 1)[0].decode()
        sysdir = f"/sys/devices/virtual/input/{sysname}"
        deadline = time.monotonic() + 10
        while True:
            ev = [e for e in os.listdir(sysdir) if e.startswith("event")] if os.path.isdir(sysdir) else []
            if ev and os.path.exists(f"/dev/input/{ev[0]}"): break
            if time.monotonic() > deadline: raise RuntimeError(f"no event node under {sysdir}")
            time.sleep(0.02)
        self.node = f"/dev/input/{ev[0]}"
        subprocess.run(["udevadm", "settle", "-t", "10"], capture_output=True)

    def frame(self, events):
        """Writes one frame (events + SYN_REPORT) in one write(); returns the monotonic time before
        it. A reader the frame wakes usually preempts this process as the write returns and has
        written its line before the write comes back (alone, 29 of 30 trials at the swipe's
        frame), so a time taken after the write would leave the reader's work out."""
        data = b"".join(struct.pack("llHHi", 0, 0, t, c, v) for t, c, v in events + [(EV_SYN, SYN_REPORT, 0)])
        t = time.monotonic_ns()
        os.write(self.fd, data)
        return t

    def close(self):
        fcntl.ioctl(self.fd, UI_DEV_DESTROY); os.close(self.fd)


def touchpad():
    return UInput("sidebyside synthetic touchpad",
                  [BTN_LEFT, BTN_TOUCH, BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP, BTN_TOOL_QUADTAP, BTN_TOOL_QUINTTAP],
                  {ABS_X: (0, 4000, 40), ABS_Y: (0, 2500, 40), ABS_MT_SLOT: (0, 4, 0),
                   ABS_MT_POSITION_X: (0, 4000, 40), ABS_MT_POSITION_Y: (0, 2500, 40), ABS_MT_TRACKING_ID: (0, 65535, 0)},
                  [INPUT_PROP_POINTER, INPUT_PROP_BUTTONPAD])

def touchscreen():
    return UInput("sidebyside synthetic touchscreen", [BTN_TOUCH],
                  {ABS_X: (0, 3000, 10), ABS_Y: (0, 2000, 10), ABS_MT_SLOT: (0, 9, 0),
                   ABS_MT_POSITION_X: (0, 3000, 10), ABS_MT_POSITION_Y: (0, 2000, 10), ABS_MT_TRACKING_ID: (0, 65535, 0)},
                  [INPUT_PROP_DIRECT])

def swipe_frames(is_touchpad, trial):
    """A 3-finger swipe right: down, 20 moves, lift. Touchpad 1.5 mm per frame, touchscreen 2 mm."""
    xs = [1000, 1600, 2200] if is_touchpad else [900, 1300, 1700]
    y, step = (1200, 60) if is_touchpad else (1000, 20)
    tool = [(EV_KEY, BTN_TOOL_TRIPLETAP, 1)] if is_touchpad else []
    down = []
    for i, x in enumerate(xs):
        down += [(EV_ABS, ABS_MT_SLOT, i), (EV_ABS, ABS_MT_TRACKING_ID, trial * 10 + i),
                 (EV_ABS, ABS_MT_POSITION_X, x), (EV_ABS, ABS_MT_POSITION_Y, y)]
    frames = [down + [(EV_KEY, BTN_TOUCH, 1)] + tool + [(EV_ABS, ABS_X, xs[0]), (EV_ABS, ABS_Y, y)]]
    for k in range(1, 21):
        f = []
        for i, x in enumerate(xs): f += [(EV_ABS, ABS_MT_SLOT, i), (EV_ABS, ABS_MT_POSITION_X, x + k * step)]
        frames.append(f + [(EV_ABS, ABS_X, xs[0] + k * step)])
    up = []
    for i in range(len(xs)): up += [(EV_ABS, ABS_MT_SLOT, i), (EV_ABS, ABS_MT_TRACKING_ID, -1)]
    frames.append(up + [(EV_KEY, BTN_TOUCH, 0)] + ([(EV_KEY, BTN_TOOL_TRIPLETAP, 0)] if is_touchpad else []))
    return frames


class Reader:
    """One consumer's output: a file descriptor split into lines, each stamped when read."""
    def __init__(self, name, fd, match, procs):
        self.name, self.fd, self.match, self.procs = name, fd, match, procs
        os.set_blocking(fd, False)
        self.buf = b""

    def read(self, now):
        try: chunk = os.read(self.fd, 65536)
        except BlockingIOError: return []
        if not chunk: return None
        self.buf += chunk
        *lines, self.buf = self.buf.split(b"\n")
        lines = [l.decode(errors="replace") for l in lines]
        self.recent = (getattr(self, "recent", []) + lines)[-4:]
        if lines and hasattr(self, "stamps"): self.stamps.append(now)
        return [(now, l) for l in lines if self.match(l)]


def gestured_line(l):
    try: m = json.loads(l)
    except ValueError: return False
    return m.get("type") == "gesture" and m.get("phase") in ("began", "recognized")


def start_gestured(name, n):
    """`gestured run` with the harness's bindings, and this process as its socket client."""
    cfg = CONFIG or f"{WORK}/empty.yaml"
    if not CONFIG: open(cfg, "w").write("log: {level: warning}\n")
    sock = f"{WORK}/{name}{n}.sock"
    if os.path.exists(sock): os.unlink(sock)
    null = open(os.devnull, "w")
    g = subprocess.Popen([GESTURED, "run", "--socket", sock, "--config", cfg], stdin=subprocess.DEVNULL, stdout=null, stderr=null)
    deadline = time.monotonic() + 30
    while not os.path.exists(sock):
        if g.poll() is not None or time.monotonic() > deadline: raise RuntimeError("gestured run did not start")
        time.sleep(0.05)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    while True:  # the socket file exists a moment before listen()
        try: s.connect(sock); break
        except ConnectionRefusedError:
            if time.monotonic() > deadline: raise
            time.sleep(0.05)
    r = Reader(name, s.fileno(), gestured_line, [g])
    r.sock = s
    return r


def start(node, is_touchpad, n, only=None):
    """The consumers on node: [Reader]. only=NAME starts that consumer alone (the --alone rounds)."""
    null = open(os.devnull, "w")
    readers = []
    want = lambda name: only is None or only == name
    if LIBINPUT_FIRST and only is None:
        lf = subprocess.Popen(["stdbuf", "-oL", "libinput", "debug-events", "--device", node], stdout=subprocess.PIPE, stderr=null)
        first_lf = "GESTURE_SWIPE_BEGIN" if is_touchpad else "TOUCH_DOWN"
        readers.append(Reader("libinput-first", lf.stdout.fileno(), lambda l: first_lf in l, [lf]))
        readers[-1].pipe = lf.stdout
    if want("gestured"): readers.append(start_gestured("gestured", n))
    if want("libinput"):
        li = subprocess.Popen(["stdbuf", "-oL", "libinput", "debug-events", "--device", node], stdout=subprocess.PIPE, stderr=null)
        first = "GESTURE_SWIPE_BEGIN" if is_touchpad else "TOUCH_DOWN"
        readers.append(Reader("libinput", li.stdout.fileno(), lambda l: first in l, [li]))
        readers[-1].pipe = li.stdout
    if is_touchpad and want("textstack"):
        tl = subprocess.Popen(["stdbuf", "-oL", "libinput", "debug-events", "--device", node], stdout=subprocess.PIPE, stderr=null)
        tp = subprocess.Popen([sys.executable, os.path.join(HERE, "textstack.py")], stdin=tl.stdout, stdout=subprocess.PIPE, stderr=null)
        tl.stdout.close()
        readers.append(Reader("textstack", tp.stdout.fileno(), lambda l: bool(l.strip()), [tl, tp]))
        readers[-1].pipe = tp.stdout
    if not is_touchpad and want("lisgd"):
        lg = subprocess.Popen(["lisgd", "-d", node, "-w", "3000", "-h", "2000", "-g", "3,LR,*,*,P,echo lisgd"],
                              stdout=subprocess.PIPE, stderr=null)
        readers.append(Reader("lisgd", lg.stdout.fileno(), lambda l: "lisgd" in l, [lg]))
        readers[-1].pipe = lg.stdout
    # The same daemon opened after every other reader (the kernel wakes readers in the order
    # they opened the device): `gestured`, opened first, stays the headline.
    if only is None: readers.append(start_gestured("gestured-last", n))
    return readers


def pump(readers, until_ns, firsts=None):
    """Reads until until_ns; records in firsts each consumer's first matching line (time, text)."""
    fds = {r.fd: r for r in readers}
    while True:
        left = until_ns - time.monotonic_ns()
        if left <= 0: return
        ready, _, _ = select.select(list(fds), [], [], left / 1e9)
        now = time.monotonic_ns()
        for fd in ready:
            r = fds[fd]
            got = r.read(now)
            if got is None: del fds[fd]; continue
            if got and firsts is not None and r.name not in firsts:
                firsts[r.name] = (got[0][0], got[0][1][:60])


def settle(readers, limit_s=30):
    """Waits until every consumer is idle for 0.5 s (libinput loads libwacom's database at start)."""
    def ticks():
        out = []
        for r in readers:
            for p in r.procs:
                with open(f"/proc/{p.pid}/stat") as f: v = f.read().rsplit(")", 1)[1].split()
                out.append(int(v[11]) + int(v[12]))
        return out
    deadline = time.monotonic() + limit_s
    pump(readers, time.monotonic_ns() + 1_000_000_000)
    last = ticks()
    while time.monotonic() < deadline:
        pump(readers, time.monotonic_ns() + 500_000_000)
        now = ticks()
        if now == last: return
        last = now


def charge(trials):
    """[(write times, first line time)] → (latencies in ms, trigger frames). A consumer's trigger
    frame is the same in most trials (it decides on distance): its mode. A line read after that
    frame's write is charged to it even when later frames were written meanwhile (a slow consumer
    is not flattered); a line read before it is charged to the last frame written before it."""
    last_before = [max(i for i, w in enumerate(writes) if w <= t) for writes, t in trials]
    modal = max(set(last_before), key=last_before.count)
    frames = [min(modal, lb) for lb in last_before]
    return [(t - writes[f]) / 1e6 for (writes, t), f in zip(trials, frames)], frames


def pct(xs, p):
    xs = sorted(xs); return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def faults(r):
    """(minor, major) page faults of a consumer's processes so far (/proc/PID/stat)."""
    mi = ma = 0
    for p in r.procs:
        with open(f"/proc/{p.pid}/stat") as f: v = f.read().rsplit(")", 1)[1].split()
        mi += int(v[7]); ma += int(v[9])
    return mi, ma


def same_frame(kind, readers, seen, stamps):
    """At gestured's triggering frame, how soon each other consumer printed anything for that
    frame (its first line read after the frame's write and before the next frame's): whether a
    later first line is gestured's own work or every consumer's wait for the CPU at that frame."""
    if not seen.get("gestured"): return
    _, frames = charge(seen["gestured"])
    f = max(set(frames), key=frames.count)
    for r in readers:
        if r.name == "gestured": continue
        xs = []
        for writes, st in stamps:
            if f + 1 >= len(writes): continue
            after = [t for t in st[r.name] if writes[f] <= t < writes[f + 1]]
            if after: xs.append((after[0] - writes[f]) / 1e6)
        if xs:
            print(f"latency.{kind}.{r.name}_any_line_at_gestured_frame_ms: p50 {pct(xs, 50):.2f} p95 {pct(xs, 95):.2f} "
                  f"(n={len(xs)}, frame {f})", flush=True)


def run(kind, only=None):
    """One round on a fresh device: every consumer at once, or only=NAME alone. {name: p50 ms}."""
    is_tp = kind == "touchpad"
    dev = touchpad() if is_tp else touchscreen()
    cpus = os.sched_getaffinity(0)
    # Alone, the consumer shares this process's vCPU (children inherit the affinity): the frame's
    # write wakes it there as soon as this process waits, instead of waking a halted second vCPU,
    # which under TCG costs milliseconds of the host's scheduling and would swamp the figure.
    if only is not None: os.sched_setaffinity(0, {min(cpus)})
    readers = start(dev.node, is_tp, kind, only)
    tag = kind if only is None else f"{kind}.alone"
    try:
        settle(readers)
        seen = {r.name: [] for r in readers}; lines = {}; missing = {}; stamps = []
        faults0 = {r.name: faults(r) for r in readers}
        for trial in range(TRIALS):
            firsts = {}; writes = []
            for r in readers: r.stamps = []
            for f in swipe_frames(is_tp, trial + 1):
                writes.append(dev.frame(f))
                pump(readers, writes[-1] + WINDOW_MS * 1_000_000, firsts)
            pump(readers, time.monotonic_ns() + 700_000_000, firsts)
            for name, (t, line) in firsts.items():
                seen[name].append((writes, t)); lines.setdefault(name, line)
            stamps.append((writes, {r.name: r.stamps for r in readers}))
            for r in readers:
                if r.name not in firsts and r.name not in missing:
                    missing[r.name] = f"trial {trial + 1}: last lines {getattr(r, 'recent', [])}"
        results = {}
        for r in readers:
            if len(seen[r.name]) < TRIALS:
                print(f"latency.{tag}.{r.name}: reported in {len(seen[r.name])} of {TRIALS} trials (first miss: {missing.get(r.name)})", flush=True)
            if not seen[r.name]: continue
            xs, frames = charge(seen[r.name]); results[r.name] = xs
            fr = sorted(set(frames))
            print(f"latency.{tag}.{r.name}_ms: p50 {pct(xs, 50):.2f} p95 {pct(xs, 95):.2f} (n={len(xs)}, "
                  f"frame {fr[0] if len(fr) == 1 else fr}, first line: {lines[r.name]!r})", flush=True)
        if only is None: same_frame(kind, readers, seen, stamps)
        for r in readers:
            (mi0, ma0), (mi1, ma1) = faults0[r.name], faults(r)
            print(f"latency.{tag}.{r.name}_page_faults_per_trial: minor {(mi1 - mi0) / TRIALS:.1f} major {(ma1 - ma0) / TRIALS:.1f}", flush=True)
        return {name: pct(xs, 50) for name, xs in results.items()}
    finally:
        for r in readers:
            for p in r.procs:
                if p.poll() is None: p.terminate()
            for p in r.procs:
                try: p.wait(timeout=5)
                except subprocess.TimeoutExpired: p.kill()
        dev.close()
        os.sched_setaffinity(0, cpus)


def main():
    print(f"latency: {TRIALS} trials per device, {WINDOW_MS} ms between frames, 3-finger swipe right", flush=True)
    for kind in ("touchpad", "touchscreen"):
        p50 = run(kind)
        for g in ("gestured", "gestured-last"):
            if g in p50 and "libinput" in p50:
                print(f"latency.{kind}.ratio_p50.{g}:libinput: {p50[g] / p50['libinput']:.2f}", flush=True)
    if ALONE:
        # Each consumer alone on a fresh device: its own wake-up and work, with no other reader for
        # the scheduler to run first (side by side, which reader runs first moves a p50 several-fold:
        # compare gestured with gestured-last above).
        for kind in ("touchpad", "touchscreen"):
            p50 = {}
            for name in ("gestured", "libinput", "textstack" if kind == "touchpad" else "lisgd"):
                p50.update(run(kind, only=name))
            if "gestured" in p50 and "libinput" in p50:
                print(f"latency.{kind}.alone.ratio_p50.gestured:libinput: {p50['gestured'] / p50['libinput']:.2f}", flush=True)
    return 0

if __name__ == "__main__":
    sys.exit(main())
