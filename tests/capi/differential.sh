#!/usr/bin/env bash
# The differential test of the plan interpreter (tests/capi/differential.cpp):
# COUNT random problems (tests/cli/random_problems.exe, fixed seed, meshes of
# at most 8 devices) and 5 pending-sum problems, one header each from
# `redist gen`, all compiled into one program run on 8 ranks, followed by 3
# plans by the direct exchange and 2 by the reducing exchange.
# Each problem is one test.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
count=${1:-50}
redist=_build/default/codegen/main.exe
out=_build/capi/differential
rm -rf "$out" && mkdir -p "$out"
: >"$out/all_problems.hpp"
: >"$out/problems.inc"
while IFS='|' read -r name mesh from to dtype _; do
  if "$redist" gen --strategy collectives --mesh "$mesh" --from "$from" --to "$to" --dtype "$dtype" --name "$name" -o "$out/$name.hpp"; then
    echo "#include \"$name.hpp\"" >>"$out/all_problems.hpp"
    echo "PROBLEM($name, \"$mesh\", \"$from\", \"$to\", \"$dtype\")" >>"$out/problems.inc"
  else
    ko "$name: redist gen failed"
  fi
done < <(_build/default/tests/cli/random_problems.exe "$count")
# Pending sums by the collectives: reduce_scatter, several reductions,
# pending on both sides, add_pending (the header and the interpreter run one
# lowering, lower_sums).
while IFS='|' read -r name mesh from to dtype; do
  if "$redist" gen --strategy collectives --mesh "$mesh" --from "$from" --to "$to" --dtype "$dtype" --name "$name" -o "$out/$name.hpp"; then
    echo "#include \"$name.hpp\"" >>"$out/all_problems.hpp"
    echo "SUM_PROBLEM($name, \"$mesh\", \"$from\", \"$to\", \"$dtype\")" >>"$out/problems.inc"
  else
    ko "$name: redist gen failed"
  fi
done <<'EOF_SUMS'
sums0|{x:2, y:4}|[{x}8, 16] sum{y}|[{x}8, {y}16]|i32
sums1|{x:2, y:2, z:2}|[8, 4] sum{x,z}|[{x,z}8, {y}4]|i16
sums2|{x:2, y:4}|[8, 8] sum{x,y}|[8, {x}8] sum{y}|f32
sums3|{x:8}|[{x}8]|[8] sum{x}|u64
sums4|{x:2, y:3}|[12, 5] sum{x,y}|[{y}12, 5]|bf16
EOF_SUMS
if mpicxx -std=c++17 -O1 -Wall -Wextra -Werror -I"$out" -Itests/capi -Icodegen $(capi_flags --cflags) tests/capi/differential.cpp \
     $(capi_flags --libs) -o "$out/differential" 2>"$out/compile.log"; then
  while read -r verdict rest; do
    case "$verdict" in
      ok) ok "$rest" ;;
      FAIL) ko "$rest" ;;
    esac
  done < <("${MPIRUN[@]}" -np 8 "$out/differential" 2>&1 || echo "FAIL mpirun exited with an error")
else
  ko "differential.cpp does not compile: $(head -c 2000 "$out/compile.log")"
fi
report test-capi-differential
