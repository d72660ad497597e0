#!/usr/bin/env bash
# test-capi: the C ABI (redist/redist.h) from C programs compiled with
# mpicc -std=c11 against the staged prefix (_build/prefix):
#  - run_c plans at run time and runs under mpirun on 6 and 8 ranks, every
#    element of every rank checked;
#  - query_c: the plan's JSON and text equal `redist plan`'s, its byte
#    figures equal the JSON's counts times the element size;
#  - bad input: the planner's code 2 and one line naming what is wrong;
#    a plan bound to a communicator of the wrong size fails on every rank;
#  - misuse_c: null arguments, a rank out of range, one rank's short
#    buffer (every rank fails, none hangs) on 6 ranks;
#  - threads_c: plans, box queries and frees from 4 threads at once equal
#    the serial ones (the mutex around OCaml's runtime);
#  - ctypes_run.py: libredist_plan.so from Python's ctypes, on 6 ranks;
#  - README.md's C example is examples/capi/main.c;
#  - the differential test (differential.sh): 50 random problems, the
#    interpreter and the generated header give identical bytes.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
redist=_build/default/codegen/main.exe
out=_build/capi
mkdir -p "$out"
CFLAGS=(-std=c11 -Wall -Wextra -Werror -pedantic)
for prog in run_c query_c threads_c misuse_c; do
  # shellcheck disable=SC2046  # pkg-config prints several words
  mpicc "${CFLAGS[@]}" -pthread $(capi_flags --cflags) "tests/capi/$prog.c" $(capi_flags --libs) -o "$out/$prog" ||
    { ko "$prog.c does not compile as C11 against redist/redist.h"; report test-capi; exit 1; }
done

# MESH|FROM|TO|DTYPE|NP
while IFS='|' read -r mesh from to dtype np; do
  what="$mesh $from -> $to $dtype on $np ranks"
  if result=$("${MPIRUN[@]}" -np "$np" "$out/run_c" "$mesh" "$from" "$to" "$dtype" 2>&1 </dev/null) &&
     grep -q "^verified: " <<<"$result"; then
    ok "run_c $what: ${result#verified: }"
  else
    ko "run_c $what: $result"
  fi
done <<'EOF_PROBLEMS'
{x:2, y:3}|[3{x}6]|[2{y}6]|f32|6
{x:2, y:3}|[{x}6, {y}12]|[{y}6, {x}12]|f64|6
{x:2, y:3}|[{x,y}12, 6]|[12, {y}6]|c128|6
{a:3, b:6}|[2{a}6]|[1{b}6]|i16|18
{x:2, y:4}|[16{x}32, 64{y}256]|[8{y}32, 128{x}256]|bf16|8
{a:2, b:2, c:2}|[{a,b}8, {c}4]|[{c}8, {b,a}4]|i8|8
{x:8}|[{x}64, 3]|[64, 3]|u64|8
{x:2, y:4}|[{y}8, {x}6]|[{x,y}8, 6]|f8e4m3|8
EOF_PROBLEMS

# The C ABI's JSON and text are `redist plan`'s; its figures are the JSON's.
Q=('{x:2, y:4}' '[16{x}32, 64{y}256]' '[8{y}32, 128{x}256]' bf16)
if diff <("$out/query_c" json "${Q[@]}") <("$redist" plan --mesh "${Q[0]}" --from "${Q[1]}" --to "${Q[2]}" --dtype "${Q[3]}" --json) >/dev/null; then
  ok "redist_plan_json equals redist plan --json"
else
  ko "redist_plan_json differs from redist plan --json"
fi
if diff <("$out/query_c" text "${Q[@]}") <("$redist" plan --mesh "${Q[0]}" --from "${Q[1]}" --to "${Q[2]}" --dtype "${Q[3]}") >/dev/null; then
  ok "redist_plan_text equals redist plan"
else
  ko "redist_plan_text differs from redist plan"
fi
figures=$("$out/query_c" figures "${Q[@]}")  # the workspace: compared with the header's by differential.sh
expected=$("$redist" plan --mesh "${Q[0]}" --from "${Q[1]}" --to "${Q[2]}" --dtype "${Q[3]}" --json | python3 -c '
import json, sys
p = json.load(sys.stdin)
b = p["elem_bytes"]
print("steps %d peak %d recv_max %d lower_bound %d src %d dst %d" % (len(p["steps"]), p["peak_elems"] * b,
      p["recv_elems_max"] * b, p["lower_bound_recv_max"] * b, p["src_elems"] * b, p["tgt_elems"] * b))
for s in p["steps"]: print(s["text"])
print("\n".join(p["proven"]))')
got=$(sed -E '1s/ workspace [0-9]+$//; s/^([a-z_]+): .*/\1/' <<<"$figures")
if [ "$got" = "$expected" ]; then
  ok "figures, step texts and guarantees equal redist plan --json's"
else
  ko "figures: got $got, expected $expected"
fi
# Bad input: code 2, one line naming the argument and the problem.
# MESH|FROM|TO|DTYPE|expected text
while IFS='|' read -r mesh from to dtype want; do
  msg=$("$out/query_c" figures "$mesh" "$from" "$to" "$dtype" 2>&1); rc=$?
  if [ "$rc" -eq 2 ] && [ "$(wc -l <<<"$msg")" -eq 1 ] && grep -qF -- "$want" <<<"$msg"; then
    ok "bad input refused: ${msg#code 2: }"
  else
    ko "bad input $mesh $from $to $dtype: exit $rc, $msg (expected code 2 and '$want')"
  fi
done <<'EOF_BAD'
{x:2, y:3|[3{x}6]|[2{y}6]|f32|--mesh: column
{x:2, y:3}|[3{x}7]|[2{y}6]|f32|--from: dim 0: global size 7 is not divisible
{x:2, y:3}|[3{x}6]|[2{z}6]|f32|--to
{x:2, y:3}|[3{x}6]|[2{y}6]|f31|--dtype
{x:2, y:3}|[3{x}6]|[2{y}6, 1]|f32|--from has 1 dimensions but --to has 2
{x:2}|[1,1,1,1,1,1,1,1,{x}2]|[1,1,1,1,1,1,1,1,2]|f32|the runtime handles at most 8
{a:1,b:1,c:1,d:1,e:1,f:1,g:1,h:1,i:1}|[4]|[4]|f32|the runtime's mesh has at most 8
EOF_BAD

# A plan for 6 devices bound to 4 ranks: every rank fails with the runtime's
# message, none hangs.
msg=$(timeout 60 "${MPIRUN[@]}" -np 4 "$out/run_c" '{x:2, y:3}' '[3{x}6]' '[2{y}6]' f32 2>&1 </dev/null); rc=$?
if [ "$rc" -ne 0 ] && [ "$(grep -c "code 2: mesh_mismatch" <<<"$msg")" -eq 4 ]; then
  ok "a plan for 6 devices on 4 ranks fails on every rank: $(grep -m1 "code 2" <<<"$msg")"
else
  ko "a plan for 6 devices on 4 ranks: exit $rc, $msg"
fi

# Misuse on 6 ranks: 7 checks on every rank (misuse_c.c), none hangs.
misuse_out=$(timeout 120 "${MPIRUN[@]}" -np 6 "$out/misuse_c" </dev/null 2>&1)
if [ "$(grep -c '^ok rank ' <<<"$misuse_out")" -eq 42 ] && ! grep -q '^FAIL' <<<"$misuse_out"; then
  ok "misuse: null arguments, null plan, rank out of range, one rank's short dst fails on all 6 ranks, then a run works"
else
  ko "misuse: $(grep -v '^ok' <<<"$misuse_out" | head -c 1500)"
fi

# Planning from 4 threads at once.
if threads_out=$(timeout 120 "$out/threads_c" 2>&1); then ok "threads: $threads_out"
else ko "threads: $threads_out"; fi

# libredist_plan.so from Python's ctypes on 6 ranks.
ctypes_out=$(timeout 120 "${MPIRUN[@]}" -np 6 python3 tests/capi/ctypes_run.py _build/prefix/lib/libredist_plan.so \
               </dev/null 2>&1)
if grep -q "^ok ctypes: " <<<"$ctypes_out" && ! grep -q "^FAIL" <<<"$ctypes_out"; then
  ok "${ctypes_out#ok }"
else
  ko "ctypes: $(head -c 1000 <<<"$ctypes_out")"
fi

# README.md shows examples/capi/main.c (which test-runtime-install builds
# from the installed prefix and runs) line for line.
missing=0
while IFS= read -r line; do
  if [ -n "$line" ] && ! grep -qxF -- "    $line" README.md; then missing=$((missing + 1)); fi
done <examples/capi/main.c
if [ "$missing" -eq 0 ]; then ok "README.md shows examples/capi/main.c as it is"
else ko "README.md lacks $missing lines of examples/capi/main.c"; fi

tests/capi/differential.sh 50 >"$out/differential.log" 2>&1
cat "$out/differential.log"
read -r dpass dfail < <(sed -nE 's/^test-capi-differential: ([0-9]+) passed, ([0-9]+) failed.*/\1 \2/p' "$out/differential.log")
pass=$((pass + ${dpass:-0})) fail=$((fail + ${dfail:-1}))
report test-capi
