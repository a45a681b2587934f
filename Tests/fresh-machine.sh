#!/bin/sh
# Proves the README's run command on a machine without gestured's build dependencies: this
# machine's root file system under a throwaway overlay (writes go to a tmpfs), with every -dev
# package scripts/deps.sh knows about removed, a clean clone of the repository's HEAD, and the
# run command taken verbatim from README.md. It passes when the command installs the packages,
# builds, and the daemon listens on its socket, says plainly that no touch device is present, and
# answers `gestured monitor`. Nothing outside the overlay changes. Needs root (mount, chroot).
# usage: Tests/fresh-machine.sh            (FRESH_TIMEOUT=seconds for install + build, default 1500)
set -eu
cd "$(dirname "$0")/.."
repo=$(pwd)
[ "$(id -u)" = 0 ] || { echo "fresh-machine: needs root (overlay mount and chroot)" >&2; exit 2; }
cmd=$(grep -m1 '^scripts/deps.sh && swift run gestured run ' README.md) ||
  { echo "fresh-machine: README.md has no run command line starting 'scripts/deps.sh && swift run gestured run'" >&2; exit 1; }
pkgs=$(sed -n 's/^for p in \(.*\) "\$@"; do$/\1/p' scripts/deps.sh)
[ -n "$pkgs" ] || { echo "fresh-machine: cannot read the package list from scripts/deps.sh" >&2; exit 1; }

top=$(mktemp -d /tmp/gestured-fresh.XXXXXX)
root=$top/root
cleanup() {
  for p in /proc/[0-9]*; do   # every process whose root is the overlay: the run command's tree
    [ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] && kill -INT "${p#/proc/}" 2>/dev/null
  done
  sleep 2
  for m in dev/pts dev sys proc; do umount "$root/$m" 2>/dev/null || true; done
  umount "$root" 2>/dev/null || true
  umount "$top/t" 2>/dev/null || true
  rm -rf "$top"
}
trap cleanup EXIT INT TERM
mkdir -p "$top/t" "$root"
mount -t tmpfs -o size=8g tmpfs "$top/t"
mkdir -p "$top/t/upper" "$top/t/work"
mount -t overlay overlay -o "lowerdir=/,upperdir=$top/t/upper,workdir=$top/t/work" "$root"
for m in proc sys dev dev/pts; do mount --bind "/$m" "$root/$m"; done
[ -f /etc/resolv.conf ] && cat /etc/resolv.conf > "$root/etc/resolv.conf"

git clone -q "$repo" "$root/gestured"
echo "== fresh-machine: removing$(printf ' %s' $pkgs) inside the overlay"
chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq $pkgs >/dev/null 2>&1 || true
for p in $pkgs; do
  if chroot "$root" dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    echo "fresh-machine: could not remove $p inside the overlay" >&2; exit 1
  fi
done
echo "== fresh-machine: running the README's run command: $cmd"
log=$top/run.log
chroot "$root" env -u XDG_RUNTIME_DIR HOME=/root sh -c "cd /gestured && $cmd" >"$log" 2>&1 &
waited=0
until grep -q "socket: listening on" "$log"; do
  if ! kill -0 $! 2>/dev/null; then echo "fresh-machine: the run command exited:" >&2; tail -30 "$log" >&2; exit 1; fi
  [ "$waited" -ge "${FRESH_TIMEOUT:-1500}" ] && { echo "fresh-machine: no socket after ${waited}s:" >&2; tail -30 "$log" >&2; exit 1; }
  sleep 5; waited=$((waited + 5))
done
sleep 2
grep -q "deps: installing" "$log" || { echo "fresh-machine: deps.sh installed nothing: were the packages really missing?" >&2; exit 1; }
grep -q "no touch device found" "$log" || { echo "fresh-machine: the daemon did not say that no touch device is present" >&2; tail -20 "$log" >&2; exit 1; }
mon=$(timeout 5 chroot "$root" /gestured/.build/debug/gestured monitor --socket /tmp/gestured.sock 2>&1 || true)
case "$mon" in
  "connected to gestured"*) ;;
  *) echo "fresh-machine: monitor could not connect: $mon" >&2; exit 1 ;;
esac
grep -E "^(deps:|gestured:)" "$log" | sed 's/^/  /'
echo "  monitor: $mon" | head -1
echo "fresh-machine: ok: packages installed, built, listening, monitor connected (${waited}s)"
