#!/usr/bin/env python3
"""What one send costs the sender in the kernel VM, with and without a reader to wake.

A process sends a 350-byte JSON line over a Unix socket every 5 ms, 3 000 times, to a child that
either waits in recv() (each send wakes it: how gestured's socket client reads), or sleeps and
reads whatever piled up every 200 ms (no send wakes it), or receives nothing (the sender only
sleeps); and, for comparison, the line written into a pipe whose reader waits in read(). Prints the sender's utime + stime per send. Under QEMU TCG the wake-up dominates: that
is the cost a socket client adds to the daemon's figure in Tests/VM/sidebyside.sh.

usage (host): sh Tests/VM/vm-run.sh /var/tmp/gestured-vm "python3 -u $PWD/Tests/VM/sendcost.py"
"""
import os, socket, sys, time, threading, json
LINE = (json.dumps({"type":"gesture","gesture":"pan","phase":"changed","id":12,"fingers":1,"time":12.345678,
  "device":{"id":1,"name":"SynPS/2 Synaptics TouchPad","kind":"touchpad"},"dx_mm":12.345,"dy_mm":-3.21,
  "step_dx_mm":0.5,"step_dy_mm":0.1,"distance_mm":13.2,"velocity_mm_s":120.5,"x":0.5,"y":0.25}) + "\n").encode()
N = 3000
def ticks():
    f = open("/proc/self/stat").read().rsplit(")", 1)[1].split(); return int(f[11]) + int(f[12])
def run(mode):
    if mode == "pipe-blocked": return run_pipe()
    a, b = socket.socketpair()
    pid = os.fork()
    if pid == 0:
        a.close()
        if mode == "blocked":
            while True:
                x = b.recv(65536)
                if not x: os._exit(0)
                json.loads(x.split(b"\n")[0])
        else:
            b.setblocking(False)
            while True:
                time.sleep(0.2)
                try:
                    x = b.recv(1 << 20)
                    if not x: os._exit(0)
                except BlockingIOError: pass
    b.close()
    t0 = ticks(); c0 = time.process_time()
    for i in range(N):
        if mode != "none": a.send(LINE)
        time.sleep(0.005)
    dt = ticks() - t0
    a.close(); os.waitpid(pid, 0)
    print(f"{mode}: sender cpu {dt*10} ms for {N} sends -> {dt*10/N*1000:.0f} us/send", flush=True)
def run_pipe():
    """The same line written into a pipe whose reader waits in read(): what a consumer that
    prints to a pipe (libinput debug-events under stdbuf -oL) pays for each woken reader."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(w)
        while True:
            x = os.read(r, 65536)
            if not x: os._exit(0)
            json.loads(x.split(b"\n")[0])
    os.close(r)
    t0 = ticks()
    for i in range(N):
        os.write(w, LINE)
        time.sleep(0.005)
    dt = ticks() - t0
    os.close(w); os.waitpid(pid, 0)
    print(f"pipe-blocked: sender cpu {dt*10} ms for {N} writes -> {dt*10/N*1000:.0f} us/write", flush=True)
for m in ("none", "polled", "blocked", "pipe-blocked", "none", "polled", "blocked", "pipe-blocked"): run(m)
