#!/usr/bin/env python3
"""The side-by-side harness's socket client (Tests/VM/sidebyside.py): a process of its own, as
the text stack's reader of libinput's pipe is, so that gestured's lines wake a reader placed and
scheduled the way libinput-piped's is. Connects to the daemon's socket (retrying while it comes
up), reads and discards every line, and prints how many it read when the daemon closes the
connection or on SIGTERM (after a first line `connected`). It subscribes to nothing: a client gets every gesture by default.
usage: socketreader.py SOCKET"""
import signal, socket, sys, time

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
print("connected", flush=True)
while True:
    chunk = s.recv(65536)
    if not chunk: done()
    lines += chunk.count(b"\n")
