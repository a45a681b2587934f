#!/usr/bin/env python3
"""Recognition side by side (`Tests/VM/sidebyside.sh recognition`): each touchpad recording played
into uinput, libinput's gestures (with and without --enable-tap) next to gestured's. Imported by
Tests/VM/sidebyside.py inside the kernel VM; `say` and `connect` come from there."""
import os, re, time
import suite
from suite import Device, Daemon, settle, FIX, WORK

TOUCHPAD_RECORDINGS = [
    (f"{FIX}/touchpad-protoA-bcm5974-1f-move-2f-swipe-left-3f-swipe-right-4f-taps__whot-evemu.evemu", None),
    (f"{FIX}/touchpad-semimt-alps-1finger-double-tap__whot-evemu-devices.evemu", None),
    (f"{FIX}/touchpad-semimt-alps-2finger-tap__whot-evemu-devices.evemu", None),
    (f"{FIX}/touchpad-semimt-cypress-3finger-tap__whot-evemu-devices.evemu", None),
    (f"{FIX}/touchpad-synaptics-hp8470p-1finger-right-edge-swipe-down__whot-evemu-devices.events",
     f"{FIX}/touchpad-synaptics-hp8470p__whot-evemu-devices.desc"),
]

NUMBER = re.compile(r"[-+]?\d+\.\d+")

def direction(dx, dy):
    if abs(dx) < 1e-9 and abs(dy) < 1e-9: return ""
    return ("right" if dx > 0 else "left") if abs(dx) > abs(dy) else ("down" if dy > 0 else "up")

def libinput_summary(lines):
    """libinput's view, run-length collapsed: pointer motion, 2-finger scroll (with its summed
    direction), GESTURE_* (fingers, summed direction of the updates, cancelled), tap buttons."""
    out = []; acc = None   # acc: [label, dx, dy] of the run being summed
    def close():
        nonlocal acc
        if acc:
            d = direction(acc[1], acc[2])
            out.append(f"{acc[0]}{' ' + d if d else ''}{acc[3]}")
        acc = None
    for line in lines:
        f = line.split()
        if len(f) < 3: continue
        kind, rest = f[1], line.split(f[2], 1)[-1]
        nums = [float(x) for x in NUMBER.findall(rest)]
        if kind == "POINTER_MOTION":
            if not acc or acc[0] != "motion": close(); acc = ["motion", 0.0, 0.0, ""]
            if len(nums) >= 2: acc[1] += nums[0]; acc[2] += nums[1]
        elif kind == "POINTER_SCROLL_FINGER":
            if not acc or acc[0] != "scroll 2f": close(); acc = ["scroll 2f", 0.0, 0.0, ""]
            if len(nums) >= 4: acc[2] += nums[0]; acc[1] += nums[2]   # vert, then horiz
        elif kind.startswith("GESTURE_") and kind.endswith("_BEGIN"):
            close(); acc = [f"{kind[8:-6].lower()} {f[3]}f", 0.0, 0.0, ""]
        elif kind.startswith("GESTURE_") and kind.endswith("_UPDATE"):
            if acc and len(nums) >= 2: acc[1] += nums[0]; acc[2] += nums[1]
        elif kind.startswith("GESTURE_") and kind.endswith("_END"):
            g = kind[8:-4].lower()
            if acc and acc[0].startswith(g):
                if "cancelled" in line: acc[3] = " (cancelled)"
                close()
            elif "cancelled" in line:
                close(); out.append(f"({g} cancelled)")
        elif kind == "POINTER_BUTTON" and "pressed" in line:
            close(); out.append(f"button {f[3]}")
    close()
    return out

def gestured_summary(messages):
    out = []
    for m in messages:
        if m.get("type") != "gesture" or m.get("phase") in ("changed", "ended"): continue
        s = f"{m.get('gesture')} {m.get('fingers')}f"
        if m.get("direction"): s += f" {m.get('direction')}"
        if m.get("edge"): s += f" edge={m.get('edge')}"
        if m.get("phase") == "cancelled": s = f"({s} cancelled)"
        out.append(s)
    return out

def recognition(say, connect):
    config = f"{WORK}/recognition.yaml"
    open(config, "w").write("bindings:\n  - {gesture: doubleTap, fingers: any, command: ':'}\nlog: {level: warning}\n")
    for rec, desc in TOUCHPAD_RECORDINGS:
        dev = Device(desc or rec)
        d = Daemon(config=open(config).read()); c = connect(d)
        plain = suite.Lines(["stdbuf", "-oL", "libinput", "debug-events", "--device", dev.node], name="li-plain")
        tap = suite.Lines(["stdbuf", "-oL", "libinput", "debug-events", "--enable-tap", "--device", dev.node], name="li-tap")
        try:
            for l in (plain, tap): l.wait_for(lambda x: "DEVICE_ADDED" in x, 60, "libinput's DEVICE_ADDED")
            time.sleep(0.5); c.collect(0.2, 1)
            dev.do(f"play {rec}", timeout=300)
            got = c.collect(1.5, 30)
            time.sleep(0.5)
            name = os.path.basename(rec).split("__")[0]
            def drained(l):
                while not l.q.empty():
                    x = l.q.get()
                    if x is not None: l.seen.append(x)
                return l.seen
            for label, l in (("libinput", plain), ("libinput_tap", tap)):
                lines = drained(l)
                say(f"recognition.{name}.{label}", "; ".join(libinput_summary(lines))
                    or f"- ({len(lines)} lines: {lines[-3:]}; stderr {l.stderr()[-200:]!r})")
            say(f"recognition.{name}.gestured", "; ".join(gestured_summary(got)) or "-")
        finally:
            plain.p.terminate(); tap.p.terminate(); c.close(); d.stop(); dev.remove(); settle()


