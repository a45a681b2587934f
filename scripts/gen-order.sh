#!/bin/sh
# Regenerates scripts/gestured.order, the order lld places the daemon's functions in at the start
# of .text (Package.swift, --symbol-ordering-file), found by callgrind on a release build:
#   1. the steady state first: every function run inside the event loop and the hook runner's
#      thread while recordings stream (bcm5974, hp8470p, the 3M screen; one subscribed client,
#      the side-by-side bindings),
#      hottest first, then the evdev read path and the exclusive path a replay does not take
#      (it reads a pipe and grabs nothing). A frame
#      then touches a few dozen pages of code instead of a hundred spread over 3 MB: each page a
#      wakeup touches is a TLB miss on a real CPU and a software page walk under QEMU TCG
#      (docs/performance-history.md, eighth pass);
#   2. then the rest of what `gestured run` executes from start-up through streaming, hooks and
#      a SIGHUP reload, so start-up faults in a few hundred kB instead of pages scattered over
#      the whole static Swift runtime (fourth pass);
#   3. then the rest of the device-reading modules (evdev, udev and inotify code a replay skips).
# A stale list stays correct (names lld cannot find are skipped); it only gets less effective, so
# regenerate it after changes to the per-frame path.
# usage: scripts/gen-order.sh        (needs valgrind and python3; about three minutes)
set -eu
export LC_ALL=C
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "gen-order: needs valgrind (apt-get install valgrind)"; exit 1; }
swift build -c release --static-swift-stdlib --product gestured >/dev/null
BIN=$(swift build -c release --static-swift-stdlib --show-bin-path)/gestured
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
# swiftc skips code generation when a module's IR is unchanged, so objects built before
# -function-sections came into Package.swift keep one .text a file, and the list could move
# files only. A private function of the frame path must have its own section.
readelf -SW "$(dirname "$BIN")/GestureCore.build/SlotDecoder.swift.o" | grep -q '\.text\.[$]s11GestureCore11SlotDecoderV8absEvent' || {
  echo "gen-order: the release objects have no per-function sections; delete them and run again:"
  echo "  rm -f $(dirname "$BIN")/*.build/*.swift.o"; exit 1; }
# valgrind cannot read the debug info of this binary (DWARF 5 from the static runtime).
objcopy --strip-debug "$BIN" "$TMP/gestured"
F=Tests/Fixtures
BCM=$F/touchpad-protoA-bcm5974-1f-move-2f-swipe-left-3f-swipe-right-4f-taps__whot-evemu.evemu
HP=$F/touchpad-synaptics-hp8470p-1finger-right-edge-swipe-down__whot-evemu-devices.events
SCREEN=$F/touchscreen-3m-10finger-mixed-rotate-pinch-drags__whot-evemu.evemu

# daemon OUT SIGHUP VALGRIND-ARGS... -- REPLAYS...: `gestured run` under callgrind with one client
# subscribed to everything, until every replayed device is removed; SIGHUP=1 also reloads.
daemon() {
  out=$1 hup=$2; shift 2
  args=""; while [ "$1" != "--" ]; do args="$args $1"; shift; done; shift
  replays=""; n=0; for r in "$@"; do replays="$replays --replay $r"; n=$((n + 1)); done
  rm -f "$TMP/s.sock"
  # shellcheck disable=SC2086
  valgrind -q --tool=callgrind --demangle=no $args --callgrind-out-file="$out" "$TMP/gestured" run \
    --socket "$TMP/s.sock" --config Tests/VM/sidebyside-bindings.yaml --no-discovery \
    $replays --replay-wait-for-clients 1 --replay-delay 0 2>"$TMP/daemon.err" &
  pid=$!
  i=0; while [ ! -S "$TMP/s.sock" ] && [ $i -lt 300 ]; do sleep 0.2; i=$((i + 1)); done
  python3 - "$TMP/s.sock" "$n" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
s.sendall(b'{"type": "subscribe"}\n')
buf, removed = b"", 0
while removed < int(sys.argv[2]):
    d = s.recv(65536)
    if not d: sys.exit("gen-order: the daemon closed the socket early")
    buf += d
    while b"\n" in buf:
        line, buf = buf.split(b"\n", 1)
        removed += b'"deviceRemoved"' in line
PY
  if [ "$hup" = 1 ]; then kill -HUP $pid; sleep 3; fi
  kill -TERM $pid; wait $pid || true
}

# 1. The steady state: only what runs inside EventLoop.run and the hook runner's thread (the
#    side-by-side bindings run hooks on the 3M screen: spawning, reaping, the /proc scans), while
#    the three recordings stream.
daemon "$TMP/hot.out" 0 "--toggle-collect=\$s13GestureDaemon9EventLoopC3runyyF" "--toggle-collect=*HookRunnerC10workerLoop*" -- "$BCM" "$HP" "$SCREEN"
# 2. Everything from start-up on, with hooks and a reload.
daemon "$TMP/all.out" 1 -- "$BCM" "$SCREEN"

nm "$TMP/gestured" | awk '$2 ~ /^[tTwW]$/ {print $3}' | sort -u >"$TMP/text"
# Functions by their own instruction count in the steady state, hottest first (recursion marks
# 'N dropped; callgrind names a function once with fn=(id) name, then by (id) alone).
python3 - "$TMP/hot.out" "$TMP/text" >"$TMP/hot" <<'PY'
import re, sys
names, cost, cur, call = {}, {}, None, False
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    m = re.match(r"(c?)fn=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
    if m:
        if m.group(3): names[m.group(2)] = re.sub(r"'\d+$", "", m.group(3))
        if not m.group(1): cur = names.get(m.group(2))
        continue
    if line.startswith("calls="): call = True; continue
    if line[:1].isdigit() or line[:1] in "+-*":
        parts = line.split()
        if call: call = False   # the call's inclusive cost, not the caller's own
        elif cur and len(parts) > 1: cost[cur] = cost.get(cur, 0) + int(parts[1])
text = set(open(sys.argv[2]).read().split())
for name, c in sorted(cost.items(), key=lambda kv: -kv[1]):
    if c > 0 and name in text: print(name)
PY
# The evdev read path (a replay reads a pipe instead): EvdevDevice's DeviceSource read (in
# GestureDaemon) and what it calls.
grep -E '^[$]s(10LinuxInput11EvdevDeviceC13GestureDaemon|10LinuxInput11EvdevDeviceC13readAvailable|10LinuxInput11EvdevDeviceC10readEvents|Sa.*11GestureCore10InputEventV_SRy)' "$TMP/text" \
  | grep -vxF -f "$TMP/hot" >>"$TMP/hot" || true
# The code hand-back's own tail: what runs after its drop (the loop of madvise calls, the timer's
# return to the event loop) faults its pages back in, and each brings a 64 kB window; next to the
# hot functions those windows are resident anyway.
grep -E '^[$]s(11LinuxSystem9CodePagesO10dropUnused|13GestureDaemon12CodeHandBack|13GestureDaemon6LoggerC6writes|13GestureDaemon13DeadlineTimer)' "$TMP/text" \
  | grep -vxF -f "$TMP/hot" >>"$TMP/hot" || true
# The exclusive path (a replay grabs nothing, so callgrind does not see it; about 47 kB): the
# gate, the device that runs it, the state model, the clone's writes, the pipeline's frame sink.
grep -E '^[$]s(11GestureCore13ExclusiveGate|13GestureDaemon15ExclusiveDevice|11GestureCore10EvdevState|10LinuxInput12UInputDevice|11GestureCore0A8PipelineV4feed10contentsOf6frames)' "$TMP/text" \
  | grep -vxF -f "$TMP/hot" >>"$TMP/hot" || true
sed -n 's/^c\{0,1\}fn=([0-9]*) \(.*\)$/\1/p' "$TMP/all.out" | sed "s/'[0-9]*\$//" | sort -u >"$TMP/seen"
comm -12 "$TMP/seen" "$TMP/text" | grep -vxF -f "$TMP/hot" >"$TMP/startup" || true
grep -E '^[$]s(10LinuxInput|11LinuxSystem|13GestureDaemon)' "$TMP/text" | grep -vxF -f "$TMP/hot" -f "$TMP/startup" >"$TMP/rest" || true
# Only functions in a section of their own can move: the linker orders input sections, and a
# name that lives in a shared .text (much of the static Swift runtime's Swift.o is one 1.6 MB
# .text) would pull that whole section up to its place in the list, between the hot functions.
STATIC=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")/lib/swift_static/linux
{ find "$(dirname "$BIN")" -path '*.build/*.o'; ls "$STATIC"/*.a; } | while read -r f; do readelf -SW "$f" 2>/dev/null; done \
  | sed -n 's/^ *\[ *[0-9]*\] \.text\.\([^ ]*\) .*/\1/p' | sort -u >"$TMP/movable"
# gestured_hot_code_begin and _end (CCodeOrder) enclose the steady state: a code hand-back keeps
# what lies between them.
{ echo gestured_hot_code_begin; grep -xF -f "$TMP/movable" "$TMP/hot"; echo gestured_hot_code_end
  cat "$TMP/startup" "$TMP/rest" | grep -xF -f "$TMP/movable"; } >scripts/gestured.order
echo "gen-order: $(grep -cxF -f "$TMP/movable" "$TMP/hot") steady-state functions first, $(wc -l <scripts/gestured.order) in all, in scripts/gestured.order"
