# What exclusive mode costs what the compositor reads (issue 28), run by suite.py in its namespace
# after exclusive.py (whose helpers it uses: wait_clone, log_match, li_pairs, li_events …). Real
# libinput (`libinput debug-events`) judges: on the clone of an exclusive device against the device
# itself (or a non-exclusive twin) fed the same input. Latencies are reported as figures, never
# asserted: the VM is QEMU TCG on a shared host.
import importlib.util as _ilu, struct as _struct, fcntl, contextlib as _contextlib

_spec = _ilu.spec_from_file_location("_latency_uinput", os.path.join(_here, "latency.py"))
_lat = _ilu.module_from_spec(_spec); _spec.loader.exec_module(_lat)   # its UInput: this process writes the frames

LAG_CONFIG = """log: {level: debug}
devices:
  - match: {name: "NAME"}
    exclusive: EXCLUSIVE
bindings:
  - {gesture: swipe, fingers: 3, command: 'true'}
  - {gesture: swipe, fingers: 4, command: 'true'}
"""

class StampedLines:
    """`libinput debug-events` (line-buffered through stdbuf) on NODE, each line stamped with
    time.monotonic_ns() as this process reads it."""
    def __init__(self, node, tap=False):
        argv = ["stdbuf", "-oL", "libinput", "debug-events", "--device", node] + (["--enable-tap"] if tap else [])
        self.p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = []
        threading.Thread(target=self._pump, daemon=True).start()
        deadline = time.monotonic() + 20
        while not any("DEVICE_ADDED" in l for _, l in self.lines):
            if time.monotonic() > deadline: raise Fail(f"libinput did not open {node}")
            time.sleep(0.05)
    def _pump(self):
        for line in self.p.stdout: self.lines.append((time.monotonic_ns(), line.rstrip("\n")))
    def since(self, mark, kinds): return [(t, l) for t, l in self.lines[mark:] if any(k in l for k in kinds)]
    def quiet(self, seconds, limit=15):
        end = time.monotonic() + limit
        n = -1
        while n != len(self.lines) and time.monotonic() < end:
            n = len(self.lines); time.sleep(seconds)
    def close(self):
        self.p.terminate()
        try: self.p.wait(timeout=3)
        except subprocess.TimeoutExpired: self.p.kill()

class CloneStamps:
    """ABS_MT_POSITION_X values as the kernel stamped them on NODE (CLOCK_MONOTONIC through EVIOCSCLOCKID):
    when the daemon wrote each to the clone, for the daemon's own share of the added latency. Read by a
    process of its own into a file (a thread here would compete for the GIL with StampedLines' reader)."""
    SCRIPT = r"""
import fcntl, struct, sys
f = open(sys.argv[1], "rb", buffering=0); out = open(sys.argv[2], "w", buffering=1)
fcntl.ioctl(f.fileno(), 0x400445a0, struct.pack("i", 1))   # EVIOCSCLOCKID: CLOCK_MONOTONIC
while True:
    b = f.read(24)
    if len(b) < 24: break
    sec, usec, t, c, v = struct.unpack("qqHHi", b)
    if t == 3 and c == 0x35: out.write(f"{sec * 1_000_000_000 + usec * 1000} {v}\n")
"""
    def __init__(self, node):
        self.path = f"{WORK}/clone-stamps.txt"
        open(self.path, "w").close()
        self.p = subprocess.Popen([sys.executable, "-c", self.SCRIPT, node, self.path])
    @property
    def xs(self):
        return [tuple(int(w) for w in l.split()) for l in open(self.path) if l.endswith("\n")]
    def close(self):
        self.p.terminate(); self.p.wait()

def _pad(name, bus=0x03):
    """A clickpad; USB unless BUS says otherwise (0x18: I2C, built in, where libinput honours the palm tool type)."""
    return _lat.UInput(name, [_lat.BTN_LEFT, _lat.BTN_TOUCH, _lat.BTN_TOOL_FINGER, _lat.BTN_TOOL_DOUBLETAP, _lat.BTN_TOOL_TRIPLETAP,
                              _lat.BTN_TOOL_QUADTAP, _lat.BTN_TOOL_QUINTTAP],
                       {_lat.ABS_X: (0, 4000, 40), _lat.ABS_Y: (0, 2500, 40), _lat.ABS_MT_SLOT: (0, 4, 0),
                        _lat.ABS_MT_POSITION_X: (0, 4000, 40), _lat.ABS_MT_POSITION_Y: (0, 2500, 40),
                        _lat.ABS_MT_TRACKING_ID: (0, 65535, 0)},
                       [_lat.INPUT_PROP_POINTER, _lat.INPUT_PROP_BUTTONPAD], bus=bus)

STROKES, STROKE_FRAMES, FRAME_MS = 24, 25, 12

def _step(i):
    """Frame I's step in device units (40 a mm): 21 … 45, 0.5 … 1.1 mm at 83 Hz, each frame's its own, so
    the unaccelerated delta of a libinput line names the frames it carries."""
    return 20 + i

def _stroke(dev, li, label, k, stamps=None):
    """One-finger stroke K, a frame every FRAME_MS; per motion frame, the time from its write to the
    POINTER_MOTION line that carried it (a line whose unaccelerated delta is that frame's step, or
    the sum of the steps of consecutive frames not yet carried: a coalesced catch-up), in ms; frames
    whose motion libinput never reported are not charged, on either side. Returns (latencies,
    accelerated travel, unaccelerated travel, and with STAMPS (the clone's) per frame the daemon's hop (write to the
    clone's stamp of the same x) and libinput's (that stamp to the line))."""
    ABS = _lat.EV_ABS
    x0, y0 = 500 + (k % 3) * 300, 600 + (k % 4) * 200
    mark = len(li.lines)
    sign = 1 if k % 2 == 0 else -1
    if sign < 0: x0 += 1000
    t = time.monotonic()
    dev.frame([(ABS, _lat.ABS_MT_SLOT, 0), (ABS, _lat.ABS_MT_TRACKING_ID, 100 + k), (ABS, _lat.ABS_MT_POSITION_X, x0),
               (ABS, _lat.ABS_MT_POSITION_Y, y0), (_lat.EV_KEY, _lat.BTN_TOUCH, 1), (_lat.EV_KEY, _lat.BTN_TOOL_FINGER, 1),
               (ABS, _lat.ABS_X, x0), (ABS, _lat.ABS_Y, y0)])
    writes, x, written = [], x0, {}
    smark = len(stamps.xs) if stamps else 0
    for i in range(1, STROKE_FRAMES + 1):
        t += FRAME_MS / 1000
        time.sleep(max(0, t - time.monotonic()))
        x += sign * _step(i)
        writes.append(dev.frame([(ABS, _lat.ABS_MT_POSITION_X, x), (ABS, _lat.ABS_X, x)]))
        written[x] = writes[-1]
    t += FRAME_MS / 1000
    time.sleep(max(0, t - time.monotonic()))
    dev.frame([(ABS, _lat.ABS_MT_TRACKING_ID, -1), (_lat.EV_KEY, _lat.BTN_TOUCH, 0), (_lat.EV_KEY, _lat.BTN_TOOL_FINGER, 0)])
    time.sleep(0.25)
    pairs = [(ts, p) for ts, l in li.since(mark, ("POINTER_MOTION",)) for p in li_pairs([l])]
    check(pairs, f"{label}: libinput printed no POINTER_MOTION for stroke {k}")
    stamped = {v: t for t, v in stamps.xs[smark:]} if stamps else {}
    lat, nxt, from_clone = [], 1, []
    for ts, p in pairs:
        dx = abs(p[2])
        for first in range(nxt, STROKE_FRAMES + 1):
            total = 0
            for last in range(first, STROKE_FRAMES + 1):
                total += _step(last)
                if abs(total - dx) <= 1.5 or total > dx + 1.5: break
            if abs(total - dx) <= 1.5:
                lat.extend((ts - writes[f - 1]) / 1e6 for f in range(first, last + 1))
                if stamps:   # libinput's share: from the clone's stamp of each frame to the line
                    xf = x0 + sign * sum(_step(f) for f in range(1, first))
                    for f in range(first, last + 1):
                        xf += sign * _step(f)
                        if xf in stamped: from_clone.append((ts - stamped[xf]) / 1e6)
                nxt = last + 1
                break
    # write() returns after the daemon may already have run on the other vCPU: a hop can be below 0.
    hops = [(ts - written.pop(v)) / 1e6 for ts, v in (stamps.xs[smark:] if stamps else []) if v in written]
    return lat, sum((p[0] ** 2 + p[1] ** 2) ** 0.5 for _, p in pairs), sum(abs(p[2]) for _, p in pairs), (hops, from_clone)

def _pct(xs, p):
    xs = sorted(xs); return xs[min(len(xs) - 1, int(len(xs) * p / 100))] if xs else float("nan")

def _gestured_for_latency():
    """The daemon of the latency figures: a release build when one is next to the debug one (the
    forwarding path is the daemon's own CPU; a debug build under TCG falls behind 83 Hz input),
    else the suite's binary. Returns (path, label)."""
    rel = os.path.join(ROOT, ".build/release/gestured")
    if os.path.exists(rel) and os.path.getmtime(rel) >= os.path.getmtime(GESTURED) - 3600:
        return rel, "release"
    return GESTURED, "debug (no release build next to it)"

@test
def exclusive_lag_touchpad_pointer_latency_on_vs_off():
    """One-finger pointer strokes (24 strokes × 25 frames of 0.5 … 1.1 mm at 83 Hz), 3- and 4-finger swipes
    bound, three touchpads side by side, stroke k given to each in turn (so the host's load drifts alike for
    all): libinput's POINTER_MOTION latency on a device read directly (exclusive off, a daemon reading
    beside), on an exclusive device's clone at the defaults, and on one with exclusive_landing_ms: 0 (no hold
    at all): p50/p95 and the added difference, printed as figures; and the strokes' accelerated travel."""
    daemon_ready(); libinput_ready()
    binary, build = _gestured_for_latency()
    modes = ("off", "on", "landing 0")
    pads, daemons, lis = {}, {}, {}
    stamps = None
    try:
        for mode in modes:
            name = "exclusive lag pad " + mode.replace(" ", "")
            pads[mode] = _pad(name)
            settle()
            cfg = LAG_CONFIG.replace("NAME", name).replace("EXCLUSIVE", "false" if mode == "off" else "true")
            if mode == "landing 0": cfg = cfg.replace("    exclusive: true\n", "    exclusive: true\n    exclusive_landing_ms: 0\n")
            # Each daemon reads its own pad only: the others' frames wake nobody but their own readers.
            others = "".join(f'  - {{match: {{name: "exclusive lag pad {o.replace(" ", "")}"}}, ignore: true}}\n' for o in modes if o != mode)
            cfg = cfg.replace("bindings:\n", others + "bindings:\n")
            # The client only waits for the daemon to be ready: one left subscribed to everything would
            # parse each stroke's pan lines in this process, beside the thread that stamps libinput's.
            daemons[mode] = Daemon(config=cfg, binary=binary); daemons[mode].client().close()
            node = wait_clone(daemons[mode], pads[mode].node) if mode != "off" else pads[mode].node
            lis[mode] = StampedLines(node)
            if mode == "on": stamps = CloneStamps(node)
        time.sleep(0.5)
        results = {m: ([], [], []) for m in modes}
        hops, from_clone = [], []
        for k in range(STROKES):
            for mode in modes:
                l, a, r, h = _stroke(pads[mode], lis[mode], mode, k, stamps if mode == "on" else None)
                results[mode][0].extend(l); results[mode][1].append(a); results[mode][2].append(r)
                hops.extend(h[0]); from_clone.extend(h[1])
        cpu = {m: sum(int(x) for x in open(f"/proc/{daemons[m].p.pid}/stat").read().split(")")[1].split()[11:13]) for m in modes}
    finally:
        for li in lis.values(): li.close()
        if stamps: stamps.close()
        for d in daemons.values(): d.stop()
        for p in pads.values(): p.close()
    lo, ao, _ = results["off"]
    print(f"    gestured {build}; {STROKES} strokes × {STROKE_FRAMES} frames, interleaved", flush=True)
    for mode in modes:
        l, a, r = results[mode]
        check(len(l) >= STROKES * STROKE_FRAMES // 2, f"{mode}: only {len(l)} frames charged to a libinput line")
        ratio = sorted(x / y for x, y in zip(a, ao) if y > 0)
        print(f"    pointer latency {mode}: p50 {_pct(l, 50):.1f} ms p95 {_pct(l, 95):.1f} ms ({len(l)} frames); "
              f"added vs off p50 {_pct(l, 50) - _pct(lo, 50):+.1f} ms p95 {_pct(l, 95) - _pct(lo, 95):+.1f} ms; "
              f"accelerated travel / off's per stroke: median {_pct(ratio, 50):.2f} (p5 {_pct(ratio, 5):.2f}, p95 {_pct(ratio, 95):.2f}); "
              f"daemon CPU {cpu[mode]} ticks", flush=True)
    check(hops, "no clone frame matched a write")
    print(f"    of which the daemon's hop (the real device's write to the clone's kernel stamp), exclusive on: p50 {_pct(hops, 50):.2f} ms "
          f"p95 {_pct(hops, 95):.2f} ms ({len(hops)} frames); libinput's, from that stamp to its line: p50 {_pct(from_clone, 50):.1f} ms "
          f"p95 {_pct(from_clone, 95):.1f} ms (off, from the write: p50 {_pct(lo, 50):.1f} ms p95 {_pct(lo, 95):.1f} ms)", flush=True)

def _trimmed_evtest(src, start, end, dst):
    """SRC's header and its events stamped in [START, END) s from its first event, as an evtest log."""
    out, t0 = [], None
    for l in open(src):
        m = _re.match(r"Event: time (\d+)\.(\d+),", l)
        if not m: 
            if t0 is None: out.append(l)
            continue
        t = int(m.group(1)) + int(m.group(2)) / 1e6
        if t0 is None: t0 = t
        if start <= t - t0 < end: out.append(l)
    open(dst, "w").writelines(out)

DLL0945 = f"{FIX}/touchpad-synaptics-dll0945-3finger-swipe-then-kernel-ghost-contacts__linux-input-list.evtest"
EP0430 = f"{FIX}/touchscreen-ep0430m09-4finger-swipe-up__whot-evemu-devices.evemu"

@test
def exclusive_lag_real_swipes_stray_motion_before_the_claim():
    """The real 3-finger touchpad swipe (Synaptics DLL0945, its first finger drifting 1.4 mm before the second
    lands) and the real 4-finger touchscreen swipe (EP0430M09), 3- and 4-finger swipes bound, defaults: gestured
    claims each; what libinput on the clone saw of them is measured: pointer travel (mm at libinput's 1000 dpi
    normalization) under 1 mm, no scroll, no swipe, pinch or hold gesture, no click or tap; on the touchscreen no
    TOUCH_UP."""
    daemon_ready(); libinput_ready()
    swipe = f"{WORK}/dll0945-swipe.evtest"
    # The swipe: its first finger lands 0.296 s into the log, the three are down until 0.569 s.
    _trimmed_evtest(DLL0945, 0.28, 0.56, swipe)
    # The control: what libinput makes of the same touchpad swipe read directly, without gestured.
    dev = Device(DLL0945); li = None
    try:
        settle()
        li = StampedLines(dev.node, tap=True)
        time.sleep(0.3)
        mark = len(li.lines)
        dev.do(f"play {swipe}", timeout=60); dev.do("sleep 300"); dev.do("up")
        li.quiet(0.8)
        direct = [l.split()[1] for _, l in li.lines[mark:] if "GESTURE_" in l]
        print(f"    touchpad, libinput on the device itself (no gestured): gesture events {direct or 'none'}", flush=True)
    finally:
        if li: li.close()
        dev.remove()
    for src, play, kind in ((DLL0945, swipe, "touchpad"), (EP0430, EP0430, "touchscreen")):
        dev = Device(src)
        d = li = None
        try:
            settle()
            name = open(src).read().split('"')[1] if src.endswith(".evtest") else _re.search(r"^N: (.*)$", open(src).read(), _re.M).group(1)
            d = Daemon(config=LAG_CONFIG.replace("NAME", name.replace("*", "?")).replace("EXCLUSIVE", "true")); c = d.client()
            clone = wait_clone(d, dev.node)
            li = StampedLines(clone, tap=True)
            time.sleep(0.3)
            mark = len(li.lines)
            dev.do(f"play {play}", timeout=60); dev.do("sleep 300"); dev.do("up")
            g = c.wait(lambda m: gesture("swipe", "recognized")(m), 15, f"the {kind} swipe")
            consumed = log_match(d, r"exclusive: (\d)-finger swipe consumed \((.*?)\)")
            li.quiet(0.8)
            seen = [l for _, l in li.lines[mark:]]
            motion = li_pairs([l for l in seen if "POINTER_MOTION" in l])
            travel = sum((p[0] ** 2 + p[1] ** 2) ** 0.5 for p in motion) * 25.4 / 1000
            # libinput's quick hold (GESTURE_HOLD_*) begins on a touchpad finger that has not moved the pointer 40 ms
            # after landing: the forwarded first finger stands still on the clone while the others are held, so the
            # gate sets it aside as a palm when the hold begins (it landed there less than 40 ms before).
            holds = [l.split()[1] for l in seen if "GESTURE_HOLD" in l]
            others = [l.split()[1] for l in seen if any(k in l for k in ("SCROLL", "GESTURE_", "POINTER_BUTTON", "POINTER_AXIS"))
                      and "GESTURE_HOLD" not in l]
            touches = [l.split()[1] for l in seen if "TOUCH_" in l and "TOUCH_FRAME" not in l]
            print(f"    {kind}: {g.get('fingers')}-finger swipe {consumed.group(2)}; libinput on the clone: "
                  f"{len(motion)} POINTER_MOTION, {travel:.2f} mm pointer travel; hold gesture {holds or 'none'}; other events {others or 'none'}; "
                  f"touch events {sorted(set(touches)) or 'none'} ({touches.count('TOUCH_DOWN')} down)", flush=True)
            check(travel < 1.0, f"{kind}: {travel:.2f} mm of pointer motion reached libinput before the claim")
            check(not others, f"{kind}: libinput on the clone saw {others}")
            check(not holds, f"{kind}: libinput on the clone began its hold gesture: {holds}")
            check("TOUCH_UP" not in touches, f"{kind}: a touch of the claimed swipe ended as TOUCH_UP (a tap): {touches}")
        finally:
            if li: li.close()
            dev.remove()
            if d: d.stop()

def _li_kinds(li, mark, kinds=("POINTER_BUTTON", "GESTURE_", "SCROLL", "POINTER_AXIS")):
    return [" ".join(l.split()[1:2] + [w for w in l.split()[2:] if w.startswith("BTN_") or w in ("pressed,", "released,", "pressed", "released")])
            for _, l in li.lines[mark:] if any(k in l for k in kinds) and "GESTURE_HOLD" not in l]

def _touch(dev, x=None, y=None, id=None, lift=False, key=None):
    """One frame on a _pad: a landing (ID), a move, a lift, or a key change."""
    A, K = _lat.EV_ABS, _lat.EV_KEY
    ev = [(A, _lat.ABS_MT_SLOT, 0)]
    if id is not None: ev += [(A, _lat.ABS_MT_TRACKING_ID, id)]
    if lift: ev += [(A, _lat.ABS_MT_TRACKING_ID, -1), (K, _lat.BTN_TOUCH, 0), (K, _lat.BTN_TOOL_FINGER, 0)]
    if x is not None: ev += [(A, _lat.ABS_MT_POSITION_X, x), (A, _lat.ABS_MT_POSITION_Y, y), (A, _lat.ABS_X, x), (A, _lat.ABS_Y, y)]
    if id is not None: ev += [(K, _lat.BTN_TOUCH, 1), (K, _lat.BTN_TOOL_FINGER, 1)]
    if key is not None: ev += [(K, _lat.BTN_LEFT, key)]
    dev.frame(ev)

def _pace(ms): time.sleep(ms / 1000)

def _tap(dev, n, hold_ms, x=2000, y=1200):
    _touch(dev, x, y, id=n); _pace(hold_ms); _touch(dev, lift=True)

def _click_drag(dev, n):
    _touch(dev, 1500, 1000, id=n); _pace(40); _touch(dev, key=1); _pace(30)
    for i in range(1, 21): _touch(dev, 1500 + 24 * i, 1000); _pace(12)   # 12 mm at 50 mm/s
    _pace(30); _touch(dev, key=0); _pace(20); _touch(dev, lift=True)

@_contextlib.contextmanager
def _exclusive_pad_and_twin(name, twin_name, bus=0x03):
    """A clickpad NAME made exclusive by a daemon (3- and 4-finger swipes bound) and a non-exclusive twin,
    with tap-to-click libinput on the clone and on the twin: yields (pad, twin, clone node, clone lines,
    twin lines); everything is closed after."""
    pad, twin = _pad(name, bus=bus), _pad(twin_name, bus=bus)
    d = None; lis = []
    try:
        settle()
        d = Daemon(config=LAG_CONFIG.replace("NAME", name).replace("EXCLUSIVE", "true")); d.client()
        clone = wait_clone(d, pad.node)
        lc = StampedLines(clone, tap=True); lt = StampedLines(twin.node, tap=True); lis = [lc, lt]
        time.sleep(0.3)
        yield pad, twin, clone, lc, lt
    finally:
        for l in lis: l.close()
        if d: d.stop()
        pad.close(); twin.close()

@test
def exclusive_lag_tap_click_drag_and_typing_tap_arrive_as_on_a_twin():
    """An exclusive clickpad and a non-exclusive twin (both INPUT_PROP_BUTTONPAD), 3- and 4-finger swipes bound,
    tap-to-click on in libinput: a tap (80 ms), a typing-style tap (a brief 25 ms touch, no palm) and a
    click-and-drag (finger down, BTN_LEFT, 12 mm move, release) reach libinput on the clone as on the twin:
    the same button events and, for the drag, motion within the twin's by 25 %."""
    daemon_ready(); libinput_ready()
    with _exclusive_pad_and_twin("exclusive lag clickpad", "exclusive lag twin") as (pad, twin, _, lc, lt):
        cases = (("tap", lambda dev, n: _tap(dev, n, 80)), ("typing tap", lambda dev, n: _tap(dev, n, 25, 2600, 900)),
                 ("click-and-drag", _click_drag))
        for n, (what, act) in enumerate(cases):
            got = []
            for dev, li in ((pad, lc), (twin, lt)):
                mark = len(li.lines)
                act(dev, 10 + n); _pace(600); li.quiet(0.5)
                mo = li_pairs([l for _, l in li.lines[mark:] if "POINTER_MOTION" in l])
                got.append((_li_kinds(li, mark), sum((p[0] ** 2 + p[1] ** 2) ** 0.5 for p in mo)))
            (ck, cm), (tk, tm) = got
            print(f"    {what}: clone {ck} motion {cm:.0f}; twin {tk} motion {tm:.0f}", flush=True)
            check(tk, f"{what}: libinput on the twin saw no button: the test proves nothing")
            check(ck == tk, f"{what}: the clone's libinput saw {ck}, the twin's {tk}")
            check(abs(cm - tm) <= 0.25 * tm + 2, f"{what}: motion on the clone {cm:.0f}, on the twin {tm:.0f}")

def _scroll_joining(dev, n):
    """A finger lands and moves (1 mm a frame: it reaches the clone at once), a second joins it 30 ms later
    (the clone's contact, younger than libinput's 40 ms quick hold, is set aside as a palm while the landing
    is held), then both scroll down 30 mm and lift."""
    A, K = _lat.EV_ABS, _lat.EV_KEY
    x0, y0, x1 = 1500, 800, 2300
    dev.frame([(A, _lat.ABS_MT_SLOT, 0), (A, _lat.ABS_MT_TRACKING_ID, 10 * n), (A, _lat.ABS_MT_POSITION_X, x0),
               (A, _lat.ABS_MT_POSITION_Y, y0), (A, _lat.ABS_X, x0), (A, _lat.ABS_Y, y0), (K, _lat.BTN_TOUCH, 1),
               (K, _lat.BTN_TOOL_FINGER, 1)])
    y = y0
    for _ in range(3):
        _pace(10); y += 40; dev.frame([(A, _lat.ABS_MT_POSITION_Y, y), (A, _lat.ABS_Y, y)])
    _pace(10)
    dev.frame([(A, _lat.ABS_MT_SLOT, 1), (A, _lat.ABS_MT_TRACKING_ID, 10 * n + 1), (A, _lat.ABS_MT_POSITION_X, x1),
               (A, _lat.ABS_MT_POSITION_Y, y), (K, _lat.BTN_TOOL_FINGER, 0), (K, _lat.BTN_TOOL_DOUBLETAP, 1)])
    for _ in range(30):
        _pace(10); y += 40
        dev.frame([(A, _lat.ABS_MT_SLOT, 0), (A, _lat.ABS_MT_POSITION_Y, y), (A, _lat.ABS_MT_SLOT, 1),
                   (A, _lat.ABS_MT_POSITION_Y, y), (A, _lat.ABS_Y, y)])
    _pace(10)
    dev.frame([(A, _lat.ABS_MT_SLOT, 0), (A, _lat.ABS_MT_TRACKING_ID, -1), (A, _lat.ABS_MT_SLOT, 1), (A, _lat.ABS_MT_TRACKING_ID, -1),
               (K, _lat.BTN_TOUCH, 0), (K, _lat.BTN_TOOL_DOUBLETAP, 0)])

@test
def exclusive_lag_scroll_joining_a_moving_finger_arrives_as_on_a_twin():
    """An exclusive built-in (I2C) touchpad and a non-exclusive twin, 3- and 4-finger swipes bound: a finger that moves (on the
    clone at once) joined 30 ms later by a second that scrolls with it. On the clone the first contact is a palm
    while the second's landing is held, then a finger again: libinput scrolls as much as on the twin (within the
    tolerance of the twin test above), with no click, tap or other gesture, three times over."""
    daemon_ready(); libinput_ready()
    with _exclusive_pad_and_twin("exclusive lag scrollpad", "exclusive lag scrolltwin", bus=0x18) as (pad, twin, clone, lc, lt):
        raw = RawFrames(clone)
        for n in range(1, 4):
            rmark = len(raw.events)
            got = []
            for dev, li in ((pad, lc), (twin, lt)):
                mark = len(li.lines)
                _scroll_joining(dev, n); _pace(600); li.quiet(0.5)
                lines = [l for _, l in li.lines[mark:]]
                scroll = li_scroll([l for l in lines if "POINTER_SCROLL_FINGER" in l or "POINTER_AXIS" in l])
                got.append((scroll, _li_kinds(li, mark, ("POINTER_BUTTON", "GESTURE_SWIPE", "GESTURE_PINCH")),
                            [l.split()[1] for l in lines if "GESTURE_HOLD" in l]))
            (cs, ck, ch), (ts_, tk, th) = got
            # ABS_MT_TOOL_TYPE (0x37) values written to the clone: palm (2), then finger (0) again.
            tools = [v for t, c, v in raw.events[rmark:] if t == 3 and c == 0x37]
            print(f"    scroll joining a moving finger ({n}): clone scroll {cs:.1f} {ck or ''} holds {ch or 'none'}, tool types "
                  f"written {tools}; twin scroll {ts_:.1f} {tk or ''} holds {th or 'none'}", flush=True)
            check(tools[:1] == [2] and 0 in tools[1:], f"the first contact was not set aside as a palm and taken back: {tools}")
            check(ts_, "libinput on the twin did not scroll: the test proves nothing")
            check(not ck and not tk, f"clicks or gestures: clone {ck}, twin {tk}")
            check(not ch, f"libinput on the clone began its hold gesture: {ch}")
            check(abs(cs - ts_) <= 0.45 * abs(ts_) + 1, f"the clone scrolled {cs:.1f}, the twin {ts_:.1f}")

@test
def exclusive_lag_touchscreen_drag_reaches_the_clone_without_the_hold():
    """An exclusive touchscreen, 2-finger swipes bound (so a first finger is held while it rests): a one-finger
    drag (20 frames, 2 mm each, 10 ms apart) reaches libinput on the clone frame for frame once it moves; the
    latency of each TOUCH_MOTION on the clone and on the device itself (exclusive off) is printed as figures."""
    daemon_ready(); libinput_ready()
    binary, build = _gestured_for_latency()
    res = {}
    for mode in ("off", "on"):
        ts = _lat.touchscreen()
        d = li = None
        try:
            settle()
            cfg = (LAG_CONFIG.replace("NAME", "sidebyside synthetic touchscreen").replace("EXCLUSIVE", "true" if mode == "on" else "false")
                   .replace("fingers: 3", "fingers: 2"))
            d = Daemon(config=cfg, binary=binary); d.client()
            node = wait_clone(d, ts.node) if mode == "on" else ts.node
            li = StampedLines(node); time.sleep(0.3)
            lat = []; downs = 0
            for k in range(10):
                mark = len(li.lines)
                ABS = _lat.EV_ABS
                x0, y = 600, 400 + 100 * k
                ts.frame([(ABS, _lat.ABS_MT_SLOT, 0), (ABS, _lat.ABS_MT_TRACKING_ID, 50 + k), (ABS, _lat.ABS_MT_POSITION_X, x0),
                          (ABS, _lat.ABS_MT_POSITION_Y, y), (_lat.EV_KEY, _lat.BTN_TOUCH, 1), (ABS, _lat.ABS_X, x0), (ABS, _lat.ABS_Y, y)])
                t = time.monotonic(); writes = {}
                for i in range(1, 21):
                    t += 0.010; time.sleep(max(0, t - time.monotonic()))
                    x = x0 + 20 * i
                    writes[x] = ts.frame([(ABS, _lat.ABS_MT_POSITION_X, x), (ABS, _lat.ABS_X, x)])
                time.sleep(0.01)
                ts.frame([(ABS, _lat.ABS_MT_TRACKING_ID, -1), (_lat.EV_KEY, _lat.BTN_TOUCH, 0)])
                time.sleep(0.3)
                lines = li.since(mark, ("TOUCH_MOTION", "TOUCH_DOWN"))
                downs += sum(1 for _, l in lines if "TOUCH_DOWN" in l)
                for ts_, l in lines:
                    if "TOUCH_MOTION" not in l: continue
                    m = _re.search(r"\(\s*([\d.]+)/\s*[\d.]+mm\)", l)
                    if not m: continue
                    x = round(float(m.group(1)) * 10)          # resolution 10 units/mm
                    if x in writes: lat.append((ts_ - writes.pop(x)) / 1e6)
            res[mode] = (lat, downs)
        finally:
            if li: li.close()
            if d: d.stop()
            ts.close()
    (lo, do), (ln, dn) = res["off"], res["on"]
    print(f"    touchscreen drag TOUCH_MOTION latency (gestured {build}): off p50 {_pct(lo, 50):.1f} p95 {_pct(lo, 95):.1f} ms ({len(lo)} frames); "
          f"on p50 {_pct(ln, 50):.1f} p95 {_pct(ln, 95):.1f} ms ({len(ln)} frames); added p50 {_pct(ln, 50) - _pct(lo, 50):+.1f} "
          f"p95 {_pct(ln, 95) - _pct(lo, 95):+.1f} ms", flush=True)
    check(do == 10 and dn == 10, f"TOUCH_DOWNs: off {do}, on {dn} of 10 drags")
    # Once it moves the drag goes frame for frame: all but the held start (the landing travel) arrive.
    check(len(ln) >= 10 * 17, f"only {len(ln)} of the drag's 200 motion frames reached libinput on the clone as frames")
