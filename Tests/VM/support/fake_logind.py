#!/usr/bin/env python3
"""A stand-in for logind on a private system bus, implementing only the documented part of its
D-Bus interface that gestured uses (org.freedesktop.login1(5)): the session object
/org/freedesktop/login1/session/ID with org.freedesktop.login1.Session.LockedHint, readable
through org.freedesktop.DBus.Properties.Get/GetAll, and PropertiesChanged sent when it changes
(logind sends it for LockedHint after SetLockedHint). A fault-injecting stand-in, not a mock of
a part the kernel VM could run: that VM has no systemd as PID 1, so no real logind runs there,
and this injects a lock on demand; the tests that use it say so in their names
(`..._logind_dbus_protocol_standin`). The systemd suite checks `gestured listen` against a real
logind session (Tests/VM/systemd_suite.py, user_unit_gestured_listen_runs_a_binding).

Reads `lock` / `unlock` lines on stdin and answers `ok lock` / `ok unlock`.
usage: fake_logind.py SESSION_ID   (DBUS_SYSTEM_BUS_ADDRESS names the bus)
"""
import sys
import dbus, dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

IFACE = "org.freedesktop.login1.Session"

class Session(dbus.service.Object):
    def __init__(self, bus, sid):
        super().__init__(bus, "/org/freedesktop/login1/session/" + sid)
        self.locked = False

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="ss", out_signature="v")
    def Get(self, iface, prop):
        if iface == IFACE and prop == "LockedHint": return dbus.Boolean(self.locked)
        raise dbus.exceptions.DBusException("org.freedesktop.DBus.Error.UnknownProperty", prop)

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="s", out_signature="a{sv}")
    def GetAll(self, iface):
        return {"LockedHint": dbus.Boolean(self.locked)} if iface == IFACE else {}

    @dbus.service.signal(dbus.PROPERTIES_IFACE, signature="sa{sv}as")
    def PropertiesChanged(self, iface, changed, invalidated): pass

    def set_locked(self, v):
        self.locked = v
        self.PropertiesChanged(IFACE, {"LockedHint": dbus.Boolean(v)}, [])

def main():
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SystemBus()
    name = dbus.service.BusName("org.freedesktop.login1", bus)
    s = Session(bus, sys.argv[1])
    loop = GLib.MainLoop()
    def on_line(src, cond):
        line = sys.stdin.readline()
        if not line: loop.quit(); return False
        cmd = line.strip()
        if cmd in ("lock", "unlock"): s.set_locked(cmd == "lock")
        print("ok " + cmd, flush=True)
        return True
    GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, on_line)
    print("ready", flush=True)
    loop.run()
    del name

main()
