#!/usr/bin/env bash
# Runs a test binary of the NCCL backend under mpirun, once per world size
# in REDIST_GPU_RANKS (default "1"; on GPUs use one rank per GPU); each run
# prints a TAP document (tests/runtime_gpu/main.cpp: skipped cases are not
# passed).  A run that crashes or hangs leaves its document short, which
# counts as failed; one that exits non-zero with no failed case is one more
# failed test here.
# Usage: run.sh BINARY [arguments for the binary...]
set -u
. "$(dirname "$0")/../lib.sh"
exe=$1
shift
for n in ${REDIST_GPU_RANKS:-1}; do
  tap_program "$(basename "$exe") on $n rank(s)" timeout 900 "${MPIRUN[@]}" -np "$n" "$exe" "$@"
done
tap_end
