#!/usr/bin/env bash
# The pending-sum end-to-end suite: COUNT random problems with pending sums
# (tests/e2e/gen_sums.ml, fixed seed) planned by the extracted plan_sums and
# emitted by `redist gen`'s emitter, compiled PER_TU to a translation unit
# into one driver (tests/e2e/sums_main.cpp), and run under one mpirun per
# mesh size; every element of every rank's target box must sum, over its
# target group, to the global array.
#   tests/e2e/sums.sh SUITE COUNT PER_TU [SEED]
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
suite=$1 count=$2 per_tu=$3 seed=${4:-20261123}
out=_build/$suite
rm -rf "$out" && mkdir -p "$out"
fail_all() { ko "$*"; report "$suite" "property: $count random problems"; exit 1; }
runtime_flags --libs >/dev/null || fail_all "the runtime is not staged in _build/prefix (make runtime)"
dune build -j 1 ./tests/e2e/gen_sums.exe 2>&1 || fail_all "the problem generator does not build"
_build/default/tests/e2e/gen_sums.exe "$seed" "$count" "$per_tu" "$out" || fail_all "the problem generator failed"

CXX=(mpicxx -std=c++17 -O1 -Wall -Wextra -Werror $(runtime_flags --cflags) -Itests/e2e -Icodegen -I"$out")
objs=()
for tu in "$out"/tu*.cpp; do
  "${CXX[@]}" -c "$tu" -o "${tu%.cpp}.o" 2>"${tu%.cpp}.log" || { head -30 "${tu%.cpp}.log"; fail_all "$tu does not compile"; }
  objs+=("${tu%.cpp}.o")
done
"${CXX[@]}" tests/e2e/sums_main.cpp "${objs[@]}" $(runtime_flags --libs) -o "$out/sums.exe" 2>"$out/link.log" ||
  { head -30 "$out/link.log"; fail_all "the driver does not link"; }

good=0 bad=0
run_per_world "$out/sums.exe" "$out/sizes.txt" "$out"
if [ "$bad" -eq 0 ]; then ok "$good of $count random problems"; else ko "$bad of $count random problems"; fi
report "$suite" "property: $count random problems, $good passed, $bad failed"
