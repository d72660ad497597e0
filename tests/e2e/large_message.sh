#!/usr/bin/env bash
# A single message over 2 GiB (MPI's int count in bytes), end to end, by the
# collectives and by the direct exchange.  The collectives: the
# plan of `redist gen` for u8[{x}4294967298] -> [4294967298] on {x:2} is one
# all_gather in which each rank sends 2^31 + 1 bytes (two 1 GiB blocks and a
# remainder of one byte), run on 2 ranks; tests/e2e/large_message.cpp checks
# every element.  Needs about 13 GiB of memory (2 ranks holding 2 GiB of
# source and 4 GiB of destination each), else it is skipped, saying so.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
redist=_build/default/codegen/main.exe
out=_build/large-message
need_gib=13
mkdir -p "$out"
available_gib=$(awk '/^MemAvailable:/ {print int($2 / 1048576)}' /proc/meminfo)
if [ "$available_gib" -lt "$need_gib" ]; then
  skipped "messages over 2 GiB end to end" "needs $need_gib GiB of available memory, $available_gib GiB available"
  tap_end
  exit
fi
# large NAME WHAT DRIVER_FLAGS -- GEN_ARGS...: generates header NAME, builds
# the driver against it with DRIVER_FLAGS (words), runs it on 2 ranks.
large() {
  local name=$1 what=$2 flags=$3; shift 4
  local start
  if ! "$redist" gen "$@" --name "$name" -o "$out/$name.hpp"; then
    ko "$what: redist gen failed"
  # shellcheck disable=SC2086  # the driver's flags are words
  elif ! mpicxx -std=c++17 -O2 -Wall -Wextra -Werror $(runtime_flags --cflags) -include "$out/$name.hpp" \
         -DREDIST_NS=redist_gen::$name $flags tests/e2e/large_message.cpp $(runtime_flags --libs) -o "$out/$name.exe"; then
    ko "$what: the driver does not build"
  else
    start=$(date +%s)
    if timeout 600 "${MPIRUN[@]}" -np 2 "$out/$name.exe" </dev/null; then
      ok "$what, every element correct ($(($(date +%s) - start)) s)"
    else
      ko "$what: wrong result or failure under mpirun -np 2"
    fi
  fi
}
large large "u8[{x}4294967298] -> [4294967298] on {x:2}: messages of 2147483649 bytes" "" -- \
  --strategy collectives --mesh '{x:2}' --from 'u8[{x}4294967298]' --to '[4294967298]' --backend mpi
# The direct exchange over an extent above 2^31 - 1 elements: each rank's
# box (2^31 + 1 bytes) goes whole to the other rank, one message of that
# many elements, carried by datatypes built from blocks.
large large_exchange "exchange u8[{x}4294967298] on {x:2} -> {y:2} @ [1, 0]: 2147483649 elements each way" \
  -DREDIST_EXCHANGE -- --strategy exchange --from-mesh '{x:2}' --to-mesh '{y:2} @ [1, 0]' \
  --from 'u8[{x}4294967298]' --to '[{y}4294967298]'
tap_end
