#!/usr/bin/env bash
# A single message over 2 GiB (MPI's int count in bytes), end to end: the
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
  echo "large-message: needs $need_gib GiB of available memory, $available_gib GiB available: skipped"
  skip=1
  report large-message
  exit
fi
if ! "$redist" gen --strategy collectives --mesh '{x:2}' --from 'u8[{x}4294967298]' --to '[4294967298]' --backend mpi \
     --name large -o "$out/large.hpp"; then
  ko "redist gen failed"
elif ! mpicxx -std=c++17 -O2 -Wall -Wextra -Werror $(runtime_flags --cflags) -include "$out/large.hpp" \
       -DREDIST_NS=redist_gen::large tests/e2e/large_message.cpp $(runtime_flags --libs) -o "$out/large.exe"; then
  ko "the driver does not build"
else
  start=$(date +%s)
  if timeout 600 "${MPIRUN[@]}" -np 2 "$out/large.exe" </dev/null; then
    ok "u8[{x}4294967298] -> [4294967298] on {x:2}: messages of 2147483649 bytes, every element correct ($(($(date +%s) - start)) s)"
  else
    ko "u8[{x}4294967298] -> [4294967298] on {x:2}: wrong result or failure under mpirun -np 2"
  fi
fi
report large-message
