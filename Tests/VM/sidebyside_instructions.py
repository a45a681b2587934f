#!/usr/bin/env python3
"""User-mode instructions per event side by side (`Tests/VM/sidebyside.sh instructions`).

CPU time under QEMU TCG is emulation time: what a wake-up costs there depends on the emulator's
soft TLB and translated-block caches more than on the work done. Instructions are what a real
CPU executes, and callgrind counts them exactly, whatever the load. So each consumer runs under
`valgrind --tool=callgrind`. Once all have started and gone idle, the scenario's recording plays
once as a warm-up (callgrind translates each piece of code the first time it runs, and a reader
stalled that long loses events), the counters are zeroed (callgrind_control -z), the recording
plays again and each consumer dumps its count when idle (callgrind_control -d). Both plays run
SLOWER times slower than recorded so that no reader under callgrind falls behind; frames then
arrive one per wake-up, as they do from real hardware. Counted: every instruction the process
runs in user mode (its own code and its libraries: libevdev, libudev, libc), none of the
kernel's. Consumers: `gestured run` with the harness's bindings and one client subscribed to
everything (the throughput headline's daemon), `gestured-bare` (no bindings, no client),
`libinput debug-events` writing to /dev/null (the `libinput` front end execs it: children are
traced), and the floor reader if built.

A consumer that falls behind loses events (SYN_DROPPED): each count is printed with the drops
its log shows during the counted play, and a count with drops is not comparable.

Imported by Tests/VM/sidebyside.py inside the kernel VM; `say`, `frames_in`, `SCENARIOS`,
`BINDINGS`, `FLOOR` and the CPU reading come from there."""
import os, shutil, subprocess, threading, time
from suite import Device, Client, settle, GESTURED, WORK

SLOWER = 10
KEEP = "/mnt/vmout/keep"  # the dumps, for callgrind_annotate on the host (Tests/VM/vm-run.sh VM_KEEP=DIR)


def slowed(path, factor):
    """A copy of an evemu recording with its event times stretched by factor."""
    out = f"{WORK}/slowed.{os.path.basename(path)}"
    with open(path) as src, open(out, "w") as dst:
        t0 = None
        for line in src:
            if line.startswith("E:"):
                f = line.split(); t = float(f[1]); t0 = t if t0 is None else t0
                line = f"E: {t0 + (t - t0) * factor:.6f} " + " ".join(f[2:]) + "\n"
            dst.write(line)
    return out


def idle(ticks, pids, quiet_s=1.5, limit_s=600):
    """Waits until none of pids uses CPU for quiet_s (valgrind under TCG starts slowly); ticks(pid)
    is the process's CPU time (sidebyside.py's user_system_ticks, summed)."""
    deadline = time.monotonic() + limit_s
    last = [ticks(p) for p in pids]
    while time.monotonic() < deadline:
        time.sleep(quiet_s)
        now = [ticks(p) for p in pids]
        if now == last: return True
        last = now
    return False


def callgrind(name, argv, stdout=subprocess.DEVNULL):
    out = f"{WORK}/callgrind.{name}.out"
    err = open(f"{WORK}/callgrind.{name}.err", "w")
    p = subprocess.Popen(["valgrind", "-q", "--tool=callgrind", "--trace-children=yes", "--dump-line=no", "--demangle=no", "--compress-strings=no", "--compress-pos=no",
                          f"--callgrind-out-file={out}"] + argv,
                         stdin=subprocess.DEVNULL, stdout=stdout, stderr=err)
    return p, out, err.name


def control(pid, *args):
    r = subprocess.run(["callgrind_control", *args, str(pid)], capture_output=True, text=True, timeout=120)
    if r.returncode: raise RuntimeError(f"callgrind_control {' '.join(args)} {pid}: {(r.stdout + r.stderr).strip()[-300:]}")


def last_dump(path):
    """The last dump callgrind wrote for this run (files path.1, path.2 …)."""
    base = os.path.basename(path)
    dumps = sorted((f for f in os.listdir(WORK) if f.startswith(base + ".")), key=lambda f: int(f.rsplit(".", 1)[1]))
    if not dumps:
        err = open(path.replace(".out", ".err")).read()[-600:]
        raise RuntimeError(f"callgrind wrote no dump for {path} ({sorted(os.listdir(WORK))}); its stderr: {err}")
    return os.path.join(WORK, dumps[-1])


def dumped_instructions(dump):
    """The Ir total of a callgrind dump."""
    for line in open(dump):
        if line.startswith(("summary:", "totals:")): return int(line.split()[1])
    raise RuntimeError(f"no totals in {dump}")


def self_costs(path):
    """Each function's own instructions (not its callees') in an uncompressed callgrind dump."""
    costs, fn, call = {}, None, False
    for line in open(path):
        if line.startswith("fn="): fn = line[3:].strip()
        elif line.startswith("calls="): call = True
        elif line[:1].isdigit() or line[:1] in "+-*":
            f = line.split()
            if len(f) >= 2 and not call: costs[fn] = costs.get(fn, 0) + int(f[1])
            call = False
    return costs


def demangled(names):
    """Swift names readable, through the toolchain's swift-demangle when the VM sees one."""
    tool = shutil.which("swift-demangle") or next((p for p in ("/opt/swift/usr/bin/swift-demangle",) if os.path.exists(p)), None)
    if not tool: return names
    r = subprocess.run([tool, "--simplified"], input="\n".join(names), capture_output=True, text=True)
    out = r.stdout.splitlines()
    return out if r.returncode == 0 and len(out) == len(names) else names


def instructions(say, frames_in, scenarios, bindings, floor, ticks):
    if not shutil.which("valgrind") or not shutil.which("callgrind_control"):
        say("instructions", "skipped: valgrind is not installed"); return
    # valgrind cannot read the DWARF 5 of the static Swift runtime: a copy without debug info.
    exe = f"{WORK}/gestured-nodebug"
    subprocess.run(["objcopy", "--strip-debug", GESTURED, exe], check=True)
    config = f"{WORK}/instructions.yaml"; open(config, "w").write(bindings)
    for name, header, recording, _ in scenarios:
        rec = recording or header
        frames = frames_in(rec)
        played = slowed(rec, SLOWER)
        dev = Device(header)
        procs = []
        try:
            sock = f"{WORK}/instructions.{name}.sock"
            procs.append(("gestured", *callgrind(f"gestured.{name}", [exe, "run", "--socket", sock, "--config", config])))
            bare_sock = f"{WORK}/instructions.{name}.bare.sock"
            procs.append(("gestured-bare", *callgrind(f"gestured-bare.{name}", [exe, "run", "--socket", bare_sock])))
            procs.append(("libinput", *callgrind(f"libinput.{name}", ["libinput", "debug-events", "--device", dev.node])))
            if floor: procs.append(("floor", *callgrind(f"floor.{name}", [floor, dev.node])))
            deadline = time.monotonic() + 600
            while not os.path.exists(sock):
                if time.monotonic() > deadline or procs[0][1].poll() is not None:
                    raise RuntimeError(f"gestured under callgrind: no socket: {open(procs[0][3]).read()[-400:]}")
                time.sleep(0.5)
            client = Client(sock, hello_timeout=300)  # under callgrind, start-up takes a while
            lines = {"n": 0}
            threading.Thread(target=lambda: [lines.__setitem__("n", lines["n"] + 1) for _ in iter(client.q.get, None)],
                             daemon=True).start()
            pids = [p.pid for _, p, _, _ in procs]
            if not idle(ticks, pids): say(f"instructions.{name}.error", "consumers still busy after 600 s"); continue
            dev.do(f"play {played}", timeout=1800)  # the warm-up
            idle(ticks, pids)
            logged = {who: len(open(err).read()) for who, _, _, err in procs}
            for pid in pids: control(pid, "-z")
            t0 = time.monotonic(); lines["n"] = 0
            answer = dev.do(f"play {played}", timeout=1800)
            events = int(answer.split()[2])
            idle(ticks, pids)
            for pid in pids: control(pid, "-d")
            say(f"{name}.instructions.events", f"{events} ({frames} frames, played once {SLOWER}x slower, {time.monotonic() - t0:.0f} s)")
            counts, dumps = {}, {}
            for who, p, out, err in procs:
                dumps[who] = last_dump(out)
                counts[who] = dumped_instructions(dumps[who])
                if os.path.isdir(os.path.dirname(KEEP)):
                    os.makedirs(KEEP, exist_ok=True)
                    shutil.copy(dumps[who], KEEP)
                log = open(err).read()[logged[who]:]
                dropped = log.count("SYN_DROPPED")
                note = f" ({dropped} SYN_DROPPED: not comparable)" if dropped else ""
                # libinput logs SYN_DROPPED at info level only; it logs falling behind as an error.
                if "lagging behind" in log: note += " (libinput reports lagging behind)"
                say(f"{name}.instructions_per_event.{who}", f"{counts[who] / events:.0f}{note}")
                say(f"{name}.instructions_per_frame.{who}", f"{counts[who] / frames:.0f}")
            for who in dumps:
                if not who.startswith("gestured"): continue
                costs = self_costs(dumps[who])
                top = sorted(costs.items(), key=lambda kv: -kv[1])[:12]
                for (fn, c), label in zip(top, demangled([fn for fn, _ in top])):
                    say(f"{name}.instructions_top.{who}", f"{c / frames:.0f} a frame  {label[:150]}")
            for who in ("gestured", "gestured-bare"):
                say(f"{name}.ratio_instructions.{who}:libinput", f"{counts[who] / counts['libinput']:.2f}")
            say(f"{name}.instructions.socket_lines", lines["n"])
            client.close()
        finally:
            for _, p, _, _ in procs:
                if p.poll() is None:
                    p.terminate()
                    try: p.wait(timeout=60)
                    except subprocess.TimeoutExpired: p.kill(); p.wait()
            dev.remove(); settle()
