#!/usr/bin/env python3
"""STAND-IN for libinput-gestures (not the real program): reads `libinput debug-events` lines on
stdin and does what libinput-gestures does with them. It parses every line, accumulates the
motion of GESTURE_SWIPE_UPDATE / the scale of GESTURE_PINCH_UPDATE, and on the matching _END
(not cancelled) picks the direction from the total and "runs the binding" (prints one line
`swipe right 3` etc.; libinput-gestures would spawn the command here). The side-by-side harness
(Tests/VM/sidebyside.py) measures its CPU together with the `libinput debug-events` feeding it.
At the end of its input, or on SIGTERM, it writes `lines N` to stderr: how many lines libinput
gave it (the harness's `lines_per_frame`).
"""
import re, signal, sys

lines = 0

def count_and_exit(*_):
    sys.stderr.write(f"lines {lines}\n"); sys.stderr.flush()
    sys.exit(0)

LINE = re.compile(r"^\s*\S+\s+(GESTURE_(SWIPE|PINCH|HOLD)_(BEGIN|UPDATE|END))\s+\S+\s+(\d+)(.*)$")
NUM = re.compile(r"[-+]?\d+\.\d+")

def direction(dx, dy):
    if abs(dx) > abs(dy): return "right" if dx > 0 else "left"
    return "down" if dy > 0 else "up"

def main():
    global lines
    signal.signal(signal.SIGTERM, count_and_exit)
    kind = None; fingers = 0; dx = dy = 0.0; scale = 1.0
    out = sys.stdout
    for line in sys.stdin:
        lines += 1
        m = LINE.match(line)
        if not m: continue
        _, g, phase, n, rest = m.groups()
        if phase == "BEGIN":
            kind, fingers, dx, dy, scale = g, int(n), 0.0, 0.0, 1.0
        elif phase == "UPDATE" and kind == g:
            nums = [float(x) for x in NUM.findall(rest)]
            if len(nums) >= 2: dx += nums[0]; dy += nums[1]
            if g == "PINCH" and len(nums) >= 5: scale = nums[4]
        elif phase == "END" and kind == g:
            if "cancelled" not in rest:
                if g == "SWIPE": out.write(f"swipe {direction(dx, dy)} {fingers}\n")
                elif g == "PINCH": out.write(f"pinch {'in' if scale < 1 else 'out'} {fingers}\n")
                else: out.write(f"hold {fingers}\n")
                out.flush()
            kind = None

if __name__ == "__main__":
    main()
    count_and_exit()
