#!/usr/bin/env bash
# `redist run` under mpirun: verified runs (text and JSON), --np different
# from the mesh size, and each toolchain failure as one line
# "redist: error: ..." with exit code 4.  Prints "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
redist=$PWD/_build/default/codegen/main.exe
W=(--mesh '{x:2, y:3}' --from '[3{x}6]' --to '[2{y}6]')
S=(--mesh '{a:3, b:6}' --from '[12{a}36, 4]' --to '[6{b}36, 4]')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

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
"$redist" run "${W[@]}" --json --repeat 2 >"$tmp/json" 2>&1
if python3 - "$tmp/json" <<'PY'
import json, sys
r = json.loads(open(sys.argv[1]).read())
assert r["verified"] is True and r["mismatches"] == 0 and r["elements_checked"] == 12, r
assert r["ranks"] == 6 and r["repeat"] == 2 and r["median_s"] > 0, r
# Measured peak within the proven bound, which is below gather-everything.
assert 0 < r["peak_bytes"] <= r["proven_peak_bytes"] < r["gather_everything_bytes"], r
assert r["used_ping_bytes"] + r["used_pong_bytes"] + r["used_scratch_bytes"] <= r["workspace_bytes"], r
assert r["guards_intact"] is True and r["operator_new_calls"] == 0 and r["own_malloc_calls"] == 0, r
assert r["plan"] == ["dyn_slice(0, y)", "all_permute([1{y,x}6])", "all_gather(0)"], r
PY
then ok "--json: one object, verified, peak within the bound"; else ko "--json: $(head -c 300 "$tmp/json")"; fi

expect "--np differs from the mesh" 4 'redist: error: the runtime refused the run: Mesh::create: communicator has 4 ranks but the mesh has 6 devices' -- "$redist" run "${W[@]}" --np 4
expect "no mpicxx on PATH" 4 'redist: error: mpicxx is not on PATH' -- env PATH=/nonexistent "$redist" run "${W[@]}"
expect "REDIST_ROOT without a runtime" 4 'redist: error: REDIST_ROOT=/ does not contain' -- env REDIST_ROOT=/ "$redist" run "${W[@]}"
# A compiler that fails: a wrapper named mpicxx first on PATH.
mkdir -p "$tmp/badcc"
printf '#!/bin/sh\necho "driver.cpp:1:1: error: simulated failure" >&2\nexit 1\n' >"$tmp/badcc/mpicxx"
chmod +x "$tmp/badcc/mpicxx"
expect "compile failure" 4 'redist: error: compiling the driver failed: .*simulated failure' -- env PATH="$tmp/badcc:$PATH" "$redist" run "${W[@]}"
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
# The installed layout: PREFIX/bin/redist next to PREFIX/include and PREFIX/lib.
mkdir -p "$tmp/prefix/bin" "$tmp/prefix/lib" "$tmp/prefix/include"
cp "$redist" "$tmp/prefix/bin/redist"
cp -r runtime/include/redist "$tmp/prefix/include/"
cp _build/runtime/libredist_mpi.a "$tmp/prefix/lib/"  # built from the same headers (make runtime)
pushd "$tmp" >/dev/null
expect "installed layout" 0 '^verified' -- "$tmp/prefix/bin/redist" run "${W[@]}" --repeat 1
popd >/dev/null

# The checks catch a wrong plan: the worked example's header with two
# entries of its permutation table swapped must give mismatches.
mkdir -p "$tmp/wd"
"$redist" run "${W[@]}" --work-dir "$tmp/wd" --repeat 1 >/dev/null 2>&1
sed -i 's/kRecvFrom1\[kDevices\] = {0, 2, 4, 1, 3, 5}/kRecvFrom1[kDevices] = {0, 4, 2, 1, 3, 5}/' "$tmp/wd/problem.hpp"
if grep -q '{0, 4, 2, 1, 3, 5}' "$tmp/wd/problem.hpp" &&
   mpicxx -std=c++17 -O2 -Iruntime/include -I"$tmp/wd" "$tmp/wd/run_main.cpp" _build/runtime/libredist_mpi.a -o "$tmp/wd/bad" &&
   timeout 120 "${MPIRUN[@]}" -np 6 "$tmp/wd/bad" 1 </dev/null 2>&1 | grep -q 'mismatches=[1-9]'; then
  ok "a corrupted permutation table is caught"
else
  ko "a corrupted permutation table went unnoticed"
fi

# The application example of codegen/README.md, built with plain flags and
# through pkg-config against an installed runtime, run on 8 ranks.
"$redist" gen --mesh '{x:2, y:4}' --from '[16{x}32, 64{y}256]' --to '[8{y}32, 128{x}256]' \
  --dtype f32 --name reshard -o "$tmp/reshard.hpp"
cmake --install _build/runtime --prefix "$tmp/inst" >/dev/null
app_flags=(-std=c++17 -O2 -Wall -Wextra -Werror -I"$tmp" tests/e2e/app_example.cpp)
if mpicxx "${app_flags[@]}" -Iruntime/include _build/runtime/libredist_mpi.a -o "$tmp/app_plain" 2>"$tmp/err" &&
   PKG_CONFIG_PATH=$(dirname "$(find "$tmp/inst" -name redist_mpi.pc)") &&
   mpicxx $(PKG_CONFIG_PATH=$PKG_CONFIG_PATH pkg-config --cflags redist_mpi) "${app_flags[@]}" \
     $(PKG_CONFIG_PATH=$PKG_CONFIG_PATH pkg-config --libs redist_mpi) -o "$tmp/app_pc" 2>>"$tmp/err"; then
  for app in app_plain app_pc; do
    n=$(timeout 120 "${MPIRUN[@]}" -np 8 "$tmp/$app" </dev/null 2>&1 | grep -c ': ok$')
    if [ "$n" -eq 8 ]; then ok "README application example ($app): 8 ranks ok"; else ko "README application example ($app): $n of 8 ranks ok"; fi
  done
else
  ko "README application example does not build: $(head -c 300 "$tmp/err")"
fi
report test-run
