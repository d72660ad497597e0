#!/usr/bin/env bash
# Runs the runtime test binary under mpirun once per world size: each run
# prints a TAP document, one result per test case for the whole world
# (tests/runtime/main.cpp), which tests/tap_count.sh counts.  A run that
# crashes or hangs (timeout) leaves its document short, which counts as
# failed; one that exits non-zero with every case passed is one more failed
# test here.  Failures' accounts come from every rank's doctest report.
# Usage: run.sh BINARY [extra environment for the ranks: NAME=VALUE...]
set -u
. "$(dirname "$0")/../lib.sh"
exe=$1
shift
sizes=${REDIST_TEST_SIZES:-1 2 3 4 6 8}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
env_flags=(-x REDIST_TEST_OUT)
for kv in "$@"; do export "${kv?}"; env_flags+=(-x "${kv%%=*}"); done
for n in $sizes; do
  export REDIST_TEST_OUT=$out/np$n
  if ! tap_program "world size $n" timeout 150 "${MPIRUN[@]}" "${env_flags[@]}" -np "$n" "$exe" --no-colors; then
    for f in "$out"/np$n.rank*; do grep -B2 -A6 -E 'ERROR|CRASHED' "$f" | head -n 40 | sed 's/^/# /'; done
  fi
done
tap_end
