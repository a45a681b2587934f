# Exclusive devices (issue 11), run by suite.py in its namespace (Device, Daemon, LibinputEvents,
# check, settle, virtual_nodes … come from there; a name defined here replaces suite.py's, so none
# may repeat one of its names). Real uinput devices, the real daemon grabbing
# them, and real libinput (`libinput debug-events`) on the clone the compositor would read.
import errno as _errno, fcntl as _fcntl, re as _re

EVIOCGRAB = 0x40044590

def grabbed_elsewhere(node):
    """True when another fd holds EVIOCGRAB on NODE (our own grab attempt gets EBUSY)."""
    fd = os.open(node, os.O_RDONLY | os.O_NONBLOCK)
    try:
        _fcntl.ioctl(fd, EVIOCGRAB, 1)
        _fcntl.ioctl(fd, EVIOCGRAB, 0)
        return False
    except OSError as e:
        if e.errno == _errno.EBUSY: return True
        raise
    finally:
        os.close(fd)

def clone_nodes(): return virtual_nodes("clone").get("clone", [])

def still_grabbed(node, timeout=3):
    """grabbed_elsewhere, polled for TIMEOUT s; when it stays, who has NODE open (for the failure text)."""
    deadline = time.monotonic() + timeout
    while grabbed_elsewhere(node):
        if time.monotonic() > deadline:
            holders = []
            for pid in filter(str.isdigit, os.listdir("/proc")):
                try:
                    for fd in os.listdir(f"/proc/{pid}/fd"):
                        if os.readlink(f"/proc/{pid}/fd/{fd}") == node:
                            holders.append(f"{pid} {open(f'/proc/{pid}/cmdline').read().replace(chr(0), ' ')[:80]}")
                except OSError: pass
            return holders or ["(nobody has it open)"]
        time.sleep(0.1)
    return None

def log_match(d, pattern, timeout=20, after=0):
    """The first match of regex PATTERN in the daemon's log from offset AFTER on."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        m = _re.search(pattern, d.stderr()[after:])
        if m: return m
        if not d.alive(): raise Fail(f"the daemon exited: {d.stderr()[-800:]}")
        time.sleep(0.1)
    raise Fail(f"no log line /{pattern}/ after {timeout} s; log: {d.stderr()[-1500:]}")

def wait_clone(d, real, after=0, settled=True):
    """The clone of REAL once the daemon says it grabbed REAL; checked to carry the phys mark."""
    node = log_match(d, rf"devices: {_re.escape(real)}: exclusive: clone (/dev/input/event\d+)", after=after).group(1)
    log_match(d, rf"devices: {_re.escape(real)}: exclusive: grabbed", after=after)
    # sysfs shows the new node a moment after the daemon logs it (udev's add runs behind, under load).
    deadline = time.monotonic() + 5
    while node not in clone_nodes() and time.monotonic() < deadline: time.sleep(0.05)
    check(node in clone_nodes(), f"{node} lacks the phys mark gestured-virtual/clone: {virtual_nodes()}; log: {d.stderr()[after:][-1500:]}")
    if settled: settle()
    return node

def wait_no_clone(timeout=10):
    deadline = time.monotonic() + timeout
    while clone_nodes() and time.monotonic() < deadline: time.sleep(0.1)
    return clone_nodes()

def li_events(li, kinds):
    """debug-events lines of these event kinds seen so far."""
    return [l for l in li.seen if any(k in l for k in kinds)]

def li_pairs(lines):
    """The (a, b) of the first "a/ b" pair and of the "( +a/ +b)" pair in POINTER_MOTION lines."""
    out = []
    for l in lines:
        m = _re.search(r"([-\d.]+)/\s*([-\d.]+)\s*\(\s*([-+\d.]+)/\s*([-+\d.]+)", l)
        if m: out.append(tuple(float(x) for x in m.groups()))
    return out

def li_scroll(lines):
    """Sum of the vertical scroll values in POINTER_SCROLL_FINGER / POINTER_AXIS lines."""
    total = 0.0
    for l in lines:
        m = _re.search(r"vert\s+(-?[\d.]+)", l)
        if m: total += float(m.group(1))
    return total

# The default hold (exclusive_hold_ms), under TCG too; the debug log says how long the claimed
# swipe was held back.
PAD_CONFIG = """log: {level: debug}
devices:
  - match: {kind: touchpad, name: "SynPS*"}
    exclusive: true
bindings:
  - gesture: swipe
    fingers: 3
    command: 'true'
"""
TOUCH_ANYTHING = ("POINTER_", "GESTURE_", "TOUCH_")

@test
def exclusive_touchpad_bound_three_finger_swipe_is_consumed():
    """Exclusive touchpad, 3-finger swipe bound: gestured reports it, libinput on the clone sees nothing of it
    (no GESTURE_SWIPE, no motion) while libinput on a non-exclusive twin does; the grabbed real device is silent."""
    daemon_ready(); libinput_ready()
    pad = Device(TOUCHPAD); twin = Device(TOUCHPAD, name="twin touchpad")
    d = None; lis = []
    try:
        settle()
        d = Daemon(config=PAD_CONFIG); c = d.client()
        clone = wait_clone(d, pad.node)
        check(clone_nodes() == [clone], f"one clone expected (the twin is not exclusive): {virtual_nodes()}")
        check(grabbed_elsewhere(pad.node), f"{pad.node} is not grabbed")
        check(not grabbed_elsewhere(twin.node), f"the twin {twin.node} is grabbed")
        c.collect(0.5, 2)
        opened = set(hello_nodes(c.hello)) | {device_of(m).get("node") for m in c.seen if m.get("type") == "deviceAdded"}
        check(clone not in opened and pad.node in opened, f"the daemon opened its own clone {clone} (or lost {pad.node}): {opened}")
        lc = LibinputEvents(clone); lt = LibinputEvents(twin.node); lr = LibinputEvents(pad.node)
        lis = [lc, lt, lr]
        pad.do("swipe 3 2000 2500 1800 0 400")
        g = c.wait(lambda m: gesture("swipe", "recognized")(m) and device_of(m).get("node", pad.node) == pad.node, 10, "the swipe")
        check(g.get("fingers") == 3, f"recognized {g}")
        held = log_match(d, r"exclusive: 3-finger swipe consumed \((.*?)\)").group(1)
        print(f"    claimed: {held}")
        check(held.startswith("held back"), f"the swipe was claimed after its touches reached the clone: {held}")
        twin.do("swipe 3 2000 2500 1800 0 400")
        lt.wait_for(lambda l: "GESTURE_SWIPE_BEGIN" in l, 10, "libinput's swipe on the twin (else this test proves nothing)")
        quiet(lc, 1.0)
        check(not li_events(lc, TOUCH_ANYTHING), f"libinput on the clone saw the bound swipe: {li_events(lc, TOUCH_ANYTHING)}")
        check(not li_events(lr, TOUCH_ANYTHING), f"libinput on the grabbed device saw events: {li_events(lr, TOUCH_ANYTHING)}")
        log_match(d, rf"{_re.escape(pad.node)}: exclusive: grabbed")
    finally:
        for l in lis: l.close()
        pad.remove(); twin.remove()
        if d: d.stop()
    check(not wait_no_clone(), f"a clone outlived the daemon: {virtual_nodes()}")

class RawFrames:
    """struct input_event straight from an evdev node: what the kernel hands every reader, as frames."""
    def __init__(self, node):
        self.f = open(node, "rb", buffering=0); self.events = []
        threading.Thread(target=self._pump, daemon=True).start()
    def _pump(self):
        import struct
        while True:
            try: b = self.f.read(24)
            except OSError: return
            if not b or len(b) < 24: return
            _, _, t, c, v = struct.unpack("qqHHi", b)
            self.events.append((t, c, v))
    def frames(self):
        out, cur = [], []
        for e in self.events:
            cur.append(e)
            if e == (0, 0, 0): out.append(tuple(cur)); cur = []
        return out

def touch_sequences(frames):
    """FRAMES split after each frame that releases BTN_TOUCH (every finger up)."""
    out, cur = [], []
    for f in frames:
        cur.append(f)
        if any(t == 1 and c == 330 and v == 0 for t, c, v in f): out.append(cur); cur = []
    if cur: out.append(cur)
    return out

def live_frames_differ(got, twin):
    """Why the clone's frames GOT are not the twin's TWIN as the gate writes them, or None: per touch
    sequence, a held start caught up in at most 2 frames (the landing, one coalesced step) standing
    for at most 6 of the twin's, then the kernel's frames as they came."""
    gs, ts = touch_sequences(got), touch_sequences(twin)
    if len(gs) != len(ts[:len(gs)]) or len(gs) == 0: return f"{len(gs)} touch sequences on the clone, {len(ts)} on the twin"
    for n, (g, t) in enumerate(zip(gs, ts)):
        live = len(g) - 2
        if live < len(t) - 6: return f"sequence {n}: {len(g)} frames on the clone, {len(t)} on the twin"
        if g[-live:] != t[-live:]: return f"sequence {n}: its last {live} frames differ from the twin's"
    return None

def stroke_results(dev, li):
    """A 1-finger stroke, then a 2-finger scroll: libinput's motion pairs, scroll total, other gestures."""
    li.seen.clear()
    dev.do("swipe 1 2000 2500 1600 800 500"); dev.do("sleep 400")
    quiet(li, 0.8)
    motion = li_pairs(li_events(li, ("POINTER_MOTION",)))
    li.seen.clear()
    dev.do("swipe 2 2500 2000 0 1500 500"); dev.do("sleep 400")
    quiet(li, 0.8)
    scroll = li_scroll(li_events(li, ("POINTER_SCROLL_FINGER", "POINTER_AXIS")))
    # (GESTURE_HOLD is libinput's own 2-finger hold, reported alike on both.)
    gestures = [l for l in li_events(li, ("GESTURE_", "POINTER_BUTTON")) if "GESTURE_HOLD" not in l]
    return motion, scroll, gestures

@test
def exclusive_touchpad_unbound_motion_and_scroll_pass_like_a_twin():
    """Exclusive touchpad: 1-finger motion and a 2-finger scroll (unbound) reach the clone as the kernel's frames
    once they move (the held start caught up in at most two frames), identical to a non-exclusive twin's fed the
    same strokes, and libinput reads the same motion and scroll."""
    daemon_ready(); libinput_ready()
    pad = Device(TOUCHPAD); twin = Device(TOUCHPAD, name="twin touchpad")
    d = None; lis = []
    try:
        settle()
        d = Daemon(config=PAD_CONFIG); d.client()
        clone = wait_clone(d, pad.node)
        rc, rt = RawFrames(clone), RawFrames(twin.node)
        lc = LibinputEvents(clone); lt = LibinputEvents(twin.node); lis = [lc, lt]
        tm, ts_, tg = stroke_results(twin, lt)
        check(tm and ts_, f"libinput on the twin saw no motion or no scroll: the test proves nothing ({tm[:3]}, {ts_})")
        raw = lambda m: (sum(p[2] for p in m), sum(p[3] for p in m))
        acc = lambda m: (sum(p[0] for p in m), sum(p[1] for p in m))
        (tx, ty), (bx, by) = raw(tm), acc(tm)
        # libinput's reading depends on when the frames arrive (acceleration, jump detection): a TCG hiccup
        # in the daemon delivers a burst. Up to 3 tries; the kernel frames must match every time.
        for attempt in range(3):
            before = len(rc.frames())
            cm, cs, cg = stroke_results(pad, lc)
            got = rc.frames()[before:]
            want = rt.frames()[:len(got)]
            if attempt == 0:
                why = live_frames_differ(got, rt.frames())
                check(not why, f"the clone's frames differ from the twin's: {why}")
            check(not cg and not tg, f"gestures or clicks appeared: clone {cg}, twin {tg}")
            (cx, cy), (ax, ay) = raw(cm), acc(cm)
            # Tolerances: libinput under TCG load reads bursts differently (the frames are identical, above).
            ok = (abs(cx - tx) <= 0.25 * abs(tx) + 2 and abs(cy - ty) <= 0.25 * abs(ty) + 2
                  and abs(ax - bx) <= 0.35 * abs(bx) + 2 and abs(cs - ts_) <= 0.45 * abs(ts_) + 1)
            print(f"  exclusive pass-through (try {attempt + 1}): motion raw clone ({cx:.0f},{cy:.0f}) twin ({tx:.0f},{ty:.0f}); "
                  f"accelerated clone ({ax:.0f},{ay:.0f}) twin ({bx:.0f},{by:.0f}); scroll clone {cs:.1f} twin {ts_:.1f}", flush=True)
            if ok: break
        check(ok, "libinput read different motion or scroll on the clone than on the twin in 3 tries (see above)")
    finally:
        for l in lis: l.close()
        pad.remove(); twin.remove()
        if d: d.stop()

SCREEN_CONFIG = """log: {level: debug}
devices:
  - match: {kind: touchscreen}
    exclusive: true
    exclusive_hold_ms: HOLD
bindings:
  - gesture: swipe
    fingers: 2
    command: 'true'
"""

def touch_lines(li): return li_events(li, ("TOUCH_DOWN", "TOUCH_UP", "TOUCH_CANCEL", "TOUCH_MOTION"))

@test
def exclusive_touchscreen_two_finger_swipe_consumed_one_finger_tap_passes():
    """Exclusive touchscreen, 2-finger swipe bound: held, no TOUCH_DOWN reaches libinput; with no hold
    (exclusive_hold_ms: 0, reloaded) its touches end in TOUCH_CANCEL (MT_TOOL_PALM), never TOUCH_UP;
    a 1-finger tap (unbound) passes as TOUCH_DOWN/TOUCH_UP."""
    daemon_ready(); libinput_ready()
    ts = Device(TOUCHSCREEN)
    d = None; lc = None
    try:
        settle()
        d = Daemon(config=SCREEN_CONFIG.replace("    exclusive_hold_ms: HOLD\n", "")); c = d.client()
        path = f"{WORK}/d{Daemon.count}.yaml"
        clone = wait_clone(d, ts.node)
        lc = LibinputEvents(clone)
        ts.do("swipe 2 100 200 500 0 300")
        c.wait(gesture("swipe", "recognized"), 10, "the 2-finger swipe")
        held = log_match(d, r"exclusive: 2-finger swipe consumed \((.*?)\)").group(1)
        print(f"    claimed: {held}")
        quiet(lc, 1.0)
        check(not touch_lines(lc), f"libinput on the clone saw the held swipe: {touch_lines(lc)}")
        tap(ts)
        lc.wait_for(lambda l: "TOUCH_UP" in l, 10, "the tap's TOUCH_UP on the clone")
        quiet(lc, 0.5)
        kinds = [l.split()[1] for l in touch_lines(lc)]
        check(kinds == ["TOUCH_DOWN", "TOUCH_UP"], f"the tap reached libinput as {kinds}")
        # No hold: the touches reach the clone at once, and are cancelled when the swipe is claimed.
        mark = len(d.stderr())
        open(path, "w").write(SCREEN_CONFIG.replace("HOLD", "0"))
        os.kill(d.p.pid, signal.SIGHUP)
        log_match(d, "reload: config", after=mark)
        lc.seen.clear()
        ts.do("swipe 2 100 200 500 0 300")
        c.wait(gesture("swipe", "recognized"), 10, "the 2-finger swipe without hold")
        quiet(lc, 1.0)
        kinds = [l.split()[1] for l in touch_lines(lc) if "TOUCH_MOTION" not in l]
        check(kinds.count("TOUCH_DOWN") == 2 and kinds.count("TOUCH_CANCEL") == 2 and "TOUCH_UP" not in kinds,
              f"without hold libinput read {kinds}, expected 2 TOUCH_DOWN each ended by TOUCH_CANCEL")
    finally:
        if lc: lc.close()
        ts.remove()
        if d: d.stop()

@test
def exclusive_removal_reload_and_twenty_plug_cycles_leave_no_clone_fd_or_grab():
    """Unplugged mid-touch: clone gone. A reload turning `exclusive` off mid-touch keeps the grab until the lift,
    then releases it and removes the clone; on again: clone and grab back. 20 plug cycles: no leaked fd or clone."""
    daemon_ready()
    ts = Device(TOUCHSCREEN)
    d = None
    try:
        settle()
        d = Daemon(config=SCREEN_CONFIG.replace("HOLD", "250")); c = d.client()
        path = f"{WORK}/d{Daemon.count}.yaml"
        wait_clone(d, ts.node)
        # Removed mid-touch.
        ts.do("down 300 200"); ts.do("move 320 200")
        mark = len(d.stderr())
        ts.unplug()
        c.wait(removed(ts.node), 10, f"deviceRemoved {ts.node}")
        check(not wait_no_clone(), f"the clone outlived its device: {virtual_nodes()}")
        log_match(d, "exclusive: grab released and clone removed", after=mark)
        # Plugged again: clone and grab again. Warm-up cycle, then 20 counted.
        def cycle():
            m = len(d.stderr())
            node = ts.plug()
            c.wait(added(node), 15, f"deviceAdded {node}")
            wait_clone(d, node, after=m, settled=False)
            ts.unplug()
            c.wait(removed(node), 15, f"deviceRemoved {node}")
            left = wait_no_clone()
            check(not left, f"a clone outlived its device: {left}")
        cycle()
        before = fd_settled(d.p.pid, -1, 0.3); links = d.fd_links()
        for _ in range(20): cycle()
        after = fd_settled(d.p.pid, before)
        check(after == before, f"fd count went from {before} to {after} over 20 exclusive plug cycles: "
                               f"before {links}, after {d.fd_links()}; log: {d.stderr()[-1500:]}")
        # Reload turning exclusive off while a finger is down: released only at the lift.
        m = len(d.stderr())
        node = ts.plug()
        c.wait(added(node), 15, f"deviceAdded {node}")
        wait_clone(d, node, after=m)
        ts.do("down 300 200")
        time.sleep(0.3)
        m = len(d.stderr())
        open(path, "w").write(SCREEN_CONFIG.replace("    exclusive: true\n", "    exclusive: false\n").replace("HOLD", "250"))
        os.kill(d.p.pid, signal.SIGHUP)
        log_match(d, "reload: config", after=m)
        time.sleep(0.3)
        check(grabbed_elsewhere(node) and clone_nodes(), "the grab went while a finger was down")
        ts.do("up")
        log_match(d, rf"{_re.escape(node)}: exclusive: grab released and clone removed", after=m)
        held = still_grabbed(node)
        check(not held, f"{node} is still grabbed after the reload and the lift; open by {held}; log: {d.stderr()[m:][-1200:]}")
        check(not wait_no_clone(), f"the clone outlived the reload: {virtual_nodes()}")
        # And on again.
        m = len(d.stderr())
        open(path, "w").write(SCREEN_CONFIG.replace("HOLD", "250"))
        os.kill(d.p.pid, signal.SIGHUP)
        wait_clone(d, node, after=m)
        check(grabbed_elsewhere(node), f"{node} is not grabbed after exclusive came back")
        check(d.alive(), "the daemon died")
    finally:
        ts.remove()
        if d: d.stop()
    check(not wait_no_clone(), f"a clone outlived the daemon: {virtual_nodes()}")

@test
def exclusive_kill_9_mid_touch_releases_the_grab_and_a_restart_recovers():
    """kill -9 with a finger down: the kernel drops the grab and the clone; the restarted daemon makes a new
    clone but grabs only once the finger lifts; SIGTERM then releases everything."""
    daemon_ready()
    ts = Device(TOUCHSCREEN)
    d = d2 = None
    try:
        settle()
        d = Daemon(config=SCREEN_CONFIG.replace("HOLD", "250")); d.client()
        wait_clone(d, ts.node)
        ts.do("down 300 200"); ts.do("move 330 200")
        os.kill(d.p.pid, signal.SIGKILL); d.p.wait(timeout=10)
        check(not wait_no_clone(), f"the clone outlived kill -9: {virtual_nodes()}")
        check(not grabbed_elsewhere(ts.node), f"{ts.node} is still grabbed after kill -9")
        d2 = Daemon(config=SCREEN_CONFIG.replace("HOLD", "250")); d2.client()
        log_match(d2, rf"{_re.escape(ts.node)}: exclusive: clone")
        time.sleep(0.5)
        check(not grabbed_elsewhere(ts.node), "the restarted daemon grabbed the device with a finger down")
        ts.do("up")
        wait_clone(d2, ts.node)
        check(grabbed_elsewhere(ts.node), f"{ts.node} is not grabbed after the lift")
        d2.stop()
        check(not grabbed_elsewhere(ts.node), f"{ts.node} is still grabbed after SIGTERM")
        check(not wait_no_clone(), f"the clone outlived SIGTERM: {virtual_nodes()}")
    finally:
        ts.remove()
        for x in (d, d2):
            if x: x.stop()

@test
def exclusive_second_grabber_gets_a_clear_error_and_no_dead_device():
    """Another process holds EVIOCGRAB: the daemon says so (naming fuser), makes no clone, and the device keeps
    working for its holder."""
    daemon_ready()
    ts = Device(TOUCHSCREEN)
    d = None
    fd = os.open(ts.node, os.O_RDONLY | os.O_NONBLOCK)
    try:
        _fcntl.ioctl(fd, EVIOCGRAB, 1)
        settle()
        d = Daemon(config=SCREEN_CONFIG.replace("HOLD", "250")); d.client()
        line = log_match(d, rf"{_re.escape(ts.node)}: exclusive: cannot grab it: another process holds it.*").group(0)
        check("fuser" in line, f"the error does not say how to find the holder: {line}")
        check(not wait_no_clone(), f"a clone was left although the grab failed: {virtual_nodes()}")
        while True:                          # drain, then the holder must still read new events
            try:
                if not os.read(fd, 24 * 64): break
            except BlockingIOError: break
        tap(ts)
        time.sleep(0.2)
        got = b""
        try: got = os.read(fd, 24 * 64)
        except BlockingIOError: pass
        check(len(got) >= 24, "the holder of the grab reads nothing any more")
        check(d.alive(), "the daemon died")
    finally:
        os.close(fd)
        ts.remove()
        if d: d.stop()

@test
def exclusive_syn_dropped_resyncs_the_clone_and_leaves_no_stuck_touch():
    """A flood while the daemon is stopped (SYN_DROPPED on the real device): the clone is brought to the real
    state in one frame, the lift that follows reaches libinput (no stuck touch), and a tap after it passes."""
    daemon_ready(); libinput_ready()
    ts = Device(TOUCHSCREEN)
    d = None; lc = None
    try:
        settle()
        d = Daemon(config=SCREEN_CONFIG.replace("HOLD", "250")); c = d.client()
        clone = wait_clone(d, ts.node)
        lc = LibinputEvents(clone)
        ts.do("down 300 200")
        lc.wait_for(lambda l: "TOUCH_DOWN" in l, 10, "the touch on the clone")
        os.kill(d.p.pid, signal.SIGSTOP)
        try: ts.do("flood 4000")
        finally: os.kill(d.p.pid, signal.SIGCONT)
        log_match(d, "SYN_DROPPED")
        ts.do("up")
        lc.wait_for(lambda l: "TOUCH_UP" in l, 10, "the lift on the clone after the resync")
        lc.seen.clear()
        tap(ts)
        lc.wait_for(lambda l: "TOUCH_UP" in l, 10, "a tap after the resync")
        kinds = [l.split()[1] for l in touch_lines(lc) if "TOUCH_MOTION" not in l]
        check(kinds == ["TOUCH_DOWN", "TOUCH_UP"], f"the tap after the resync reached libinput as {kinds}")
        check(d.alive(), "the daemon died")
    finally:
        if lc: lc.close()
        ts.remove()
        if d: d.stop()

@test
def exclusive_reload_off_and_on_again_with_libinput_watching():
    """Issue 27: `exclusive` turned off and on again by reloads of an open touchpad, libinput reading the
    clone and the real node: on, the bound 3-finger swipe reaches libinput from neither; off, the clone goes
    and libinput reads the next swipe from the released device; on again, a new clone, and the swipe is
    consumed again. The daemon recognizes every one of them."""
    daemon_ready(); libinput_ready()
    pad = Device(TOUCHPAD)
    d = None; lis = []
    swipe = lambda m: gesture("swipe", "recognized")(m) and device_of(m).get("node", pad.node) == pad.node
    try:
        settle()
        d = Daemon(config=PAD_CONFIG); c = d.client()
        path = f"{WORK}/d{Daemon.count}.yaml"
        clone = wait_clone(d, pad.node)
        lc = LibinputEvents(clone); lr = LibinputEvents(pad.node); lis = [lc, lr]
        pad.do("swipe 3 2000 2500 1800 0 400")
        c.wait(swipe, 10, "the first swipe")
        quiet(lc, 1.0)
        check(not li_events(lc, ("GESTURE_SWIPE",)) and not li_events(lr, TOUCH_ANYTHING),
              f"exclusive on, libinput saw the bound swipe: clone {li_events(lc, ('GESTURE_SWIPE',))}, real {li_events(lr, TOUCH_ANYTHING)}")
        # Off by reload: the clone goes, the real device is free, libinput reads it.
        m = len(d.stderr())
        open(path, "w").write(PAD_CONFIG.replace("    exclusive: true\n", "    exclusive: false\n"))
        os.kill(d.p.pid, signal.SIGHUP)
        log_match(d, "reload: config", after=m)
        check(not wait_no_clone(), f"the clone outlived the reload that turned exclusive off: {virtual_nodes()}")
        held = still_grabbed(pad.node)
        check(not held, f"{pad.node} is still grabbed after exclusive went off: {held}")
        pad.do("swipe 3 2000 2500 1800 0 400")
        lr.wait_for(lambda l: "GESTURE_SWIPE_BEGIN" in l, 10, "libinput reading the swipe from the released device")
        c.wait(swipe, 10, "the swipe while exclusive is off")
        # On again: a new clone, the swipe consumed again.
        m = len(d.stderr())
        open(path, "w").write(PAD_CONFIG)
        os.kill(d.p.pid, signal.SIGHUP)
        clone2 = wait_clone(d, pad.node, after=m)
        lc2 = LibinputEvents(clone2); lis.append(lc2)
        seen_real = len(li_events(lr, TOUCH_ANYTHING))
        pad.do("swipe 3 2000 2500 1800 0 400")
        c.wait(swipe, 10, "the swipe after exclusive came back")
        quiet(lc2, 1.0)
        check(not li_events(lc2, ("GESTURE_SWIPE",)), f"the new clone passed the bound swipe: {li_events(lc2, ('GESTURE_SWIPE',))}")
        check(len(li_events(lr, TOUCH_ANYTHING)) == seen_real, f"the grabbed device reached libinput again: {li_events(lr, TOUCH_ANYTHING)[seen_real:]}")
    finally:
        for l in lis: l.close()
        pad.remove()
        if d: d.stop()
    check(not wait_no_clone(), f"a clone outlived the daemon: {virtual_nodes()}")


def abs_value(node, code):
    """The kernel's current value of EV_ABS CODE on NODE (EVIOCGABS: struct input_absinfo's first field)."""
    fd = os.open(node, os.O_RDONLY | os.O_NONBLOCK)
    try:
        buf = _fcntl.ioctl(fd, (2 << 30) | (24 << 16) | (0x45 << 8) | (0x40 + code), bytes(24))
        return int.from_bytes(buf[:4], "little", signed=True)
    finally:
        os.close(fd)

@test
def exclusive_by_reload_starts_the_clone_at_the_axes_the_shared_reads_left_out():
    """A shared device's reads leave out the events the decoder never reads (here ABS_X and ABS_Y, the
    touchpad's single-touch emulation); a reload turning `exclusive` on first takes those axes' values from
    the kernel, so the clone starts where the real device is, not where it was when the daemon opened it."""
    daemon_ready()
    pad = Device(TOUCHPAD)
    d = None
    try:
        settle()
        d = Daemon(config=PAD_CONFIG.replace("    exclusive: true\n", "    exclusive: false\n")); c = d.client()
        path = f"{WORK}/d{Daemon.count}.yaml"
        at_open = (abs_value(pad.node, 0), abs_value(pad.node, 1))
        pad.do("down 2000 2500")
        for i in range(1, 16): pad.do(f"move {2000 + 100 * i} {2500 + 50 * i}"); time.sleep(0.01)
        pad.do("up")
        c.wait(gesture("pan", "ended"), 10, "the 1-finger stroke while shared")
        real = (abs_value(pad.node, 0), abs_value(pad.node, 1))
        check(real != at_open, f"the stroke left ABS_X/ABS_Y at {real}, as at open: the test proves nothing")
        m = len(d.stderr())
        open(path, "w").write(PAD_CONFIG)
        os.kill(d.p.pid, signal.SIGHUP)
        clone = wait_clone(d, pad.node, after=m)
        got = (abs_value(clone, 0), abs_value(clone, 1))
        check(got == real, f"the clone starts at ABS_X/ABS_Y {got}, the real device is at {real} (at open {at_open})")
    finally:
        pad.remove()
        if d: d.stop()
    check(not wait_no_clone(), f"a clone outlived the daemon: {virtual_nodes()}")

