#!/bin/sh
# Runs one fuzz target for a number of inputs (or seconds), from the seed corpus in
# Tests/Fuzz/corpus/<target> plus a work corpus in Tests/Fuzz/.build/corpus/<target>.
# A crash, a broken invariant, a timeout (> 2 s per input) or an out-of-memory (> 2 GB) leaves its
# input in Tests/Fuzz/crashers/<target>-<kind>-<hash>: replay it with
#     Tests/Fuzz/.build/bin/<target> Tests/Fuzz/crashers/<file>
#
# Usage: Tests/Fuzz/run.sh TARGET [-runs=N | -max_total_time=S] [libFuzzer options...]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
t="$1"; shift
bin="$here/.build/bin/$t"
[ -x "$bin" ] || "$here/build.sh" "$t"
mkdir -p "$here/.build/corpus/$t" "$here/corpus/$t" "$here/crashers"
# Swift's crash backtracer takes a second per crash; libFuzzer prints its own stack.
export SWIFT_BACKTRACE=enable=no
dict=""
[ -f "$here/dict/$t.dict" ] && dict="-dict=$here/dict/$t.dict"
exec "$bin" -timeout=2 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 $dict \
  -artifact_prefix="$here/crashers/$t-" "$@" "$here/.build/corpus/$t" "$here/corpus/$t"
