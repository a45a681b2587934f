#!/bin/sh
# Side by side: gestured, `libinput debug-events`, lisgd and a libinput-gestures stand-in reading
# the same uinput devices at the same time inside the kernel VM (Tests/VM). Prints `name: value`
# lines: CPU per 10 000 events, memory, ratios, first-line latency (docs/PERFORMANCE.md).
# usage: Tests/VM/sidebyside.sh [--quick] [--scenario=NAME] [--bare] [--split] [--spread] [--libinput-first] [--last-bin=PATH] [throughput] [latency] [recognition] [profile] [syscalls] [instructions]
#        (no mode: throughput and latency; --quick: each recording once, as CI runs it;
#        --scenario=NAME: only scenarios whose name contains NAME, e.g. 3m, bcm5974, hp8470p;
#        --bare: also a daemon with no bindings and no client, to tell recognition from hooks/socket;
#        --split: --bare plus a daemon with the bindings only and one with the client only;
#        --spread: throughput with the processes spread over the vCPUs by the scheduler, not on one;
#        --libinput-first: latency with a libinput opened before gestured, a control for the order;
#        --last-bin=PATH: gestured-last runs that build instead, an A/B of two builds in one run)
# env:   GESTURED_VM_STATE (default /var/tmp/gestured-vm), VM_TIMEOUT (guest limit, default 1200 s; 3000 s for instructions),
#        GESTURED_VM_STRICT=1 (a skip fails)
set -u
cd "$(dirname "$0")/../.."
ROOT=$PWD
STATE=${GESTURED_VM_STATE:-/var/tmp/gestured-vm}
# Where the VM cannot run: SKIP and exit 0, as Tests/VM/run.sh does (1 with GESTURED_VM_STRICT=1).
skip() { echo "SKIP: side-by-side: $*"; [ "${GESTURED_VM_STRICT:-0}" = 1 ] && exit 1; exit 0; }
[ "$(id -u)" = 0 ] || sudo -n true 2>/dev/null || skip "needs root (or passwordless sudo) for apt and QEMU"
[ "$(uname -m)" = x86_64 ] || skip "the VM recipe is for x86_64 hosts"
command -v apt-get >/dev/null || skip "no apt-get"
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo -n"
$SUDO sh Tests/VM/setup.sh "$STATE" || { echo "sidebyside: could not prepare the VM in $STATE"; exit 1; }
# The peers, from Debian (the VM sees the host's root, so they are installed here).
need=""
for p in libinput-tools lisgd coreutils linux-perf strace valgrind; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need="$need $p"
done
if [ -n "$need" ]; then
  echo "sidebyside: installing$need"
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $need >/dev/null \
    || { echo "sidebyside: apt-get install$need failed"; exit 1; }
fi
# The README's install build: release, Swift runtime linked in.
echo "sidebyside: building gestured and gestured-uinput (release, --static-swift-stdlib)"
for product in gestured gestured-uinput; do
  swift build -c release --static-swift-stdlib --product $product >build.err.$$ 2>&1 \
    || swift build -c release --static-swift-stdlib --product $product >build.err.$$ 2>&1 \
    || { tail -20 build.err.$$; rm -f build.err.$$; echo "sidebyside: build failed"; exit 1; }
done
rm -f build.err.$$
BIN=$(swift build -c release --static-swift-stdlib --show-bin-path)
# The floor: a C reader that waits and reads the device, nothing else (Tests/VM/evdev-floor.c).
# Without a C compiler the run goes on without the floor column.
FLOOR=""
CC=$(command -v cc || command -v clang) && $CC -O2 -o "$BIN/evdev-floor" Tests/VM/evdev-floor.c && FLOOR="--floor=$BIN/evdev-floor" \
  || echo "sidebyside: no floor column (Tests/VM/evdev-floor.c did not build)"
echo "sidebyside: booting the VM; date $(date -u +%Y-%m-%dT%H:%MZ), host $(uname -r), $(nproc) CPUs"
# The instructions mode plays every recording under callgrind, ten times slower: give it longer.
case " $* " in *" instructions "*) TIMEOUT_DEFAULT=3000 ;; *) TIMEOUT_DEFAULT=1200 ;; esac
VM_TIMEOUT=${VM_TIMEOUT:-$TIMEOUT_DEFAULT} VM_UDEV=1 sh Tests/VM/vm-run.sh "$STATE" "python3 -u $ROOT/Tests/VM/sidebyside.py --bin $BIN --root $ROOT $FLOOR $*"
