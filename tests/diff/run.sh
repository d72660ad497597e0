#!/usr/bin/env bash
# The step-by-step differential test: STEPS random single collectives and
# PLANS random planned problems (tests/diff/gen_diff.ml, fixed printed
# seed), lowered by the extracted lowering and run by the runtime's plan
# interpreter under one mpirun per mesh size (tests/diff/diff_main.cpp);
# every byte of every rank's destination is compared with the extracted
# semantics (interp_rank).  Two property tests, each with its case count.
#   tests/diff/run.sh SUITE STEPS PLANS [SEED]
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
suite=$1 steps=$2 plans=$3 seed=${4:-20261123}
out=_build/$suite
rm -rf "$out" && mkdir -p "$out"
fail_all() { ko "$*"; report "$suite"; exit 1; }
runtime_flags --libs >/dev/null || fail_all "the runtime is not staged in _build/prefix (make runtime)"
dune build -j 1 ./tests/diff/gen_diff.exe 2>&1 || fail_all "the case generator does not build"
start=$(date +%s%N)
_build/default/tests/diff/gen_diff.exe "$seed" "$steps" "$plans" "$out" || fail_all "the case generator failed"
mpicxx -std=c++17 -O1 -Wall -Wextra -Werror $(capi_flags --cflags) tests/diff/diff_main.cpp $(capi_flags --libs) \
  -o "$out/diff_main" 2>"$out/build.log" || { cat "$out/build.log"; fail_all "the driver does not build"; }

good=0 bad=0
run_per_world "$out/diff_main" "$out/sizes.txt" "$out" "$out" >"$out/cases.log"
grep '^FAIL' "$out/cases.log" | head -20
secs() { printf '%d.%d' $(($1 / 1000000000)) $(($1 / 100000000 % 10)); }
echo "$suite: generated, built and ran in $(secs $(($(date +%s%N) - start))) s"
# A case's line names it a single step or a plan.
step_bad=$(grep -c '^FAIL  case [0-9]*: step ' "$out/cases.log")
plan_bad=$(grep -c '^FAIL  case [0-9]*: plan ' "$out/cases.log")
step_ok=$(grep -c '^ok    case [0-9]*: step ' "$out/cases.log")
plan_ok=$(grep -c '^ok    case [0-9]*: plan ' "$out/cases.log")
lost=$((steps + plans - step_ok - plan_ok - step_bad - plan_bad))
[ "$lost" -gt 0 ] && grep '^FAIL  np ' "$out/cases.log"
if [ "$step_ok" -eq "$steps" ]; then ok "single steps: $step_ok of $steps, every byte of every rank as the extracted semantics"
else ko "single steps: $step_ok of $steps passed ($step_bad failed, the rest lost with a crashed mpirun)"; fi
if [ "$plan_ok" -eq "$plans" ]; then ok "whole plans: $plan_ok of $plans, every byte of every rank as the extracted semantics"
else ko "whole plans: $plan_ok of $plans passed ($plan_bad failed, the rest lost with a crashed mpirun)"; fi
report "$suite" "property: $steps random steps and $plans random plans"
