#!/usr/bin/env bash
# The end-to-end suite: COUNT random problems (fixed, printed seed) planned
# by the verified planner and emitted by `redist gen`'s emitter
# (tests/e2e/gen_e2e.ml), compiled PER_TU to a translation unit into one
# executable, and run under one mpirun per mesh size; every element of
# every rank's target box is checked (runtime/testing/verify.hpp), as are the
# guard bytes around the exact workspace and no operator new in run().
#   tests/e2e/run.sh SUITE COUNT PER_TU [SEED]
# Prints one comment line per problem, then its one TAP result: the suite
# is one property test, with its case count beside it.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
suite=$1 count=$2 per_tu=$3 seed=${4:-20211203}
out=_build/$suite
rm -rf "$out" && mkdir -p "$out"
fail_all() { ko "$*"; tap_end "property: $count random problems"; exit 1; }
runtime_flags --libs >/dev/null || fail_all "the runtime is not staged in _build/prefix (make runtime)"
dune build -j 1 ./tests/e2e/gen_e2e.exe 2>&1 || fail_all "the problem generator does not build"
_build/default/tests/e2e/gen_e2e.exe "$seed" "$count" "$per_tu" "$out" || fail_all "the problem generator failed"

CXX=(mpicxx -std=c++17 -O1 -Wall -Wextra -Werror $(runtime_flags --cflags) -Iruntime/testing -Itests/e2e -I"$out")
start=$(date +%s%N)
objs=()
for tu in "$out"/tu*.cpp; do
  "${CXX[@]}" -c "$tu" -o "${tu%.cpp}.o" 2>"${tu%.cpp}.log" || { cat "${tu%.cpp}.log"; fail_all "$tu does not compile"; }
  objs+=("${tu%.cpp}.o")
done
"${CXX[@]}" tests/e2e/e2e_main.cpp "${objs[@]}" $(runtime_flags --libs) -o "$out/e2e.exe" 2>"$out/link.log" ||
  { cat "$out/link.log"; fail_all "the driver does not link"; }
compiled=$(date +%s%N)
secs() { printf '%d.%d' $(($1 / 1000000000)) $(($1 / 100000000 % 10)); }
echo "e2e: ${#objs[@]} translation units compiled and linked in $(secs $((compiled - start))) s"

good=0 bad=0
run_per_world "$out/e2e.exe" "$out/sizes.txt" "$out" >"$out/cases.log"
sed 's/^/# /' "$out/cases.log"
echo "e2e: ran in $(secs $(($(date +%s%N) - compiled))) s"
# One property (every random problem ends with every target box correct):
# one test, its case count beside it.
if [ "$bad" -eq 0 ]; then ok "$good of $count random problems"; else ko "$bad of $count random problems"; fi
tap_end "property: $count random problems, $good passed, $bad failed"
