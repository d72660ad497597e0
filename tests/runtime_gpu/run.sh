#!/usr/bin/env bash
# Runs a test binary of the NCCL backend under mpirun, once per world size
# in REDIST_GPU_RANKS (default "1"; on GPUs use one rank per GPU), and
# reports "LABEL: N passed, N failed, N skipped": the sum over world sizes,
# plus the successful build as one passed check.  Skipped cases are not
# passed.  A run that crashes, hangs or exits non-zero without reporting a
# failed case counts as one failure.
# Usage: run.sh BINARY LABEL [arguments for the binary...]
set -u
. "$(dirname "$0")/../lib.sh"
exe=$1 label=$2
shift 2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
pass=1  # the build itself
for n in ${REDIST_GPU_RANKS:-1}; do
  timeout 900 "${MPIRUN[@]}" -np "$n" \
    "$exe" "$@" >"$log" 2>&1
  rc=$?
  echo "---- $n rank(s)"
  cat "$log"
  line=$(grep -E '^cases: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped' "$log" | tail -n 1)
  p=0 f=0 s=0
  if [ -n "$line" ]; then
    read -r p f s < <(sed -E 's/^cases: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped.*/\1 \2 \3/' <<<"$line")
  fi
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "test binary exited with status $rc on $n rank(s)"
    f=1
  fi
  pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
done
report "$label"
