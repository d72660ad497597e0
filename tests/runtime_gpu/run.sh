#!/usr/bin/env bash
# Runs a test binary of the NCCL backend under mpirun, once per world size
# in REDIST_GPU_RANKS (default "1"; on GPUs use one rank per GPU), and
# reports "LABEL: N passed, N failed, N skipped": the sum over world sizes,
# plus the successful build as one passed check.  Skipped cases are not
# passed.  A run that crashes, hangs or exits non-zero without reporting a
# failed case counts as one failure.
# Usage: run.sh BINARY LABEL [arguments for the binary...]
set -u
exe=$1 label=$2
shift 2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
total_p=1 total_f=0 total_s=0
for n in ${REDIST_GPU_RANKS:-1}; do
  timeout 900 mpirun --allow-run-as-root --oversubscribe --mca btl self,vader -np "$n" \
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
  total_p=$((total_p + p)) total_f=$((total_f + f)) total_s=$((total_s + s))
done
echo "$label: $total_p passed, $total_f failed, $total_s skipped"
[ "$total_f" -eq 0 ]
