#!/usr/bin/env bash
# The differential test of the plan interpreter (tests/capi/differential.cpp):
# COUNT random problems (tests/cli/random_problems.exe, fixed seed, meshes of
# at most 8 devices), one header each from `redist gen`, all compiled into
# one program run on 8 ranks, followed by 3 plans by the direct exchange.
# Each problem is one test.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
count=${1:-50}
redist=_build/default/codegen/main.exe
out=_build/capi/differential
rm -rf "$out" && mkdir -p "$out"
: >"$out/all_problems.hpp"
: >"$out/problems.inc"
while IFS='|' read -r name mesh from to dtype _; do
  if "$redist" gen --strategy collectives --mesh "$mesh" --from "$from" --to "$to" --dtype "$dtype" --name "$name" -o "$out/$name.hpp"; then
    echo "#include \"$name.hpp\"" >>"$out/all_problems.hpp"
    echo "PROBLEM($name, \"$mesh\", \"$from\", \"$to\", \"$dtype\")" >>"$out/problems.inc"
  else
    ko "$name: redist gen failed"
  fi
done < <(_build/default/tests/cli/random_problems.exe "$count")
if mpicxx -std=c++17 -O1 -Wall -Wextra -Werror -I"$out" -Itests/capi -Icodegen $(capi_flags --cflags) tests/capi/differential.cpp \
     $(capi_flags --libs) -o "$out/differential" 2>"$out/compile.log"; then
  while read -r verdict rest; do
    case "$verdict" in
      ok) ok "$rest" ;;
      FAIL) ko "$rest" ;;
    esac
  done < <("${MPIRUN[@]}" -np 8 "$out/differential" 2>&1 || echo "FAIL mpirun exited with an error")
else
  ko "differential.cpp does not compile: $(head -c 2000 "$out/compile.log")"
fi
report test-capi-differential
