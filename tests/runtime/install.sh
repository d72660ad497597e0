#!/usr/bin/env bash
# The installed prefix as a new user meets it (`make install PREFIX=P` has
# run): every file of the layout is there, examples/worked_example builds
# against P through find_package(redist) and through pkg-config and runs
# correctly under mpirun, and the installed `redist run` finds its runtime
# in P.  Also `make install` with DESTDIR stages under DESTDIR/PREFIX.
# Usage: REDIST_SUBCOMMANDS="plan ..." install.sh PREFIX SCRATCH_DIR
# (the subcommands with a man page of their own, codegen/codegen.mk)
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
prefix=$1 scratch=$2

# ---- the layout -------------------------------------------------------------------
layout=(bin/redist include/redist/redist.hpp include/redist/mpi.hpp include/redist/version.hpp
        include/redist/placed.hpp include/redist/exchange.hpp
        lib/libredist_common.a lib/libredist_mpi.a lib/cmake/redist/redistConfig.cmake
        lib/cmake/redist/redistConfigVersion.cmake lib/cmake/redist/redistTargets.cmake
        lib/pkgconfig/redist_mpi.pc share/man/man1/redist.1
        include/redist/redist.h include/redist/interpreter.hpp lib/libredist_plan.a lib/libredist_plan.so
        lib/pkgconfig/redist_plan.pc)
for c in $REDIST_SUBCOMMANDS; do layout+=("share/man/man1/redist-$c.1"); done
# The NCCL backend is installed exactly when it was built.
if [ -f _build/runtime/libredist_nccl.a ]; then
  layout+=(lib/libredist_nccl.a lib/pkgconfig/redist_nccl.pc include/redist/nccl.hpp include/redist/nccl_exchange.hpp)
fi
missing=()
for f in "${layout[@]}"; do [ -s "$prefix/$f" ] || missing+=("$f"); done
if [ ${#missing[@]} -eq 0 ]; then ok "install layout: ${#layout[@]} files"
else ko "install layout: missing ${missing[*]}"; fi

man_ok=1
for page in "$prefix"/share/man/man1/*.1; do
  grep -q '^\.TH ' "$page" || { man_ok=0; ko "man page $page has no .TH header"; }
done
[ $man_ok -eq 1 ] && ok "man pages are groff (.TH)"

# The .pc files take the version from redist/version.hpp (through CMake).
header_version=$(sed -n 's/^#define REDIST_VERSION "\(.*\)"$/\1/p' runtime/include/redist/version.hpp)
pc_version=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --modversion redist_mpi)
if [ -n "$header_version" ] && [ "$pc_version" = "$header_version" ]; then
  ok "redist_mpi.pc version $pc_version = REDIST_VERSION"
else
  ko "redist_mpi.pc version '$pc_version', REDIST_VERSION '$header_version'"
fi

# Plain pkg-config conventions: no compiler flags that are the
# application's choice (-std), no GNU-only -l:NAME, no Debian-only alias
# (mpi-cxx), and MPI required by its own name, as the files use it.
for pcfile in "$prefix"/lib/pkgconfig/*.pc; do
  name=$(basename "$pcfile" .pc)
  if grep -qE -- '-std=|-l:|mpi-cxx' "$pcfile"; then
    ko "$name.pc: $(grep -E -- '-std=|-l:|mpi-cxx' "$pcfile" | head -n 1)"
  elif ! grep -qE '^Requires: *(ompi-c|mpich|mpi-c)$' "$pcfile"; then
    ko "$name.pc requires no MPI: $(grep '^Requires' "$pcfile" || echo 'no Requires line')"
  else
    ok "$name.pc: no -std, -l: or mpi-cxx; $(grep '^Requires' "$pcfile")"
  fi
done

# ---- an application against the prefix ----------------------------------------------
built=()
if cmake -S examples/worked_example -B "$scratch/cmake" -DCMAKE_PREFIX_PATH="$prefix" >"$scratch/cmake.log" 2>&1 &&
   cmake --build "$scratch/cmake" -- --no-print-directory >>"$scratch/cmake.log" 2>&1; then
  ok "worked_example builds with find_package(redist)"; built+=(cmake/worked_example)
else
  ko "worked_example does not build with find_package(redist): $(tail -n 5 "$scratch/cmake.log")"
fi
pc=(env PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config)
if g++ -Wall -Wextra -Werror $("${pc[@]}" --cflags redist_mpi) examples/worked_example/main.cpp \
     $("${pc[@]}" --libs redist_mpi) -o "$scratch/worked_example_pc" 2>"$scratch/pc.log"; then
  ok "worked_example builds with pkg-config redist_mpi"; built+=(worked_example_pc)
else
  ko "worked_example does not build with pkg-config: $(head -c 300 "$scratch/pc.log")"
fi
# The NCCL backend's package: compile and link (running needs a GPU).
if [ -f "$prefix/lib/libredist_nccl.a" ]; then
  if cmake -S tests/runtime/nccl_app -B "$scratch/nccl_cmake" -DCMAKE_PREFIX_PATH="$prefix" >"$scratch/nccl.log" 2>&1 &&
     cmake --build "$scratch/nccl_cmake" -- --no-print-directory >>"$scratch/nccl.log" 2>&1; then
    ok "an NCCL application links with find_package(redist) -> redist::redist_nccl"
  else
    ko "an NCCL application does not build with find_package(redist): $(tail -n 5 "$scratch/nccl.log")"
  fi
  if mpicxx -Wall -Wextra -Werror $("${pc[@]}" --cflags redist_nccl) tests/runtime/nccl_app/main.cpp \
       $("${pc[@]}" --libs redist_nccl) -o "$scratch/nccl_app_pc" 2>"$scratch/nccl_pc.log"; then
    ok "an NCCL application links with pkg-config redist_nccl"
  else
    ko "an NCCL application does not build with pkg-config redist_nccl: $(head -c 300 "$scratch/nccl_pc.log")"
  fi
fi
for exe in "${built[@]}"; do
  for n in 1 3 6 8; do
    if timeout 60 "${MPIRUN[@]}" -np "$n" "$scratch/$exe" </dev/null; then ok "$exe on $n ranks"
    else ko "$exe on $n ranks"; fi
  done
done

# ---- the C ABI ----------------------------------------------------------------------
# README.md's C example, as C11 through pkg-config redist_plan, on its 6 ranks.
if mpicc -std=c11 -Wall -Wextra -Werror examples/capi/main.c $("${pc[@]}" --cflags --libs redist_plan) \
     -o "$scratch/capi_example" 2>"$scratch/capi.log"; then
  if timeout 60 "${MPIRUN[@]}" -np 6 "$scratch/capi_example" </dev/null >"$scratch/capi_run.log" 2>&1; then
    ok "examples/capi/main.c (C11, pkg-config redist_plan) plans and runs on 6 ranks"
  else
    ko "examples/capi/main.c on 6 ranks: $(head -c 300 "$scratch/capi_run.log")"
  fi
else
  ko "examples/capi/main.c does not build with pkg-config redist_plan: $(head -c 300 "$scratch/capi.log")"
fi

# The same program from a C-only CMake project: find_package(redist
# COMPONENTS plan) with no C++ compiler enabled.
if cmake -S tests/runtime/c_app -B "$scratch/c_app" -DCMAKE_PREFIX_PATH="$prefix" >"$scratch/c_app.log" 2>&1 &&
   cmake --build "$scratch/c_app" -- --no-print-directory >>"$scratch/c_app.log" 2>&1; then
  if timeout 60 "${MPIRUN[@]}" -np 6 "$scratch/c_app/c_app" </dev/null >"$scratch/c_app_run.log" 2>&1; then
    ok "a C-only CMake project (find_package(redist COMPONENTS plan)) builds examples/capi/main.c, which runs on 6 ranks"
  else
    ko "the C-only CMake project's program on 6 ranks: $(head -c 300 "$scratch/c_app_run.log")"
  fi
else
  ko "a C-only CMake project does not build with find_package(redist COMPONENTS plan): $(tail -n 5 "$scratch/c_app.log")"
fi

# ---- the installed redist run ------------------------------------------------------
# Run from outside the source tree so that only the installed prefix can
# provide the runtime.
mkdir -p "$scratch/elsewhere"
if out=$(cd "$scratch/elsewhere" && env -u REDIST_ROOT -u REDIST_RUNTIME_PREFIX "$prefix/bin/redist" run \
           --mesh '{x:2, y:3}' --from '[3{x}6]' --to '[2{y}6]' --repeat 1 2>&1) && grep -q '^verified' <<<"$out"; then
  ok "installed redist run verifies the worked example"
else
  ko "installed redist run: $(head -c 300 <<<"$out")"
fi

# ---- DESTDIR staging -----------------------------------------------------------------
if make --no-print-directory install PREFIX=/opt/redist DESTDIR="$scratch/stage" >"$scratch/stage.log" 2>&1 &&
   [ -x "$scratch/stage/opt/redist/bin/redist" ] && [ -s "$scratch/stage/opt/redist/lib/libredist_mpi.a" ] &&
   [ -s "$scratch/stage/opt/redist/lib/pkgconfig/redist_mpi.pc" ]; then
  ok "make install DESTDIR stages under DESTDIR/PREFIX"
else
  ko "make install DESTDIR: $(tail -n 5 "$scratch/stage.log")"
fi
tap_end
