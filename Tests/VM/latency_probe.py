#!/usr/bin/env python3
"""Whether a reader's line is already there when the latency driver's write returns.

Runs latency.py's alone rounds on the synthetic touchpad (gestured with no bindings, gestured
with the side-by-side bindings, libinput) and, after every frame's write, asks with a
zero-timeout select whether the reader's output is readable at once (`R`: the reader preempted
the driver as its write returned and ran to its send), within 5 ms (`L`) or not at all (`-`: no
line for that frame). Prints one row of marks a frame of the swipe, one mark a trial. This is
why latency.py times a frame from before its write (docs/performance-history.md, sixteenth pass).

usage (host): sh Tests/VM/vm-run.sh /var/tmp/gestured-vm \
                "python3 -u $PWD/Tests/VM/latency_probe.py BIN_DIR"
              (BIN_DIR: `swift build -c release --static-swift-stdlib --show-bin-path`)
"""
import os, select, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
BIN = sys.argv[1]
sys.argv = ["latency.py", "--bin", BIN]
import latency as L  # noqa: E402

TRIALS = 30
L.TRIALS = TRIALS
EMPTY = f"{L.WORK}/probe-empty.yaml"
open(EMPTY, "w").write("log: {level: warning}\n")
BINDINGS = os.path.join(HERE, "sidebyside-bindings.yaml")

state = {"after_write": False, "frame": -1, "marks": None}
write_frame, make_frames, pump = L.UInput.frame, L.swipe_frames, L.pump

def swipe_frames(*args):
    state["frame"] = -1
    return make_frames(*args)

def frame(self, events):
    t = write_frame(self, events)
    state["after_write"] = True; state["frame"] += 1
    return t

def probing_pump(readers, until_ns, firsts=None):
    if state["after_write"] and readers and state["marks"] is not None:
        state["after_write"] = False
        fds = [r.fd for r in readers]
        at_once, _, _ = select.select(fds, [], [], 0)
        later = at_once or select.select(fds, [], [], 0.005)[0]
        state["marks"].setdefault(state["frame"], []).append("R" if at_once else ("L" if later else "-"))
    return pump(readers, until_ns, firsts)

L.swipe_frames, L.UInput.frame, L.pump = swipe_frames, frame, probing_pump

def probe(title, name, config=None):
    state["marks"] = {}
    L.CONFIG = config
    L.run("touchpad", only=name)
    marks = state["marks"]; state["marks"] = None
    flat = [m for ms in marks.values() for m in ms]
    print(f"probe.{title}: a line readable as the write returned in {flat.count('R')} frames, "
          f"within 5 ms in {flat.count('L')}, none in {flat.count('-')} ({TRIALS} trials)", flush=True)
    for f, ms in sorted(marks.items()):
        print(f"probe.{title}.frame_{f}: {''.join(ms)}", flush=True)

probe("gestured_no_bindings", "gestured", EMPTY)
probe("gestured_bindings", "gestured", BINDINGS)
probe("libinput", "libinput")
