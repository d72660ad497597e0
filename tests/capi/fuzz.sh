#!/usr/bin/env bash
# test-capi-fuzz (and make fuzz-capi): the C ABI's entry points on bad
# input, under AddressSanitizer and UndefinedBehaviorSanitizer, against
# libredist_plan built with them (_build/runtime-asan, the C ABI's target):
#  - limits_c: the input limits of issue 24, one case each (via lines, via
#    in a pending-sum plan, JSON nesting, a report's wrong values named by
#    their path, a report over 16 MiB, a control character in a struct);
#  - fuzz_capi: one property over COUNT generated inputs (fuzz_capi.cpp says
#    which), from the valid problems of fuzz_seeds.txt (from
#    tests/cli/cases.sh) with what `redist plan` prints for each: a plan file
#    and, with --json, a report.
# Usage: tests/capi/fuzz.sh COUNT [SEED]
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
count=${1:?usage: tests/capi/fuzz.sh COUNT [SEED]}
redist=_build/default/codegen/main.exe
asan=_build/runtime-asan
out=_build/capi-fuzz
rm -rf "$out/seeds"
mkdir -p "$out/seeds"

grep -v '^#' tests/capi/fuzz_seeds.txt >"$out/seeds/problems.txt"
k=0
while IFS='|' read -r mesh to_mesh from to dtype strategy; do
  if [ -n "$to_mesh" ]; then A=(--from-mesh "$mesh" --to-mesh "$to_mesh"); else A=(--mesh "$mesh"); fi
  A+=(--from "$from" --to "$to")
  [ -n "$dtype" ] && A+=(--dtype "$dtype")
  [ -n "$strategy" ] && A+=(--strategy "$strategy")
  if ! "$redist" plan "${A[@]}" >"$out/seeds/$k.plan" 2>&1 || ! "$redist" plan "${A[@]}" --json >"$out/seeds/$k.json" 2>&1
  then
    ko "seed $k (${A[*]}): redist plan fails: $(head -c 300 "$out/seeds/$k.plan")"
  fi
  k=$((k + 1))
done <"$out/seeds/problems.txt"

SAN=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1 -Wall -Wextra -Werror)
LIBS=("$asan/libredist_plan.a" "$asan/libredist_mpi.a" "$asan/libredist_common.a" -lstdc++ -lm -ldl)
# shellcheck disable=SC2046  # pkg-config prints several words
if ! mpicc -std=c11 -pedantic "${SAN[@]}" $(capi_flags --cflags) tests/capi/limits_c.c "${LIBS[@]}" -o "$out/limits_c" ||
   ! mpicxx -std=c++17 "${SAN[@]}" $(capi_flags --cflags) tests/capi/fuzz_capi.cpp "${LIBS[@]}" -o "$out/fuzz_capi"; then
  ko "limits_c.c or fuzz_capi.cpp does not compile"
  tap_end
  exit 1
fi
# detect_leaks=0: OCaml's runtime, started once, is never stopped.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

tap_program limits_c timeout 300 "$out/limits_c"

start=$(date +%s)
if result=$(timeout 900 "$out/fuzz_capi" "$out/seeds" "$count" ${2:+"$2"} 2>&1); then
  ok "C ABI fuzz, $(($(date +%s) - start)) s: $(tail -n 1 <<<"$result")"
else
  ko "C ABI fuzz: $(tail -c 3000 <<<"$result")"
fi
tap_end "property \"C ABI fuzz\": $count cases"
