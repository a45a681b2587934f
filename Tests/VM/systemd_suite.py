#!/usr/bin/env python3
"""The systemd suite: runs inside the QEMU VM with real systemd as PID 1 (Tests/VM/systemd-init.sh),
real udevd and uinput. Started by Tests/VM/run-systemd.sh; never runs `swift test`.

usage: systemd_suite.py --bin BUILD_BIN_DIR --root REPO_ROOT [--deb DEB] [--list] [TEST...]

The first test installs gestured: with --deb, the package through `apt install ./gestured_*.deb`;
otherwise the way the README's "systemd setup" does (binary to /usr/local/bin, units to
/etc/systemd/system, sysusers, udev rules). Every later test uses that installation through
systemctl, as an administrator would. Prints PASS/FAIL per test, exits 1 if any failed.
"""
import fcntl, glob, json, os, pwd, grp, re, shutil, socket, subprocess, sys, time, traceback

ARGS = sys.argv[1:]
def opt(name, default=None):
    if name in ARGS:
        i = ARGS.index(name); v = ARGS[i + 1]; del ARGS[i:i + 2]; return v
    return default
BIN = opt("--bin", ".build/debug")
ROOT = opt("--root", os.getcwd())
DEB = opt("--deb")
LIST = "--list" in ARGS
if LIST: ARGS.remove("--list")
FIX = os.path.join(ROOT, "Tests/Fixtures")
UINPUT = os.path.join(BIN, "gestured-uinput")
TOUCHSCREEN = f"{FIX}/touchscreen-ep0430m09-2finger-swipe-up__whot-evemu-devices.evemu"
SOCK = "/run/gestured/gestured.sock"
CONF = "/etc/gestured/config.yaml"
EXPOSURE_LIMIT = 1.5
TESTER = "tester"           # a non-root user in group input
STRANGER = "stranger"       # a non-root user in no special group
state = {}


class Fail(Exception): pass

def check(cond, what):
    if not cond: raise Fail(what)

def sh(cmd, check_rc=True, timeout=240, user=None, env=None):
    """Runs a shell command (as `user` through setpriv when given); returns (rc, output)."""
    argv = ["sh", "-c", cmd]
    if user:
        argv = ["setpriv", f"--reuid={user}", f"--regid={user}", "--init-groups", "--reset-env", "--"] + argv
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout, env=env)
    if check_rc and p.returncode != 0:
        raise Fail(f"`{cmd}` exited {p.returncode}: {p.stdout[-800:]}")
    return p.returncode, p.stdout

def prop(unit, name):
    return sh(f"systemctl show {unit} -p {name} --value")[1].strip()

def wait(pred, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = pred()
        if v: return v
        time.sleep(0.2)
    raise Fail(f"timed out after {timeout}s waiting for {what}")

def journal(unit, since_cursor=None):
    extra = f"--after-cursor='{since_cursor}'" if since_cursor else ""
    return sh(f"journalctl -u {unit} --no-pager -o cat {extra}", check_rc=False)[1]

def cursor():
    out = sh("journalctl -n 0 --show-cursor --no-pager", check_rc=False)[1]
    m = re.search(r"-- cursor: (\S+)", out)
    return m.group(1) if m else None

def write_config(text, path=CONF):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f: f.write(text)

def config(bindings="", extra=""):
    return f"bindings:\n{bindings}\nlog:\n  level: info\n{extra}" if bindings else f"bindings: []\nlog:\n  level: info\n{extra}"

def tap_binding(marker):
    return f"  - gesture: tap\n    fingers: 1\n    command: 'touch /run/gestured/hooks/{marker}'\n"


class Client:
    """A socket client reading JSON lines (the gesture stream)."""
    def __init__(self, path=SOCK, timeout=20):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.settimeout(timeout)
        self.s.connect(path)
        self.buf = b""
    def line(self):
        while b"\n" not in self.buf:
            chunk = self.s.recv(65536)
            if not chunk: raise Fail(f"the daemon closed the connection; had {self.buf[-200:]!r}")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)
    def wait_for(self, pred, timeout, what):
        deadline = time.monotonic() + timeout
        seen = []
        while time.monotonic() < deadline:
            self.s.settimeout(max(0.1, deadline - time.monotonic()))
            try: m = self.line()
            except socket.timeout: break
            seen.append(m.get("type"))
            if pred(m): return m
        raise Fail(f"no {what} within {timeout}s (saw {seen[-10:]})")
    def close(self): self.s.close()


class Touchscreen:
    """A uinput touchscreen with a real recording's capabilities (gestured-uinput)."""
    def __init__(self, header=TOUCHSCREEN):
        self.p = subprocess.Popen([UINPUT, header, "--name", "gestured-vm touchscreen"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
        first = self.p.stdout.readline().split()
        check(len(first) == 2 and first[0] == "node", f"gestured-uinput said {first}")
        self.node = first[1]
    def do(self, command, timeout=240):
        self.p.stdin.write(command + "\n"); self.p.stdin.flush()
        line = self.p.stdout.readline().strip()
        check(line.startswith("ok"), f"gestured-uinput {command}: {line}")
    def tap(self):
        for c in ("down 400 300", "sleep 40", "up"): self.do(c)
    def close(self):
        try: self.p.stdin.close(); self.p.wait(timeout=10)
        except Exception: self.p.kill()


# ---- tests, in order (each builds on the installation the first one made) --------------------

def test_dropin():
    """Test-only: a short watchdog so the stall test takes seconds (10 s; the shipped unit says 30 s; 3 s fired on a healthy debug build under load)."""
    os.makedirs("/etc/systemd/system/gestured.service.d", exist_ok=True)
    with open("/etc/systemd/system/gestured.service.d/vm-test.conf", "w") as f:
        f.write("[Service]\nWatchdogSec=10s\nTimeoutStopSec=3s\n")

def install():
    """gestured is installed as the README (or the .deb) installs it, and the socket enabled."""
    if DEB:
        # Speed only: man-db's trigger would re-index every man page over 9p under TCG (minutes).
        if os.path.exists("/var/lib/man-db/auto-update"): os.unlink("/var/lib/man-db/auto-update")
        t = time.monotonic()
        # Speed only: the package's dependencies are installed, so apt needs no package lists;
        # parsing the host's over 9p under TCG takes minutes.
        os.makedirs("/tmp/no-lists/partial", exist_ok=True)
        # Speed only: the test drop-in goes in first, so the daemon-reload of the package's postinst
        # loads it (one daemon-reload less: about 20 s under TCG).
        test_dropin()
        rc, out = sh(f"cd {os.path.dirname(DEB)} && DEBIAN_FRONTEND=noninteractive apt install -y -o Dir::State::Lists=/tmp/no-lists ./{os.path.basename(DEB)}",
                     check_rc=False, timeout=600)
        check(rc == 0, f"apt install ./{os.path.basename(DEB)} failed: {out[-1500:]}")
        print(f"    apt install ./{os.path.basename(DEB)}: {time.monotonic() - t:.0f}s", flush=True)
        state["bin"] = "/usr/bin/gestured"
        check(prop("gestured.socket", "UnitFileState") == "enabled", "the package did not enable gestured.socket")
    else:
        sh(f"install -m 0755 {BIN}/gestured {BIN}/gestured-listen /usr/local/bin/")
        sh(f"install -D -m 0644 {ROOT}/config/gestured.yaml {CONF}")
        sh(f"install -m 0644 {ROOT}/systemd/gestured.sysusers /usr/lib/sysusers.d/gestured.conf && systemd-sysusers")
        sh(f"install -m 0644 {ROOT}/systemd/gestured.service {ROOT}/systemd/gestured.socket /etc/systemd/system/")
        for rule in glob.glob(f"{ROOT}/udev/*.rules"):
            sh(f"install -m 0644 {rule} /etc/udev/rules.d/")
        sh("udevadm control --reload && udevadm trigger --subsystem-match=misc --subsystem-match=input && udevadm settle -t 20")
        test_dropin()
        sh("systemctl daemon-reload && systemctl enable --now gestured.socket")
        state["bin"] = "/usr/local/bin/gestured"
    check("vm-test.conf" in prop("gestured.service", "DropInPaths"), "the test drop-in is not loaded: "
          + sh("systemctl show gestured.service -p LoadState -p FragmentPath -p DropInPaths -p NeedDaemonReload", check_rc=False)[1]
          + (out[-1500:] if DEB else ""))
    write_config(config())
    for u in (TESTER, STRANGER):
        sh(f"id {u} >/dev/null 2>&1 || useradd -m {'-G input ' if u == TESTER else ''}{u}")

def sysusers_created_the_gestured_user():
    """systemd-sysusers made the unprivileged `gestured` user, a member of `input`."""
    pw = pwd.getpwnam("gestured")
    check(pw.pw_uid != 0 and pw.pw_uid < 1000, f"gestured has uid {pw.pw_uid}: expected a system uid")
    check("gestured" in grp.getgrnam("input").gr_mem, f"gestured is not in input: {grp.getgrnam('input').gr_mem}")
    check(pw.pw_shell.endswith("nologin"), f"gestured's shell is {pw.pw_shell}")

def socket_activation_starts_the_service_on_first_connection():
    """The socket unit listens before the service runs; the first client starts it, as `gestured`."""
    check(prop("gestured.socket", "ActiveState") == "active", "gestured.socket is not active")
    check(prop("gestured.service", "ActiveState") == "inactive", f"the service already runs: {prop('gestured.service', 'ActiveState')}")
    st = os.stat(SOCK)
    check(oct(st.st_mode & 0o777) == "0o660" and grp.getgrgid(st.st_gid).gr_name == "input",
          f"socket mode {oct(st.st_mode)} group {st.st_gid}")
    c = Client()
    hello = c.line()
    check(hello.get("type") == "hello", f"first line {hello}")
    c.close()
    check(prop("gestured.service", "ActiveState") == "active", "the service did not start on the first connection")
    st = os.stat(SOCK)   # systemd chowns a service's RuntimeDirectory tree at start: not this one
    check(grp.getgrgid(st.st_gid).gr_name == "input" and oct(st.st_mode & 0o777) == "0o660",
          f"after the service started: socket mode {oct(st.st_mode)} group {grp.getgrgid(st.st_gid).gr_name}")
    pid = int(prop("gestured.service", "MainPID"))
    uid = int(open(f"/proc/{pid}/status").read().split("Uid:")[1].split()[0])
    check(uid == pwd.getpwnam("gestured").pw_uid, f"the daemon runs as uid {uid}")

def type_notify_reports_ready_and_status():
    """Type=notify: `systemctl restart` returns once READY=1 came, with the daemon's status text."""
    sh("systemctl restart gestured.service")
    check(prop("gestured.service", "ActiveState") == "active", "not active right after restart")
    status = prop("gestured.service", "StatusText")
    check("device(s)" in status and SOCK in status, f"StatusText is {status!r}")
    check(prop("gestured.service", "Type") == "notify", "Type is not notify")

def sandboxed_service_reads_a_uinput_touchscreen_and_serves_gestures():
    """The daemon, as `gestured` under the sandbox, opens a new uinput touchscreen and streams a swipe."""
    c = Client()
    c.line()
    ts = Touchscreen()
    try:
        c.wait_for(lambda m: m.get("type") == "deviceAdded", 30, "deviceAdded")
        ts.do(f"play {TOUCHSCREEN}", timeout=120)
        g = c.wait_for(lambda m: m.get("type") == "gesture" and m.get("gesture") == "swipe", 30, "a swipe")
        check(g.get("fingers") == 2 and g.get("direction") == "up", f"swipe {g}")
    finally:
        ts.close(); c.close()

def reload_rereads_config_and_a_bad_config_keeps_the_old_one():
    """`systemctl reload` applies a new config; a broken one is reported and the old stays in force."""
    write_config(config(tap_binding("tap-one")))
    sh("systemctl reload gestured.service")
    ts = Touchscreen()
    try:
        time.sleep(3)
        ts.tap()
        wait(lambda: os.path.exists("/run/gestured/hooks/tap-one"), 20, "the reloaded binding's hook")
        c0 = cursor()
        write_config("bindings:\n  - gesture: tap\n    fingers: banana\n")
        sh("systemctl reload gestured.service")
        log = wait(lambda: (lambda j: j if CONF in j else None)(journal("gestured.service", c0)), 20, "the config error in the journal")
        check(re.search(re.escape(CONF) + r":3:\d+", log), f"no file:line:column in the journal: {log[-600:]}")
        check(prop("gestured.service", "ActiveState") == "active", "the service stopped on a bad config")
        os.unlink("/run/gestured/hooks/tap-one")
        ts.tap()
        wait(lambda: os.path.exists("/run/gestured/hooks/tap-one"), 20, "the old binding to fire after a bad reload")
    finally:
        ts.close()
    write_config(config())
    sh("systemctl reload gestured.service")

def a_hooks_setsid_child_ends_with_its_hook_and_with_the_service():
    """A hook's `setsid sleep` belongs to the hook under the sandbox too (ProtectProc=invisible,
    ProcSubset=pid): the daemon kills it at the hook's timeout, and `systemctl stop` ends it."""
    pidfile = "/run/gestured/hooks/setsid.pid"
    def running(pid):
        try: return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError: return False
    def tap_and_read_pid(ts):
        if os.path.exists(pidfile): os.unlink(pidfile)
        ts.tap()
        wait(lambda: os.path.exists(pidfile) and open(pidfile).read().strip(), 20, "the hook's pid file")
        pid = int(open(pidfile).read().strip())
        check(running(pid), f"the setsid'd sleep {pid} is not running")
        return pid
    binding = f"  - gesture: tap\n    fingers: 1\n    command: 'setsid sleep 300 & echo $! > {pidfile}'\n"
    ts = Touchscreen()
    try:
        write_config(config(binding, extra="hooks:\n  timeout_ms: 2000\n  kill_after_ms: 500\n"))
        sh("systemctl reload-or-restart gestured.service"); time.sleep(3)
        pid = tap_and_read_pid(ts)
        wait(lambda: not running(pid), 15, f"the hook's timeout to end the setsid'd sleep {pid}")
        write_config(config(binding, extra="hooks:\n  timeout_ms: 600000\n"))
        sh("systemctl reload gestured.service"); time.sleep(3)
        pid = tap_and_read_pid(ts)
        sh("systemctl stop gestured.service")
        wait(lambda: not running(pid), 15, f"`systemctl stop` to end the setsid'd sleep {pid}")
    finally:
        ts.close()
        write_config(config())
        sh("systemctl start gestured.service")

def watchdog_kills_a_stalled_daemon_and_systemd_restarts_it():
    """A SIGSTOPped main loop misses WATCHDOG=1; systemd kills it and starts a new one."""
    pid = int(prop("gestured.service", "MainPID"))
    restarts = int(prop("gestured.service", "NRestarts"))
    c0 = cursor()
    os.kill(pid, 19)   # SIGSTOP
    wait(lambda: int(prop("gestured.service", "NRestarts")) > restarts and prop("gestured.service", "ActiveState") == "active",
         60, "a restart after the watchdog timeout")
    new = int(prop("gestured.service", "MainPID"))
    check(new != pid, "same MainPID after the restart")
    j = sh(f"journalctl --no-pager -o cat --after-cursor='{c0}'", check_rc=False)[1]
    check("Watchdog timeout" in j, f"no watchdog timeout in the journal: {j[-800:]}")
    c = Client(); check(c.line().get("type") == "hello", "no hello after the restart"); c.close()

def a_peer_whose_uid_is_not_allowed_is_refused():
    """socket.allowed_uids: [0]: a user in `input` connects but gets an error reply; root still works;
    a user outside `input` cannot even connect."""
    write_config(config(extra="socket:\n  allowed_uids: [0]\n"))
    sh("systemctl reload-or-restart gestured.service"); time.sleep(2)
    rc, out = sh(f"{state['bin']} monitor --socket {SOCK}", user=TESTER, check_rc=False, timeout=120)
    where = sh(f"ls -la /run/gestured; id {TESTER}; setpriv --reuid={TESTER} --regid={TESTER} --init-groups id", check_rc=False)[1]
    check(rc != 0 and "not allowed" in out, f"tester (uid {pwd.getpwnam(TESTER).pw_uid}) was not refused: rc {rc} {out[-400:]}\n{where}")
    rc, out = sh(f"{state['bin']} monitor --socket {SOCK}", user=STRANGER, check_rc=False, timeout=120)
    check(rc != 0 and "ermission denied" in out, f"stranger connected: rc {rc} {out[-400:]}")
    c = Client(); check(c.line().get("type") == "hello", "root was refused"); c.close()
    # A supplementary group counts: the daemon reads it with SO_PEERGROUPS (ProtectProc=invisible
    # hides other users' /proc/PID/status from it).
    write_config(config(extra=f"socket:\n  allowed_uids: [0]\n  allowed_gids: [{grp.getgrnam('input').gr_gid}]\n"))
    sh("systemctl reload gestured.service"); time.sleep(2)
    rc, out = sh(f"timeout 5 {state['bin']} monitor --socket {SOCK}", user=TESTER, check_rc=False, timeout=120)
    check("not allowed" not in out and "ermission denied" not in out and rc == 124,
          f"tester, in input through a supplementary group, was refused: rc {rc} {out[-400:]}")
    write_config(config())
    sh("systemctl reload gestured.service")

def login_session(user):
    """A real logind session for `user`, as a graphical login opens one: a transient unit with
    PAMName=login and XDG_SESSION_TYPE=wayland, XDG_SESSION_CLASS=user in its environment (which
    pam_systemd passes to logind; without a type it would be a "background" session, never the
    user's display). logind starts user-runtime-dir@ and user@ for the user. The VM's minimal
    target starts neither logind nor D-Bus, so they are started here, as on any booted system.
    Returns the session id."""
    sh("systemctl start dbus.socket systemd-logind.service", timeout=120)
    uid = pwd.getpwnam(user).pw_uid
    sh(f"systemctl stop gestured-vm-session.service 2>/dev/null; systemd-run --unit=gestured-vm-session -p PAMName=login "
       f"-p User={user} -p 'Environment=XDG_SESSION_TYPE=wayland XDG_SESSION_CLASS=user' -p Type=simple sleep infinity", timeout=120)
    def session():
        out = sh(f"loginctl list-sessions --no-legend", check_rc=False)[1]
        ids = [l.split()[0] for l in out.splitlines() if len(l.split()) > 2 and l.split()[1] == str(uid)]
        return ids[0] if ids else None
    try:
        sid = wait(session, 60, f"a logind session for {user}")
        wait(lambda: prop(f"user@{uid}.service", "ActiveState") == "active", 120, f"user@{uid}.service")
    except Fail as e:
        raise Fail(f"{e}\n" + sh(f"journalctl -b --no-pager -o cat -u systemd-logind -u user-runtime-dir@{uid} -u user@{uid} "
                                  f"-u gestured-vm-session -u dbus -n 60", check_rc=False)[1][-2500:])
    return sid

def set_locked_hint(session, locked):
    """What a screen locker does: SetLockedHint on its session, as the session's user."""
    sh(f"busctl call org.freedesktop.login1 /org/freedesktop/login1/session/{session_path(session)} "
       f"org.freedesktop.login1.Session SetLockedHint b {'true' if locked else 'false'}", user=TESTER)

def session_path(session):
    """sd_bus_path_encode: every character but [A-Za-z0-9] as _XX."""
    return "".join(c if c.isalnum() and c.isascii() else f"_{ord(c):02x}" for c in session)

def user_unit_gestured_listen_runs_a_binding():
    """gestured-listen.service in tester's user manager (started by a real logind session) runs a
    binding from the daemon's socket; while logind's LockedHint of that session is true (set as a
    screen locker sets it) it skips the binding but runs a `when_locked: true` one; unlocked, both again."""
    home = pwd.getpwnam(TESTER).pw_dir
    uid = pwd.getpwnam(TESTER).pw_uid
    unit_src = "/usr/lib/systemd/user/gestured-listen.service" if DEB else f"{ROOT}/systemd/gestured-listen.service"
    hit, locked_hit = f"{home}/listen-hit", f"{home}/listen-locked-hit"
    cfg = (f"bindings:\n  - gesture: tap\n    fingers: 1\n    command: 'touch {hit}'\n"
           f"  - gesture: tap\n    fingers: 1\n    command: 'touch {locked_hit}'\n    when_locked: true\n")
    sh(f"mkdir -p {home}/.config/gestured {home}/.config/systemd/user && printf '%s' \"{cfg}\" > {home}/.config/gestured/config.yaml", user=TESTER)
    if not DEB:
        sh(f"cp {unit_src} {home}/.config/systemd/user/", user=TESTER)
    sid = login_session(TESTER)
    env = f"XDG_RUNTIME_DIR=/run/user/{uid}"
    sh(f"{env} systemctl --user daemon-reload && {env} systemctl --user start gestured-listen.service", user=TESTER, timeout=240)
    def listen_log(): return sh("journalctl -b --no-pager -o cat _SYSTEMD_USER_UNIT=gestured-listen.service", check_rc=False)[1]
    def gone(*paths):
        for p in paths:
            if os.path.exists(p): os.unlink(p)
    ts = Touchscreen()
    try:
        wait(lambda: "connected to gestured" in listen_log(), 60, "listen to connect: " + listen_log()[-600:])
        time.sleep(2)
        ts.tap()
        wait(lambda: os.path.exists(hit) and os.path.exists(locked_hit), 30, "the user unit's bindings")
        gone(hit, locked_hit)
        set_locked_hint(sid, True)
        try: wait(lambda: f"session {sid} locked" in listen_log(), 30, "listen to see the lock")
        except Fail as e:
            raise Fail(f"{e}: {listen_log()[-600:]}\n" + sh(f"loginctl show-session {sid}; loginctl show-user {TESTER}", check_rc=False)[1])
        ts.tap()
        wait(lambda: os.path.exists(locked_hit), 30, "the when_locked binding while locked")
        time.sleep(2)
        check(not os.path.exists(hit), "the session is locked, yet listen ran the binding without when_locked")
        set_locked_hint(sid, False)
        wait(lambda: f"session {sid} unlocked; 1 binding run(s) skipped" in listen_log(), 30, "listen to see the unlock: " + listen_log()[-600:])
        gone(locked_hit)
        ts.tap()
        wait(lambda: os.path.exists(hit) and os.path.exists(locked_hit), 30, "the binding again after the unlock")
    finally:
        ts.close()
        sh(f"{env} systemctl --user stop gestured-listen.service", user=TESTER, check_rc=False)
        sh("systemctl stop gestured-vm-session.service", check_rc=False)

def doctor_passes_on_a_healthy_setup():
    """`gestured doctor` as root with a touchscreen present and the service running: exit 0."""
    ts = Touchscreen()
    try:
        time.sleep(2)
        rc, out = sh(f"{state['bin']} doctor", check_rc=False, timeout=240)
        check(rc == 0, f"doctor exit {rc}:\n{out}")
        check("gestured-vm touchscreen" in out and "ID_INPUT_TOUCHSCREEN" in out, f"doctor did not list the touchscreen:\n{out}")
    finally:
        ts.close()

def doctor_lists_what_is_broken():
    """Broken setups each give exit 1 and a line naming the problem and its fix."""
    ts = Touchscreen()
    try:
        time.sleep(2)
        rc, out = sh(f"{state['bin']} doctor", user=STRANGER, check_rc=False, timeout=240)
        check(rc == 1 and "not in group input" in out and "usermod -aG input" in out, f"stranger: rc {rc}\n{out}")
        with open(ts.node, "rb") as held:
            fcntl.ioctl(held, 0x40044590, 1)    # EVIOCGRAB: as evtest --grab does
            rc, out = sh(f"{state['bin']} doctor", check_rc=False, timeout=240)
            check(rc == 1 and "grabbed by another process" in out, f"grab: rc {rc}\n{out}")
        write_config("bindings:\n  - gesture: tap\n    fingers: banana\n", "/tmp/bad.yaml")
        rc, out = sh(f"{state['bin']} doctor --config /tmp/bad.yaml", check_rc=False, timeout=240)
        check(rc == 1 and "/tmp/bad.yaml:3:" in out, f"bad config: rc {rc}\n{out}")
        sh("systemctl stop gestured.socket gestured.service")
        rc, out = sh(f"{state['bin']} doctor", check_rc=False, timeout=240)
        check(rc == 1 and "no socket at" in out, f"stopped: rc {rc}\n{out}")
        sh("systemctl start gestured.socket")
    finally:
        ts.close()

def exposure_is_at_most_1_5():
    """`systemd-analyze security gestured.service` on the installed unit: at most 1.5."""
    rc, out = sh("systemd-analyze security --no-pager gestured.service", check_rc=False)
    m = re.search(r"Overall exposure level for gestured.service: ([0-9.]+)", out)
    check(m, f"no exposure in: {out[-400:]}")
    print(f"    exposure: {m.group(1)} (limit {EXPOSURE_LIMIT})")
    check(float(m.group(1)) <= EXPOSURE_LIMIT, f"exposure {m.group(1)} > {EXPOSURE_LIMIT}:\n" +
          "\n".join(l for l in out.splitlines() if l.startswith("✗"))[:1500])


TESTS = [install, sysusers_created_the_gestured_user, socket_activation_starts_the_service_on_first_connection,
         type_notify_reports_ready_and_status, sandboxed_service_reads_a_uinput_touchscreen_and_serves_gestures,
         reload_rereads_config_and_a_bad_config_keeps_the_old_one, a_hooks_setsid_child_ends_with_its_hook_and_with_the_service,
         watchdog_kills_a_stalled_daemon_and_systemd_restarts_it,
         a_peer_whose_uid_is_not_allowed_is_refused, user_unit_gestured_listen_runs_a_binding,
         doctor_passes_on_a_healthy_setup, doctor_lists_what_is_broken, exposure_is_at_most_1_5]

def main():
    if LIST:
        for t in TESTS: print(t.__name__)
        return 0
    wanted = set(ARGS)
    failed = 0
    for t in TESTS:
        if wanted and t.__name__ not in wanted and t is not install: continue
        t0 = time.monotonic()
        try:
            t(); print(f"PASS {t.__name__} ({time.monotonic() - t0:.1f}s)", flush=True)
        except Exception as e:
            failed += 1
            print(f"FAIL {t.__name__} ({time.monotonic() - t0:.1f}s): {e}", flush=True)
            if not isinstance(e, Fail): traceback.print_exc()
            if t is install: break
    if failed:
        print("---- journal of gestured.service (last 40 lines)")
        print(sh("journalctl -u gestured.service -n 40 --no-pager -o short-monotonic", check_rc=False)[1])
    print(f"systemd suite: {failed} failed", flush=True)
    return 1 if failed else 0

if __name__ == "__main__":
    sys.exit(main())
