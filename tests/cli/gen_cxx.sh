#!/usr/bin/env bash
# Generated C++ against the runtime: for each problem (fixed ones and 8
# random ones), `redist gen` emits a header for the MPI backend, which must
# compile warning-free (-Wall -Wextra -Werror -std=c++17), and one for the
# NCCL backend, which must too (compile only, where CUDA headers exist);
# problems marked "yes" (all of them here) are also linked with the runtime and run
# under mpirun by tests/cli/e2e_main.cpp, which checks every rank's target
# box element by element.  Prints "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
redist=${REDIST:-_build/default/codegen/main.exe}
out=_build/cli-cxx
include=runtime/include
mkdir -p "$out/obj"
cuda_include=${CUDA_HOME:-/usr/local/cuda}/include
if [ ! -f "$include/redist/nccl.hpp" ] || [ ! -f "$cuda_include/cuda_runtime.h" ]; then
  echo "note: NCCL headers skipped (need $include/redist/nccl.hpp and $cuda_include/cuda_runtime.h)"
fi
CXXFLAGS=(-std=c++17 -Wall -Wextra -Werror)

# The runtime's sources, compiled once.
objs=()
for src in runtime/src/*.cpp; do
  obj=$out/obj/$(basename "${src%.cpp}").o
  if mpicxx "${CXXFLAGS[@]}" -O1 -I"$include" -c "$src" -o "$obj"; then objs+=("$obj")
  else ko "runtime source $src does not compile"; fi
done

# --name: each name is either refused with a one-line reason, or its header
# compiles under every standard, in a translation unit that also defines
# main().  Refused: macros and C++20 keywords; accepted: names of the
# standard library, MPI and the generated code itself.
W=(--mesh '{x:2, y:3}' --from '[3{x}6]' --to '[2{y}6]')
for name in NULL errno EOF MPI_COMM_WORLD OMPI_SKIP_MPICXX co_await concept requires linux unix; do
  msg=$("$redist" gen "${W[@]}" --name "$name" 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq 2 ] && [ "$(wc -l <<<"$msg")" -eq 1 ] && grep -q "is not accepted: " <<<"$msg"; then
    ok "--name $name refused: ${msg#*: }"
  else
    ko "--name $name: exit $rc, $msg"
  fi
done
for name in size_t uint8_t main std redist redist_gen memcpy MPI_Comm value_type run; do
  if ! "$redist" gen "${W[@]}" --name "$name" -o "$out/name_$name.hpp"; then ko "--name $name refused"; continue; fi
  for std in c++17 gnu++17 c++20; do
    if printf '#include "name_%s.hpp"\nint main() { return redist_gen::%s::kDevices == 6 ? 0 : 1; }\n' "$name" "$name" |
         mpicxx -std="$std" -Wall -Wextra -Werror -c -I"$include" -I"$out" -x c++ - -o "$out/obj/name.o"; then
      ok "--name $name compiles with -std=$std, beside main()"
    else
      ko "--name $name does not compile with -std=$std"
    fi
  done
done

# One header in two translation units links; two headers with one --name
# for different problems do not (the diagnostic names the reused name).
"$redist" gen "${W[@]}" --name twice -o "$out/twice_a.hpp" &&
  "$redist" gen --mesh '{x:2, y:3}' --from '[3{x}6]' --to '[6]' --name twice -o "$out/twice_b.hpp" ||
  ko "twice: redist gen failed"
tu() { printf '#include "%s"\nint %s() { return static_cast<int>(redist_gen::twice::kTgtElems); }\n' "$1" "$2" |
         mpicxx -std=c++17 -c -I"$include" -I"$out" -x c++ - -o "$out/obj/$2.o"; }
tu twice_a.hpp ta && tu twice_a.hpp ta2 && tu twice_b.hpp tb || ko "twice: translation units do not compile"
printf 'int ta(); int ta2();\nint main() { return ta() + ta2(); }\n' | mpicxx -c -x c++ - -o "$out/obj/main_same.o"
printf 'int ta(); int tb();\nint main() { return ta() + tb(); }\n' | mpicxx -c -x c++ - -o "$out/obj/main_diff.o"
if mpicxx "$out/obj/ta.o" "$out/obj/ta2.o" "$out/obj/main_same.o" -o "$out/twice_same.exe"; then
  ok "one header in two translation units links"
else
  ko "one header in two translation units does not link"
fi
if link_out=$(mpicxx "$out/obj/ta.o" "$out/obj/tb.o" "$out/obj/main_diff.o" -o "$out/twice_diff.exe" 2>&1); then
  ko "two headers with --name twice for different problems linked into one program"
elif grep -q "redist_gen.twice.p[0-9a-f]*.name_reused_for_another_problem" <<<"$link_out"; then
  ok "two headers with --name twice for different problems: the link fails naming the reused name"
else
  ko "two headers with --name twice: the link failed without naming it: $link_out"
fi

# name | mesh | from | to | dtype | run it (yes/no): fixed problems, then
# random ones from tests/cli/random_problems.ml (fixed seed).
fixed_problems='worked|{x:2, y:3}|[3{x}6]|[2{y}6]|f32|yes
subaxes|{a:3, b:6}|[2{a}6]|[1{b}6]|f32|yes
subaxes_small|{a:2, b:4}|[4{a}8]|[2{b}8]|f32|yes
swap2d|{x:2, y:4}|[16{x}32, 64{y}256]|[8{y}32, 128{x}256]|f32|yes
gather_inner|{x:4}|[8, 2{x}8]|[8, 8]|f64|yes
three_d|{x:2, y:2}|[2{x}4, 3, 4{y}8]|[4, 3, 2{x,y}8]|bf16|yes
identity|{x:2}|[2{x}4]|[2{x}4]|u8|yes
replicated_to_sharded|{x:2, y:2}|[8, 8]|[4{x}8, 4{y}8]|i32|yes
gather_all|{x:3}|[3{x}9, 2]|[9, 2]|i64|yes
transpose_axes|{x:2, y:2}|[2{x,y}8, 4]|[2{y,x}8, 4]|f16|yes
complex16|{x:2, y:3}|[3{x}6, 6]|[6, 2{y}6]|c128|yes
'
randgen=_build/default/tests/cli/random_problems.exe
dune build -j 1 ./tests/cli/random_problems.exe || ko "random problem generator does not build"
while IFS='|' read -r name mesh from to dtype run; do
  [ -z "$name" ] && continue
  hdr=$out/$name.hpp
  if ! "$redist" gen --mesh "$mesh" --from "$from" --to "$to" --dtype "$dtype" --backend mpi --name "$name" -o "$hdr"; then
    ko "$name: redist gen failed"; continue
  fi
  if printf '#include "%s"\n' "$name.hpp" | mpicxx "${CXXFLAGS[@]}" -fsyntax-only -I"$include" -I"$out" -x c++ -; then
    ok "$name: compiles with ${CXXFLAGS[*]}"
  else
    ko "$name: does not compile"; continue
  fi
  # The same plan against the NCCL backend's header (compile only: no GPU).
  if [ -f "$include/redist/nccl.hpp" ] && [ -f "$cuda_include/cuda_runtime.h" ]; then
    nhdr=$out/${name}_nccl.hpp
    if "$redist" gen --mesh "$mesh" --from "$from" --to "$to" --dtype "$dtype" --backend nccl --name "${name}_nccl" -o "$nhdr" &&
       printf '#include "%s"\n' "${name}_nccl.hpp" | mpicxx "${CXXFLAGS[@]}" -fsyntax-only -I"$include" -I"$cuda_include" -I"$out" -x c++ -; then
      ok "$name: NCCL header compiles with ${CXXFLAGS[*]}"
    else
      ko "$name: NCCL header does not compile"
    fi
  fi
  [ "$run" = yes ] || continue
  devices=$(sed -n 's/^inline constexpr int kDevices = \([0-9]*\);/\1/p' "$hdr")
  exe=$out/$name.exe
  if ! mpicxx "${CXXFLAGS[@]}" -O1 -I"$include" -include "$hdr" -DREDIST_NS="redist_gen::$name" tests/cli/e2e_main.cpp "${objs[@]}" -o "$exe"; then
    ko "$name: e2e driver does not link"; continue
  fi
  if timeout 120 "${MPIRUN[@]}" -np "$devices" "$exe" </dev/null; then
    ok "$name: $devices ranks, every target box correct"
  else
    ko "$name: wrong result under mpirun -np $devices"
  fi
done < <(printf '%s' "$fixed_problems"; [ -x "$randgen" ] && "$randgen" "${CLI_RANDOM_PROBLEMS:-8}")
report cli-cxx
