#!/usr/bin/env bash
# Runs the NCCL backend's test binary under mpirun (REDIST_GPU_RANKS ranks,
# default 1; use one rank per GPU) and reports
# "test-nccl: N passed, N failed, N skipped", where the successful build
# counts as one passed check and skipped cases are not passed.
# Usage: run.sh BINARY
set -u
exe=$1
ranks=${REDIST_GPU_RANKS:-1}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
timeout 900 mpirun --allow-run-as-root --oversubscribe --mca btl self,vader -np "$ranks" \
  "$exe" >"$log" 2>&1
rc=$?
cat "$log"
line=$(grep -E '^cases: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped' "$log" | tail -n 1)
if [ -n "$line" ]; then
  read -r p f s < <(sed -E 's/^cases: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped.*/\1 \2 \3/' <<<"$line")
else
  p=0 f=0 s=0
fi
# A crash, a hang or a non-zero exit with no failure reported is a failure.
if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
  echo "test binary exited with status $rc"
  f=1
fi
echo "test-nccl: $((p + 1)) passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
