#!/usr/bin/env bash
# Runs the runtime test binary under mpirun for each world size and adds up
# doctest's test cases.  A test case counts once per world size (rank 0's
# count); the failed ones are the most that any single rank reports;
# a run that crashes, hangs (timeout) or exits non-zero with no failure in
# its reports counts as one failed test.
# Usage: run.sh BINARY LABEL [extra environment for the ranks: NAME=VALUE...]
set -u
. "$(dirname "$0")/../lib.sh"
exe=$1 label=$2
shift 2
sizes=${REDIST_TEST_SIZES:-1 2 3 4 6 8}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
env_flags=(-x REDIST_TEST_OUT)
for kv in "$@"; do export "${kv?}"; env_flags+=(-x "${kv%%=*}"); done
for n in $sizes; do
  export REDIST_TEST_OUT=$out/np$n
  timeout 150 "${MPIRUN[@]}" \
    "${env_flags[@]}" -np "$n" "$exe" --no-colors >"$out/np$n.log" 2>&1
  rc=$?
  cases=0 bad=0
  for f in "$out"/np$n.rank*; do
    [ -e "$f" ] || continue
    line=$(grep -E 'test cases: *[0-9]+' "$f" | tail -n 1)
    [ -n "$line" ] || continue
    x=$(sed -E 's/.*\| *([0-9]+) failed.*/\1/' <<<"$line")
    [ "$f" = "$out/np$n.rank0" ] && cases=$(sed -E 's/.*test cases: *([0-9]+).*/\1/' <<<"$line")
    [ "$x" -gt "$bad" ] && bad=$x
  done
  good=$((cases > bad ? cases - bad : 0))
  if [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; then bad=1; fi
  printf '  world size %d: %d ok, %d bad (mpirun exit %d)\n' "$n" "$good" "$bad" "$rc"
  if [ "$rc" -ne 0 ] || [ "$bad" -gt 0 ]; then
    echo "---- np=$n output"; tail -n 30 "$out/np$n.log"
    for f in "$out"/np$n.rank*; do grep -B2 -A6 -E 'ERROR|CRASHED' "$f" | head -n 40; done
    echo "----"
  fi
  pass=$((pass + good)) fail=$((fail + bad))
done
report "$label"
