#!/bin/sh
# The systemd suite: boots Debian's kernel in QEMU (TCG) with real systemd as PID 1
# (Tests/VM/systemd-init.sh; no_timer_check: a loaded TCG host can fail the kernel's IO-APIC timer check) and runs Tests/VM/systemd_suite.py inside: gestured installed as the
# README installs it (or, with GESTURED_DEB=path/to/gestured_*.deb, through `apt install`), then
# socket activation, Type=notify, reload, watchdog, the sandbox, peer refusal, the user unit,
# `gestured doctor` and the security exposure, all through systemctl.
# usage: Tests/VM/run-systemd.sh [TEST…]   (names as systemd_suite.py --list prints)
# env:   GESTURED_VM_STATE, VM_TIMEOUT (default 900), GESTURED_DEB, GESTURED_VM_STRICT=1 (a skip fails)
set -u
cd "$(dirname "$0")/../.."
ROOT=$PWD
STATE=${GESTURED_VM_STATE:-/var/tmp/gestured-vm}
skip() { echo "SKIP: systemd VM tests: $*"; [ "${GESTURED_VM_STRICT:-0}" = 1 ] && exit 1; exit 0; }
t0=$(date +%s)
if [ "$(id -u)" != 0 ] && ! sudo -n true 2>/dev/null; then skip "needs root (or passwordless sudo)"; fi
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo -n"
[ "$(uname -m)" = x86_64 ] || skip "the VM recipe is for x86_64 hosts"
$SUDO sh Tests/VM/setup.sh "$STATE" || skip "could not prepare the VM state in $STATE"
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is not installed"
[ -x /lib/systemd/systemd ] || skip "no /lib/systemd/systemd on this host to boot"
echo "systemd-vm: building on the host"
swift build --product gestured >/dev/null 2>build.err.$$ && swift build --product gestured-uinput >/dev/null 2>>build.err.$$ && swift build --product gestured-listen >/dev/null 2>>build.err.$$ || {
  cat build.err.$$; rm -f build.err.$$; echo "systemd-vm: build failed"; exit 1; }
rm -f build.err.$$
BIN=$(swift build --show-bin-path)
DEB="" DEB_DIR=""
[ -n "${GESTURED_DEB:-}" ] && DEB_DIR=$(cd "$(dirname "$GESTURED_DEB")" && pwd) && DEB="--deb $DEB_DIR/$(basename "$GESTURED_DEB")"
t1=$(date +%s)
echo "systemd-vm: booting systemd in the VM (setup+build $((t1 - t0)) s)"
VM_EXTRA_PATHS=$DEB_DIR VM_APPEND="${VM_APPEND:-} no_timer_check" VM_TIMEOUT=${VM_TIMEOUT:-900} VM_INIT=$ROOT/Tests/VM/systemd-init.sh sh Tests/VM/vm-run.sh "$STATE" \
  "python3 -u $ROOT/Tests/VM/systemd_suite.py --bin $BIN --root $ROOT $DEB $*"
rc=$?
t2=$(date +%s)
echo "systemd-vm: rc=$rc; setup+build $((t1 - t0)) s, VM $((t2 - t1)) s, total $((t2 - t0)) s"
exit $rc
