#!/bin/sh
# The kernel suite: boots Debian's kernel in QEMU (TCG) and runs Tests/VM/suite.py inside against
# real evdev, uinput and udevd, with the binaries built here on the host.
# usage: Tests/VM/run.sh [TEST…]     (no argument: every test; names as suite.py --list prints)
# env:   GESTURED_VM_STATE  cache dir for the kernel + initramfs (default /var/tmp/gestured-vm)
#        VM_TIMEOUT         guest-side limit in seconds (default 900)
#        GESTURED_VM_STRICT=1  a skipped kernel test fails the run
# Exit code: the suite's; 0 with "SKIP: …" where QEMU cannot run here.
set -u
cd "$(dirname "$0")/../.."
ROOT=$PWD
STATE=${GESTURED_VM_STATE:-/var/tmp/gestured-vm}
skip() { echo "SKIP: kernel VM tests: $*"; exit 0; }
t0=$(date +%s)

if [ "$(id -u)" != 0 ] && ! sudo -n true 2>/dev/null; then
  skip "needs root (or passwordless sudo) to install packages and to run QEMU's 9p passthrough"
fi
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo -n"
[ "$(uname -m)" = x86_64 ] || skip "the VM recipe is for x86_64 hosts, this is $(uname -m)"
command -v apt-get >/dev/null || skip "no apt-get: the recipe needs Debian packages (qemu-system-x86, a Debian kernel)"

if ! $SUDO sh Tests/VM/setup.sh "$STATE"; then
  command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86 could not be installed"
  skip "could not prepare the VM state in $STATE (no network for the Debian kernel?)"
fi
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is not installed"
qemu-system-x86_64 -accel help 2>/dev/null | grep -q tcg || skip "this QEMU has no TCG accelerator"
t1=$(date +%s)

echo "kernel-vm: building on the host"
build() { swift build --product gestured >/dev/null 2>build.err.$$ && swift build --product gestured-uinput >/dev/null 2>>build.err.$$ && swift build --product gestured-listen >/dev/null 2>>build.err.$$; }
# A second attempt: a first build can trip over a Clang module cache race (seen as
# "fd_set … is not present in definition of 'fd_set'" between CLinuxSys and SwiftGlibc).
build || { echo "kernel-vm: build failed, retrying once:"; tail -3 build.err.$$; build; } || {
  cat build.err.$$; rm -f build.err.$$; echo "kernel-vm: build failed"; exit 1; }
rm -f build.err.$$
# The latency figures (exclusive_lag.py) measure the daemon users run: the release build the
# README installs, next to the debug one (the same flags as the README, so sidebyside.sh and the
# acceptance checks reuse it). Without it those tests fall back to the debug build and say so.
swift build -c release --static-swift-stdlib --product gestured >/dev/null 2>build.err.$$ \
  || echo "kernel-vm: the release build failed (the latency figures use the debug build):" "$(tail -3 build.err.$$)"
rm -f build.err.$$
BIN=$(swift build --show-bin-path)
# The Wayland client of the sway test (Tests/VM/gesture-client.c, code from wayland-scanner).
W=/usr/share/wayland-protocols; G=$BIN/gesture-client.gen; mkdir -p "$G"
{ wayland-scanner client-header $W/stable/xdg-shell/xdg-shell.xml "$G/xdg-shell-client-protocol.h" &&
  wayland-scanner private-code $W/stable/xdg-shell/xdg-shell.xml "$G/xdg-shell.c" &&
  wayland-scanner client-header $W/unstable/pointer-gestures/pointer-gestures-unstable-v1.xml "$G/pointer-gestures-unstable-v1-client-protocol.h" &&
  wayland-scanner private-code $W/unstable/pointer-gestures/pointer-gestures-unstable-v1.xml "$G/pointer-gestures.c" &&
  cc -O1 -I"$G" -o "$BIN/gesture-client" Tests/VM/gesture-client.c "$G/xdg-shell.c" "$G/pointer-gestures.c" -lwayland-client; } >/dev/null 2>&1 \
  || echo "kernel-vm: Tests/VM/gesture-client.c did not build (wayland-scanner, wayland-protocols?): the sway test skips"
STRICT=""; [ "${GESTURED_VM_STRICT:-0}" = 1 ] && STRICT=--strict
t2=$(date +%s)

echo "kernel-vm: booting the VM (state $STATE, setup $((t1 - t0)) s, build $((t2 - t1)) s)"
VM_TIMEOUT=${VM_TIMEOUT:-900} VM_UDEV=1 sh Tests/VM/vm-run.sh "$STATE" "python3 -u $ROOT/Tests/VM/suite.py --bin $BIN --root $ROOT $STRICT $*"
rc=$?
t3=$(date +%s)
echo "kernel-vm: rc=$rc; setup $((t1 - t0)) s, build $((t2 - t1)) s, VM $((t3 - t2)) s, total $((t3 - t0)) s"
exit $rc
