#!/usr/bin/env bash
# The differential test of the plan interpreter (tests/capi/differential.cpp):
# COUNT random problems (tests/cli/random_problems.exe, fixed seed, meshes of
# at most 8 devices) and 5 pending-sum problems, one header each from
# `redist gen`, all compiled into one program run on 8 ranks, followed by 3
# plans by the direct exchange, 2 by the reducing exchange, and 8 hybrids
# (a header each from `redist gen`: the cost model's choice, or a plan file
# with a via line, which the program gives redist_plan_check).
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
# Hybrids: the exchange then a collective, a collective then the exchange,
# an uneven source, both parts collectives or exchanges, two meshes (the
# source on world ranks 4..7).  PLAN "auto": the cost model's choice, which
# must be a hybrid; else the plan file's lines, separated by ";".
: >"$out/hybrids.inc"
while IFS='|' read -r name mesh to_mesh from to dtype plan; do
  mesh_args=(--mesh "$mesh") to_mesh_c=nullptr
  if [ "$to_mesh" != - ]; then mesh_args=(--from-mesh "$mesh" --to-mesh "$to_mesh") to_mesh_c="\"$to_mesh\""; fi
  plan_args=() plan_c=nullptr
  if [ "$plan" != auto ]; then
    printf '%s\n' "${plan//;/$'\n'}" >"$out/$name.plan"
    plan_args=(--plan "$out/$name.plan") plan_c="\"${plan//;/\\n}\""
  fi
  if "$redist" gen "${mesh_args[@]}" --from "$from" --to "$to" --dtype "$dtype" "${plan_args[@]}" --name "$name" \
       -o "$out/$name.hpp" && grep -q '^// Plan: a hybrid' "$out/$name.hpp"; then
    echo "#include \"$name.hpp\"" >>"$out/all_problems.hpp"
    echo "HYBRID_PROBLEM($name, \"$mesh\", $to_mesh_c, \"$from\", \"$to\", \"$dtype\", $plan_c)" >>"$out/hybrids.inc"
  else
    ko "$name: redist gen gave no hybrid"
  fi
done <<'EOF_HYBRIDS'
hyb_auto_gather|{a:2, b:4}|-|[{b}64, {a}64]|[64, 64]|f32|auto
hyb_auto_to_all|{a:2, b:4}|-|[{a,b}64, 64]|[64, {b,a}64]|f32|auto
hyb_auto_uneven|{a:2, b:4}|-|[{a,b}1004]|[1004]|f64|auto
hyb_file_gather|{a:2, b:4}|-|[{b}64, {a}64]|[64, 64]|bf16|exchange;via [16{b}64, 64];all_gather(0)
hyb_file_to_all|{a:2, b:4}|-|[{b}64, {a}64]|[64, 64]|i8|all_to_all(1, 0);via [8{b,a}64, 64];exchange
hyb_file_collectives|{a:2, b:4}|-|[{b}64, {a}64]|[64, 64]|c64|all_gather(1);via [{b}64, 64];all_gather(0)
hyb_file_exchanges|{a:2, b:4}|-|[{b}9, {a}7]|[9, 7]|u16|exchange;via [{a}9, 7];exchange
hyb_file_two_meshes|{x:4} @ 4|{a:2, b:2}|[{x}1000]|[1000]|i32|exchange;via [{a}1000];all_gather(0)
EOF_HYBRIDS
if mpicxx -std=c++17 -O1 -Wall -Wextra -Werror -I"$out" -Itests/capi -Iruntime/testing $(capi_flags --cflags) tests/capi/differential.cpp \
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
tap_end
