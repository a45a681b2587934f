#!/usr/bin/env python3
"""A socket peer of another user, for GestureDaemonTests/HostileClientTests (run as root).

usage: socket-peer.py MODE SOCKET [CONFIG DAEMON_PID]
  pid-reuse      a client of uid 65534 with no groups connects and exits; its connection lives on
                 in this process, and its pid is handed (through ns_last_pid) to a process in group
                 4242; then the connection sends `emit`. Prints `reuse yes|no` and `reply: LINE`.
  refused-flood  the same uid-65534 client sends 2000 emit requests; prints `answered: N` (error
                 lines and lines counted in `dropped` notices).
  narrow         a uid-65534 client connects; CONFIG is rewritten to allowed_uids [1234] and the
                 daemon gets SIGHUP; prints `after: LINE` for each line that follows, then `eof`.
"""
import array, os, signal, socket, sys, time

mode, path = sys.argv[1], sys.argv[2]

def as_nobody():
    os.setgroups([]); os.setgid(65534); os.setuid(65534)

def lines(sock, n, timeout=5.0):
    sock.settimeout(timeout)
    buf, out = b"", []
    try:
        while len(out) < n:
            b = sock.recv(65536)
            if not b: out.append(None); break
            buf += b
            while b"\n" in buf and len(out) < n:
                l, buf = buf.split(b"\n", 1); out.append(l.decode(errors="replace"))
    except socket.timeout:
        pass
    return out

def nobody_connection():
    """Connects as uid 65534 in a child that exits; returns (connection, the child's pid)."""
    here, there = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    pid = os.fork()
    if pid == 0:
        try:
            as_nobody()
            c = socket.socket(socket.AF_UNIX); c.connect(path)
            lines(c, 1)                                      # hello
            there.sendmsg([b"x"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [c.fileno()]))])
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    msg, anc, _, _ = here.recvmsg(1, socket.CMSG_LEN(4))
    fd = array.array("i", anc[0][2][:4])[0]
    return socket.socket(fileno=fd), pid

conn, old_pid = nobody_connection()
if mode == "pid-reuse":
    reused = None
    for _ in range(50):                          # hand the exited client's pid to a process in group 4242
        open("/proc/sys/kernel/ns_last_pid", "w").write(str(old_pid - 1))
        pid = os.fork()
        if pid == 0:
            os.setgroups([4242]); time.sleep(6); os._exit(0)
        if pid == old_pid: reused = pid; break
        os.kill(pid, signal.SIGKILL); os.waitpid(pid, 0)
    print("reuse", "yes" if reused else "no", flush=True)
    conn.sendall(b'{"type":"emit","keys":["a"]}\n')
    print("reply:", (lines(conn, 1) or ["(none)"])[0], flush=True)
    if reused: os.kill(reused, signal.SIGKILL); os.waitpid(reused, 0)
elif mode == "refused-flood":
    import json, threading
    got = []
    reader = threading.Thread(target=lambda: got.extend(lines(conn, 100000, timeout=3)))
    reader.start()
    conn.sendall(b'{"type":"emit","keys":["a"]}\n' * 2000)
    reader.join()
    # A reply the daemon had to drop for this slow reader is counted in a `dropped` line.
    errors = sum(1 for l in got if l and '"error"' in l)
    dropped = sum(json.loads(l).get("count", 0) for l in got if l and '"dropped"' in l)
    print("answered:", errors + dropped, f"({errors} error lines, {dropped} dropped)", flush=True)
elif mode == "narrow":
    cfg, daemon = sys.argv[3], int(sys.argv[4])
    open(cfg, "w").write("socket:\n  mode: \"0666\"\n  allowed_uids: [1234]\n")
    os.kill(daemon, signal.SIGHUP)
    for l in lines(conn, 5):
        print("after:", l if l is not None else "eof", flush=True)
