#!/bin/sh
# Builds libFuzzer binaries for gestured's input parsers.
#
# Each fuzz target is one file Tests/Fuzz/targets/<name>.swift with a
# `@_cdecl("LLVMFuzzerTestOneInput")` entry and a `// fuzz-modules: A B C` line naming the package
# modules it needs, in dependency order (GestureTestSupport, the test suites' devices and event
# helpers, is built from Tests/Support like any module). Every module's sources are compiled with coverage
# instrumentation (`swiftc -sanitize=fuzzer`) into a static library, then linked with the entry.
#
# Usage: Tests/Fuzz/build.sh [target...]      (default: every target)
# Output: Tests/Fuzz/.build/bin/<name>          Env: FUZZ_SANITIZE=fuzzer,address for ASan too.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root="${FUZZ_ROOT:-$(cd "$here/../.." && pwd)}"   # FUZZ_ROOT: build another checkout
out="${FUZZ_OUT:-$here/.build}"
san="${FUZZ_SANITIZE:-fuzzer}"
mkdir -p "$out/mod" "$out/bin"
swiftc="${SWIFTC:-swiftc}"
common="-parse-as-library -O -g -sanitize=$san -swift-version 6 -I $root/Sources/CYAML -I $root/Sources/CLibevdev -I $root/Sources/CLinuxSys -I $root/Sources/CCodeOrder/include -I $out/mod"
clang="${CLANG:-$(dirname "$(command -v "$swiftc")")/clang}"
[ -x "$clang" ] || clang=clang

# Compiles one package module (Sources/<m>, Tests/Support for GestureTestSupport) into a static
# library + .swiftmodule.
build_module() {
  m="$1"
  stamp="$out/mod/$m.stamp"
  dir="$root/Sources/$m"
  [ "$m" = GestureTestSupport ] && dir="$root/Tests/Support"
  srcs=$(find "$dir" -name '*.swift' | sort)
  # Rebuild when any source is newer than the last build.
  if [ -f "$stamp" ] && [ -z "$(find "$dir" -name '*.swift' -newer "$stamp")" ]; then
    return 0
  fi
  echo "fuzz build: module $m"
  # shellcheck disable=SC2086
  $swiftc $common -emit-module -emit-library -static -module-name "$m" \
    -emit-module-path "$out/mod/$m.swiftmodule" -o "$out/mod/lib$m.a" $srcs
  touch "$stamp"
}

# CCodeOrder, LinuxSystem's one C target (two empty functions whose addresses it reads).
build_c_order() {
  lib="$out/mod/libCCodeOrder.a"
  src="$root/Sources/CCodeOrder/CCodeOrder.c"
  if [ -f "$lib" ] && [ ! "$src" -nt "$lib" ]; then return 0; fi
  echo "fuzz build: module CCodeOrder"
  "$clang" -c -O -ffunction-sections -I "$root/Sources/CCodeOrder/include" "$src" -o "$out/mod/CCodeOrder.o"
  rm -f "$lib"; ar rcs "$lib" "$out/mod/CCodeOrder.o"
}

targets="$*"
[ -n "$targets" ] || targets=$(cd "$here/targets" && ls *.swift | sed 's/\.swift$//')
for t in $targets; do
  entry="$here/targets/$t.swift"
  [ -f "$entry" ] || { echo "fuzz build: no target $t ($entry)" >&2; exit 2; }
  mods=$(sed -n 's|^// fuzz-modules: *||p' "$entry")
  libs=""
  for m in $mods; do build_module "$m"; libs="-l$m $libs"; done  # dependents first
  case " $mods " in *" LinuxSystem "*) build_c_order; libs="$libs -lCCodeOrder" ;; esac
  echo "fuzz build: target $t"
  # shellcheck disable=SC2086
  # `// fuzz-support: A B` names further files of targets/support/ the entry needs.
  support=""
  for s in $(sed -n 's|^// fuzz-support: *||p' "$entry"); do support="$support $here/targets/support/$s.swift"; done
  # shellcheck disable=SC2086
  $swiftc $common -module-name "Fuzz_$t" -L "$out/mod" $libs -lyaml "$entry" "$here/targets/support/FuzzSupport.swift" $support \
    -o "$out/bin/$t"
done
