#!/usr/bin/env bash
# `redist run` under mpirun: verified runs (text and JSON), --np different
# from the mesh size, each toolchain failure as one line
# "redist: error: ..." with exit code 4, finding the runtime without ever
# building it, concurrent runs, signals.  Prints TAP (tests/lib.sh).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
redist=$PWD/_build/default/codegen/main.exe
W=(--mesh '{x:2, y:3}' --from '[3{x}6]' --to '[2{y}6]')
# The worked example by the paper's collectives (auto takes the exchange).
WC=("${W[@]}" --strategy collectives)
S=(--mesh '{a:3, b:6}' --from '[12{a}36, 4]' --to '[6{b}36, 4]')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Other users read it in the run as nobody below.
chmod 755 "$tmp"

# The runtime prefix `make runtime` stages, where redist finds it (unless
# the environment names another).
unset REDIST_RUNTIME_PREFIX
prefix=$PWD/_build/prefix
libs=("$prefix/lib/libredist_mpi.a" "$prefix/lib/libredist_common.a")
# `make install` into a scratch prefix: the command, the runtime, pkg-config.
installed=$tmp/installed
make --no-print-directory -s install PREFIX="$installed" >"$tmp/install.log" 2>&1 || {
  ko "make install PREFIX=$installed: $(tail -c 300 "$tmp/install.log")"; tap_end; exit 1; }

# expect NAME EXIT [GREP-PATTERN-ON-STDOUT] -- ARGS...: runs redist, checks
# the exit code, that stderr is empty or one "redist: error:" line, and
# that stdout matches the pattern.
expect() {
  local name=$1 want=$2 pattern=$3; shift 4
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$? errlines
  errlines=$(wc -l <"$tmp/err")
  if [ "$rc" -ne "$want" ]; then ko "$name: exit $rc, expected $want ($(head -c 300 "$tmp/err"))"; return; fi
  if [ "$errlines" -gt 1 ] || { [ "$errlines" -eq 1 ] && ! grep -q '^redist: error: ' "$tmp/err"; }; then
    ko "$name: stderr is not one error line: $(head -c 300 "$tmp/err")"; return
  fi
  if [ -n "$pattern" ] && ! grep -qE "$pattern" "$tmp/out" "$tmp/err"; then
    ko "$name: output lacks /$pattern/: $(head -c 300 "$tmp/out")"; return
  fi
  ok "$name"
}

expect "worked example verified" 0 '^verified: .*12 elements checked, 0 mismatches' -- "$redist" run "${W[@]}" --repeat 3
expect "sub-axes, 18 ranks, u8" 0 '^verified' -- "$redist" run "${S[@]}" --dtype u8 --repeat 1
expect "c128 elements" 0 '^verified' -- "$redist" run "${W[@]}" --dtype c128 --repeat 1
"$redist" run "${WC[@]}" --json --repeat 2 >"$tmp/json" 2>&1
if python3 - "$tmp/json" <<'PY'
import json, sys
r = json.loads(open(sys.argv[1]).read())
assert r["verified"] is True and r["mismatches"] == 0 and r["elements_checked"] == 12, r
assert r["ranks"] == 6 and r["repeat"] == 2 and r["median_s"] > 0, r
# Measured peak within the proven bound, which is below gather-everything.
assert 0 < r["peak_bytes"] <= r["proven_peak_bytes"] < r["gather_everything_bytes"], r
assert r["used_ping_bytes"] + r["used_pong_bytes"] + r["used_scratch_bytes"] <= r["workspace_bytes"], r
assert r["guards_intact"] is True and r["operator_new_calls"] == 0 and r["own_malloc_calls"] == 0, r
assert [s["text"] for s in r["steps"]] == ["dyn_slice(0, y)", "all_permute([1{y,x}6])", "all_gather(0)"], r
assert r["schema"] == "redist/1" and r["command"] == "run", r
PY
then ok "--json: one object, verified, peak within the bound"; else ko "--json: $(head -c 300 "$tmp/json")"; fi

# Plans of every strategy: uneven (empty boxes too), across meshes (other
# sizes, a submesh, disjoint and permuted rank lists), the exchange on an
# even problem.  Each is verified on every element of every rank, and each
# rank must have received exactly its proven lower bound.
V='^verified: every element .* 0 mismatches\)$'
X='^received: .* every rank received exactly its lower bound$'
expect_both() {  # NAME -- ARGS: verified and at the lower bound
  local name=$1; shift 2
  expect "$name" 0 "$V" -- "$@"
  if [ "$(grep -cE "$V|$X" "$tmp/out")" -ne 2 ]; then ko "$name: not at the lower bound: $(head -c 400 "$tmp/out")"; fi
}
expect_both "uneven: 50257 rows over 8 ranks" -- "$redist" run --mesh '{x:8}' --from '[{x}50257]' --to '[50257]' --repeat 1
expect_both "uneven with empty boxes, u16" -- "$redist" run --mesh '{x:4, y:2}' --from '[{x}3, {y}5]' --to '[{y}3, {x}5]' --dtype u16 --repeat 1
expect_both "from 4 to 2x4 devices, f64" -- "$redist" run --from-mesh '{x:4}' --to-mesh '{x:2, y:4}' --from '[{x}64, 16]' --to '[{x}64, {y}16]' --dtype f64 --repeat 1
expect_both "to a submesh @ 2" -- "$redist" run --from-mesh '{x:8}' --to-mesh '{x:4} @ 2' --from '[{x}13, 3]' --to '[13, {x}3]' --repeat 1
expect_both "disjoint meshes, c128" -- "$redist" run --from-mesh '{x:2}' --to-mesh '{x:3} @ 2' --from '[{x}5, 2]' --to '[{x}5, 2]' --dtype c128 --repeat 1

# Hybrids the cost model picks (NDR InfiniBand profile): the exchange then
# an all_gather (even; uneven; from a mesh on world ranks 8 to 11, so the
# gather's mesh is part of the world), an all_to_all then the exchange.
# Each verified on every element of every rank.
N=(--profile docs/profiles/ndr-infiniband.json)
expect_hybrid() {  # NAME -- ARGS: a hybrid, verified
  local name=$1; shift 2
  expect "$name" 0 "$V" -- "$@"
  grep -q '^plan: hybrid: ' "$tmp/out" || ko "$name: not a hybrid: $(head -c 400 "$tmp/out")"
}
expect_hybrid "hybrid: exchange, then all_gather(0)" -- "$redist" run --mesh '{a:2, b:4}' --from '[{b}64, {a}64]' --to '[64, 64]' "${N[@]}" --ranks-per-host 4 --repeat 1
expect_hybrid "hybrid: uneven source, f64" -- "$redist" run --mesh '{a:2, b:4}' --from '[{a,b}1004]' --to '[1004]' "${N[@]}" --ranks-per-host 4 --dtype f64 --repeat 1
expect_hybrid "hybrid: source on ranks 8..11" -- "$redist" run --from-mesh '{x:4} @ 8' --to-mesh '{a:2, b:4}' --from '[{x}1000]' --to '[1000]' "${N[@]}" --ranks-per-host 4 --repeat 1
expect_hybrid "hybrid: all_to_all, then the exchange" -- "$redist" run --mesh '{a:2, b:4}' --from '[{a,b}64, 64]' --to '[64, {b,a}64]' "${N[@]}" --ranks-per-host 2 --repeat 1
expect_both "permuted rank lists, u8" -- "$redist" run --from-mesh '{a:2, b:2} @ [3, 1, 2, 0]' --to-mesh '{x:3} @ [4, 0, 2]' --from '[{b}7, {a}5]' --to '[{x}7, 5]' --dtype u8 --repeat 1
expect_both "even problem by --strategy exchange" -- "$redist" run "${W[@]}" --strategy exchange --repeat 1
if grep -q '^plan: exchange (one direct exchange, strategy exchange)$' "$tmp/out"; then ok "--strategy exchange runs the exchange"
else ko "--strategy exchange: $(head -c 300 "$tmp/out")"; fi
expect_both "more processes than the world: the rest hold nothing" -- "$redist" run --from-mesh '{x:2}' --to-mesh '{x:3} @ 2' --from '[{x}5]' --to '[{x}5]' --np 7 --repeat 1
expect "fewer processes than the world" 4 '^redist: error: the runtime refused the run: Exchange::create: target mesh: rank 4 at position 2 is outside the world of 4 ranks$' -- \
  "$redist" run --from-mesh '{x:2}' --to-mesh '{x:3} @ 2' --from '[{x}5]' --to '[{x}5]' --np 4
expect "uneven by --strategy collectives" 2 '^redist: error: --strategy collectives: the collectives need an even problem .* use --strategy exchange or auto$' -- \
  "$redist" run --mesh '{x:3}' --from '[{x}7]' --to '[7]' --strategy collectives
"$redist" run --from-mesh '{x:4}' --to-mesh '{x:2, y:4}' --from '[{x}50, 6]' --to '[{y}50, {x}6]' --json --repeat 1 >"$tmp/json" 2>&1
if python3 - "$tmp/json" <<'PY'
import json, sys
r = json.loads(open(sys.argv[1]).read())
assert r["verified"] is True and r["mismatches"] == 0 and r["ranks"] == 8, r
# The target shards both dimensions over all 8 ranks: each element once.
assert r["elements_checked"] == 300, r
assert [s["op"] for s in r["steps"]] == ["exchange"] and r["workspace_bytes"] == 0, r
assert r["box_disagreements"] == 0 and r["ranks_off_lower_bound"] == 0, r
assert r["recv_elems_max_measured"] == r["lower_bound_recv_max"] == r["steps"][0]["recv_elems_max"], r
assert 0 < r["peak_bytes"] <= r["proven_peak_bytes"] < r["gather_everything_bytes"], r
assert r["source_mesh"]["ranks"] == [0, 1, 2, 3] and r["target_mesh"]["ranks"] == list(range(8)), r
assert r["guards_intact"] is True and r["operator_new_calls"] == 0 and r["own_malloc_calls"] == 0, r
PY
then ok "--json of a cross-mesh exchange: verified, at the lower bound, peak within the bound"; else ko "--json exchange: $(head -c 300 "$tmp/json")"; fi

# The checks catch a wrong exchange: an mpicxx first on PATH edits the
# generated files before compiling them (sed expression $CORRUPT on
# $CORRUPT_FILE of the work directory), and redist run must say FAILED, exit 1.
real_mpicxx=$(command -v mpicxx)
mkdir -p "$tmp/corrupt"
cat >"$tmp/corrupt/mpicxx" <<SH
#!/bin/sh
for a; do case \$a in */run_main.cpp) dir=\${a%/run_main.cpp};; esac; done
cp "\$dir/\$CORRUPT_FILE" "\$dir/original"
sed -i "\$CORRUPT" "\$dir/\$CORRUPT_FILE"
# An expression that changed nothing would let the run pass: fail instead.
cmp -s "\$dir/original" "\$dir/\$CORRUPT_FILE" && { echo "error: \$CORRUPT changed nothing" >&2; exit 1; }
exec $real_mpicxx "\$@"
SH
chmod +x "$tmp/corrupt/mpicxx"
corrupt() {  # NAME FILE SED-EXPRESSION FAILED-PATTERN -- ARGS
  local name=$1 file=$2 expr=$3 pattern=$4; shift 5
  expect "caught: $name" 1 "$pattern" -- env PATH="$tmp/corrupt:$PATH" CORRUPT_FILE="$file" CORRUPT="$expr" "$@"
}
P=(--from-mesh '{x:4}' --to-mesh '{a:2, b:2} @ [3, 1, 2, 0]' --from '[{x}9, 2]' --to '[{a}9, {b}2]' --repeat 1)
corrupt "a byte of the exchange's destination flipped" problem.hpp \
  's|return ex.run(src, src_bytes, dst, dst_bytes);|::redist::Status st = ex.run(src, src_bytes, dst, dst_bytes); if (dst_bytes > 0) reinterpret_cast<unsigned char*>(dst)[0] ^= 1; return st;|' \
  '^FAILED: [1-9][0-9]* mismatched elements' -- "$redist" run "${P[@]}"
corrupt "a permuted target rank list" problem.hpp 's/kRanks\[\] = {3, 1, 2, 0}/kRanks[] = {1, 3, 2, 0}/' \
  "^FAILED: on [1-9][0-9]* ranks the runtime's source or target box is not the model's" -- "$redist" run "${P[@]}"
corrupt "a lower bound that is not the runtime's traffic" model.hpp 's/kRecvBound\[kWorld\] = {/&1/' \
  '^FAILED: [1-9][0-9]* ranks received other than their proven lower bound$' -- "$redist" run "${P[@]}"
corrupt "a collectives permutation table" problem.hpp 's/kRecvFrom1\[kDevices\] = {0, 2, 4, 1, 3, 5}/kRecvFrom1[kDevices] = {0, 4, 2, 1, 3, 5}/' \
  '^FAILED: [1-9][0-9]* mismatched elements' -- "$redist" run "${WC[@]}" --repeat 1

# In place (--in-place): the header of gen --in-place on every rank, each
# rank's buffer holding its source box at offset 0; after the run its
# prefix must be the target box on every element, the live bytes measured
# within the proven buffer + staging.
IV='^verified: every element of every rank.s target box is correct in its buffer \([1-9][0-9]* elements checked, 0 mismatches\)$'
expect "in place: between meshes, uneven, the least budget" 0 "$IV" -- \
  "$redist" run --from-mesh '{x:2}' --to-mesh '{y:3} @ 1' --from '[{x}7, 5]' --to '[{y}7, 5]' --in-place --memory-budget 84 --repeat 1
expect "in place: 3x2 mesh, bf16, no budget" 0 "$IV" -- \
  "$redist" run --mesh '{x:3, y:2}' --from 'bf16[{x}11, {y}5]' --to 'bf16[{y}11, 5]' --in-place --repeat 1
IP=(--mesh '{x:4}' --from '[{x}8, 8]' --to '[8, {x}8]' --in-place --repeat 1)
"$redist" run "${IP[@]}" --dtype f64 --memory-budget 160 --json >"$tmp/json" 2>&1
if python3 - "$tmp/json" <<'PY'
import json, sys
r = json.loads(open(sys.argv[1]).read())
ip = r["in_place"]
assert r["command"] == "run" and r["verified"] is True and r["mismatches"] == 0 and r["elements_checked"] == 64, r
assert r["box_disagreements"] == 0 and r["ranks"] == 4, r
# 16 elements of 8 bytes per buffer, 4 elements of staging: 160 bytes.
assert ip["buffer_bytes"] == 128 and ip["staging_bytes"] == 32 and ip["live_bytes"] == 160 == ip["memory_budget"], r
assert ip["rounds"] >= 2, r
# peak_bytes: the live bytes measured, buffer + staging used, within the proven.
assert 128 <= r["peak_bytes"] <= r["proven_peak_bytes"] == ip["live_bytes"], r
assert 0 < r["used_scratch_bytes"] <= r["workspace_bytes"] == ip["staging_bytes"], r
assert r["peak_bytes"] == 128 + r["used_scratch_bytes"], r
assert r["guards_intact"] is True and r["operator_new_calls"] == 0 and r["own_malloc_calls"] == 0, r
assert r["heap_growth_bytes"] >= 0, r
PY
then ok "in place --json: verified, the live bytes measured within buffer + staging"; else ko "in place --json: $(head -c 300 "$tmp/json")"; fi
corrupt "in place: a byte of the buffer flipped" problem.hpp \
  's|return ip.run(buffer, buffer_bytes, staging, staging_bytes);|::redist::Status st = ip.run(buffer, buffer_bytes, staging, staging_bytes); if (buffer_bytes > 0) static_cast<unsigned char*>(buffer)[0] ^= 1; return st;|' \
  '^FAILED: [1-9][0-9]* mismatched elements' -- "$redist" run "${IP[@]}"
corrupt "in place: a buffer that is not the model's" problem.hpp 's/kBufferElems\[kWorldSize\] = {16/kBufferElems[kWorldSize] = {17/' \
  "^FAILED: on 1 ranks the runtime's buffer is not the model's max\\(\\|src box\\|, \\|tgt box\\|\\); nothing was run$" -- "$redist" run "${IP[@]}"
expect "in place: a budget below the largest buffer and one element" 2 '^redist: error: --memory-budget: 67 bytes per rank is below 68, the least an in-place plan takes' -- \
  "$redist" run "${IP[@]}" --memory-budget 67
expect "in place: pending sums refused" 2 '^redist: error: --in-place: pending sums \(sum\{\.\.\.\}\) are not supported in place yet; drop --in-place$' -- \
  "$redist" run --mesh '{x:2}' --from '[4] sum{x}' --to '[4]' --in-place
expect "in place: --strategy collectives refused" 2 '^redist: error: --in-place: --strategy collectives is not supported in place yet' -- \
  "$redist" run "${IP[@]}" --strategy collectives

# Pending sums: every element of every rank's target box must sum, over its
# target group, to the global array (runtime/testing/verify.hpp's verify_sums), by
# the reductions and collectives or by the reducing exchange.
# The collective plans are named: auto may choose the reducing exchange.
PS=(--mesh '{x:2, y:2}' --from '[4{x}8, 8] sum{y}' --to '[8, 8]' --strategy collectives --dtype i32 --repeat 1)
PT=(--mesh '{x:2, y:2}' --from '[8, 8] sum{x,y}' --to '[8, 8] sum{y}' --strategy collectives --dtype i64 --repeat 1)
SV='^verified: every element of every rank.s target box sums, over its target group, to the global array \([1-9][0-9]* elements checked, 0 mismatches\)$'
expect "pending sum to replicated: all_reduce, all_gather" 0 "$SV" -- "$redist" run "${PS[@]}"
expect "pending sums to a pending target: add_pending" 0 "$SV" -- "$redist" run "${PT[@]}"
expect "pending sum, uneven: the reducing exchange, u16" 0 "$SV" -- "$redist" run --mesh '{x:2, y:3}' --from '[7, 8] sum{x}' --to '[{y}7, 8]' --dtype u16 --repeat 1
expect "pending sum across meshes, i8" 0 "$SV" -- "$redist" run --from-mesh '{x:2, y:2}' --to-mesh '{z:3} @ 1' --from '[{x}5, 3] sum{y}' --to '[{z}5, 3]' --dtype i8 --repeat 1
expect "pending sums to sum{x,z}, u64" 0 "$SV" -- "$redist" run --mesh '{x:2, y:2, z:2}' --from '[{y}8, 4] sum{x,z}' --to '[8, {y}4] sum{x,z}' --dtype u64 --repeat 1
"$redist" run "${PT[@]}" --json >"$tmp/json" 2>&1
if python3 - "$tmp/json" <<'PY'
import json, sys
r = json.loads(open(sys.argv[1]).read())
assert r["command"] == "run" and r["verified"] is True and r["mismatches"] == 0 and r["elements_checked"] == 4 * 64, r
assert r["source_pending"] == ["x", "y"] and r["target_pending"] == ["y"], r
assert [s["text"] for s in r["steps"]][-1] == "add_pending(y)", r
assert 0 < r["peak_bytes"] <= r["proven_peak_bytes"] == 8 * r["peak_elems"], r
assert 0 < r["used_scratch_bytes"] <= r["workspace_bytes"] and r["live_bytes"] >= r["peak_bytes"], r
assert r["guards_intact"] is True and r["operator_new_calls"] == 0 and r["own_malloc_calls"] == 0, r
PY
then ok "--json of pending sums: verified, its steps, peak within the bound"; else ko "--json pending sums: $(head -c 300 "$tmp/json")"; fi
# Floating-point pending sums: every element of every rank bitwise equal to
# the sum the host forms in the plan's order (each reduction step's own
# rounding, the reducing exchange's one fold), over every checked run (two
# at least), so runs agree bitwise too.
FV='^verified: every element of every rank.s target box is, bitwise, the sum of its contributions combined in the plan.s order \([1-9][0-9]* elements checked, 0 mismatches\)$'
PF=(--mesh '{x:2, y:2, z:2}' --from '[8, 4] sum{x,y,z}' --to '[{x}8, 4]' --strategy collectives --repeat 1)
expect "float pending sums: f32, all_reduce" 0 "$FV" -- "$redist" run "${PS[@]::8}" --dtype f32 --repeat 1
expect "float pending sums: bf16, three reduce_scatters" 0 "$FV" -- "$redist" run "${PF[@]}" --dtype bf16
expect "float pending sums: f64 to a pending target (add_pending)" 0 "$FV" -- "$redist" run "${PT[@]::8}" --dtype f64 --repeat 1
expect "float pending sums: f16 uneven, the reducing exchange" 0 "$FV" -- "$redist" run --mesh '{x:2, y:3}' --from '[7, 8] sum{x}' --to '[{y}7, 8]' --dtype f16 --repeat 1
expect "float pending sums: c64 across meshes to a pending target" 0 "$FV" -- "$redist" run --from-mesh '{x:2, y:2}' --to-mesh '{z:3} @ 1' --from '[{x}5, 3] sum{y}' --to '[5, 3] sum{z}' --dtype c64 --repeat 1
expect "float pending sums: c128, two reductions, all_to_all, all_permute, add_pending" 0 "$FV" -- "$redist" run --mesh '{x:2, y:2, z:2}' --from '[{y}8, 4] sum{x,z}' --to '[8, {y}4] sum{z}' --strategy collectives --dtype c128 --repeat 1
# The other operations: bitwise against the host's replay in the plan's order.
OV() { echo "^verified: every element of every rank.s target box is, bitwise, the $1 of its contributions combined in the plan.s order \([1-9][0-9]* elements checked, 0 mismatches\)$"; }
expect "min{..}: u16, all_reduce, all_gather, add_pending" 0 "$(OV min)" -- "$redist" run --mesh '{x:2, y:2}' --from 'u16[4{x}8, 8] min{y}' --to '[8, 8] min{x}' --repeat 1
expect "avg{..}: bf16 over two axes" 0 "$(OV avg)" -- "$redist" run --mesh '{x:2, y:2}' --from 'bf16[8, 8] avg{x, y}' --to '[{x}8, 8]' --repeat 1
expect "max{..}: i32, the reducing exchange across meshes" 0 "$(OV max)" -- "$redist" run --from-mesh '{x:2, y:2}' --to-mesh '{z:3} @ 1' --from 'i32[{x}5, 3] max{y}' --to '[{z}5, 3]' --repeat 1
expect "prod{..}: f64 uneven" 0 "$(OV prod)" -- "$redist" run --mesh '{x:2, y:3}' --from 'f64[7, 8] prod{x}' --to '[{y}7, 8]' --repeat 1
corrupt "float pending sums: f32 added as u32" problem.hpp 's/Dtype::f32/Dtype::u32/' \
  '^FAILED: [1-9][0-9]* mismatched elements' -- "$redist" run "${PS[@]::8}" --dtype f32 --repeat 1
corrupt "float pending sums: the host adds in one fold, not the plan's three steps" model.hpp 's/kStageOf\[3\] = {0, 1, 2}/kStageOf[3] = {0, 0, 0}/' \
  '^FAILED: [1-9][0-9]* mismatched elements' -- "$redist" run "${PF[@]}" --dtype bf16
corrupt "pending sums: add_pending leaves every member its value" problem.hpp 's/::redist::local::fill_identity(kDtype, kOp, dst, kTgtElems);/;/' \
  '^FAILED: [1-9][0-9]* mismatched elements' -- "$redist" run "${PT[@]}"
corrupt "pending sums: all_reduce over the wrong axis" problem.hpp 's/all_reduce(mesh, ::redist::Group{1, 2}/all_reduce(mesh, ::redist::Group{2, 2}/' \
  '^FAILED: [1-9][0-9]* mismatched elements' -- "$redist" run "${PS[@]}"

# Composed cuts (semantics.md Part 3): gen's header (every rank's extracted
# region messages and copies as tables, one RegionExchange), every element
# of every rank's target local array checked against the layouts applied
# by Part 3's table in verify.hpp, each rank at region_recv_count.
RV='^verified: every element of every rank.s target local array is correct \([1-9][0-9]* elements checked, 0 mismatches\)$'
RX='^received: .* every rank received exactly its count$'
expect_regions() {  # NAME -- ARGS: verified and at region_recv_count
  local name=$1; shift 2
  expect "$name" 0 "$RV" -- "$redist" run "$@" --repeat 1
  if [ "$(grep -cE "$RV|$RX" "$tmp/out")" -ne 2 ]; then ko "$name: not at region_recv_count: $(head -c 400 "$tmp/out")"; fi
}
expect_regions "composed: nested even, x then y, to replicated, i64" -- --mesh '{x:2, y:2}' --from '[{x}{y}8, 4]' --to '[8, 4]' --dtype i64
expect_regions "composed: nested uneven, x then y to y then x, f64" -- --mesh '{x:2, y:2}' --from '[{x}{y}7, 3]' --to '[{y}{x}7, 3]' --dtype f64
expect_regions "composed: block-cyclic to row blocks (ScaLAPACK), c128" -- --mesh '{p:2, q:3}' --from '[{p}%2 13, {q}%3 10]' --to '[{p}13, 10]' --dtype c128
expect_regions "composed: a block-size change on one grid, u8" -- --mesh '{p:2, q:2}' --from '[{p}%2 9, {q}%3 7]' --to '[{p}%3 9, {q}%1 7]' --dtype u8
expect_regions "composed: cyclic then ceil blocks, to nested" -- --mesh '{x:2, y:2}' --from '[{x}%4{y}30, 3]' --to '[{y}{x}30, 3]'
expect_regions "composed: between meshes, permuted target ranks" -- --from-mesh '{x:4}' --to-mesh '{a:2, b:3} @ [6, 5, 4, 3, 2, 1]' --from '[{x}%3 17, 5]' --to '[{b}{a}17, 5]'
expect_regions "composed: disjoint meshes, 2x2 nested to 3 ranks cyclic, i16" -- --from-mesh '{x:2, y:2}' --to-mesh '{z:3} @ 4' --from '[{x}{y}7, 6]' --to '[{z}%2 7, 6]' --dtype i16
expect_regions "composed: more processes than the world hold nothing" -- --mesh '{x:2, y:2}' --from '[{y}%1 5]' --to '[{x}{y}5]' --np 6
"$redist" run --from-mesh '{x:2, y:2}' --to-mesh '{z:3} @ 4' --from '[{x}{y}7, 6]' --to '[{z}%2 7, 6]' --dtype f64 --json --repeat 2 >"$tmp/json" 2>&1
if python3 - "$tmp/json" <<'PY'
import json, sys
r = json.loads(open(sys.argv[1]).read())
assert r["command"] == "run" and r["verified"] is True and r["mismatches"] == 0 and r["ranks"] == 7, r
# The target holds every element once, over the three target ranks.
assert r["elements_checked"] == 42 and r["composed"] is True and r["target"] == "[{z}%2 7, 6]", r
assert r["box_disagreements"] == 0 and r["ranks_off_lower_bound"] == 0, r
assert r["recv_elems_max_measured"] == r["lower_bound_recv_max"] == r["steps"][0]["recv_elems_max"] == 18, r
# The largest local array: 3 rows of 6 on a target rank ({0, 1, 6} on z = 0).
assert 0 < r["peak_bytes"] <= r["proven_peak_bytes"] == 8 * 18, r
assert r["workspace_bytes"] == 0 and r["guards_intact"] is True, r
assert r["operator_new_calls"] == 0 and r["own_malloc_calls"] == 0, r
PY
then ok "--json of composed cuts between meshes: verified, at region_recv_count, peak within the bound"; else ko "--json composed: $(head -c 300 "$tmp/json")"; fi
Q=(--mesh '{x:2, y:2}' --from '[{x}{y}8, 4]' --to '[{y}{x}8, 4]' --repeat 1)
corrupt "composed: a byte of the destination flipped" problem.hpp \
  's|return ex.run(src, src_bytes, dst, dst_bytes);|::redist::Status st = ex.run(src, src_bytes, dst, dst_bytes); if (dst_bytes > 0) reinterpret_cast<unsigned char*>(dst)[0] ^= 1; return st;|' \
  '^FAILED: [1-9][0-9]* mismatched elements' -- "$redist" run "${Q[@]}"
corrupt "composed: a count that is not the runtime's traffic" model.hpp 's/kRecvCount\[kWorld\] = {0, 8/kRecvCount[kWorld] = {0, 9/' \
  '^FAILED: 1 ranks received other than their proven lower bound$' -- "$redist" run "${Q[@]}"
corrupt "composed: the target's shard order swapped in the reference" model.hpp \
  's/kTargetCuts\[\] = {{0, 0, 1, {1}}, {0, 0, 1, {0}}/kTargetCuts[] = {{0, 0, 1, {0}}, {0, 0, 1, {1}}/' \
  '^FAILED: [1-9][0-9]* mismatched elements' -- "$redist" run "${Q[@]}"
expect "composed: a box index past the tables refused on every rank, one line" 4 \
  '^redist: error: the runtime refused the run: RegionExchange::create: ' -- \
  env PATH="$tmp/corrupt:$PATH" CORRUPT_FILE=problem.hpp CORRUPT='s/^    {4, 5}, {6, 7},$/    {4, 5}, {6, 99},/' "$redist" run "${Q[@]}"
corrupt "composed: a source shape that is not the layout's" problem.hpp 's/kSourceShapes\[8\] = {/&1+/' \
  "^FAILED: on [1-9][0-9]* ranks the runtime's source or target local array is not the model's" -- "$redist" run --mesh '{x:2, y:2}' --from '[{x}{y}7, 3]' --to '[7, 3]' --repeat 1

# Composed cuts with pending axes: gen's header (every rank's extracted
# reduce_sends and reduce_recvs as tables, one reducing RegionExchange);
# verify.hpp forms each source member's contribution and combines a group's
# in member order with the runtime's kernel (floats compared bitwise; c64
# contributions are large and alike in magnitude, so another order rounds
# otherwise, as the swapped member order below shows), the identity on a sum
# or prod target member other than its group's first, each rank at
# region_reduce_received.
RRV='^verified: every element of every rank.s target local array is, bitwise, the (sum|prod|max|min|avg) of its group.s contributions combined in ascending source-mesh rank \([1-9][0-9]* elements checked, 0 mismatches\)$'
expect_reducing() {  # NAME -- ARGS: verified and at region_reduce_received
  local name=$1; shift 2
  expect "$name" 0 "$RRV" -- "$redist" run "$@" --repeat 1
  if [ "$(grep -cE "$RRV|$RX" "$tmp/out")" -ne 2 ]; then ko "$name: not at region_reduce_received: $(head -c 400 "$tmp/out")"; fi
}
expect_reducing "composed pending: sum{y} of block-cyclic to nested, i32" -- --mesh '{x:2, y:2}' --from '[{x}%2 5] sum{y}' --to '[{x}{y}5]' --dtype i32
expect_reducing "composed pending: prod{y} to prod{x,y}, bf16 (identity on all but one)" -- --mesh '{x:2, y:4}' --from '[{x}%2 9] prod{y}' --to '[9] prod{x,y}' --dtype bf16
expect_reducing "composed pending: max{y} between meshes, permuted ranks, f16" -- --from-mesh '{x:2, y:2}' --to-mesh '{p:2, q:2} @ [3, 1, 0, 2]' --from '[{x}%2 5, 3] max{y}' --to '[{p}%2 5, {q}3]' --dtype f16
expect_reducing "composed pending: min{z} to min{x} (every member keeps), u16" -- --mesh '{x:2, y:2, z:2}' --from '[{x}%2{y}7] min{z}' --to '[{y}%3 7] min{x}' --dtype u16
expect_reducing "composed pending: sum{x,z} over two axes, f32" -- --mesh '{x:2, y:2, z:2}' --from '[{y}%3 10, 3] sum{x,z}' --to '[{z}{x}10, 3]' --dtype f32
expect_reducing "composed pending: sum{y} of a plain source to a nested target, c64" -- --mesh '{x:2, y:2}' --from '[{x}5] sum{y}' --to '[{y}{x}5]' --dtype c64
expect_reducing "composed pending: avg{y} to a nested target (sum, then one division by 2), f32" -- --mesh '{x:2, y:2}' --from '[{x}%2 5] avg{y}' --to '[{x}{y}5]' --dtype f32
expect_reducing "composed pending: avg{y} to avg{y} (every member keeps the average), f64" -- --mesh '{x:2, y:2}' --from '[{x}%2 5] avg{y}' --to '[{x}5] avg{y}' --dtype f64
expect_reducing "composed pending: avg{y} of three members between meshes, permuted ranks, bf16" -- --from-mesh '{x:2, y:3}' --to-mesh '{p:4} @ [5, 0, 2, 3]' --from '[{x}%2 7] avg{y}' --to '[{p}%2 7]' --dtype bf16
expect_reducing "composed pending: more processes than the world hold nothing, i8" -- --mesh '{x:2, y:2}' --from '[{x}%1 5] sum{y}' --to '[{y}5]' --dtype i8 --np 6
QR=(--mesh '{x:2, y:2, z:2}' --from '[{y}%3 10, 3] sum{x,z}' --to '[{z}{x}10, 3]' --dtype c64 --repeat 1)
corrupt "composed pending: the reference's member order swapped" model.hpp 's/kSourcePending\[\] = {0, 2}/kSourcePending[] = {2, 0}/' \
  '^FAILED: [1-9][0-9]* mismatched elements' -- "$redist" run "${QR[@]}"
corrupt "composed pending: the header combines with another operation" problem.hpp 's/kOp = ::redist::Op::sum/kOp = ::redist::Op::prod/' \
  '^FAILED: [1-9][0-9]* mismatched elements' -- "$redist" run "${QR[@]}"
corrupt "composed pending: a count that is not the runtime's traffic" model.hpp 's/kRecvCount\[kWorld\] = {/&1+/' \
  '^FAILED: 1 ranks received other than their proven count$' -- "$redist" run "${QR[@]}"

expect "--np differs from the mesh" 4 'redist: error: the runtime refused the run: Mesh::create: communicator has 4 ranks but the mesh has 6 devices' -- "$redist" run "${WC[@]}" --np 4
expect "no mpicxx on PATH" 4 'redist: error: mpicxx is not on PATH' -- env PATH=/nonexistent "$redist" run "${W[@]}"
expect "REDIST_RUNTIME_PREFIX without a runtime" 4 'redist: error: REDIST_RUNTIME_PREFIX=/ holds no include/redist/redist.hpp, lib/libredist_mpi.a and lib/libredist_common.a$' -- \
  env REDIST_RUNTIME_PREFIX=/ "$redist" run "${W[@]}"
# A copy of the executable with no runtime beside it.
mkdir -p "$tmp/bare/bin"
cp "$redist" "$tmp/bare/bin/redist"
expect "no runtime anywhere" 4 '^redist: error: no redist runtime found: run `make runtime` or set REDIST_RUNTIME_PREFIX$' -- \
  "$tmp/bare/bin/redist" run "${W[@]}"
expect "REDIST_RUNTIME_PREFIX names the runtime" 0 '^verified' -- \
  env REDIST_RUNTIME_PREFIX="$installed" "$tmp/bare/bin/redist" run "${W[@]}" --repeat 1

# A copied source tree (executable and staged prefix, no runtime sources)
# works, and never builds or installs anything: make, cmake and apt-get
# first on PATH leave a mark and fail.
mkdir -p "$tmp/tree/_build/default/codegen" "$tmp/nobuild"
cp "$redist" "$tmp/tree/_build/default/codegen/main.exe"
cp -r "$prefix" "$tmp/tree/_build/prefix"
for tool in make cmake apt-get; do
  printf '#!/bin/sh\ntouch %s/built\nexit 1\n' "$tmp/nobuild" >"$tmp/nobuild/$tool"
  chmod +x "$tmp/nobuild/$tool"
done
# From outside any source tree: nothing but the executable's place counts.
pushd "$tmp" >/dev/null
expect "copied tree, no build tools" 0 '^verified' -- \
  env PATH="$tmp/nobuild:$PATH" "$tmp/tree/_build/default/codegen/main.exe" run "${W[@]}" --repeat 1
if [ -e "$tmp/nobuild/built" ]; then ko "redist run called make, cmake or apt-get"; else ok "redist run called no build tool"; fi

# Concurrent runs share nothing but the prefix: all 8 verified.
concurrent=8
for i in $(seq $concurrent); do
  "$tmp/tree/_build/default/codegen/main.exe" run "${W[@]}" --repeat 1 >"$tmp/conc$i" 2>&1 &
done
wait
n=$(grep -l '^verified' "$tmp"/conc* | wc -l)
if [ "$n" -eq $concurrent ]; then ok "$concurrent concurrent runs verified"
else ko "$n of $concurrent concurrent runs verified: $(grep -h -v '^verified' "$tmp"/conc* | head -c 300)"; fi
popd >/dev/null

# A prefix whose header does not compile: the compiler's first error line.
cp -r "$prefix" "$tmp/broken"
echo 'this is not C++;' >>"$tmp/broken/include/redist/redist.hpp"
expect "broken runtime header" 4 \
  "^redist: error: compiling the driver against $tmp/broken failed: $tmp/broken/include/redist/redist.hpp:[0-9]+:[0-9]+: error: .*--work-dir keeps the full log" -- \
  env REDIST_RUNTIME_PREFIX="$tmp/broken" "$redist" run "${W[@]}"

expect "TMPDIR does not exist" 2 '^redist: error: cannot create a temporary directory in /nonexistent \(TMPDIR\): No such file or directory$' -- \
  env TMPDIR=/nonexistent "$redist" run "${W[@]}"
expect "TMPDIR is a file" 2 '^redist: error: cannot create a temporary directory in /etc/passwd \(TMPDIR\): Not a directory$' -- \
  env TMPDIR=/etc/passwd "$redist" run "${W[@]}"

# mpirun's flags: --allow-run-as-root only for root.  A fake mpicxx and a
# fake mpirun that records its arguments; the second run as nobody, by the
# copy installed in $tmp (the checkout may be private: mktemp -d, ~root).
mkdir -p "$tmp/fakempi" "$tmp/rec"
chmod 1777 "$tmp/rec"
printf '#!/bin/sh\nwhile [ "$1" != -o ]; do shift; done; touch "$2"\n' >"$tmp/fakempi/mpicxx"
printf '#!/bin/sh\necho "$@" >%s/$(id -un)\nexit 1\n' "$tmp/rec" >"$tmp/fakempi/mpirun"
chmod +x "$tmp/fakempi/mpicxx" "$tmp/fakempi/mpirun"
TMPDIR=$tmp/rec PATH="$tmp/fakempi:$PATH" "$redist" run "${W[@]}" >/dev/null 2>&1
TMPDIR=$tmp/rec PATH="$tmp/fakempi:$PATH" setpriv --reuid=nobody --regid=nogroup --clear-groups \
  "$installed/bin/redist" run "${W[@]}" >/dev/null 2>&1
flags='--oversubscribe --mca btl self,vader --mca btl_vader_single_copy_mechanism none -np 6 '
if grep -q -- "^--allow-run-as-root $flags" "$tmp/rec/root" 2>/dev/null &&
   grep -q -- "^$flags" "$tmp/rec/nobody" 2>/dev/null; then
  ok "mpirun flags: --allow-run-as-root for root only"
else
  ko "mpirun flags: as root '$(cat "$tmp/rec/root" 2>&1)', as nobody '$(cat "$tmp/rec/nobody" 2>&1)'"
fi

# No process may be started (nobody limited to 1 process): one error line.
expect "fork fails" 4 '^redist: error: starting mpicxx: Resource temporarily unavailable$' -- \
  env TMPDIR="$tmp/rec" setpriv --reuid=nobody --regid=nogroup --clear-groups prlimit --nproc=1 "$installed/bin/redist" run "${W[@]}"

# An empty TMPDIR means /tmp, not the current directory.
TMPDIR= PATH="$tmp/fakempi:$PATH" "$redist" run "${W[@]}" >/dev/null 2>&1
if grep -q ' /tmp/redist-run-[^ /]*/driver ' "$tmp/rec/root"; then ok "TMPDIR empty: /tmp"
else ko "TMPDIR empty: mpirun got $(cat "$tmp/rec/root")"; fi

# interrupt SIGNALS EXIT WHEN LABEL: a long run gets each of SIGNALS (50 ms
# apart) once a process whose command line matches WHEN (after the
# temporary directory's path) is up; within 8 s (other builds may share the
# cores) redist must exit with EXIT, naming the first signal, and leave no
# process (compiler, mpirun, rank) or temporary directory behind.  Started
# with every stop signal at its default action, as from a terminal (a
# script's background job ignores SIGINT and SIGQUIT, python SIGPIPE).
interrupt() {
  local sigs=$1 want=$2 when=$3 label=$4 dir=$tmp/interrupt-$2-$4 pid i rc left sig start took
  mkdir -p "$dir"
  TMPDIR=$dir python3 -c 'import os, signal, sys
for s in (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGPIPE, signal.SIGTERM): signal.signal(s, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' \
    "$redist" run --mesh '{x:4}' --from '[{x}4194304]' --to '[4194304]' --dtype f64 --repeat 1000 "${@:5}" \
    >"$dir.json" 2>"$dir.out" &
  pid=$!
  for i in $(seq 1200); do pgrep -f "$dir/$when" >/dev/null && break; sleep 0.1; done
  sleep 0.5
  start=$(date +%s%N)
  for sig in $sigs; do kill -s "$sig" $pid; sleep 0.05; done
  for i in $(seq 80); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
  if kill -0 $pid 2>/dev/null; then kill -KILL $pid; fi
  wait $pid
  rc=$?
  took=$(( ($(date +%s%N) - start) / 1000000 ))
  left=$(pgrep -f "$dir")
  if [ "$rc" -eq "$want" ] && [ -z "$left" ] && [ -z "$(ls -A "$dir")" ] &&
     grep -q "^redist: error: interrupted by ${sigs%% *}: mpirun and its ranks were stopped$" "$dir.out"; then
    ok "$sigs while $label: exit $want after $took ms, no process or temporary directory left"
  else
    ko "$sigs while $label: exit $rc (expected $want), left: processes [$(echo $left)], files [$(ls -A "$dir")]; $(head -c 300 "$dir.out")"
    [ -n "$left" ] && kill -KILL $left
  fi
}
interrupt SIGTERM 143 '.*/driver 1000 [^ ]*/result.json$' running
interrupt SIGINT 130 '.*/driver 1000 [^ ]*/result.json$' running
interrupt 'SIGINT SIGTERM SIGINT' 130 '.*/driver 1000 [^ ]*/result.json$' running-thrice
interrupt SIGTERM 143 '.*/run_main.cpp' compiling
# Issue 24: a closed terminal or dropped ssh session (SIGHUP), SIGQUIT and a
# closed pipe (SIGPIPE) end the run alike.
interrupt SIGHUP 129 '.*/driver 1000 [^ ]*/result.json$' running
interrupt SIGQUIT 131 '.*/driver 1000 [^ ]*/result.json$' running
interrupt SIGPIPE 141 '.*/driver 1000 [^ ]*/result.json$' running
interrupt SIGHUP 129 '.*/run_main.cpp' compiling
# Under --json, also the error object of docs/schema/redist-1.json.
interrupt SIGTERM 143 '.*/driver 1000 [^ ]*/result.json$' running-json --json
if why=$(/usr/bin/python3 tests/cli/validate_json.py docs/schema/redist-1.json 143 <"$tmp/interrupt-143-running-json.json"); then
  ok "SIGTERM under --json: a valid error object"
else
  ko "SIGTERM under --json: $why"
fi

# SIGINT ignored by whoever started redist (here: the shell, for a
# background job) stays ignored, as for nohup; SIGTERM still stops the run.
dir=$tmp/ignored
mkdir -p "$dir"
TMPDIR=$dir "$redist" run --mesh '{x:4}' --from '[{x}4194304]' --to '[4194304]' --dtype f64 --repeat 1000 >"$dir.out" 2>&1 &
pid=$!
for i in $(seq 1200); do pgrep -f "$dir/.*/driver 1000 [^ ]*/result.json$" >/dev/null && break; sleep 0.1; done
kill -INT $pid
sleep 1
if kill -0 $pid 2>/dev/null && pgrep -f "$dir/.*/driver 1000 [^ ]*/result.json$" >/dev/null; then ok "ignored SIGINT stays ignored"
else ko "ignored SIGINT stopped the run: $(head -c 300 "$dir.out")"; fi
kill -TERM $pid
for i in $(seq 80); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
if kill -0 $pid 2>/dev/null; then kill -KILL $pid; fi
wait $pid
rc=$?
if [ "$rc" -eq 143 ] && [ -z "$(pgrep -f "$dir")" ]; then ok "then SIGTERM: exit 143, nothing left"
else ko "then SIGTERM: exit $rc, left: $(pgrep -f "$dir" | tr '\n' ' ')"; fi

# The help documents each exit code these tests see, and 1 as a run not verified.
"$redist" run --help=plain >"$tmp/help" 2>&1
missing=$(for code in 0 1 2 3 4 129 130 131 141 143; do grep -qE "^ +$code +(when|on) " "$tmp/help" || echo "$code"; done)
if [ -z "$missing" ] && grep -qE '^ +1 +when the run is not verified' "$tmp/help"; then
  ok "help: exit codes 0 1 2 3 4 129 130 131 141 143"
else
  ko "help: exit codes missing or wrong: $(echo $missing)"
fi

# A compiler that fails: a wrapper named mpicxx first on PATH.
mkdir -p "$tmp/badcc"
printf '#!/bin/sh\necho "driver.cpp:1:1: error: simulated failure" >&2\nexit 1\n' >"$tmp/badcc/mpicxx"
chmod +x "$tmp/badcc/mpicxx"
expect "compile failure" 4 'redist: error: compiling the driver against .* failed: .*simulated failure' -- env PATH="$tmp/badcc:$PATH" "$redist" run "${W[@]}"
# An mpirun that hangs: killed by --timeout.
mkdir -p "$tmp/hang"
printf '#!/bin/sh\nexec sleep 60\n' >"$tmp/hang/mpirun"
chmod +x "$tmp/hang/mpirun"
expect "mpirun timeout" 4 'redist: error: mpirun -np 6 timed out after 2 s' -- env PATH="$tmp/hang:$PATH" "$redist" run "${W[@]}" --timeout 2
# An mpirun that fails without a result.
mkdir -p "$tmp/mpifail"
printf '#!/bin/sh\necho "simulated launch failure" >&2\nexit 3\n' >"$tmp/mpifail/mpirun"
chmod +x "$tmp/mpifail/mpirun"
expect "mpirun failure" 4 'redist: error: mpirun -np 6 failed \(exit 3\): simulated launch failure' -- env PATH="$tmp/mpifail:$PATH" "$redist" run "${W[@]}"
# The installed prefix: PREFIX/bin/redist finds PREFIX/include and PREFIX/lib.
pushd "$tmp" >/dev/null
expect "make install PREFIX=...: redist run" 0 '^verified' -- "$installed/bin/redist" run "${W[@]}" --repeat 1
popd >/dev/null

# --work-dir keeps what was built: for an exchange, the header, the model's
# boxes and bounds, the driver and its result file.
mkdir -p "$tmp/wd"
expect "--work-dir, exchange" 0 "$V" -- "$redist" run --mesh '{x:3}' --from '[{x}7]' --to '[7]' --work-dir "$tmp/wd" --repeat 1
if [ -s "$tmp/wd/problem.hpp" ] && grep -q 'kRecvBound\[kWorld\] = {4, 4, 6}' "$tmp/wd/model.hpp" && [ -x "$tmp/wd/driver" ] &&
   python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); assert r["checked"] == 21 and r["mismatches"] == 0, r' \
     "$tmp/wd/result.json"; then
  ok "--work-dir keeps header, model, driver and output"
else
  ko "--work-dir: $(ls "$tmp/wd" | tr '\n' ' ')"
fi

# The application example of codegen/README.md, built with plain flags and
# through pkg-config against an installed runtime, run on 8 ranks.
"$redist" gen --strategy collectives --mesh '{x:2, y:4}' --from '[16{x}32, 64{y}256]' --to '[8{y}32, 128{x}256]' \
  --dtype f32 --name reshard -o "$tmp/reshard.hpp"
app_flags=(-std=c++17 -O2 -Wall -Wextra -Werror -I"$tmp" tests/e2e/app_example.cpp)
if mpicxx "${app_flags[@]}" -I"$prefix/include" "${libs[@]}" -o "$tmp/app_plain" 2>"$tmp/err" &&
   PKG_CONFIG_PATH=$(dirname "$(find "$installed" -name redist_mpi.pc)") &&
   mpicxx $(PKG_CONFIG_PATH=$PKG_CONFIG_PATH pkg-config --cflags redist_mpi) "${app_flags[@]}" \
     $(PKG_CONFIG_PATH=$PKG_CONFIG_PATH pkg-config --libs redist_mpi) -o "$tmp/app_pc" 2>>"$tmp/err"; then
  for app in app_plain app_pc; do
    n=$(timeout 120 "${MPIRUN[@]}" -np 8 "$tmp/$app" </dev/null 2>&1 | grep -c ': ok$')
    if [ "$n" -eq 8 ]; then ok "README application example ($app): 8 ranks ok"; else ko "README application example ($app): $n of 8 ranks ok"; fi
  done
else
  ko "README application example does not build: $(head -c 300 "$tmp/err")"
fi
# Several redistributions in one program (README.md): one mesh, the second
# header's groups added with prepare, one workspace; every element checked.
M2=(--mesh '{x:2, y:4}')
if "$redist" gen --strategy collectives "${M2[@]}" --from '[16{x}32, 64{y}256]' --to '[32, 32{y,x}256]' --name to_cols -o "$tmp/to_cols.hpp" &&
   "$redist" gen --strategy collectives "${M2[@]}" --from '[32, 32{y,x}256]' --to '[4{x,y}32, 256]' --name to_rows -o "$tmp/to_rows.hpp" &&
   mpicxx -std=c++17 -O2 -Wall -Wextra -Werror -I"$tmp" -I"$prefix/include" tests/e2e/two_redistributions.cpp \
     "${libs[@]}" -o "$tmp/two" 2>"$tmp/err"; then
  n=$(timeout 120 "${MPIRUN[@]}" -np 8 "$tmp/two" </dev/null 2>&1 | grep -c ': 0 wrong elements: ok$')
  if [ "$n" -eq 8 ]; then ok "two redistributions on one mesh: 8 ranks, every element"; else ko "two redistributions on one mesh: $n of 8 ranks ok"; fi
else
  ko "two redistributions on one mesh do not build: $(head -c 300 "$tmp/err")"
fi
tap_end
