#!/usr/bin/env python3
"""Syscalls per frame side by side (`Tests/VM/sidebyside.sh syscalls`): `strace -c -f` attached at
once to `gestured run` (the harness's bindings and one client), a daemon with neither
(`gestured-bare`), `libinput debug-events` and, on a touchscreen, `lisgd` with the same swipes
bound, all reading one uinput device while one recording plays once (bcm5974's, or the first
scenario `--scenario=NAME` chose). strace slows every traced process alike; the counts, not the times, are
the finding. Imported by Tests/VM/sidebyside.py inside the kernel VM; `say`, `connect`,
`frames_in`, `SCENARIOS` and `BINDINGS` come from there."""
import os, subprocess, threading, time
from suite import Device, Daemon, settle, WORK


def syscalls(say, connect, frames_in, scenarios, bindings, lisgd_gestures, only=()):
    name, header, recording, _ = next(s for s in scenarios if any(o in s[0] for o in (only or ["bcm5974"])))
    rec = recording or header
    frames = frames_in(rec)
    dev = Device(header)
    null = open(os.devnull, "w")
    d = Daemon(config=bindings); client = connect(d)
    threading.Thread(target=lambda: [None for _ in iter(client.q.get, None)], daemon=True).start()
    bare = Daemon(config="log: {level: warning}\n")
    li = subprocess.Popen(["libinput", "debug-events", "--device", dev.node], stdout=null, stderr=null)
    readers = [("gestured", d.p.pid), ("gestured-bare", bare.p.pid), ("libinput", li.pid)]
    lisgd = None
    if name.startswith("touchscreen"):
        argv = ["lisgd", "-d", dev.node, "-w", "3000", "-h", "2000"]
        for g in lisgd_gestures: argv += ["-g", g]
        lisgd = subprocess.Popen(argv, stdout=null, stderr=null)
        readers.append(("lisgd", lisgd.pid))
    tracers = []
    try:
        time.sleep(3.0)  # every reader has opened the device and finished starting
        for who, pid in readers:
            out = f"{WORK}/strace-{who}.txt"
            tracers.append((who, out, subprocess.Popen(["strace", "-c", "-f", "-o", out, "-p", str(pid)],
                                                       stderr=subprocess.DEVNULL)))
        time.sleep(1.0)
        dev.do(f"play {rec}", timeout=600); time.sleep(1.5)
        for _, _, t in tracers: t.terminate()
        for _, _, t in tracers: t.wait()
        say(f"syscalls.{name}.frames", frames)
        for who, out, _ in tracers:
            total = 0
            for line in open(out):
                f = line.split()
                # % time, seconds, usecs/call, calls, [errors,] syscall
                if len(f) >= 5 and f[3].isdigit() and f[-1] != "total":
                    calls = int(f[3]); total += calls
                    errors = f" ({f[4]} failed)" if len(f) == 6 else ""
                    say(f"syscalls.{name}.per_frame.{who}.{f[-1]}", f"{calls / frames:.2f}{errors}")
            say(f"syscalls.{name}.per_frame.{who}.all", f"{total / frames:.2f}")
    finally:
        if lisgd: lisgd.terminate(); lisgd.wait()
        li.terminate(); li.wait(); bare.stop(); client.close(); d.stop(); dev.remove(); settle()
