#!/bin/sh
# CI smoke run: builds every fuzz target and runs each for FUZZ_SECONDS (default 15, at most 60),
# then replays every kept crasher against its target (each must now pass). Total ≤ 4 minutes.
# Exit status is non-zero when a target finds a new crash or a kept crasher still fails.
#
# crashers/*       reproducers of fixed bugs: each must pass now (regressions fail the smoke run).
# crashers/open/*  reproducers of reported, unfixed bugs: replayed and listed, not failing; the
#                  invariants named in crashers/open/TOLERATE are not enforced during the smoke run
#                  (crashes always are). Fixing one: move its file up to crashers/, drop its name
#                  from TOLERATE.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
secs="${FUZZ_SECONDS:-15}"
[ "$secs" -le 60 ] || secs=60
"$here/build.sh"
export SWIFT_BACKTRACE=enable=no
if [ -z "${FUZZ_TOLERATE:-}" ] && [ -f "$here/crashers/open/TOLERATE" ]; then
  FUZZ_TOLERATE=$(grep -v '^#' "$here/crashers/open/TOLERATE" | tr '\n' ',' | sed 's/,$//')
  export FUZZ_TOLERATE
  echo "fuzz smoke: not enforcing open invariants: $FUZZ_TOLERATE"
fi
status=0
for entry in "$here"/targets/*.swift; do
  t=$(basename "$entry" .swift)
  echo "fuzz smoke: $t for ${secs}s"
  # Smoke runs write new crashers under .build so a CI run never dirties the tree.
  mkdir -p "$here/.build/corpus/$t" "$here/.build/smoke-crashers"
  # A seed corpus is optional (git keeps no empty folder): libFuzzer exits on a missing one.
  seeds=""; [ -d "$here/corpus/$t" ] && seeds="$here/corpus/$t"
  # shellcheck disable=SC2086
  if ! "$here/.build/bin/$t" -timeout=2 -rss_limit_mb=2048 -max_len=8192 -max_total_time="$secs" \
      -print_final_stats=1 -artifact_prefix="$here/.build/smoke-crashers/$t-" \
      "$here/.build/corpus/$t" $seeds > "$here/.build/$t.smoke.log" 2>&1; then
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
for c in "$here"/crashers/open/*; do
  [ -f "$c" ] || continue
  case "$c" in */TOLERATE) continue;; esac
  t=$(basename "$c" | sed 's/-.*//')
  [ -x "$here/.build/bin/$t" ] || continue
  if FUZZ_TOLERATE= "$here/.build/bin/$t" -timeout=5 "$c" > "$here/.build/replay.log" 2>&1; then
    echo "fuzz smoke: open crasher $c passes now: move it to crashers/"
  else
    echo "fuzz smoke: open crasher $c still fails (reported): $(grep -m1 -o 'Fatal error:.*' "$here/.build/replay.log" | cut -c1-160)"
  fi
done
exit $status
