#!/usr/bin/env bash
# Runs COMMAND when the runtime's CMake configuration (_build/runtime) set
# FLAG, else reports the NCCL backend's tests as one test skipped for WHY.
#   tests/runtime_gpu/if_built.sh FLAG WHY COMMAND [ARG...]
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
flag=$1 why=$2
shift 2
if grep -q "^$flag:INTERNAL=ON\$" _build/runtime/CMakeCache.txt; then exec "$@"; fi
skipped "the NCCL backend's tests" "$why"
tap_end
