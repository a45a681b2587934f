#!/usr/bin/env python3
"""The kernel suite: runs inside the QEMU VM (as root, with real evdev, uinput and udevd) against
binaries built on the host. Started by Tests/VM/run.sh; never runs `swift test`.

usage: suite.py --bin BUILD_BIN_DIR --root REPO_ROOT [--list] [--strict] [TEST...]

Each test creates uinput devices from the headers of real recordings in Tests/Fixtures through
`gestured-uinput` (LinuxInput.UInputDevice → libevdev_uinput_create_from_device) and checks what
LinuxInput (`gestured-uinput watch`) or the daemon (`gestured run --socket …`) makes of them.
Prints PASS/FAIL/SKIP per test and exits 1 if any test failed.
"""
import json, os, queue, signal, socket, subprocess, sys, threading, time, traceback

ARGS = sys.argv[1:]
def opt(name, default=None):
    if name in ARGS:
        i = ARGS.index(name); v = ARGS[i + 1]; del ARGS[i:i + 2]; return v
    return default
BIN = opt("--bin", ".build/debug")
ROOT = opt("--root", os.getcwd())
LIST = "--list" in ARGS
if LIST: ARGS.remove("--list")
STRICT = "--strict" in ARGS          # a skipped test counts as failed (CI once the daemon is in)
if STRICT: ARGS.remove("--strict")
FIX = os.path.join(ROOT, "Tests/Fixtures")
GESTURED = os.path.join(BIN, "gestured")
UINPUT = os.path.join(BIN, "gestured-uinput")
WORK = "/tmp/kernel-suite"
os.makedirs(WORK, exist_ok=True)

# The devices of real recordings (Tests/Fixtures, see RECORDINGS.md).
TOUCHSCREEN = f"{FIX}/touchscreen-atmel-1finger-drag-up-then-down__whot-evemu-devices.evemu"
TOUCHPAD = f"{FIX}/touchpad-synaptics-hp8470p__whot-evemu-devices.desc"
PROTO_A = f"{FIX}/touchscreen-protoA-ntrig__whot-evemu-devices.desc"
SEMI_MT = f"{FIX}/touchpad-semimt-alps-2finger-tap__whot-evemu-devices.evemu"


def fd_settled(pid, want, timeout=5):
    """Process PID's fd count: `want` as soon as one sample shows it, else the least seen in
    `timeout`. Fds come and go while late uevents are handled (libudev reads each event's sysfs
    attributes through a short-lived fd), so a single read could catch one of those; a leaked fd
    stays, and then every sample shows it."""
    deadline = time.monotonic() + timeout
    least = len(os.listdir(f"/proc/{pid}/fd"))
    while least != want and time.monotonic() < deadline:
        time.sleep(0.1)
        least = min(least, len(os.listdir(f"/proc/{pid}/fd")))
    return least

class Fail(Exception): pass
class Skip(Exception): pass

def check(cond, what):
    if not cond: raise Fail(what)


class Lines:
    """A child process whose stdout lines are collected by a thread; wait_for() with a timeout."""
    def __init__(self, argv, env=None, stdin=subprocess.PIPE, name=None):
        self.name = name or os.path.basename(argv[0])
        self.err_path = f"{WORK}/{self.name}.{time.monotonic_ns()}.err"
        self.err = open(self.err_path, "w")
        self.p = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.PIPE, stderr=self.err, env=env,
                                  text=True, bufsize=1)
        self.q = queue.Queue(); self.seen = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in self.p.stdout:
            self.q.put(line.rstrip("\n"))
        self.q.put(None)

    def wait_for(self, pred, timeout=10.0, what="a line"):
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Fail(f"{self.name}: timed out after {timeout}s waiting for {what}; last lines: {self.seen[-8:]}; stderr: {self.stderr()[-600:]}")
            try: line = self.q.get(timeout=left)
            except queue.Empty: continue
            if line is None:
                raise Fail(f"{self.name}: exited (rc {self.p.wait()}) while waiting for {what}; last lines: {self.seen[-8:]}; stderr: {self.stderr()[-600:]}")
            self.seen.append(line)
            if pred(line): return line

    def send(self, line):
        self.p.stdin.write(line + "\n"); self.p.stdin.flush()

    def seen_or_wait(self, pred, timeout=10.0, what="a line"):
        """Like wait_for, but a line already seen counts."""
        for line in self.seen:
            if pred(line): return line
        return self.wait_for(pred, timeout, what)

    def stderr(self):
        self.err.flush()
        try: return open(self.err_path).read()
        except OSError: return ""

    def stop(self):
        if self.p.poll() is None:
            try:
                if self.p.stdin: self.p.stdin.close()
            except OSError: pass
            try: self.p.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self.p.terminate()
                try: self.p.wait(timeout=3)
                except subprocess.TimeoutExpired: self.p.kill(); self.p.wait()


class Device(Lines):
    """A uinput device made by gestured-uinput from a recording's header (or `keyboard`, `mouse`)."""
    def __init__(self, source, name=None):
        argv = [UINPUT, source] + (["--name", name] if name else [])
        super().__init__(argv, name="uinput-" + os.path.basename(source)[:24])
        line = self.wait_for(lambda l: l.startswith("node ") or l.startswith("error"), 10, "the device node")
        if line.startswith("error"): raise Fail(f"gestured-uinput {source}: {line}")
        self.node = line.split()[1]

    def do(self, command, timeout=30.0):
        self.send(command)
        line = self.wait_for(lambda l: l.startswith("ok") or l.startswith("error"), timeout, f"the answer to '{command}'")
        if line.startswith("error"): raise Fail(f"gestured-uinput '{command}': {line}")
        return line

    def unplug(self):
        """Destroys the device but keeps the helper (fast hotplug cycles)."""
        self.do("unplug")

    def plug(self):
        """Makes the device again; its node may change."""
        self.node = self.do("plug").split()[2]
        return self.node

    def remove(self):
        """Destroys the device (udev 'remove'); waits for the helper to exit."""
        try: self.send("quit")
        except (OSError, ValueError): pass
        self.stop()


def udev_property(node, key):
    out = subprocess.run(["udevadm", "info", "--query=property", "--name", node], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith(key + "="): return line.split("=", 1)[1]
    return None

def settle():
    subprocess.run(["udevadm", "settle", "-t", "10"], capture_output=True)


# ---------------------------------------------------------------------------------------------
# The daemon and its socket

DAEMON_MISSING = None

def daemon_ready():
    """Skips the test when `gestured run` is not implemented yet (the daemon lands separately)."""
    global DAEMON_MISSING
    if DAEMON_MISSING is None:
        r = subprocess.run([GESTURED, "run", "--help"], capture_output=True, text=True, timeout=20)
        text = (r.stdout + r.stderr)
        DAEMON_MISSING = ("not implemented" in text) or ("--socket" not in text)
        if DAEMON_MISSING: DAEMON_MISSING = text.strip().splitlines()[:1]
    if DAEMON_MISSING: raise Skip(f"`gestured run` is not ready on this tree: {DAEMON_MISSING}")


class Daemon(Lines):
    """`gestured run --socket S` with a config of its own (stderr is the log)."""
    count = 0
    def __init__(self, extra=(), env=None, config=None, binary=None):
        Daemon.count += 1
        self.socket = f"{WORK}/d{Daemon.count}.sock"
        argv = [binary or GESTURED, "run", "--socket", self.socket]
        if config:
            path = f"{WORK}/d{Daemon.count}.yaml"; open(path, "w").write(config); argv += ["--config", path]
        super().__init__(argv + list(extra), env=env, stdin=subprocess.DEVNULL, name=f"gestured-run-{Daemon.count}")
        deadline = time.monotonic() + 30
        while not os.path.exists(self.socket):
            if self.p.poll() is not None: raise Fail(f"gestured run exited (rc {self.p.returncode}): {self.stderr()[-800:]}")
            if time.monotonic() > deadline: raise Fail(f"gestured run: no socket {self.socket} after 30 s: {self.stderr()[-800:]}")
            time.sleep(0.05)

    def client(self):
        # The socket file appears at bind(), a moment before listen(): under a heavily loaded
        # host that moment can be long enough for a connect to be refused. Retry that only.
        deadline = time.monotonic() + 5
        while True:
            try: return Client(self.socket)
            except ConnectionRefusedError:
                if time.monotonic() > deadline or self.p.poll() is not None: raise
                time.sleep(0.05)

    def fd_links(self):
        """What each open fd is (for a failure message): "3=/dev/input/event2", "4=anon_inode:[eventpoll]"."""
        out = []
        for fd in sorted(os.listdir(f"/proc/{self.p.pid}/fd"), key=int):
            try: out.append(f"{fd}={os.readlink(f'/proc/{self.p.pid}/fd/{fd}')}")
            except OSError: pass
        return " ".join(out)

    def alive(self): return self.p.poll() is None

    def stop(self):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
            try: self.p.wait(timeout=10)
            except subprocess.TimeoutExpired: self.p.kill(); self.p.wait()


def device_of(msg):
    d = msg.get("device")
    return d if isinstance(d, dict) else msg

class Client:
    """A socket client: JSON lines in, collected by a thread."""
    def __init__(self, path, hello_timeout=10):
        # The socket file appears at bind(), a moment before listen() (longer under load: the
        # daemon sets the file's group and mode in between): a refused connection is retried.
        deadline = time.monotonic() + 10
        while True:
            self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try: self.s.connect(path); break
            except ConnectionRefusedError:
                self.s.close()
                if time.monotonic() > deadline: raise
                time.sleep(0.05)
        self.q = queue.Queue(); self.seen = []
        threading.Thread(target=self._pump, daemon=True).start()
        self.hello = self.wait(lambda m: m.get("type") == "hello", hello_timeout, "hello")

    def _pump(self):
        buf = b""
        while True:
            try: chunk = self.s.recv(65536)
            except OSError: chunk = b""
            if not chunk: self.q.put(None); return
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                try: self.q.put(json.loads(line))
                except ValueError: self.q.put({"type": "unparsable", "line": line.decode(errors="replace")})

    def wait(self, pred, timeout=10.0, what="a message"):
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0: raise Fail(f"socket: timed out after {timeout}s waiting for {what}; last: {self.seen[-6:]}")
            try: m = self.q.get(timeout=left)
            except queue.Empty: continue
            if m is None: raise Fail(f"socket closed while waiting for {what}; last: {self.seen[-6:]}")
            self.seen.append(m)
            if pred(m): return m

    def collect(self, quiet_s, limit_s):
        """Messages until none arrives for quiet_s (or limit_s in total)."""
        out = []; end = time.monotonic() + limit_s
        while time.monotonic() < end:
            try: m = self.q.get(timeout=quiet_s)
            except queue.Empty: break
            if m is None: break
            self.seen.append(m); out.append(m)
        return out

    def close(self): self.s.close()

def added(node): return lambda m: m.get("type") == "deviceAdded" and device_of(m).get("node") == node
def removed(node): return lambda m: m.get("type") == "deviceRemoved" and device_of(m).get("node") == node
def gesture(kind=None, phase=None):
    return lambda m: m.get("type") == "gesture" and (kind is None or m.get("gesture") == kind) and (phase is None or m.get("phase") == phase)
def hello_nodes(hello): return {d.get("node"): d for d in hello.get("devices", [])}


# ---------------------------------------------------------------------------------------------
# Tests
TESTS = []
def test(fn): TESTS.append(fn); return fn

@test
def uinput_devices_from_recordings_are_classified_by_udev():
    """The fixtures' headers become real evdev nodes that udev's input_id classifies as the person's hardware."""
    expect = [(TOUCHSCREEN, "ID_INPUT_TOUCHSCREEN"), (TOUCHPAD, "ID_INPUT_TOUCHPAD"),
              (PROTO_A, "ID_INPUT_TOUCHSCREEN"), (SEMI_MT, "ID_INPUT_TOUCHPAD"),
              ("keyboard", "ID_INPUT_KEYBOARD"), ("mouse", "ID_INPUT_MOUSE")]
    devs = [(Device(src), key) for src, key in expect]
    try:
        settle()
        for d, key in devs:
            check(udev_property(d.node, key) == "1", f"{d.name} {d.node}: udev has no {key}=1")
        check(udev_property(devs[4][0].node, "ID_INPUT_TOUCHSCREEN") is None, "the keyboard is classified as a touchscreen")
    finally:
        for d, _ in devs: d.remove()

def watch(mode):
    w = Lines([UINPUT, "watch", mode], stdin=subprocess.DEVNULL, name=f"watch-{mode}")
    w.wait_for(lambda l: l.startswith("mode "), 10, "mode")
    check(w.seen[-1] == f"mode {mode}", f"watch: {w.seen[-1]!r}, expected mode {mode}")
    w.wait_for(lambda l: l == "enumerated", 10, "enumeration")
    return w

def linuxinput_discovery(mode):
    w = watch(mode)
    devs = []
    try:
        ts = Device(TOUCHSCREEN); devs.append(ts)
        w.wait_for(lambda l: l.startswith(f"added {ts.node} touchscreen"), 10, f"added {ts.node} touchscreen")
        tp = Device(TOUCHPAD); devs.append(tp)
        w.wait_for(lambda l: l.startswith(f"added {tp.node} touchpad"), 10, f"added {tp.node} touchpad")
        kb = Device("keyboard"); devs.append(kb)
        w.wait_for(lambda l: l.startswith(f"ignored {kb.node}"), 10, f"ignored {kb.node}")
        ms = Device("mouse"); devs.append(ms)
        w.wait_for(lambda l: l.startswith(f"ignored {ms.node}"), 10, f"ignored {ms.node}")
        ts.do("down 1000 1000"); ts.do("move 1100 1000"); ts.do("up")
        w.wait_for(lambda l: l.startswith(f"read {ts.node}") and "status=drained" in l, 10, "a read")
        ts.remove()
        w.seen_or_wait(lambda l: l == f"removed {ts.node}", 10, f"removed {ts.node} from the monitor")
        check(not any(l.startswith("added") and ("keyboard" in l or "mouse" in l) for l in w.seen), "a keyboard/mouse was added")
    finally:
        for d in devs: d.remove()
        w.p.terminate(); w.stop()

@test
def linuxinput_udev_discovery_and_removal():
    """DeviceMonitor (udev): touchscreen and touchpad added, keyboard and mouse ignored, removal seen."""
    linuxinput_discovery("udev")

@test
def linuxinput_syn_dropped_resync():
    """EvdevDevice: a flood while the reader is stopped gives SYN_DROPPED + a resync, then normal reads."""
    w = watch("udev")
    ts = Device(TOUCHSCREEN)
    try:
        w.wait_for(lambda l: l.startswith(f"added {ts.node}"), 10, "added")
        ts.do("down 1000 1000")
        w.wait_for(lambda l: l.startswith(f"read {ts.node}"), 10, "first read")
        os.kill(w.p.pid, signal.SIGSTOP)
        ts.do("flood 3000")
        os.kill(w.p.pid, signal.SIGCONT)
        line = w.wait_for(lambda l: l.startswith(f"read {ts.node}") and "resyncs=0" not in l, 10, "a read with a resync")
        check("dropped=1" in line or "dropped=" in line and "dropped=0" not in line, f"no SYN_DROPPED passed through: {line}")
        ts.do("move 1200 1200"); ts.do("up")
        w.wait_for(lambda l: l.startswith(f"read {ts.node}") and "resyncs=0" in l and "reports=" in l and "status=drained" in l, 10, "a normal read after the resync")
    finally:
        ts.remove(); w.p.terminate(); w.stop()

@test
def linuxinput_read_mask_leaves_out_what_is_not_decoded():
    """EvdevDevice.readMask, as the daemon reads a shared device: on the 3M touchscreen the contact's axes
    (position, tracking id, touch major) are read, ABS_MT_TOUCH_MINOR, ABS_MT_ORIENTATION and the single-touch
    ABS_X/ABS_Y are not; a frame of such events only still comes through, as its SYN_REPORT. (The values step
    past the axes' fuzz, which the kernel's input core would otherwise filter.)"""
    w = Lines([UINPUT, "watch", "--read-mask", "udev"], stdin=subprocess.DEVNULL, name="watch-read-mask")
    ts = None
    try:
        w.wait_for(lambda l: l == "enumerated", 10, "enumeration")
        ts = Device(f"{FIX}/touchscreen-3m-10finger-mixed-rotate-pinch-drags__whot-evemu.evemu")
        w.wait_for(lambda l: l.startswith(f"added {ts.node}"), 10, "added")
        ts.do("ev 3 57 501 3 53 200 3 54 100 3 48 1000 3 49 800 3 52 1 3 0 200 3 1 100 1 330 1 0 0 0")
        line = w.wait_for(lambda l: l.startswith(f"read {ts.node}"), 10, "the touch read")
        codes = set(line.split(" abs=")[1].split(",")) if " abs=" in line else set()
        check({"35", "36", "39", "30"} <= codes, f"a contact axis was left out: {line}")
        check(not codes & {"31", "34", "0", "1"}, f"an axis the decoder never reads was read: {line}")
        ts.do("ev 3 49 3000 3 52 0 0 0 0")
        line = w.wait_for(lambda l: l.startswith(f"read {ts.node}"), 10, "the frame of left-out events")
        check("events=1 reports=1" in line and line.endswith(" abs="), f"not the SYN_REPORT alone: {line}")
    finally:
        if ts: ts.remove()
        w.p.terminate(); w.stop()

@test
def linuxinput_syn_dropped_resync_restores_moved_and_lifted_contacts():
    """EvdevDevice after SYN_DROPPED reads the device's state back: a contact that moved while the
    reader was stopped is at its new position, one lifted then has ended, the flooded one is still
    down; a protocol-A device gets no phantom contact from the resync."""
    w = watch("udev")
    ts = Device(TOUCHSCREEN)
    pa = Device(PROTO_A)
    try:
        for d in (ts, pa): w.seen_or_wait(lambda l, d=d: l.startswith(f"added {d.node}"), 10, f"added {d.node}")
        # Slots 0, 1, 2 at (200,100), (500,300), (700,400), in one frame.
        ts.do("ev 3 47 0 3 57 501 3 53 200 3 54 100 3 47 1 3 57 502 3 53 500 3 54 300"
              " 3 47 2 3 57 503 3 53 700 3 54 400 1 330 1 0 0 0")
        w.wait_for(lambda l: l.startswith(f"read {ts.node}") and "reports=1" in l, 10, "the three contacts read")
        os.kill(w.p.pid, signal.SIGSTOP)
        try:
            # While stopped: slot 0 moves to (600,350) and slot 1 lifts, then 3000 frames jitter slot 2
            # (far more than evdev's buffer: the first two frames are lost, only the state tells).
            ts.do("ev 3 47 0 3 53 600 3 54 350 3 47 1 3 57 -1 0 0 0")
            ts.do("ev 3 47 2 " + " ".join(f"3 53 {700 + i % 2} 0 0 0" for i in range(3000)))
            pa.do("flood 3000")
        finally:
            os.kill(w.p.pid, signal.SIGCONT)
        line = w.wait_for(lambda l: l.startswith(f"resync {ts.node} "), 10, "the touchscreen's resync frame")
        touches = {int(t.split(":")[0]): t.split(":")[1:] for t in line.split(" ")[2:]}
        check(0 in touches and touches[0][0] in ("moved", "stationary") and touches[0][1] == "600,350",
              f"slot 0 did not come back at 600,350: {line}")
        check(1 in touches and touches[1][0] == "ended", f"slot 1, lifted during the flood, did not end: {line}")
        check(2 in touches and touches[2][0] in ("moved", "stationary"), f"slot 2, down all along, is not: {line}")
        line = w.wait_for(lambda l: l.startswith(f"resync {pa.node} "), 10, "the protocol-A device's resync frame")
        check(line == f"resync {pa.node} none", f"the protocol-A resync made contacts of no packet: {line}")
        ts.do("ev 3 47 0 3 53 610 0 0 0")
        w.wait_for(lambda l: l.startswith(f"read {ts.node}") and "resyncs=0" in l and "reports=1" in l, 10, "a normal read after the resync")
    finally:
        ts.remove(); pa.remove(); w.p.terminate(); w.stop()

@test
def linuxinput_twenty_hotplug_cycles_leak_no_fd():
    """EvdevDevice/DeviceMonitor: 20 add/remove cycles leave the reader's fd count unchanged."""
    w = watch("udev")
    dev = Device(TOUCHSCREEN)
    try:
        # Each count is taken once the reader has opened the device again (it says `added`):
        # counted right after a plug, the open may not have happened yet under load.
        def cycle():
            dev.unplug()
            w.wait_for(lambda l: l == f"removed {dev.node}", 10, f"removed {dev.node}")
            dev.plug()
            w.wait_for(lambda l: l.startswith(f"added {dev.node}"), 10, f"added {dev.node}")
        w.wait_for(lambda l: l.startswith(f"added {dev.node}"), 10, f"added {dev.node}")
        cycle()
        before = fd_settled(w.p.pid, -1, 0.5)
        for _ in range(20): cycle()
        after = fd_settled(w.p.pid, before)
        check(after == before, f"fd count {before} -> {after} after 20 cycles")
    finally:
        dev.remove(); w.p.terminate(); w.stop()

@test
def linuxinput_touch_down_at_open():
    """EvdevDevice.initialState: a contact already down when the device is opened is reported."""
    ts = Device(TOUCHSCREEN)
    try:
        settle()
        ts.do("down 1000 1000")
        w = watch("udev")
        try:
            line = w.seen_or_wait(lambda l: l.startswith(f"added {ts.node}"), 10, "added")
            check("active=[0]" in line, f"slot 0 not active at open: {line}")
        finally:
            w.p.terminate(); w.stop()
    finally:
        ts.remove()

@test
def daemon_touch_resting_at_open_in_slot_1_then_two_fingers_are_two():
    """Through the daemon and its socket: a finger resting in kernel slot 1 when the daemon opens
    the device (so the kernel's current slot is 1) is ignored until it lifts, and the next
    two-finger tap (slot 1's events first, with no ABS_MT_SLOT before them) is a 2-finger tap.
    Issue 9 bug 1: the session rebuilt the state at open without the current slot and with
    placeholder tracking ids, and decoded that tap as one finger."""
    daemon_ready()
    dev = Device(TOUCHSCREEN)
    d = None
    try:
        settle()
        # ABS_MT_SLOT 1, TRACKING_ID 5, X, Y, BTN_TOUCH 1, SYN: resting in slot 1.
        dev.do("ev 3 47 1 3 57 5 3 53 600 3 54 300 1 330 1 0 0 0")
        d = Daemon(); c = d.client()
        check(dev.node in hello_nodes(c.hello), f"hello lacks {dev.node}: {c.hello}")
        # It lifts: the kernel is still on slot 1, so no ABS_MT_SLOT comes first.
        dev.do("ev 3 57 -1 1 330 0 0 0 0"); dev.do("sleep 400")
        # Two fingers: slot 1 (current, no ABS_MT_SLOT) gets id 6, then slot 0 id 7; 60 ms; both lift.
        dev.do("ev 3 57 6 3 53 500 3 54 240 3 47 0 3 57 7 3 53 300 3 54 240 1 330 1 0 0 0")
        dev.do("sleep 60")
        dev.do("ev 3 57 -1 3 47 1 3 57 -1 1 330 0 0 0 0")
        m = c.wait(lambda m: m.get("type") == "gesture" and m.get("phase") in ("recognized", "began"), 10, "the tap")
        check(m.get("gesture") == "tap" and m.get("fingers") == 2,
              f"the two-finger tap after a finger rested at open came out as: {m}")
        check(device_of(m).get("id") == hello_nodes(c.hello)[dev.node].get("id"), f"gesture line's device.id: {m}")
        check(d.alive(), "the daemon died")
    finally:
        dev.remove()
        if d: d.stop()

# ---------------------------------------------------------------------------------------------
# The pipeline (EvdevDevice → decoder → recognizers) in `gestured-uinput watch`, without the daemon

@test
def daemon_thread_stacks_take_no_huge_pages():
    """SystemThread: the daemon's thread stacks (8 MB anonymous mappings) are MADV_NOHUGEPAGE.
    This kernel makes transparent huge pages always, and khugepaged would otherwise turn the
    2 MB-aligned stretch holding the few kB a thread uses into one huge page: 2 MB more private
    memory at a random moment (seen in the side-by-side runs as AnonHugePages 2048). A thread
    advises its own stack as it starts, so a stack read before its thread first ran may still lack
    the flag: each must have it within 5 s."""
    d = Daemon(config="bindings:\n  - {gesture: swipe, fingers: 3, command: ':'}\n")
    def stacks():
        found, cur = [], None
        for line in open(f"/proc/{d.p.pid}/smaps"):
            f = line.split()
            if "-" in f[0] and len(f) >= 5 and f[1].endswith("p"):
                lo, hi = (int(x, 16) for x in f[0].split("-"))
                cur = (f[0], hi - lo, len(f) == 5 and f[1] == "rw-p")   # anonymous: no path
            elif f[0] == "VmFlags:" and cur and cur[2] and cur[1] >= 4 << 20:
                found.append((cur[0], f[1:]))
        return found
    try:
        deadline = time.monotonic() + 5
        while True:
            found = stacks()
            lacking = [(m, flags) for m, flags in found if "nh" not in flags]
            if found and not lacking or time.monotonic() > deadline: break
            time.sleep(0.1)
        check(found, "no thread stack (an anonymous rw-p mapping of 4 MB or more) in the daemon's smaps")
        for m, flags in lacking: check(False, f"{m}: VmFlags {' '.join(flags)} lack nh after 5 s")
    finally:
        d.stop()


def gline(node, pred=lambda m: True):
    """Matches a watch line `gesture NODE {json}` whose JSON satisfies pred."""
    def match(l):
        if not l.startswith(f"gesture {node} "): return False
        return pred(json.loads(l.split(" ", 2)[2]))
    return match

def gestures_of(w, node):
    return [json.loads(l.split(" ", 2)[2]) for l in w.seen if l.startswith(f"gesture {node} ")]

def quiet(w, seconds):
    """Waits until the watcher prints nothing for `seconds`."""
    while True:
        try: w.wait_for(lambda l: True, seconds, "")
        except Fail: return

def replay_expectation(rec, desc):
    argv = [GESTURED, "replay", "--json"] + (["--device-description", desc] if desc else []) + [rec]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    check(r.returncode == 0, f"{' '.join(argv)}: rc {r.returncode}: {r.stderr[-400:]}")
    return signature([json.loads(l) for l in r.stdout.splitlines() if l.startswith("{")])

def check_expected(name, got, expected):
    if expected:
        kind, fingers, direction = expected
        kinds = kind if isinstance(kind, tuple) else (kind,)
        check(any(g[0] in kinds and g[2] == fingers and (direction is None or g[3] == direction) for g in got),
              f"{name}: no {fingers}-finger {kind} {direction or ''} (what the person did) in {got}")
    else:
        check(got, f"{name}: no gesture at all")

@test
def pipeline_replay_into_the_kernel_matches_gestured_replay():
    """Real recordings written to uinput with their spacing, read by EvdevDevice and decoded, give
    the gestures `gestured replay --json` gives for the same files (and what the person did)."""
    w = watch("udev")
    try:
        for rec, desc, expected in REPLAYS:
            want = replay_expectation(rec, desc)
            dev = Device(desc or rec)
            try:
                w.wait_for(lambda l: l.startswith(f"added {dev.node}"), 10, f"added {dev.node}")
                dev.do(f"play {rec}", timeout=120)
                quiet(w, 1.5)
                got = signature(gestures_of(w, dev.node))
            finally:
                dev.remove()
            w.wait_for(lambda l: l == f"removed {dev.node}", 10, f"removed {dev.node}")
            name = os.path.basename(rec)
            # How taps pair into double taps depends on the real gap between them: when TCG
            # delays the writer past the double-tap gap, the kernel path rightly sees two taps
            # where the recording's own times make a double tap. Compare taps by count.
            check(taps_as_units(got) == taps_as_units(want), f"{name}: through the kernel {got}\n   gestured replay     {want}")
            check_expected(name, got, expected)
            w.seen.clear()
    finally:
        w.p.terminate(); w.stop()

@test
def pipeline_removal_mid_gesture_cancels():
    """Unplugged during a long press (real 2-finger hold recording): the long press ends cancelled."""
    w = watch("udev")
    dev = Device(TAP_HOLD)
    try:
        w.wait_for(lambda l: l.startswith(f"added {dev.node}"), 10, "added")
        dev.do(f"play {TAP_HOLD} 780")
        line = w.seen_or_wait(gline(dev.node, lambda m: m.get("phase") == "began"), 10, "a long press to begin")
        began = json.loads(line.split(" ", 2)[2])
        dev.unplug()
        line = w.wait_for(gline(dev.node, lambda m: m.get("id") == began["id"] and m.get("phase") in ("ended", "cancelled")), 10, "its end")
        check(json.loads(line.split(" ", 2)[2])["phase"] == "cancelled", f"removal ended the {began['gesture']} with: {line}")
    finally:
        dev.remove(); w.p.terminate(); w.stop()

@test
def pipeline_syn_dropped_cancels_and_recovers():
    """A flood while the reader is stopped: SYN_DROPPED cancels the long press in flight; a tap afterwards is recognized."""
    w = watch("udev")
    dev = Device(TAP_HOLD)
    try:
        w.wait_for(lambda l: l.startswith(f"added {dev.node}"), 10, "added")
        dev.do(f"play {TAP_HOLD} 780")
        line = w.seen_or_wait(gline(dev.node, lambda m: m.get("phase") == "began"), 10, "a long press to begin")
        began = json.loads(line.split(" ", 2)[2])
        os.kill(w.p.pid, signal.SIGSTOP)
        try: dev.do("flood 4000")
        finally: os.kill(w.p.pid, signal.SIGCONT)
        line = w.wait_for(gline(dev.node, lambda m: m.get("id") == began["id"] and m.get("phase") in ("ended", "cancelled")), 10, "its end after SYN_DROPPED")
        check(json.loads(line.split(" ", 2)[2])["phase"] == "cancelled", f"SYN_DROPPED ended the {began['gesture']} with: {line}")
        check(any(l.startswith(f"read {dev.node}") and "resyncs=0" not in l for l in w.seen), f"no resync was read: {w.seen[-12:]}")
        # Lift everything the recording put down, then a fresh tap.
        dev.do("up"); dev.do("sleep 400")
        tap(dev)
        w.wait_for(gline(dev.node, lambda m: m.get("gesture") in ("tap", "doubleTap") and m.get("phase") == "recognized"), 10, "a tap after the resync")
    finally:
        dev.remove(); w.p.terminate(); w.stop()

# ---------------------------------------------------------------------------------------------
# `gestured devices` and `gestured record` on real nodes

@test
def cli_devices_lists_touch_devices_with_their_protocol():
    """`gestured devices --json`: the four recorded devices with kind and protocol; no keyboard, no mouse."""
    srcs = [(TOUCHSCREEN, "touchscreen", "B", False), (TOUCHPAD, "touchpad", None, False),
            (PROTO_A, "touchscreen", "A", False), (SEMI_MT, "touchpad", "B", True)]
    devs = [Device(src) for src, *_ in srcs] + [Device("keyboard"), Device("mouse")]
    try:
        settle()
        r = subprocess.run([GESTURED, "devices", "--json"], capture_output=True, text=True, timeout=60)
        check(r.returncode == 0, f"gestured devices: rc {r.returncode}: {r.stderr[-400:]}")
        listed = {d["node"]: d for d in (json.loads(l) for l in r.stdout.splitlines() if l.startswith("{"))}
        for dev, (src, kind, proto, semi) in zip(devs, srcs):
            check(dev.node in listed, f"{os.path.basename(src)} ({dev.node}) not listed: {r.stdout}")
            e = listed[dev.node]
            check(e["kind"] == kind, f"{dev.node}: kind {e['kind']}, expected {kind}")
            if proto: check(e["protocol"] == proto, f"{dev.node}: protocol {e['protocol']}, expected {proto}")
            check(e["semi_mt"] == semi, f"{dev.node}: semi_mt {e['semi_mt']}")
        for dev in devs[4:]:
            check(dev.node not in listed, f"{dev.name} {dev.node} listed: {listed.get(dev.node)}")
    finally:
        for d in devs: d.remove()

@test
def cli_permission_denied_explains_the_input_group():
    """An unprivileged user (not in `input`) is told why it cannot open a touch device, and how to fix it."""
    dev = Device(TOUCHSCREEN)
    try:
        settle()
        r = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", GESTURED, "devices"],
                           capture_output=True, text=True, timeout=60)
        check(r.returncode != 0 or dev.node not in r.stdout, f"nobody could open {dev.node}: {r.stdout}")
        check(dev.node in r.stderr and "Permission denied" in r.stderr and "input` group" in r.stderr,
              f"the error does not explain the input group: {r.stderr[-500:]}")
    finally:
        dev.remove()

@test
def cli_record_of_a_kernel_device_replays_to_the_same_gestures():
    """`gestured record NODE` while a real recording is written to uinput: the new file replays like the original."""
    rec = REPLAYS[0][0]
    want = replay_expectation(rec, None)
    dev = Device(rec)
    out = f"{WORK}/recorded.evemu"
    try:
        settle()
        # Played once `record` says it reads the node; the unplug then ends the recording (rc 0), so a
        # slow start or a slow play under load cannot cut either end of it.
        r = Lines([GESTURED, "record", dev.node, "-o", out, "--seconds", "300"], stdin=subprocess.DEVNULL, name="record")
        deadline = time.monotonic() + 30
        while "gestured record: recording" not in r.stderr():
            check(r.p.poll() is None and time.monotonic() < deadline, f"gestured record did not start: {r.stderr()[-400:]}")
            time.sleep(0.05)
        dev.do(f"play {rec}", timeout=120)
        dev.unplug()
        rc = r.p.wait(timeout=30)
        check(rc == 0, f"gestured record: rc {rc}: {r.stderr()[-400:]}")
        got = replay_expectation(out, None)
        check(got == want, f"re-recorded through the kernel {got}\n   original {want}")
    finally:
        dev.remove()

@test
def cli_record_html_writes_the_page_when_interrupted():
    """`gestured record NODE -o FILE --html PAGE`, stopped with Ctrl-C (SIGINT) after a real recording
    was played: the recording is complete and the page pictures its contacts."""
    rec = f"{FIX}/touchscreen-ep0430m09-2finger-swipe-up__whot-evemu-devices.evemu"
    dev = Device(rec)
    out, page = f"{WORK}/recorded-html.evemu", f"{WORK}/recorded.html"
    try:
        settle()
        r = Lines([GESTURED, "record", dev.node, "-o", out, "--html", page], stdin=subprocess.DEVNULL, name="record-html")
        deadline = time.monotonic() + 30
        while "gestured record: recording" not in r.stderr():
            check(r.p.poll() is None and time.monotonic() < deadline, f"gestured record did not start: {r.stderr()[-400:]}")
            time.sleep(0.05)
        dev.do(f"play {rec}", timeout=120)
        time.sleep(0.5)
        r.p.send_signal(signal.SIGINT)
        rc = r.p.wait(timeout=30)
        check(rc == 0, f"gestured record --html: rc {rc}: {r.stderr()[-400:]}")
        html = open(page).read()
        check(html.count('<path class="contact"') == 2, f"the page does not show the two fingers: {r.stderr()[-400:]}")
        check('data-kind="swipe"' in html, "the page lacks the swipe")
    finally:
        dev.remove()

@test
def cli_tune_on_a_device_measures_the_asked_gestures():
    """`gestured tune NODE --gestures tap --repetitions 3` while real taps are played on the node: it
    asks for the taps, measures three, and prints a snippet naming the device."""
    rec = f"{FIX}/touchscreen-atmel-1finger-repeated-taps__whot-evemu-devices.evemu"
    dev = Device(rec)
    try:
        settle()
        r = Lines([GESTURED, "tune", dev.node, "--gestures", "tap", "--repetitions", "3", "--config", "/dev/null"],
                  stdin=subprocess.DEVNULL, name="tune")
        deadline = time.monotonic() + 30
        while "tap, 3 times" not in r.stderr():
            check(r.p.poll() is None and time.monotonic() < deadline, f"gestured tune did not ask: {r.stderr()[-400:]}")
            time.sleep(0.05)
        dev.do(f"play {rec}", timeout=120)
        rc = r.p.wait(timeout=30)
        r.wait_for(lambda l: l.startswith("# gestured tune: tap × 3"), 5, "the snippet's summary")
        check(rc == 0, f"gestured tune: rc {rc}: {r.stderr()[-400:]}")
        r.seen_or_wait(lambda l: "match: {name:" in l and "Atmel" in l, 5, "the device rule")
    finally:
        dev.remove()

# ---------------------------------------------------------------------------------------------
# The daemon against real devices (skipped while `gestured run` is not implemented)

TAP_HOLD = f"{FIX}/touchscreen-atmel-2finger-tap-hold__whot-evemu-devices.evemu"

def tap(dev, x=400, y=240):
    dev.do(f"down {x} {y}"); dev.do("sleep 60"); dev.do("up")

@test
def daemon_discovers_touch_devices_and_ignores_keyboard_and_mouse():
    """udev discovery: devices present at start are in hello, later ones come as deviceAdded."""
    daemon_ready()
    before = [Device(TOUCHSCREEN), Device(TOUCHPAD), Device("keyboard"), Device("mouse")]
    later = []
    d = None
    try:
        settle()
        d = Daemon()
        c = d.client()
        nodes = hello_nodes(c.hello)
        ts, tp, kb, ms = before
        check(ts.node in nodes, f"hello lacks the touchscreen {ts.node}: {c.hello}")
        check(tp.node in nodes, f"hello lacks the touchpad {tp.node}: {c.hello}")
        check(nodes[ts.node].get("kind") == "touchscreen", f"{ts.node} kind: {nodes[ts.node]}")
        check(nodes[tp.node].get("kind") == "touchpad", f"{tp.node} kind: {nodes[tp.node]}")
        check(kb.node not in nodes and ms.node not in nodes, f"hello lists the keyboard or the mouse: {c.hello}")
        for src, kind in [(PROTO_A, "touchscreen"), (SEMI_MT, "touchpad"), ("keyboard", None)]:
            dev = Device(src); later.append(dev)
            if kind is None: continue
            m = c.wait(added(dev.node), 15, f"deviceAdded {dev.node} ({os.path.basename(src)})")
            check(device_of(m).get("kind") == kind, f"{dev.node}: kind {device_of(m).get('kind')}, expected {kind}")
        settle(); time.sleep(0.5)
        extra = [m for m in c.seen if m.get("type") == "deviceAdded" and device_of(m).get("node") in (kb.node, ms.node, later[2].node)]
        check(not extra, f"a keyboard or mouse was announced: {extra}")
        check(d.alive(), "the daemon died")
    finally:
        for dev in before + later: dev.remove()
        if d: d.stop()

@test
def daemon_removal_mid_gesture_cancels_and_daemon_picks_up_the_next():
    """hotplug: a device unplugged during a long press ends it `cancelled`; a new device works."""
    daemon_ready()
    d = Daemon(); c = d.client()
    dev = Device(TAP_HOLD)
    nxt = None
    try:
        c.wait(added(dev.node), 15, f"deviceAdded {dev.node}")
        dev.do(f"play {TAP_HOLD} 780")      # both fingers down and still; lift comes at 810 ms
        began = c.wait(lambda m: m.get("type") == "gesture" and m.get("phase") == "began", 10, "a continuous gesture to begin (long press)")
        dev.remove()
        end = c.wait(lambda m: m.get("type") == "gesture" and m.get("id") == began.get("id") and m.get("phase") in ("ended", "cancelled"), 10,
                     f"the end of gesture {began.get('id')}")
        check(end.get("phase") == "cancelled", f"gesture {began.get('gesture')} ended '{end.get('phase')}' after its device was removed, expected cancelled")
        c.wait(removed(dev.node), 10, f"deviceRemoved {dev.node}")
        check(d.alive(), "the daemon exited after a removal")
        nxt = Device(TOUCHSCREEN)
        c.wait(added(nxt.node), 15, f"deviceAdded {nxt.node} after the removal")
        tap(nxt)
        c.wait(gesture("tap", "recognized"), 10, "a tap on the next device")
    finally:
        dev.remove()
        if nxt: nxt.remove()
        d.stop()

@test
def daemon_twenty_hotplug_cycles_leak_no_fd():
    """20 add/remove cycles: /proc/PID/fd of the daemon has the same count after as before."""
    daemon_ready()
    d = Daemon(); c = d.client()
    dev = Device(TOUCHSCREEN)
    try:
        # Each cycle ends with the device added again, so both counts include its open fd
        # (measuring before the daemon has opened the re-plugged node was a race).
        def cycle():
            dev.unplug()
            c.wait(removed(dev.node), 15, f"deviceRemoved {dev.node}")
            dev.plug()
            c.wait(added(dev.node), 15, f"deviceAdded {dev.node}")
        c.wait(added(dev.node), 15, f"deviceAdded {dev.node}")
        cycle()                     # warm up (lazy allocations)
        before = fd_settled(d.p.pid, -1, 0.5); links = d.fd_links()
        for _ in range(20): cycle()
        after = fd_settled(d.p.pid, before)
        check(after == before, f"fd count went from {before} to {after} over 20 add/remove cycles: before {links}, after {d.fd_links()}")
        check(d.alive(), "the daemon died")
    finally:
        dev.remove(); d.stop()

def signature(events):
    """What must match between the kernel path and `gestured replay`: every non-`changed` event."""
    return [(m.get("gesture"), m.get("phase"), m.get("fingers"), m.get("direction"), m.get("edge"))
            for m in events if m.get("type") == "gesture" and m.get("phase") != "changed"]

def taps_as_units(sig):
    """A signature with every doubleTap written as two taps (same fingers)."""
    out = []
    for g in sig:
        out += [("tap",) + g[1:]] * 2 if g[0] == "doubleTap" else [g]
    return out

# (recording, its device header, what the person did per RECORDINGS.md: (gesture, fingers, direction) or None)
REPLAYS = [
    (f"{FIX}/touchscreen-ep0430m09-2finger-swipe-up__whot-evemu-devices.evemu", None, ("swipe", 2, "up")),
    # Semi-MT, 3 fingers known only from BTN_TOOL_TRIPLETAP. (The ALPS 2-finger tap lifts 6 ms
    # inside the touchpad tap limit: too close for TCG's timing jitter to replay reliably.)
    (f"{FIX}/touchpad-semimt-cypress-3finger-tap__whot-evemu-devices.evemu", None, ("tap", 3, None)),
    (f"{FIX}/touchscreen-protoA-ntrig-1finger-corner-swipe-NW-SE__whot-evemu-devices.events", PROTO_A, None),
    (f"{FIX}/touchscreen-atmel-1finger-repeated-taps__whot-evemu-devices.evemu", None, (("tap", "doubleTap"), 1, None)),
]

ARBITRATE_LIKE_REPLAY = """bindings:
  - gesture: doubleTap
    fingers: any
    command: 'true'
"""

@test
def daemon_replay_into_the_kernel_matches_gestured_replay():
    """Real recordings written to uinput with their spacing give the gestures `gestured replay` gives."""
    daemon_ready()
    # `gestured replay` arbitrates as if every kind were bound (a tap waits for a possible double
    # tap); the daemon waits only where a doubleTap binding exists. Bind it so both agree.
    d = Daemon(config=ARBITRATE_LIKE_REPLAY); c = d.client()
    try:
        for rec, desc, expected in REPLAYS:
            argv = [GESTURED, "replay", "--json"] + (["--device-description", desc] if desc else []) + [rec]
            r = subprocess.run(argv, capture_output=True, text=True, timeout=60)
            check(r.returncode == 0, f"{' '.join(argv)}: rc {r.returncode}: {r.stderr[-400:]}")
            want = signature([json.loads(l) for l in r.stdout.splitlines() if l.startswith("{")])
            dev = Device(desc or rec)
            try:
                c.wait(added(dev.node), 15, f"deviceAdded {dev.node}")
                c.collect(0.2, 1)
                dev.do(f"play {rec}", timeout=120)
                got = signature(c.collect(1.5, 30))
            finally:
                dev.remove()
            c.wait(removed(dev.node), 10, f"deviceRemoved {dev.node}")
            name = os.path.basename(rec)
            # How taps pair into double taps depends on the real gap between them: when TCG
            # delays the writer past the double-tap gap, the kernel path rightly sees two taps
            # where the recording's own times make a double tap. Compare taps by count.
            check(taps_as_units(got) == taps_as_units(want), f"{name}: through the kernel {got}\n   gestured replay     {want}")
            if expected:
                kind, fingers, direction = expected
                kinds = kind if isinstance(kind, tuple) else (kind,)
                check(any(g[0] in kinds and g[2] == fingers and (direction is None or g[3] == direction) for g in got),
                      f"{name}: no {fingers}-finger {kind} {direction or ''} (what the person did) in {got}")
            else:
                check(got, f"{name}: no gesture at all")
    finally:
        d.stop()

@test
def daemon_hook_runs_for_a_swipe_through_the_kernel():
    """A binding's command runs, with the GESTURE_* environment, for a real 2-finger swipe up written to uinput."""
    daemon_ready()
    out = f"{WORK}/hook.out"
    if os.path.exists(out): os.unlink(out)
    rec = REPLAYS[0][0]
    config = f"""bindings:
  - gesture: swipe
    fingers: 2
    direction: up
    command: 'printf "%s %s %s %s\\n" "$GESTURE_KIND" "$GESTURE_FINGERS" "$GESTURE_DIRECTION" "$GESTURE_DEVICE_NODE" >> {out}'
"""
    d = Daemon(config=config); c = d.client()
    dev = Device(rec)
    try:
        c.wait(added(dev.node), 15, f"deviceAdded {dev.node}")
        dev.do(f"play {rec}", timeout=120)
        c.wait(gesture("swipe", "recognized"), 10, "the swipe on the socket")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not (os.path.exists(out) and open(out).read().strip()):
            time.sleep(0.1)
        text = open(out).read() if os.path.exists(out) else ""
        check(text.strip() == f"swipe 2 up {dev.node}", f"hook output {text!r}, expected 'swipe 2 up {dev.node}'; log: {d.stderr()[-1500:]}")
    finally:
        dev.remove(); d.stop()

@test
def daemon_syn_dropped_resyncs_cancels_and_keeps_working():
    """A flood while the daemon is stopped: SYN_DROPPED cancels the gesture in flight; the daemon goes on."""
    daemon_ready()
    d = Daemon(); c = d.client()
    dev = Device(TAP_HOLD)
    try:
        c.wait(added(dev.node), 15, f"deviceAdded {dev.node}")
        dev.do(f"play {TAP_HOLD} 780")
        began = c.wait(lambda m: m.get("type") == "gesture" and m.get("phase") == "began", 10, "a long press to begin")
        os.kill(d.p.pid, signal.SIGSTOP)
        try:
            dev.do("flood 4000")       # far more than evdev's per-client buffer
        finally:
            os.kill(d.p.pid, signal.SIGCONT)
        end = c.wait(lambda m: m.get("type") == "gesture" and m.get("id") == began.get("id") and m.get("phase") in ("ended", "cancelled"), 10,
                     f"the end of gesture {began.get('id')} after SYN_DROPPED")
        check(end.get("phase") == "cancelled", f"after SYN_DROPPED gesture {began.get('gesture')} ended '{end.get('phase')}', expected cancelled")
        deadline = time.monotonic() + 5     # the log line may follow the socket's cancel
        while True:
            log = d.stderr()
            if "SYN_DROPPED" in log or "resync" in log.lower() or time.monotonic() > deadline: break
            time.sleep(0.1)
        check("SYN_DROPPED" in log or "resync" in log.lower(), f"the daemon's log does not mention the SYN_DROPPED: {log[-500:]}")
        dev.do("up"); dev.do("sleep 300")
        tap(dev)
        c.wait(gesture("tap", "recognized"), 10, "a tap after the resync")
        check(d.alive(), "the daemon died")
    finally:
        dev.remove(); d.stop()

@test
def daemon_notify_socket_gets_ready_and_stopping():
    """The systemd path: with NOTIFY_SOCKET set, READY=1 comes once it listens; SIGTERM sends STOPPING=1."""
    daemon_ready()
    path = f"{WORK}/notify.sock"
    if os.path.exists(path): os.unlink(path)
    ns = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); ns.bind(path); ns.settimeout(30)
    env = dict(os.environ, NOTIFY_SOCKET=path)
    d = Daemon(env=env)
    try:
        got = []
        deadline = time.monotonic() + 30
        while not any("READY=1" in g for g in got) and time.monotonic() < deadline:
            got.append(ns.recv(4096).decode(errors="replace"))
        check(any("READY=1" in g for g in got), f"no READY=1 on NOTIFY_SOCKET: {got}")
        d.client()                         # it listens
        d.p.send_signal(signal.SIGTERM)
        ns.settimeout(10)
        while not any("STOPPING=1" in g for g in got):
            try: got.append(ns.recv(4096).decode(errors="replace"))
            except socket.timeout: break
        check(any("STOPPING=1" in g for g in got), f"no STOPPING=1 after SIGTERM: {got}")
        rc = d.p.wait(timeout=10)
        check(rc == 0, f"gestured run exited {rc} after SIGTERM")
    finally:
        d.stop(); ns.close()

# ---------------------------------------------------------------------------------------------
# Key and click actions through the daemon's own uinput devices, read back by real libinput

class Device2(Device):
    """A gestured-uinput device with extra arguments (e.g. --phys)."""
    def __init__(self, source, extra):
        argv = [UINPUT, source] + list(extra)
        Lines.__init__(self, argv, name="uinput-" + os.path.basename(source)[:24])
        line = self.wait_for(lambda l: l.startswith("node ") or l.startswith("error"), 10, "the device node")
        if line.startswith("error"): raise Fail(f"gestured-uinput {source}: {line}")
        self.node = line.split()[1]

def virtual_nodes(role=None):
    """/dev/input/eventN of the devices whose sysfs phys carries gestured's mark (by role)."""
    out = {}
    for ev in sorted(os.listdir("/sys/class/input")):
        if not ev.startswith("event"): continue
        try: phys = open(f"/sys/class/input/{ev}/device/phys").read().strip()
        except OSError: continue
        if phys.startswith("gestured-virtual/"):
            r = phys.split("/", 1)[1]
            if role is None or r == role: out.setdefault(r, []).append(f"/dev/input/{ev}")
    return out

def wait_virtual(role, d, timeout=20):
    """The node of this daemon's virtual ROLE (keyboard, pointer, touch-pointer), from its log
    line `actions: virtual … /dev/input/eventN`, checked to carry gestured's phys mark in sysfs."""
    import re
    pattern = {"keyboard": r"actions: virtual keyboard (/dev/input/event\d+)",
               "pointer": r"actions: virtual pointer (/dev/input/event\d+)",
               "touch-pointer": r"actions: virtual touch pointer for '.*?' (/dev/input/event\d+)"}[role]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        m = re.findall(pattern, d.stderr())
        if m and os.path.exists(m[-1]):
            node = m[-1]
            check(node in virtual_nodes(role).get(role, []), f"{node} lacks the phys mark gestured-virtual/{role}: {virtual_nodes()}")
            settle(); return node
        if not d.alive(): raise Fail(f"the daemon exited: {d.stderr()[-800:]}")
        time.sleep(0.1)
    raise Fail(f"no virtual {role} appeared; log: {d.stderr()[-1200:]}")

def libinput_ready():
    if subprocess.run(["sh", "-c", "command -v libinput"], capture_output=True).returncode != 0:
        raise Skip("libinput (Debian libinput-tools) is not installed; Tests/VM/setup.sh installs it")

class LibinputEvents(Lines):
    """`libinput debug-events --show-keycodes --device NODE`: real libinput on one node."""
    def __init__(self, node):
        super().__init__(["libinput", "debug-events", "--show-keycodes", "--device", node], stdin=subprocess.DEVNULL,
                         name="libinput-" + os.path.basename(node))
        self.wait_for(lambda l: "DEVICE_ADDED" in l, 20, f"libinput to open {node}")
    def keys(self):
        """(KEY_NAME, pressed|released) in order, from KEYBOARD_KEY lines seen so far."""
        out = []
        for l in self.seen:
            if "KEYBOARD_KEY" in l:
                w = l.split()
                i = next(j for j, x in enumerate(w) if x.startswith("KEY_") or x == "***")
                out.append((w[i], w[-1]))
        return out
    def close(self): self.p.terminate(); self.stop()

def libinput_xy(line):
    """The percent position in a debug-events line: after the +TIME token, "0 (0) X/Y (…mm)" for
    a touch, "X/ Y" (padded) for absolute motion."""
    rest = line[line.index("+"):].split(None, 1)[1]
    rest = rest.split(")", 1)[1] if rest.lstrip()[:1].isdigit() and "(" in rest.split("/")[0] else rest
    x, y = rest.split("(")[0].replace(" ", "").replace("\t", "").split("/")[:2]
    return float(x), float(y)

class RawKeys:
    """Reads struct input_event straight from an evdev node (what the kernel sends, no libinput)."""
    def __init__(self, node):
        self.f = open(node, "rb", buffering=0); self.events = []; self.ended = None
        threading.Thread(target=self._pump, daemon=True).start()
    def _pump(self):
        import struct
        while True:
            try: b = self.f.read(24)
            except OSError as e: self.ended = e.errno; return
            if not b or len(b) < 24: self.ended = "eof"; return
            _, _, t, c, v = struct.unpack("qqHHi", b)
            if t == 1: self.events.append((c, v))
    def wait_ended(self, timeout):
        deadline = time.monotonic() + timeout
        while self.ended is None and time.monotonic() < deadline: time.sleep(0.05)
        return self.ended

CHORD = [("KEY_LEFTCTRL", "pressed"), ("KEY_LEFTALT", "pressed"), ("KEY_RIGHT", "pressed"),
         ("KEY_RIGHT", "released"), ("KEY_LEFTALT", "released"), ("KEY_LEFTCTRL", "released")]

SWIPE_KEYS_CONFIG = """bindings:
  - gesture: swipe
    fingers: 3
    direction: right
    keys: "ctrl+alt+Right"
"""

def swipe3(ts):
    ts.do("swipe 3 100 200 500 0 250")

@test
def actions_three_finger_swipe_sends_ctrl_alt_right_through_libinput():
    """A bound 3-finger swipe: libinput on the daemon's virtual keyboard reads exactly ctrl↓ alt↓ Right↓ Right↑ alt↑ ctrl↑."""
    daemon_ready(); libinput_ready()
    d = li = ts = None
    try:
        d = Daemon(config=SWIPE_KEYS_CONFIG); c = d.client()
        kb = wait_virtual("keyboard", d)
        li = LibinputEvents(kb)
        ts = Device(TOUCHSCREEN)
        c.wait(added(ts.node), 15, f"deviceAdded {ts.node}")
        swipe3(ts)
        g = c.wait(gesture("swipe", "recognized"), 10, "the 3-finger swipe")
        check(g.get("fingers") == 3 and g.get("direction") == "right", f"recognized {g}")
        li.wait_for(lambda l: "KEYBOARD_KEY" in l and "KEY_LEFTCTRL" in l and "released" in l, 10, "the chord's last release")
        quiet(li, 1.0)
        check(li.keys() == CHORD, f"libinput read {li.keys()}, expected {CHORD}")
    finally:
        if li: li.close()
        if ts: ts.remove()
        if d: d.stop()

LONG_PRESS_CLICK_CONFIG = """bindings:
  - gesture: longPress
    device: {kind: touchscreen}
    button: right
    at: touch
"""

@test
def actions_long_press_right_clicks_where_the_touch_is():
    """Long press on a touchscreen: libinput reads a right click on the mirror pointer at the position it reads for the touch."""
    daemon_ready(); libinput_ready()
    d = ts = lt = lp = None
    try:
        d = Daemon(config=LONG_PRESS_CLICK_CONFIG); c = d.client()
        ts = Device(TOUCHSCREEN)
        c.wait(added(ts.node), 15, f"deviceAdded {ts.node}")
        tp = wait_virtual("touch-pointer", d)
        lp = LibinputEvents(tp); lt = LibinputEvents(ts.node)
        ts.do("down 612 151"); ts.do("sleep 1200"); ts.do("up")
        c.wait(gesture("longPress", "began"), 10, "the long press")
        down = lt.seen_or_wait(lambda l: "TOUCH_DOWN" in l, 10, "libinput's TOUCH_DOWN")
        click = lp.wait_for(lambda l: "POINTER_BUTTON" in l and "BTN_RIGHT" in l and "released" in l, 10, "the right click")
        pressed = [l for l in lp.seen if "POINTER_BUTTON" in l and "pressed" in l]
        check(len(pressed) == 1 and "BTN_RIGHT" in pressed[0], f"buttons: {pressed}")
        moves = [l for l in lp.seen if "POINTER_MOTION_ABSOLUTE" in l]
        check(moves, f"no absolute motion before the click: {lp.seen[-6:]}")
        t = libinput_xy(down); p = libinput_xy(moves[-1])
        check(abs(t[0] - p[0]) < 0.5 and abs(t[1] - p[1]) < 0.5, f"touch at {t}, click at {p} (percent of the surface)")
    finally:
        for l in (lt, lp):
            if l: l.close()
        if ts: ts.remove()
        if d: d.stop()

@test
def actions_kill_9_mid_chord_leaves_no_key_down():
    """kill -9 while a chord is held (key_hold_ms): the kernel releases every key as the device goes, libinput too."""
    daemon_ready(); libinput_ready()
    config = SWIPE_KEYS_CONFIG + "    key_hold_ms: 8000\n"
    d = li = ts = None
    try:
        d = Daemon(config=config); c = d.client()
        kb = wait_virtual("keyboard", d)
        raw = RawKeys(kb)
        li = LibinputEvents(kb)
        ts = Device(TOUCHSCREEN)
        c.wait(added(ts.node), 15, f"deviceAdded {ts.node}")
        swipe3(ts)
        li.wait_for(lambda l: "KEYBOARD_KEY" in l and "KEY_RIGHT" in l and "pressed" in l, 10, "the chord held down")
        check(li.keys() == CHORD[:3], f"before the kill libinput read {li.keys()}")
        os.kill(d.p.pid, signal.SIGKILL); d.p.wait(timeout=10)
        ended = raw.wait_ended(10)
        check(ended == 19, f"the raw reader ended with {ended}, expected ENODEV (the device went with the process)")
        downs = [c_ for c_, v in raw.events if v == 1]
        ups = [c_ for c_, v in raw.events if v == 0]
        check(downs == [29, 56, 106], f"kernel events before the kill: {raw.events}")
        check(sorted(ups) == sorted(downs), f"the kernel did not release every key: {raw.events}")
        li.wait_for(lambda l: "DEVICE_REMOVED" in l, 10, "libinput's DEVICE_REMOVED")
        held = {}
        for k, s_ in li.keys(): held[k] = s_
        check(all(s_ == "released" for s_ in held.values()), f"libinput still holds keys: {li.keys()}")
        check(kb not in virtual_nodes("keyboard").get("keyboard", []), f"the virtual keyboard outlived the daemon: {virtual_nodes()}")
    finally:
        if li: li.close()
        if ts: ts.remove()
        if d: d.stop()

@test
def actions_discovery_ignores_the_daemons_own_devices():
    """The daemon's keyboard, pointer and touch pointer, and a touchscreen carrying gestured's mark, are never opened as touch devices."""
    daemon_ready()
    config = SWIPE_KEYS_CONFIG + LONG_PRESS_CLICK_CONFIG.replace("bindings:\n", "") + "  - {gesture: tap, fingers: 2, button: middle}\n"
    marked = Device2(TOUCHSCREEN, ["--phys", "gestured-virtual/clone-test", "--name", "marked clone"])
    d = None; ts = None
    try:
        settle()
        d = Daemon(config=config); c = d.client()
        ts = Device(TOUCHSCREEN)
        c.wait(added(ts.node), 15, f"deviceAdded {ts.node}")
        tp = wait_virtual("touch-pointer", d)
        own = virtual_nodes()
        check(set(own) >= {"keyboard", "pointer", "touch-pointer", "clone-test"}, f"virtual devices: {own}")
        check(udev_property(marked.node, "ID_INPUT_TOUCHSCREEN") == "1", "the marked clone is not a touchscreen to udev: the test would prove nothing")
        time.sleep(1.0)
        nodes = set(hello_nodes(c.hello)) | {device_of(m).get("node") for m in c.seen if m.get("type") == "deviceAdded"}
        for role, ns in own.items():
            for n in ns: check(n not in nodes, f"the daemon opened its own {role} {n}: {nodes}")
        check(ts.node in nodes, f"the real touchscreen is missing: {nodes}")
        r = subprocess.run([GESTURED, "devices", "--json"], capture_output=True, text=True, timeout=60)
        check(marked.node not in r.stdout and ts.node in r.stdout, f"gestured devices: {r.stdout}")
    finally:
        if ts: ts.remove()
        marked.remove()
        if d: d.stop()

EMIT_CLIENT = r"""
import json, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect(sys.argv[1]); f = s.makefile("rw")
def reply():
    while True:
        m = json.loads(f.readline())
        if m.get("type") in ("ok", "error"): return m
f.readline()                                  # hello
f.write(json.dumps({"type": "emit", "keys": ["ctrl+alt+Right"]}) + "\n"); f.flush(); print(json.dumps(reply()))
f.write(json.dumps({"type": "subscribe"}) + "\n"); f.flush(); print(json.dumps(reply()))
"""

@test
def actions_emit_from_a_disallowed_uid_is_refused_and_the_connection_lives():
    """emit over the socket: root's chord reaches libinput; uid 65534 gets an error naming the rule, its connection lives on, no key is sent."""
    daemon_ready(); libinput_ready()
    config = SWIPE_KEYS_CONFIG + 'socket:\n  mode: "0666"\n'
    d = li = None
    try:
        d = Daemon(config=config); c = d.client()
        kb = wait_virtual("keyboard", d)
        li = LibinputEvents(kb)
        script = f"{WORK}/emit_client.py"; open(script, "w").write(EMIT_CLIENT)
        r = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "python3", script, d.socket],
                           capture_output=True, text=True, timeout=60)
        check(r.returncode == 0, f"the nobody client failed: {r.stderr[-600:]}")
        refused, subscribed = [json.loads(l) for l in r.stdout.splitlines()[:2]]
        check(refused.get("type") == "error" and "emit refused: uid 65534" in refused.get("reason", "")
              and "actions.allowed_uids" in refused.get("reason", ""), f"nobody's emit: {refused}")
        check(subscribed == {"type": "ok", "request": "subscribe"}, f"the connection did not live on: {subscribed}")
        quiet(li, 1.0)
        check(li.keys() == [], f"a refused emit sent keys: {li.keys()}")
        r = subprocess.run(["python3", script, d.socket], capture_output=True, text=True, timeout=60)
        ok = json.loads(r.stdout.splitlines()[0])
        check(ok == {"type": "ok", "request": "emit"}, f"root's emit: {ok} {r.stderr[-400:]}")
        li.wait_for(lambda l: "KEYBOARD_KEY" in l and "KEY_LEFTCTRL" in l and "released" in l, 10, "root's chord")
        quiet(li, 0.5)
        check(li.keys() == CHORD, f"libinput read {li.keys()} for root's emit")
        check("emit refused: uid 65534" in d.stderr(), f"the refusal is not logged: {d.stderr()[-600:]}")
    finally:
        if li: li.close()
        if d: d.stop()

SYSBUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>system</type><listen>unix:path=%s</listen><auth>EXTERNAL</auth>
<policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/></policy>
</busconfig>
"""

LOCK_CONFIG = SWIPE_KEYS_CONFIG + """  - gesture: swipe
    fingers: 3
    direction: left
    keys: "F5"
    when_locked: true
"""

class LogindStandin:
    """A private system bus (dbus-daemon) with the logind stand-in on it (support/fake_logind.py: a
    fault-injecting stand-in serving logind's documented Session.LockedHint and PropertiesChanged,
    because the kernel VM has no systemd to run a real logind), and a real /run/systemd/seats/seat0
    for sd-login naming session c1 as active. `env` points DBUS_SYSTEM_BUS_ADDRESS at the bus."""
    def __init__(self):
        os.makedirs("/run/systemd/seats", exist_ok=True)
        open("/run/systemd/seats/seat0", "w").write("ACTIVE=c1\nACTIVE_UID=1000\n")   # what sd-login reads
        bus_path = f"{WORK}/system_bus"
        conf = f"{WORK}/system_bus.conf"; open(conf, "w").write(SYSBUS_CONFIG % bus_path)
        if os.path.exists(bus_path): os.unlink(bus_path)
        self.bus = subprocess.Popen(["dbus-daemon", "--config-file", conf, "--nofork", "--nopidfile"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=f"unix:path={bus_path}")
        self.logind = None
        for _ in range(100):
            if os.path.exists(bus_path): break
            time.sleep(0.05)
        self.logind = Lines(["python3", f"{ROOT}/Tests/VM/support/fake_logind.py", "c1"], env=self.env, name="fake-logind")
        self.logind.wait_for(lambda l: l == "ready", 90, "the logind stand-in")

    def set(self, locked):
        cmd = "lock" if locked else "unlock"
        self.logind.send(cmd); self.logind.wait_for(lambda l: l == "ok " + cmd, 10, cmd)

    def stop(self):
        if self.logind: self.logind.stop()
        self.bus.terminate(); self.bus.wait()
        try: os.unlink("/run/systemd/seats/seat0")
        except OSError: pass

def wait_log(proc, text, timeout, what):
    deadline = time.monotonic() + timeout
    while text not in proc.stderr() and time.monotonic() < deadline: time.sleep(0.1)
    check(text in proc.stderr(), f"{what}: no '{text}' in {proc.name}'s log: {proc.stderr()[-800:]}")

@test
def actions_locked_session_pauses_keys_logind_dbus_protocol_standin():
    """LockedHint (logind's documented D-Bus interface, served by a stand-in: no systemd in the VM)
    followed by signal: locked → a bound swipe sends nothing, a when_locked binding still does; unlocked → keys again."""
    daemon_ready(); libinput_ready()
    login = d = li = ts = None
    try:
        login = LogindStandin()
        d = Daemon(config=LOCK_CONFIG, env=login.env); c = d.client()
        kb = wait_virtual("keyboard", d)
        li = LibinputEvents(kb)
        ts = Device(TOUCHSCREEN)
        c.wait(added(ts.node), 15, f"deviceAdded {ts.node}")
        def swipe_and_keys(direction):
            li.seen.clear()
            ts.do("swipe 3 100 200 500 0 250" if direction == "right" else "swipe 3 560 200 -460 0 250")
            c.wait(lambda m: m.get("type") == "gesture" and m.get("gesture") == "swipe" and m.get("direction") == direction, 10, f"a swipe {direction}")
            quiet(li, 1.5)
            return li.keys()
        check(swipe_and_keys("right") == CHORD, f"unlocked: {li.keys()}")
        login.set(True)
        wait_log(d, "c1 locked", 10, "the daemon did not see the lock")
        check(swipe_and_keys("right") == [], f"locked, yet keys were sent: {li.keys()}")
        check(swipe_and_keys("left") == [("KEY_F5", "pressed"), ("KEY_F5", "released")], f"when_locked binding while locked: {li.keys()}")
        login.set(False)
        wait_log(d, "c1 unlocked", 10, "the daemon did not see the unlock")
        check(swipe_and_keys("right") == CHORD, f"unlocked again: {li.keys()}")
    finally:
        if li: li.close()
        if ts: ts.remove()
        if d: d.stop()
        if login: login.stop()

def maps_libsystemd(d):
    return "/libsystemd.so.0" in open(f"/proc/{d.p.pid}/maps").read()

@test
def actions_first_emit_while_locked_is_refused_logind_dbus_protocol_standin():
    """No key bindings: libsystemd is not mapped until the first emit, which starts following the
    lock and reads LockedHint before deciding: sent while already locked, it is refused, a
    when_locked one is sent; after the unlock signal keys are sent again."""
    daemon_ready()
    login = d = None
    try:
        login = LogindStandin()
        login.set(True)
        d = Daemon(config="bindings:\n  - {gesture: tap, fingers: 2, command: ':'}\n", env=login.env); c = d.client()
        def emit(**extra):
            c.s.sendall((json.dumps(dict({"type": "emit", "keys": ["ctrl+alt+Right"]}, **extra)) + "\n").encode())
            return c.wait(lambda m: m.get("type") in ("ok", "error"), 10, "the reply to emit")
        time.sleep(0.5)
        check(not maps_libsystemd(d), "libsystemd mapped before any emit request")
        r = emit()
        check(r.get("type") == "error" and "the seat's session is locked" in r.get("reason", ""), f"first emit while locked: {r}")
        check(maps_libsystemd(d), "libsystemd not mapped after an emit request")
        r = emit(when_locked=True)
        check(r == {"type": "ok", "request": "emit"}, f"when_locked emit while locked: {r}")
        login.set(False)
        wait_log(d, "c1 unlocked", 10, "the daemon did not see the unlock")
        r = emit()
        check(r == {"type": "ok", "request": "emit"}, f"emit after the unlock: {r}")
    finally:
        if d: d.stop()
        if login: login.stop()

LISTEN_LOCK_CONFIG = """bindings:
  - gesture: swipe
    fingers: 3
    direction: right
    command: 'echo right >> {out}'
  - gesture: swipe
    fingers: 3
    direction: left
    command: 'echo left >> {out}'
    when_locked: true
"""

@test
def listen_locked_session_pauses_commands_logind_dbus_protocol_standin():
    """`gestured listen` follows LockedHint (the logind stand-in, by signal): locked → its command
    binding does not run, a when_locked: true one does; unlocked → the command runs again."""
    daemon_ready()
    out = f"{WORK}/listen-lock.out"
    if os.path.exists(out): os.unlink(out)
    cfg = f"{WORK}/listen-lock.yaml"; open(cfg, "w").write(LISTEN_LOCK_CONFIG.format(out=out))
    login = d = ts = listen = None
    def ran(): return open(out).read().split() if os.path.exists(out) else []
    def wait_ran(want, what):
        deadline = time.monotonic() + 15
        while ran() != want and time.monotonic() < deadline: time.sleep(0.1)
        check(ran() == want, f"{what}: the commands ran {ran()}, expected {want}; listen: {listen.stderr()[-800:]}")
    try:
        login = LogindStandin()
        d = Daemon(env=login.env); c = d.client()
        ts = Device(TOUCHSCREEN)
        c.wait(added(ts.node), 15, f"deviceAdded {ts.node}")
        listen = Lines([GESTURED, "listen", "--config", cfg, "--socket", d.socket, "--focus-backend", "off"],
                       env=login.env, stdin=subprocess.DEVNULL, name="gestured-listen")
        wait_log(listen, "connected to gestured", 30, "listen did not connect")
        def swipe(direction):
            ts.do("swipe 3 100 200 500 0 250" if direction == "right" else "swipe 3 560 200 -460 0 250")
            c.wait(lambda m: m.get("type") == "gesture" and m.get("gesture") == "swipe" and m.get("direction") == direction, 10, f"a swipe {direction}")
        swipe("right")
        wait_ran(["right"], "unlocked")
        login.set(True)
        wait_log(listen, "session c1 locked", 10, "listen did not see the lock")
        swipe("right")
        swipe("left")
        wait_ran(["right", "left"], "locked: only the when_locked binding may run")
        time.sleep(1.0)
        check(ran() == ["right", "left"], f"locked, yet the command ran late: {ran()}")
        login.set(False)
        wait_log(listen, "session c1 unlocked; 1 binding run(s) skipped while locked", 10, "listen did not see the unlock")
        swipe("right")
        wait_ran(["right", "left", "right"], "unlocked again")
    finally:
        if listen: listen.p.terminate(); listen.stop()
        if ts: ts.remove()
        if d: d.stop()
        if login: login.stop()

# Exclusive devices (issue 11): their tests live in Tests/VM/exclusive.py, run in this namespace.
_here = os.path.dirname(os.path.abspath(__file__))
exec(compile(open(os.path.join(_here, "exclusive.py")).read(), os.path.join(_here, "exclusive.py"), "exec"))
# What exclusive mode costs the compositor's input (issue 28): Tests/VM/exclusive_lag.py.
exec(compile(open(os.path.join(_here, "exclusive_lag.py")).read(), os.path.join(_here, "exclusive_lag.py"), "exec"))
# Orientation (issue 29): Tests/VM/orientation.py, in this namespace too.
exec(compile(open(os.path.join(_here, "orientation.py")).read(), os.path.join(_here, "orientation.py"), "exec"))
# The virtual touchpad (issue 30): Tests/VM/touchpad.py, in this namespace too.
exec(compile(open(os.path.join(_here, "touchpad.py")).read(), os.path.join(_here, "touchpad.py"), "exec"))

# ---------------------------------------------------------------------------------------------
# Tests that stop udevd run last (inotify fallback).

def stop_udevd():
    subprocess.run(["udevadm", "control", "--exit"], capture_output=True, timeout=20)
    for _ in range(100):
        if not os.path.exists("/run/udev/control"): break
        time.sleep(0.05)
    if os.path.exists("/run/udev/control"): os.unlink("/run/udev/control")

@test
def linuxinput_inotify_fallback():
    """DeviceMonitor without udevd: inotify on /dev/input, classification from capabilities."""
    stop_udevd()
    linuxinput_discovery("inotify")

@test
def daemon_inotify_fallback_finds_and_classifies():
    """Without udevd the daemon says so, still finds the touchscreen and touchpad, ignores the rest."""
    daemon_ready()
    stop_udevd()
    devs = [Device(TOUCHSCREEN), Device("keyboard")]
    d = None
    try:
        d = Daemon(); c = d.client()
        ts, kb = devs
        nodes = hello_nodes(c.hello)
        check(ts.node in nodes and nodes[ts.node].get("kind") == "touchscreen", f"hello: {c.hello}")
        check(kb.node not in nodes, f"the keyboard is in hello: {c.hello}")
        tp = Device(TOUCHPAD); devs.append(tp)
        m = c.wait(added(tp.node), 15, f"deviceAdded {tp.node} through inotify")
        check(device_of(m).get("kind") == "touchpad", f"{tp.node}: {m}")
        check("inotify" in d.stderr(), f"the log does not say the inotify mode is active: {d.stderr()[-400:]}")
        tp.remove()
        c.wait(removed(tp.node), 10, f"deviceRemoved {tp.node} through inotify")
    finally:
        for dev in devs: dev.remove()
        if d: d.stop()


def main():
    selected = [t for t in TESTS if not ARGS or t.__name__ in ARGS]
    if LIST:
        for t in TESTS: print(t.__name__)
        return 0
    failed = 0; counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    t_all = time.monotonic()
    for t in selected:
        t0 = time.monotonic()
        try:
            t(); status, why = "PASS", ""
        except Skip as e: status, why = "SKIP", str(e)
        except Fail as e: status, why = "FAIL", str(e)
        except Exception: status, why = "FAIL", traceback.format_exc()
        counts[status] += 1
        print(f"{status} {t.__name__} ({time.monotonic() - t0:.1f} s){': ' + why if why else ''}", flush=True)
    print(f"kernel suite: {counts['PASS']} passed, {counts['FAIL']} failed, {counts['SKIP']} skipped in {time.monotonic() - t_all:.1f} s", flush=True)
    if STRICT and counts["SKIP"]:
        print("kernel suite: --strict: skipped tests count as failures", flush=True)
        return 1
    return 1 if counts["FAIL"] else 0

if __name__ == "__main__":
    sys.exit(main())
