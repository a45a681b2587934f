# Orientation (issue 29): udev's LIBINPUT_CALIBRATION_MATRIX on a real uinput touchscreen, set
# by a real udev rule, read through udevd by `gestured devices` and the daemon. Run by suite.py
# in its namespace (Device, Daemon, check, settle, udev_property … come from there; no name here
# may repeat one of suite.py's).

CALIBRATION_RULE = "/run/udev/rules.d/61-gestured-test-calibration.rules"
CALIBRATED_NAME = "gestured calibration test"
# libinput's documented matrix for a panel whose picture is turned 90° clockwise
# (doc/user/absolute-axes.rst): what the panel calls up is the picture's right, and its left
# edge is the picture's top.
CALIBRATION_90 = "0 -1 1 1 0 0"
SWIPE_UP_2F = f"{FIX}/touchscreen-ep0430m09-2finger-swipe-up__whot-evemu-devices.evemu"
LEFT_EDGE_EVENTS = f"{FIX}/touchtablet-wacom-intuos5-1finger-swipe-from-left-edge__whot-evemu-devices.events"
LEFT_EDGE_DESC = f"{FIX}/touchtablet-wacom-intuos5__whot-evemu-devices.desc"

def calibration_rule(on, matrix=CALIBRATION_90):
    if on:
        os.makedirs(os.path.dirname(CALIBRATION_RULE), exist_ok=True)
        with open(CALIBRATION_RULE, "w") as f:
            f.write(f'ACTION=="add|change", KERNEL=="event*", ATTRS{{name}}=="{CALIBRATED_NAME}*", '
                    f'ENV{{LIBINPUT_CALIBRATION_MATRIX}}="{matrix}"\n')
    elif os.path.exists(CALIBRATION_RULE):
        os.unlink(CALIBRATION_RULE)
    subprocess.run(["udevadm", "control", "--reload"], capture_output=True, timeout=20)

def intuos5_as_touchscreen():
    """The Intuos5's header with INPUT_PROP_DIRECT instead of INPUT_PROP_POINTER: its recorded
    left-edge swipe played on a touchscreen (no touchscreen recording of one is in Fixtures)."""
    path = f"{WORK}/intuos5-as-touchscreen.desc"
    lines = open(LEFT_EDGE_DESC).read().splitlines()
    with open(path, "w") as f:
        for l in lines: f.write(("P: 02 00 00 00 00 00 00 00" if l.startswith("P:") else l) + "\n")
    return path

@test
def orientation_udev_calibration_matrix_turns_swipes_and_edges():
    """A udev rule gives a uinput touchscreen LIBINPUT_CALIBRATION_MATRIX "0 -1 1 1 0 0": `gestured
    devices` shows it, and the daemon names a recorded 2-finger swipe up "right" and a left-edge
    swipe an edge swipe from the top, on the socket and in hooks."""
    daemon_ready()
    calibration_rule(True)
    out = f"{WORK}/orientation-hook.out"
    if os.path.exists(out): os.unlink(out)
    config = f"""bindings:
  - gesture: swipe
    fingers: 2
    command: 'printf "%s %s %s\\n" "$GESTURE_KIND" "$GESTURE_FINGERS" "$GESTURE_DIRECTION" >> {out}'
  - gesture: edgeSwipe
    command: 'printf "%s %s %s\\n" "$GESTURE_KIND" "$GESTURE_EDGE" "$GESTURE_DIRECTION" >> {out}'
"""
    d = None; devs = []
    try:
        swipe = Device(SWIPE_UP_2F, name=CALIBRATED_NAME + " ep0430m09"); devs.append(swipe)
        edge = Device(intuos5_as_touchscreen(), name=CALIBRATED_NAME + " intuos5"); devs.append(edge)
        plain = Device(SWIPE_UP_2F); devs.append(plain)
        settle()
        check(udev_property(swipe.node, "LIBINPUT_CALIBRATION_MATRIX") == CALIBRATION_90,
              f"udev did not tag {swipe.node}: {udev_property(swipe.node, 'LIBINPUT_CALIBRATION_MATRIX')!r}")
        check(udev_property(edge.node, "ID_INPUT_TOUCHSCREEN") == "1", f"{edge.node} is not a touchscreen to udev")
        r = subprocess.run([GESTURED, "devices"], capture_output=True, text=True, timeout=30)
        lines = r.stdout.splitlines()
        for node in (swipe.node, edge.node):
            i = next((k for k, l in enumerate(lines) if f" {node} " in l), None)
            check(i is not None and i + 1 < len(lines), f"gestured devices does not list {node}: {r.stdout}")
            check("rotated 90°" in lines[i + 1] and f"udev LIBINPUT_CALIBRATION_MATRIX={CALIBRATION_90}" in lines[i + 1],
                  f"gestured devices, {node}: {lines[i + 1]!r}")
        i = next(k for k, l in enumerate(lines) if f" {plain.node} " in l)
        check("the device's own axes" in lines[i + 1], f"gestured devices, untagged {plain.node}: {lines[i + 1]!r}")
        rj = subprocess.run([GESTURED, "devices", "--json"], capture_output=True, text=True, timeout=30)
        js = {o["node"]: o for o in map(json.loads, rj.stdout.splitlines())}
        check(js[swipe.node]["orientation"]["matrix"] == CALIBRATION_90, f"--json: {js[swipe.node]}")

        d = Daemon(config=config); c = d.client()
        nodes = hello_nodes(c.hello)
        for node in (swipe.node, edge.node):
            o = nodes.get(node, {}).get("orientation", {})
            check(o.get("matrix") == CALIBRATION_90 and o.get("from") == [f"udev LIBINPUT_CALIBRATION_MATRIX={CALIBRATION_90}"],
                  f"hello, {node}: {nodes.get(node)}")
        check(nodes.get(plain.node, {}).get("orientation", {}).get("matrix") == "1 0 0 0 1 0", f"hello, {plain.node}: {nodes.get(plain.node)}")

        swipe.do(f"play {SWIPE_UP_2F}", timeout=120)
        g = c.wait(lambda m: gesture("swipe", "recognized")(m) and device_of(m).get("id") == nodes[swipe.node]["id"], 15, "the calibrated swipe")
        check(g.get("direction") == "right", f"the recorded swipe up on a panel turned 90° is the picture's right: {g}")
        plain.do(f"play {SWIPE_UP_2F}", timeout=120)
        g = c.wait(lambda m: gesture("swipe", "recognized")(m) and device_of(m).get("id") == nodes[plain.node]["id"], 15, "the untagged swipe")
        check(g.get("direction") == "up", f"the same swipe on the untagged twin: {g}")
        edge.do(f"play {LEFT_EDGE_EVENTS}", timeout=120)
        g = c.wait(lambda m: m.get("type") == "gesture" and m.get("gesture") == "edgeSwipe" and m.get("direction"), 15, "the edge swipe")
        check(g.get("edge") == "top" and g.get("direction") == "down", f"the left-edge swipe on the turned panel: {g}")

        deadline = time.monotonic() + 10
        want = ["swipe 2 right", "swipe 2 up", "edgeSwipe top down"]
        while time.monotonic() < deadline:
            text = open(out).read() if os.path.exists(out) else ""
            if all(w in text for w in want): break
            time.sleep(0.1)
        check(all(w in text for w in want), f"hook output {text!r}, expected the lines {want}; log: {d.stderr()[-1200:]}")
        check("udev LIBINPUT_CALIBRATION_MATRIX" in d.stderr(), f"the log does not say where the matrix came from: {d.stderr()[-800:]}")
    finally:
        for dev in devs: dev.remove()
        if d: d.stop()
        calibration_rule(False)

@test
def orientation_udev_change_recalibrates_an_open_touchscreen():
    """The rule is edited while the daemon runs: `udevadm trigger --action=change` gives the open
    touchscreen libinput's 180° matrix, a deviceChanged says it, and the recorded swipe up is "down"."""
    daemon_ready()
    calibration_rule(True)
    d = None; dev = None
    try:
        dev = Device(SWIPE_UP_2F, name=CALIBRATED_NAME + " ep0430m09")
        settle()
        d = Daemon(); c = d.client()
        me = hello_nodes(c.hello).get(dev.node, {})
        check(me.get("orientation", {}).get("matrix") == CALIBRATION_90, f"hello: {me}")
        calibration_rule(True, "-1 0 1 0 -1 1")
        r = subprocess.run(["udevadm", "trigger", "--action=change", "/sys/class/input/" + os.path.basename(dev.node)],
                           capture_output=True, text=True, timeout=20)
        check(r.returncode == 0, f"udevadm trigger: {r.stderr}")
        settle()
        check(udev_property(dev.node, "LIBINPUT_CALIBRATION_MATRIX") == "-1 0 1 0 -1 1",
              f"udev did not take the edited rule: {udev_property(dev.node, 'LIBINPUT_CALIBRATION_MATRIX')!r}")
        try:
            m = c.wait(lambda m: m.get("type") == "deviceChanged" and device_of(m).get("node") == dev.node, 15, "deviceChanged after the udev change")
        except Fail as e:
            raise Fail(f"{e}; daemon log: {d.stderr()[-1500:]}")
        check(device_of(m).get("orientation", {}).get("matrix") == "-1 0 1 0 -1 1", f"deviceChanged: {m}")
        dev.do(f"play {SWIPE_UP_2F}", timeout=120)
        g = c.wait(gesture("swipe", "recognized"), 15, "the swipe after the change")
        check(g.get("direction") == "down", f"the recorded swipe up on a panel now turned 180°: {g}")
    finally:
        if dev: dev.remove()
        if d: d.stop()
        calibration_rule(False)

# A turned exclusive touchscreen (issue 29 with issue 11): only the person's up is bound.
TURNED_EXCLUSIVE_CONFIG = """log: {level: debug}
devices:
  - match: {kind: touchscreen}
    rotation: 90
    exclusive: true
bindings:
  - gesture: swipe
    fingers: 2
    direction: up
    command: 'true'
"""

@test
def orientation_exclusive_turned_touchscreen_claims_the_persons_up():
    """Exclusive touchscreen with `rotation: 90` (libinput's 0 -1 1 1 0 0: the panel's left is the
    picture's up, its top the picture's right) and only a 2-finger swipe up bound: the stroke
    towards the panel's left is "up", claimed, and no touch of it reaches libinput on the clone;
    the stroke towards the panel's top is "right", not claimed, and reaches libinput as two
    touches down and up. Helpers from exclusive.py (wait_clone, log_match, touch_lines)."""
    daemon_ready(); libinput_ready()
    ts = Device(TOUCHSCREEN)
    d = None; lc = None
    try:
        settle()
        d = Daemon(config=TURNED_EXCLUSIVE_CONFIG); c = d.client()
        clone = wait_clone(d, ts.node)
        lc = LibinputEvents(clone)
        ts.do("swipe 2 600 200 -450 0 300")
        g = c.wait(gesture("swipe", "recognized"), 10, "the stroke towards the panel's left")
        check(g.get("direction") == "up", f"the stroke towards the panel's left on a panel turned 90°: {g}")
        log_match(d, r"exclusive: 2-finger swipe consumed")
        quiet(lc, 1.0)
        check(not touch_lines(lc), f"libinput on the clone saw the claimed swipe: {touch_lines(lc)}")
        mark = len(d.stderr())
        ts.do("swipe 2 300 420 0 -350 300")
        g = c.wait(gesture("swipe", "recognized"), 10, "the stroke towards the panel's top")
        check(g.get("direction") == "right", f"the stroke towards the panel's top on a panel turned 90°: {g}")
        lc.wait_for(lambda l: "TOUCH_UP" in l, 10, "the unclaimed swipe's TOUCH_UP on the clone")
        quiet(lc, 0.5)
        kinds = [l.split()[1] for l in touch_lines(lc) if "TOUCH_MOTION" not in l]
        check(kinds.count("TOUCH_DOWN") == 2 and kinds.count("TOUCH_UP") == 2 and "TOUCH_CANCEL" not in kinds,
              f"the unclaimed swipe reached libinput as {kinds}, expected 2 TOUCH_DOWN and 2 TOUCH_UP")
        check("consumed" not in d.stderr()[mark:], f"the swipe towards the panel's top was claimed: {d.stderr()[mark:][-800:]}")
    finally:
        if lc: lc.close()
        ts.remove()
        if d: d.stop()
