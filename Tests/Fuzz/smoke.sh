#!/bin/sh
# CI smoke run: builds every fuzz target and runs each for FUZZ_SECONDS (default 30, at most 60),
# then replays every kept crasher against its target (each must now pass). Total ≤ 4 minutes.
# Exit status is non-zero when a target finds a new crash or a kept crasher still fails.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
secs="${FUZZ_SECONDS:-30}"
[ "$secs" -le 60 ] || secs=60
"$here/build.sh"
export SWIFT_BACKTRACE=enable=no
status=0
for entry in "$here"/targets/*.swift; do
  t=$(basename "$entry" .swift)
  echo "fuzz smoke: $t for ${secs}s"
  # Smoke runs write new crashers under .build so a CI run never dirties the tree.
  mkdir -p "$here/.build/corpus/$t" "$here/.build/smoke-crashers"
  if ! "$here/.build/bin/$t" -timeout=2 -rss_limit_mb=2048 -max_len=8192 -max_total_time="$secs" \
      -print_final_stats=1 -artifact_prefix="$here/.build/smoke-crashers/$t-" \
      "$here/.build/corpus/$t" "$here/corpus/$t" > "$here/.build/$t.smoke.log" 2>&1; then
    echo "fuzz smoke: $t FAILED; log: $here/.build/$t.smoke.log; input: $(ls "$here"/.build/smoke-crashers/$t-* 2>/dev/null | tail -1)"
    tail -30 "$here/.build/$t.smoke.log"
    status=1
  else
    grep -E '^stat::number_of_executed_units' "$here/.build/$t.smoke.log" | sed "s/^/fuzz smoke: $t /"
  fi
done
# Kept crashers are fixed bugs: replay each one against its target.
for c in "$here"/crashers/*; do
  [ -f "$c" ] || continue
  t=$(basename "$c" | sed 's/-.*//')
  [ -x "$here/.build/bin/$t" ] || continue
  if ! "$here/.build/bin/$t" -timeout=5 "$c" > "$here/.build/replay.log" 2>&1; then
    echo "fuzz smoke: kept crasher $c still fails"; tail -20 "$here/.build/replay.log"; status=1
  fi
done
exit $status
