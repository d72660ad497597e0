#!/usr/bin/env bash
# test-capi: the C ABI (redist/redist.h) from C programs compiled with
# mpicc -std=c11 against the staged prefix (_build/prefix):
#  - run_c plans at run time and runs under mpirun on 4 to 18 ranks, every
#    element of every rank checked: the collectives, the exchange, uneven
#    layouts, two meshes;
#  - run_c runs hybrids (the cost model's choice; plan files with one or two
#    via lines, two meshes) the same way;
#  - run_c also runs plans of one's own through redist_plan_check, and
#    `redist plan --json` reports through redist_plan_from_json (which is
#    the checked plan of the report's text; edited, malformed or incomplete
#    reports refused);
#  - query_c: the plan's JSON and text equal `redist plan`'s (a hybrid's
#    too), a checked plan's `redist check`'s (a hybrid plan file's too), a
#    rejected plan is code 1 with its message, its byte figures equal the
#    JSON's counts times the element size (a hybrid's too);
#  - bad input: the planner's code 2 and one line naming what is wrong;
#    a plan bound to a communicator of the wrong size fails on every rank;
#  - misuse_c: the host's SIGSEGV handler kept, null arguments, a rank out of range, one rank's short
#    buffer (every rank fails, none hangs) on 6 ranks;
#  - split_c: the split phase (redist_exec_start, _test, _wait) on 4 ranks:
#    an exchange, collectives and a reducing exchange started, polled while
#    computing and waited for, every element checked; wait and test
#    without start, start twice, rank 0 alone starting twice (every rank
#    fails, none hangs), run between start and wait, freed in flight;
#  - shared_c: single copy on a host (redist_alloc, redist_free,
#    redist_exec_direct_bytes) on 4 ranks: an exchange on arrays from
#    redist_alloc (both, the source only, the destination only; run twice,
#    and in split phase), collectives on them, a reducing exchange and a
#    hybrid of two exchanges (source, workspace from redist_alloc or not),
#    every element checked and the bytes moved by one copy counted; misuse of redist_alloc and
#    redist_free on one rank (code 2 there, 4 elsewhere), 46 cases;
#  - robust_c: one property over 20,000 mutated inputs (planned, or code 2
#    with one line; never another code or a crash);
#  - threads_c: plans (pending sums among them), box queries, the reducing
#    exchange's contributions and frees from 4 threads at once equal
#    the serial ones (the mutex around OCaml's runtime);
#  - structs_c: redist_plan_create_from (problems as structs) plans as the
#    same strings do, and names the wrong field of bad structs;
#  - sums_c: pending sums (redist_plan_create_pending_from, as the same
#    strings plan them) by reduce_scatter, all_reduce, add_pending, the
#    reducing exchange (uneven, two meshes), pending on both sides, on 4 to
#    8 ranks, every element of every rank against the sum computed in the
#    program (integers exact, f32/f64 within a stated bound); a dtype the
#    runtime cannot add and bad pending axes refused with code 2;
#  - pieces_c: redist_plan_step and redist_plan_receives (what the Python
#    adapters run) agree with the plan's boxes, and refuse misuse (a hybrid
#    among it) with code 2;
#  - libredist_plan.so exports redist_* only; ctypes_run.py: libredist_plan.so from Python's ctypes, on 6 ranks;
#  - README.md's C example is examples/capi/main.c;
#  - the differential test (differential.sh): 50 random problems, the
#    interpreter and the generated header give identical bytes, and a bound
#    executor's run allocates nothing; 5 pending-sum problems the same
#    (identical bytes, no allocation); 3 plans by the exchange (uneven, two
#    meshes) right on 8 ranks without allocation, 2 by the reducing exchange
#    without allocation; 8 hybrids (3 the cost model's choice, 5 plan files
#    through redist_plan_check), identical bytes, every element right, no
#    allocation.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
redist=_build/default/codegen/main.exe
out=_build/capi
mkdir -p "$out"
CFLAGS=(-std=c11 -Wall -Wextra -Werror -pedantic)
for prog in run_c query_c threads_c misuse_c split_c shared_c robust_c pieces_c structs_c sums_c; do
  # shellcheck disable=SC2046  # pkg-config prints several words
  mpicc "${CFLAGS[@]}" -pthread $(capi_flags --cflags) "tests/capi/$prog.c" $(capi_flags --libs) -o "$out/$prog" ||
    { ko "$prog.c does not compile as C11 against redist/redist.h"; tap_end; exit 1; }
done

# Plans of one's own (redist_plan_check), from codegen/README.md.
printf 'dyn_slice(0, y)\nall_permute([1{y,x}6])\nall_gather(0)\n' >"$out/worked.plan"
printf 'refine b = b.0:3 * b.1:2\ndyn_slice(0, b.1)\nall_permute([1{b}6])\n' >"$out/refine.plan"
# Hybrids: the exchange then all_gather through an intermediate layout; two
# via lines (a hybrid as the second part); between two meshes.
printf 'exchange\nvia [16{b}64, 64]\nall_gather(0)\n' >"$out/hybrid.plan"
printf 'exchange\nvia [{a}64, 64]\nexchange\nvia [{b}64, 64]\nall_gather(0)\n' >"$out/nested.plan"
printf 'exchange\nvia [{a}1000]\nall_gather(0)\n' >"$out/two_meshes.plan"

# `redist plan --json` reports, run through redist_plan_from_json.
"$redist" plan --mesh '{a:3, b:6}' --from '[2{a}6]' --to '[1{b}6]' --dtype u8 --strategy collectives --json \
  >"$out/refine.json"
"$redist" plan --from-mesh '{a:2, b:2}' --to-mesh '{p:3} @ [6, 0, 3]' --from '[{a}9, {b}4]' --to '[{p}9, 4]' \
  --dtype c64 --json >"$out/two_meshes.json"
# A hybrid's report reads back through its plan_file lines.
"$redist" plan --mesh '{a:2, b:4}' --from '[{b}64, {a}64]' --to '[64, 64]' --json >"$out/hybrid.json"

# MESH|FROM|TO|DTYPE|NP|TO_MESH or -|STRATEGY or @PLAN_FILE or %JSON_FILE
while IFS='|' read -r mesh from to dtype np to_mesh strategy; do
  what="$mesh $from -> $to_mesh $to $dtype $strategy on $np ranks"
  # The cost model picks hybrids for these two (tests/cli/cases.sh).
  case "$from $strategy" in
    "[{b}64, {a}64] auto" | "[{a,b}1004] auto" | */hybrid.plan | */nested.plan | */two_meshes.plan | */hybrid.json) kind=hybrid ;;
    *) kind="" ;;
  esac
  if result=$("${MPIRUN[@]}" -np "$np" "$out/run_c" "$mesh" "$from" "$to" "$dtype" "$to_mesh" "$strategy" 2>&1 </dev/null) &&
     grep -q "^verified: $kind" <<<"$result"; then
    ok "run_c $what: ${result#verified: }"
  else
    ko "run_c $what: $result"
  fi
done <<EOF_PROBLEMS
{x:2, y:3}|[3{x}6]|[2{y}6]|f32|6|-|collectives
{x:2, y:3}|[{x}6, {y}12]|[{y}6, {x}12]|f64|6|-|collectives
{x:2, y:3}|[{x,y}12, 6]|[12, {y}6]|c128|6|-|collectives
{a:3, b:6}|[2{a}6]|[1{b}6]|i16|18|-|collectives
{x:2, y:4}|[16{x}32, 64{y}256]|[8{y}32, 128{x}256]|bf16|8|-|collectives
{a:2, b:2, c:2}|[{a,b}8, {c}4]|[{c}8, {b,a}4]|i8|8|-|collectives
{x:8}|[{x}64, 3]|[64, 3]|u64|8|-|collectives
{x:2, y:4}|[{y}8, {x}6]|[{x,y}8, 6]|f8e4m3|8|-|collectives
{x:2, y:3}|[3{x}6]|[2{y}6]|f32|6|-|auto
{x:2, y:3}|[3{x}6]|[2{y}6]|f32|6|-|exchange
{x:4}|[{x}10, 3]|[10, {x}3]|f64|4|-|auto
{x:2, y:3}|[{x,y}50257]|[{y}50257]|bf16|6|-|auto
{x:2}|[{x}12, 5]|[12, {y}5]|i32|6|{y:4} @ 2|auto
{a:2, b:2}|[{a}9, {b}4]|[{p}9, 4]|c64|7|{p:3} @ [6, 0, 3]|exchange
{x:2, y:3}|[3{x}6]|[2{y}6]|f32|6|-|@$out/worked.plan
{a:3, b:6}|[2{a}6]|[1{b}6]|u8|18|-|@$out/refine.plan
{a:3, b:6}|[2{a}6]|[1{b}6]|u8|18|-|%$out/refine.json
{a:2, b:2}|[{a}9, {b}4]|[{p}9, 4]|c64|7|{p:3} @ [6, 0, 3]|%$out/two_meshes.json
{a:2, b:4}|[{b}64, {a}64]|[64, 64]|f32|8|-|auto
{a:2, b:4}|[{a,b}1004]|[1004]|f64|8|-|auto
{a:2, b:4}|[{b}64, {a}64]|[64, 64]|u8|8|-|@$out/hybrid.plan
{a:2, b:4}|[{b}64, {a}64]|[64, 64]|f32|8|-|@$out/nested.plan
{a:2, b:4}|[{b}64, {a}64]|[64, 64]|f32|8|-|%$out/hybrid.json
{x:4} @ 4|[{x}1000]|[1000]|i64|8|{a:2, b:2}|@$out/two_meshes.plan
EOF_PROBLEMS

# redist_plan_from_json: the plan of a report is the checked plan of its
# text (`redist plan | redist check --plan -`), for every kind of plan; a
# report edited into a wrong plan is rejected (code 1), malformed JSON and a
# missing field are code 2 with one line.
for q in 'collectives|--mesh|{x:2, y:4}|--from|[16{x}32, 64{y}256]|--to|[8{y}32, 128{x}256]' \
         'collectives|--mesh|{a:3, b:6}|--from|[2{a}6]|--to|[1{b}6]' \
         'auto|--mesh|{a:2, b:4}|--from|[{b}64, {a}64]|--to|[64, 64]' \
         'auto|--from-mesh|{x:2}|--to-mesh|{y:4} @ 2|--from|[{x}12, 5]|--to|[12, {y}5]' \
         'collectives|--mesh|{x:2, y:3}|--from|[12, 6] sum{x,y}|--to|[{y}12, 6]|--dtype|i32' \
         'collectives|--mesh|{a:3, b:6}|--from|[2{a}6] sum{b}|--to|[1{b}6]|--dtype|u16' \
         'auto|--from-mesh|{x:2, y:2}|--to-mesh|{p:2} @ [5, 0]|--from|[{x}5, 3] sum{y}|--to|[5, 3] sum{p}|--dtype|u8'; do
  IFS='|' read -r strategy rest <<<"$q"
  IFS='|' read -r -a Q <<<"$rest"
  if diff <("$redist" plan "${Q[@]}" --strategy "$strategy" --json | "$out/query_c" from-json) \
          <("$redist" plan "${Q[@]}" --strategy "$strategy" | "$redist" check "${Q[@]}" --plan - --json) >/dev/null; then
    ok "redist_plan_from_json ${Q[*]} ($strategy): the checked plan of the report, as redist check's JSON"
  else
    ko "redist_plan_from_json ${Q[*]} ($strategy): differs from redist check's JSON"
  fi
done
sed 's/"text": "all_permute(\[1{b}6\])"/"text": "all_gather(0)"/' "$out/refine.json" >"$out/edited.json"
# JSON_FILE|expected code|expected text
printf '{"schema": "redist/1", "steps": [}\n' >"$out/malformed.json"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); del d["target"]; print(json.dumps(d))' \
  "$out/refine.json" >"$out/missing.json"
while IFS='|' read -r file code want; do
  msg=$("$out/query_c" from-json <"$file"); rc=$?
  if [ "$rc" -eq "$code" ] && [ "$(wc -l <<<"$msg")" -eq 1 ] && grep -qF -- "$want" <<<"$msg"; then
    ok "redist_plan_from_json $(basename "$file"): ${msg}"
  else
    ko "redist_plan_from_json $(basename "$file"): exit $rc, '$msg' (expected code $code and '$want')"
  fi
done <<EOF_JSON
$out/edited.json|1|plan rejected
$out/malformed.json|2|plan JSON:
$out/missing.json|2|no field target
EOF_JSON

# The C ABI's JSON and text are `redist plan`'s (a plan by the collectives,
# one by the exchange, pending sums, a hybrid); its figures are the JSON's.
for q in '{x:2, y:4}|[16{x}32, 64{y}256]|[8{y}32, 128{x}256]|bf16' '{x:4}|[{x}10, 3]|[10, {x}3]|f64' \
         '{x:2, y:3}|[{x}6, 12] sum{y}|[{x}6, {y}12]|i32' '{x:2, y:3}|[7, 5] sum{x}|[{y}7, 5] sum{x}|f32' \
         '{a:2, b:4}|[{b}64, {a}64]|[64, 64]|f32'; do
  IFS='|' read -r -a Q <<<"$q"
  P=(--mesh "${Q[0]}" --from "${Q[1]}" --to "${Q[2]}" --dtype "${Q[3]}")
  if diff <("$out/query_c" json "${Q[@]}") <("$redist" plan "${P[@]}" --json) >/dev/null; then
    ok "redist_plan_json equals redist plan --json (${Q[*]})"
  else
    ko "redist_plan_json differs from redist plan --json (${Q[*]})"
  fi
  if diff <("$out/query_c" text "${Q[@]}") <("$redist" plan "${P[@]}") >/dev/null; then
    ok "redist_plan_text equals redist plan (${Q[*]})"
  else
    ko "redist_plan_text differs from redist plan (${Q[*]})"
  fi
done
Q=('{x:2, y:4}' '[16{x}32, 64{y}256]' '[8{y}32, 128{x}256]' bf16)
# redist_plan_check: an accepted plan's JSON is `redist check --json`'s; a
# rejected plan is code 1 with the checker's line.
W=('{x:2, y:3}' '[3{x}6]' '[2{y}6]' f32)
WP=(--mesh "${W[0]}" --from "${W[1]}" --to "${W[2]}" --dtype "${W[3]}")
if diff <("$out/query_c" check-json "${W[@]}" <"$out/worked.plan") \
        <("$redist" check "${WP[@]}" --plan "$out/worked.plan" --json) >/dev/null; then
  ok "redist_plan_check's JSON equals redist check --json"
else
  ko "redist_plan_check's JSON differs from redist check --json"
fi
printf 'dyn_slice(0, y)\nall_permute([2{y}6])\n' >"$out/rejected.plan"
msg=$("$out/query_c" check-json "${W[@]}" <"$out/rejected.plan"); rc=$?
want=$("$redist" check "${WP[@]}" --plan "$out/rejected.plan" 2>&1 >/dev/null)
if [ "$rc" -eq 1 ] && [ "$msg" = "code 1: ${want#redist: }" ]; then
  ok "a rejected plan: code 1, ${msg#code 1: }"
else
  ko "a rejected plan: exit $rc, '$msg', redist check says '$want'"
fi

# A hybrid plan file (a via line): its JSON is `redist check --json`'s (run_c
# runs it above).
H=('{a:2, b:4}' '[{b}64, {a}64]' '[64, 64]' f32)
if diff <("$out/query_c" check-json "${H[@]}" <"$out/hybrid.plan") \
        <("$redist" check --mesh "${H[0]}" --from "${H[1]}" --to "${H[2]}" --dtype "${H[3]}" --plan "$out/hybrid.plan" \
           --json) >/dev/null; then
  ok "a hybrid plan file: redist_plan_check's JSON equals redist check --json"
else
  ko "a hybrid plan file: redist_plan_check's JSON differs from redist check --json"
fi

# The figures of a plan by the collectives and of a hybrid (the workspace:
# compared with the header's by differential.sh).
for P in Q H; do
  declare -n F=$P
  figures=$("$out/query_c" figures "${F[@]}")
  expected=$("$redist" plan --mesh "${F[0]}" --from "${F[1]}" --to "${F[2]}" --dtype "${F[3]}" --json | python3 -c '
import json, sys
p = json.load(sys.stdin)
b = p["elem_bytes"]
print("steps %d peak %d recv_max %d lower_bound %d src %d dst %d" % (len(p["steps"]), p["peak_elems"] * b,
      p["recv_elems_max"] * b, p["lower_bound_recv_max"] * b, p["src_elems"] * b, p["tgt_elems"] * b))
for s in p["steps"]: print(s["text"])
print("\n".join(p["proven"]))')
  got=$(sed -E '1s/ workspace [0-9]+$//; s/^([a-z_]+): .*/\1/' <<<"$figures")
  if [ "$got" = "$expected" ]; then
    ok "figures, step texts and guarantees equal redist plan --json's (${F[*]})"
  else
    ko "figures (${F[*]}): got $got, expected $expected"
  fi
  unset -n F
done
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
{x:2, y:3|[3{x}6]|[2{y}6]|f32|mesh: column
{x:2, y:3}|[3{x}7]|[2{y}6]|f32|from: dim 0: stated local size 3, but the ceil block of 7 over |x| = 2 is 4
{x:2, y:3}|[{x}6]|[7]|f32|global shapes differ
{x:2, y:3}|[3{x}6]|[2{z}6]|f32|to: 
{x:2, y:3}|[3{x}6]|[2{y}6]|f31|dtype: 
{x:2, y:3}|[3{x}6]|[2{y}6, 1]|f32|from has 1 dimensions but to has 2
{x:2}|[1,1,1,1,1,1,1,1,{x}2]|[1,1,1,1,1,1,1,1,2]|f32|the runtime handles at most 8
{a:1,b:1,c:1,d:1,e:1,f:1,g:1,h:1,i:1}|[4]|[4]|f32|the runtime's mesh has at most 8
{x:2, y:2}|[4{x}8, 8] sum{y}|[8, 8]|f8e4m3|from: sum{..} of f8e4m3: the runtime computes sum only of
{x:2, y:2}|[4{x}8, 8] sum{x}|[8, 8]|i32|from: sum: axis x (column 16) also shards dim 0
EOF_BAD

# A plan for 6 devices bound to 4 ranks: every rank fails with the runtime's
# message, none hangs.
msg=$(timeout 60 "${MPIRUN[@]}" -np 4 "$out/run_c" '{x:2, y:3}' '[3{x}6]' '[2{y}6]' f32 2>&1 </dev/null); rc=$?
if [ "$rc" -ne 0 ] && [ "$(grep -c "code 2: " <<<"$msg")" -eq 4 ]; then
  ok "a plan for 6 devices on 4 ranks fails on every rank: $(grep -m1 "code 2" <<<"$msg")"
else
  ko "a plan for 6 devices on 4 ranks: exit $rc, $msg"
fi

# Misuse on 6 ranks: 11 checks on every rank (misuse_c.c), none hangs.
misuse_out=$(timeout 120 "${MPIRUN[@]}" -np 6 "$out/misuse_c" </dev/null 2>&1)
if [ "$(grep -c '^ok rank ' <<<"$misuse_out")" -eq 66 ] && ! grep -q '^FAIL' <<<"$misuse_out"; then
  ok "misuse: the host's SIGSEGV handler kept, null arguments, unknown strategy, uneven by the collectives, null plan, negative rank, empty box outside the mesh, one rank's short dst fails on all 6 ranks, then a run works"
else
  ko "misuse: $(grep -v '^ok' <<<"$misuse_out" | head -c 1500)"
fi

# Split phase on 4 ranks: 21 checks on every rank and one more on rank 0 (split_c.c).
split_out=$(timeout 120 "${MPIRUN[@]}" -np 4 "$out/split_c" </dev/null 2>&1)
if [ "$(grep -c '^ok rank ' <<<"$split_out")" -eq 85 ] && ! grep -q '^FAIL' <<<"$split_out"; then
  ok "split phase: exchange, collectives, reducing exchange started, polled, waited for, every element right; wait/test without start, start twice, one rank's second start fails on all 4, run between start and wait, freed in flight"
else
  ko "split phase: $(grep -v '^ok' <<<"$split_out" | head -c 1500)"
fi

# Single copy on a host: 46 cases on 4 ranks, one TAP result each (shared_c.c).
tap_program shared_c timeout 120 "${MPIRUN[@]}" -np 4 "$out/shared_c"

# One property: 20,000 mutated inputs, each planned or refused with code 2
# and one line (robust_c.c, fixed seed).
if robust_out=$(timeout 300 "$out/robust_c" 2>&1); then ok "robust: $robust_out"
else ko "robust: $robust_out"; fi

# Planning from 4 threads at once.
if threads_out=$(timeout 120 "$out/threads_c" 2>&1); then ok "threads: $threads_out"
else ko "threads: $threads_out"; fi

# redist_plan_create_from: problems as structs plan as the same strings do.
tap_program structs_c "$out/structs_c"

# Pending sums through the C ABI: each case of sums_c.c under mpirun, then
# its refusals.
for ((i = 0; i < $("$out/sums_c" count); i++)); do
  read -r np what <<<"$("$out/sums_c" describe "$i")"
  if result=$(timeout 120 "${MPIRUN[@]}" -np "$np" "$out/sums_c" "$i" 2>&1 </dev/null) && grep -q "^verified: " <<<"$result"; then
    ok "sums_c $what on $np ranks: ${result#verified: }"
  else
    ko "sums_c $what on $np ranks: $(head -c 1500 <<<"$result")"
  fi
done
tap_program "sums_c refusals" "$out/sums_c" refusals

# redist_plan_step and redist_plan_receives (the Python adapters' input)
# against the plan's boxes.  MESH|TO_MESH or -|FROM|TO|STRATEGY
while IFS='|' read -r mesh to_mesh from to strategy; do
  if result=$("$out/pieces_c" "$mesh" "$to_mesh" "$from" "$to" "$strategy" 2>&1) && grep -q "^verified: " <<<"$result"; then
    ok "pieces_c $mesh -> $to_mesh $from -> $to $strategy: ${result#verified: }"
  else
    ko "pieces_c $mesh -> $to_mesh $from -> $to $strategy: $result"
  fi
done <<'EOF_PIECES'
{x:4}|-|[{x}7, 5]|[7, {x}5]|auto
{x:2, y:2}|-|[{x}5, {y}3]|[{y}5, {x}3]|exchange
{x:4}|{a:2, b:2} @ [3, 1, 2, 0]|[{x}7, 5]|[{b}7, {a}5]|auto
{x:4} @ 4|{x:2, y:4}|[{x}50, 16]|[{x}50, {y}16]|auto
{x:6, y:10}|-|[10{x}60, 6{y}60]|[6{y}60, 10{x}60]|exchange
{x:2, y:3}|-|[3{x}6]|[2{y}6]|collectives
{a:3, b:6}|-|[2{a}6]|[1{b}6]|collectives
{x:2, y:4}|-|[16{x}32, 64{y}256]|[8{y}32, 128{x}256]|collectives
{a:2, b:2, c:2}|-|[{a,b}8, {c}4]|[{c}8, {b,a}4]|collectives
{a:2, b:4}|-|[{b}64, {a}64]|[64, 64]|auto
EOF_PIECES

# libredist_plan.so exports the C ABI only.
so=_build/prefix/lib/libredist_plan.so
others=$(nm -D --defined-only "$so" | awk '$3 !~ /^redist_/ {print $3}')
exported=$(nm -D --defined-only "$so" | awk '$3 ~ /^redist_/' | wc -l)
if [ -z "$others" ] && [ "$exported" -gt 20 ]; then ok "libredist_plan.so exports only the $exported redist_* functions"
else ko "libredist_plan.so exports $(head -c 300 <<<"$others")"; fi

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

tap_program differential.sh tests/capi/differential.sh 50
tap_end
