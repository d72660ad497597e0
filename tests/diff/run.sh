#!/usr/bin/env bash
# The step-by-step differential test: STEPS random single collectives,
# PLANS random planned problems and EXCHANGES random direct exchanges, and
# with pending sums SUM_STEPS random single reductions and add_pending
# steps, SUM_PLANS random plans by the collectives and SUM_EXCHANGES random
# reducing exchanges; HYBRIDS random hybrids (the exchange and collectives
# through an intermediate layout), PERMUTED random direct exchanges and
# SUM_PERMUTED random reducing exchanges at permuted rank lists (one mesh,
# or between meshes), and WIDE cases on 64 ranks (a step, a plan, an
# exchange, a hybrid, a pending-sum plan and a reducing exchange in turn)
# (tests/diff/gen_diff.ml, fixed printed seed), lowered by the extracted
# lowering and run by the runtime (plan interpreter, Exchange,
# ReducingExchange; a hybrid's plan file through the C ABI) under one
# mpirun per world size (tests/diff/diff_main.cpp); every byte of every
# rank's destination is compared with the extracted semantics
# (interp_rank, message_wire, sexec, xexec), and a reducing exchange's
# messages and workspace on every rank with its extracted lowering
# (lower_sumx).  Ten property tests, each with its case count, then one per
# reduction operation (sum, prod, max, min) on integer types (exact) and one
# per operation on f32 and f64 (bitwise: the semantics over the type's
# rounded arithmetic, folded in the runtime's ascending member order).
#   tests/diff/run.sh SUITE STEPS PLANS EXCHANGES SUM_STEPS SUM_PLANS SUM_EXCHANGES HYBRIDS PERMUTED SUM_PERMUTED WIDE [SEED]
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
suite=$1 steps=$2 plans=$3 exchanges=$4 sum_steps=$5 sum_plans=$6 sum_exchanges=$7
hybrids=$8 permuted=$9 sum_permuted=${10} wide=${11} seed=${12:-20261123}
out=_build/$suite
rm -rf "$out" && mkdir -p "$out"
fail_all() { ko "$*"; tap_end; exit 1; }
capi_flags --libs >/dev/null || fail_all "the runtime is not staged in _build/prefix (make runtime)"
dune build -j 1 ./tests/diff/gen_diff.exe 2>&1 || fail_all "the case generator does not build"
start=$(date +%s%N)
_build/default/tests/diff/gen_diff.exe "$seed" "$steps" "$plans" "$exchanges" "$sum_steps" "$sum_plans" "$sum_exchanges" \
  "$hybrids" "$permuted" "$sum_permuted" "$wide" "$out" || fail_all "the case generator failed"
mpicxx -std=c++17 -O1 -Wall -Wextra -Werror $(capi_flags --cflags) tests/diff/diff_main.cpp $(capi_flags --libs) \
  -o "$out/diff_main" 2>"$out/build.log" || { cat "$out/build.log"; fail_all "the driver does not build"; }

good=0 bad=0
run_per_world "$out/diff_main" "$out/sizes.txt" "$out" "$out" >"$out/cases.log"
grep '^FAIL' "$out/cases.log" | head -20
secs() { printf '%d.%d' $(($1 / 1000000000)) $(($1 / 100000000 % 10)); }
echo "$suite: generated, built and ran in $(secs $(($(date +%s%N) - start))) s"
# A case's line names its kind first: "step", "plan", "exchange", "sum step",
# "sum plan", "sum exchange", "hybrid", "permuted exchange", "permuted sum
# exchange", or "64-rank" and then one of those.
property() {
  local kind=$1 count=$2 what=$3 passed
  passed=$(grep -c "^ok    case [0-9]*: $kind " "$out/cases.log")
  if [ "$passed" -eq "$count" ]; then ok "$what: $passed of $count, every byte of every rank as the extracted semantics"
  else ko "$what: $passed of $count passed (the others failed or were lost with a crashed mpirun)"; fi
}
property step "$steps" "single steps"
property plan "$plans" "whole plans"
property exchange "$exchanges" "direct exchanges"
property "sum step" "$sum_steps" "single reductions and add_pending steps"
property "sum plan" "$sum_plans" "whole pending-sum plans"
property "sum exchange" "$sum_exchanges" "reducing exchanges (messages, workspace, live bytes as lower_sumx)"
property hybrid "$hybrids" "hybrids through the C ABI (its workspace and live bytes as lower_splan's)"
property "permuted exchange" "$permuted" "direct exchanges at permuted rank lists"
property "permuted sum exchange" "$sum_permuted" "reducing exchanges at permuted rank lists"
property 64-rank "$wide" "cases on 64 ranks"
# The pending-reduction cases above (single steps, plans, reducing
# exchanges, permuted and 64-rank ones) per operation on integer types, then
# on f32 and f64 ("float-sum" ...), as gen_diff counted them in ops.txt:
# each compared byte for byte with sexec under its operation's monoid and
# fill.
per_op=""
while read -r kind count; do
  case $kind in
    float-*) what="${kind#float-} on f32 and f64" ;;
    *) what="$kind on integers" ;;
  esac
  passed=$(grep -c "^ok    case [0-9]*: .*, reduction $kind\$" "$out/cases.log")
  if [ "$passed" -eq "$count" ] && [ "$count" -gt 0 ]; then ok "$what: $passed of $count pending-reduction cases as the extracted semantics"
  else ko "$what: $passed of $count pending-reduction cases passed"; fi
  per_op="$per_op, $count $what"
done <"$out/ops.txt"
tap_end "property: $steps random steps, $plans random plans, $exchanges random exchanges, $sum_steps random sum steps, $sum_plans random sum plans, $sum_exchanges random reducing exchanges, $hybrids random hybrids, $permuted random permuted exchanges, $sum_permuted random permuted reducing exchanges, $wide random cases on 64 ranks; pending reductions per operation:${per_op#,}"
