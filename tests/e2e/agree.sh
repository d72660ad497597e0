#!/usr/bin/env bash
# Generated run() with one rank's buffer wrong (tests/e2e/agree_main.cpp):
# for each world size, a header from `redist gen` for a problem on that many
# devices, the driver compiled against it and run under mpirun with a
# timeout, so that a rank left waiting fails the case instead of blocking.
# Each case line of the driver is one test.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
redist=$PWD/_build/default/codegen/main.exe
out=_build/agree
rm -rf "$out" && mkdir -p "$out"
runtime_flags --libs >/dev/null || { ko "the runtime is not staged in _build/prefix (make runtime)"; tap_end; exit 1; }
# One problem per world size, each with a workspace (checked by the driver).
problems=(
  "2|{x:2}|[{x}4, 6]|[4, {x}6]"
  "4|{x:2, y:2}|[{x,y}8, 4]|[8, {y,x}4]"
  "6|{x:2, y:3}|[{x}6]|[{y}6]"
  "8|{x:2, y:4}|[{x}24]|[{y}24]"
)
for p in "${problems[@]}"; do
  IFS='|' read -r n mesh from to <<<"$p"
  dir=$out/np$n
  mkdir -p "$dir"
  if ! "$redist" gen --strategy collectives --mesh "$mesh" --from "$from" --to "$to" --dtype i32 --name plan -o "$dir/plan.hpp" 2>"$dir/gen.log"; then
    ko "np $n: redist gen failed: $(head -c 300 "$dir/gen.log")"; continue
  fi
  if ! mpicxx -std=c++17 -O1 -Wall -Wextra -Werror $(runtime_flags --cflags) -I"$dir" tests/e2e/agree_main.cpp \
       $(runtime_flags --libs) -o "$dir/agree" 2>"$dir/cc.log"; then
    ko "np $n: the driver does not compile: $(head -c 600 "$dir/cc.log")"; continue
  fi
  timeout 60 "${MPIRUN[@]}" -np "$n" "$dir/agree" >"$dir/run.log" 2>"$dir/err.log"
  rc=$?
  while read -r verdict name; do
    case $verdict in ok) ok "np $n: $name" ;; FAIL) ko "np $n: $name" ;; esac
  done <"$dir/run.log"
  if [ "$rc" -ne 0 ]; then
    ko "np $n: mpirun exit $rc$([ "$rc" -eq 124 ] && echo ' (timeout: a rank was left waiting)')"
    tail -n 20 "$dir/err.log"
  fi
done
tap_end
