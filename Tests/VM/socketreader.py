#!/usr/bin/env python3
"""The side-by-side harness's socket client (Tests/VM/sidebyside.py): a process of its own, as
the text stack's reader of libinput's pipe is, so that gestured's lines wake a reader placed and
scheduled the way libinput-piped's is. Connects to the daemon's socket (retrying while it comes
up), decodes every line as JSON, as any client does and as the text stack parses every line of
libinput's, and prints how many it read when the daemon closes the connection or on SIGTERM
(after a first line `connected`). It subscribes to nothing: a client gets every gesture by
default. With `--via=pipe` (what the harness's `gestured` and `gestured-last` use) it asks for
its lines through a pipe (`{"type":"stream","via":"pipe"}`), as libinput-piped's reader gets
libinput's; `--via=socket` keeps them on the socket (the harness's `gestured-socket`). What the
reader does a line matters to its sender on one vCPU: a reader that only
counted them preempted the daemon 0.26 times a frame on bcm5974, one that decodes them 0.02
times (the text stack's reader preempted libinput 0.13 times).
usage: socketreader.py SOCKET [--via=pipe|socket]"""
import json, os, signal, socket, sys, time

lines = 0

def done(*_):
    print(lines, flush=True)
    sys.exit(0)

signal.signal(signal.SIGTERM, done)
deadline = time.monotonic() + 30
while True:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try: s.connect(sys.argv[1]); break
    except (ConnectionRefusedError, FileNotFoundError):
        s.close()
        if time.monotonic() > deadline: raise
        time.sleep(0.05)
source = s.recv
if "--via=pipe" in sys.argv[2:]:
    # Lines before the reply that brings the pipe come on the socket (hello first), the reply
    # last among them: the kernel ends a receive at the bytes a descriptor came with.
    got = b""
    while b"\n" not in got:
        more = s.recv(65536)
        if not more: sys.exit("socketreader.py: the daemon closed before hello")
        got += more
    s.sendall(b'{"type":"stream","via":"pipe"}\n')
    fds = []
    while not fds:
        more, fds, _, _ = socket.recv_fds(s, 65536, 1)
        if not more: sys.exit("socketreader.py: the daemon closed before answering the stream request")
        got += more
    *early, reply, rest = got.split(b"\n")
    if json.loads(reply).get("type") != "ok" or rest: sys.exit(f"socketreader.py: no pipe: {got[-200:]!r}")
    for line in early: json.loads(line); lines += 1
    pipe = fds[0]
    source = lambda n: os.read(pipe, n)
print("connected", flush=True)
buf = b""
while True:
    chunk = source(65536)
    if not chunk: done()
    *got, buf = (buf + chunk).split(b"\n")
    for line in got:
        json.loads(line)  # every line the daemon writes is one JSON object
        lines += 1
