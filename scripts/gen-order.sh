#!/bin/sh
# Regenerates scripts/gestured.order: the functions `gestured run` executes from start-up through
# streaming (two replayed recordings, one socket client, hooks, a SIGHUP reload), found by
# callgrind on a release build, then the rest of the device-reading modules. Package.swift hands the list to lld (--symbol-ordering-file), which
# places those functions next to each other at the start of .text: the daemon then faults in a few
# hundred kB of code instead of pages scattered over the whole static Swift runtime
# (docs/PERFORMANCE.md, fourth pass). A stale list stays correct (names lld cannot find are
# skipped); it only gets less effective, so regenerate it after large changes.
# usage: scripts/gen-order.sh        (needs valgrind; about a minute)
set -eu
export LC_ALL=C
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "gen-order: needs valgrind (apt-get install valgrind)"; exit 1; }
swift build -c release --static-swift-stdlib --product gestured >/dev/null
BIN=$(swift build -c release --static-swift-stdlib --show-bin-path)/gestured
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
# valgrind cannot read the debug info of this binary (DWARF 5 from the static runtime).
objcopy --strip-debug "$BIN" "$TMP/gestured"
F=Tests/Fixtures
valgrind -q --tool=callgrind --demangle=no --callgrind-out-file="$TMP/cg.out" "$TMP/gestured" run \
  --socket "$TMP/s.sock" --config Tests/VM/sidebyside-bindings.yaml --no-discovery \
  --replay $F/touchpad-protoA-bcm5974-1f-move-2f-swipe-left-3f-swipe-right-4f-taps__whot-evemu.evemu \
  --replay $F/touchscreen-3m-10finger-mixed-rotate-pinch-drags__whot-evemu.evemu \
  --replay-wait-for-clients 1 --replay-delay 0 2>"$TMP/daemon.err" &
PID=$!
i=0; while [ ! -S "$TMP/s.sock" ] && [ $i -lt 300 ]; do sleep 0.2; i=$((i + 1)); done
python3 - "$TMP/s.sock" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
s.sendall(b'{"type": "subscribe"}\n')
buf, removed = b"", 0
while removed < 2:
    d = s.recv(65536)
    if not d: sys.exit("gen-order: the daemon closed the socket early")
    buf += d
    while b"\n" in buf:
        line, buf = buf.split(b"\n", 1)
        removed += b'"deviceRemoved"' in line
PY
kill -HUP $PID; sleep 3; kill -TERM $PID; wait $PID || true
# Every function callgrind saw (recursion marks 'N dropped) that is a text symbol of the binary.
nm "$TMP/gestured" | awk '$2 ~ /^[tTwW]$/ {print $3}' | sort -u >"$TMP/text"
sed -n 's/^c\{0,1\}fn=([0-9]*) \(.*\)$/\1/p' "$TMP/cg.out" | sed "s/'[0-9]*\$//" | sort -u >"$TMP/seen"
comm -12 "$TMP/seen" "$TMP/text" >"$TMP/order"
# Then the rest of the modules that read real devices (a replay reads a pipe: the evdev, udev and
# inotify code does not run under callgrind here), after the functions seen.
grep -E '^[$]s(10LinuxInput|11LinuxSystem|13GestureDaemon)' "$TMP/text" | comm -23 - "$TMP/order" >"$TMP/rest"
cat "$TMP/order" "$TMP/rest" >scripts/gestured.order
echo "gen-order: $(wc -l <scripts/gestured.order) functions in scripts/gestured.order"
