#!/usr/bin/env bash
# Generated C++ against the runtime: for each problem (fixed ones and 8
# random ones), `redist gen` emits a header for the MPI backend, which must
# compile warning-free (-Wall -Wextra -Werror -std=c++17), and one for the
# NCCL backend, which must too (compile only, where CUDA headers exist);
# problems marked "yes" (all of them here) are also linked with the runtime and run
# under mpirun by tests/cli/e2e_main.cpp, which checks every rank's target
# box element by element.  Prints TAP (tests/lib.sh).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
redist=${REDIST:-_build/default/codegen/main.exe}
out=_build/cli-cxx
include=_build/prefix/include  # the runtime as `make runtime` stages it
mkdir -p "$out/obj" "$out/link"
cuda_include=${CUDA_HOME:-/usr/local/cuda}/include
if [ ! -f "$include/redist/nccl.hpp" ] || [ ! -f "$cuda_include/cuda_runtime.h" ]; then
  echo "note: NCCL headers skipped (need $include/redist/nccl.hpp and $cuda_include/cuda_runtime.h)"
fi
CXXFLAGS=(-std=c++17 -Wall -Wextra -Werror)

runtime_flags --libs >/dev/null || ko "the runtime is not staged in _build/prefix (make runtime)"

# --name: each name is either refused with a one-line reason, or its header
# compiles under every standard, in a translation unit that also defines
# main().  Refused: macros and C++20 keywords; accepted: names of the
# standard library, MPI and the generated code itself.
W=(--mesh '{x:2, y:3}' --from '[3{x}6]' --to '[2{y}6]' --strategy collectives)
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
         mpicxx -std="$std" -Wall -Wextra -Werror -c -I"$include" -I"$out" -x c++ - -o "$out/link/name.o"; then
      ok "--name $name compiles with -std=$std, beside main()"
    else
      ko "--name $name does not compile with -std=$std"
    fi
  done
done

# Hybrid headers (the exchange then an all_gather; an all_to_all then the
# exchange): each part's header, then the sequence through the workspace,
# compile warning-free under every standard; `redist run` runs them
# (tests/e2e/run_cli.sh).
H=(--mesh '{a:2, b:4}' --from '[{b}64, {a}64]' --to '[64, 64]')
while IFS='|' read -r name plan; do
  printf "$plan" >"$out/$name.plan"
  if ! "$redist" gen "${H[@]}" --plan "$out/$name.plan" --name "$name" -o "$out/$name.hpp"; then ko "$name: redist gen failed"; continue; fi
  for std in c++17 c++20; do
    if printf '#include "%s.hpp"\nint main() { return redist_gen::%s::kWorkspaceBytes > 0 ? 0 : 1; }\n' "$name" "$name" |
         mpicxx -std="$std" -Wall -Wextra -Werror -c -I"$include" -I"$out" -x c++ - -o "$out/link/$name.o"; then
      ok "$name: hybrid header compiles with -std=$std"
    else
      ko "$name: hybrid header does not compile with -std=$std"
    fi
  done
done <<'PLANS'
hybrid_gather|exchange\nvia [16{b}64, 64]\nall_gather(0)\n
hybrid_all_to_all|all_to_all(1, 0)\nvia [8{b,a}64, 64]\nexchange\n
PLANS

# Headers of composed cuts (the region lists as tables, one RegionExchange):
# nested, block-cyclic with local copies, between disjoint meshes (no local
# copy: a null table), with pending axes (the reducing exchange's lists),
# each warning-free under every standard.
while IFS='|' read -r name args; do
  eval "set -- $args"
  if ! "$redist" gen "$@" --name "$name" -o "$out/$name.hpp"; then ko "$name: redist gen failed"; continue; fi
  for std in c++17 gnu++17 c++20; do
    if printf '#include "%s.hpp"\nint main() { return redist_gen::%s::kTables.world == redist_gen::%s::kWorldSize ? 0 : 1; }\n' "$name" "$name" "$name" |
         mpicxx -std="$std" -Wall -Wextra -Werror -c -I"$include" -I"$out" -x c++ - -o "$out/link/$name.o"; then
      ok "$name: header of composed cuts compiles with -std=$std"
    else
      ko "$name: header of composed cuts does not compile with -std=$std"
    fi
  done
done <<'CUTS'
cuts_nested|--mesh '{x:2, y:2}' --from '[{x}{y}7, 3]' --to '[{y}{x}7, 3]' --dtype bf16
cuts_cyclic|--mesh '{p:2, q:3}' --from '[{p}%2 13, {q}%3 10]' --to '[{p}13, 10]' --dtype c64
cuts_between|--from-mesh '{x:2, y:2}' --to-mesh '{z:3} @ 4' --from '[{x}{y}7, 6]' --to '[{z}%2 7, 6]' --dtype f8e4m3
cuts_pending|--mesh '{x:2, y:2, z:2}' --from '[{x}%2{y}7] min{z}' --to '[{y}%3 7] min{x}' --dtype u16
CUTS

# An exchange header for 4,096 devices (a permuted target rank list): no
# table over pairs of ranks, so it stays under 1 MB, and it compiles.
big_ranks=$(seq 4095 -1 0 | paste -sd, -)
if "$redist" gen --from-mesh '{x:64, y:64}' --to-mesh "{x:4096} @ [$big_ranks]" --from '[{x}50257, {y}1000]' \
     --to '[{x}50257, 1000]' --dtype bf16 --name big_exchange -o "$out/big_exchange.hpp"; then
  size=$(stat -c %s "$out/big_exchange.hpp")
  if [ "$size" -lt 1048576 ] &&
     printf '#include "big_exchange.hpp"\nint main() { return redist_gen::big_exchange::kWorldSize == 4096 ? 0 : 1; }\n' |
       mpicxx -std=c++17 -Wall -Wextra -Werror -c -I"$include" -I"$out" -x c++ - -o "$out/big_exchange.o"; then
    ok "exchange header for 4096 devices: $size bytes, compiles"
  else
    ko "exchange header for 4096 devices: $size bytes, or does not compile"
  fi
else
  ko "exchange header for 4096 devices: redist gen failed"
fi

# NCCL exchange headers for 4,096 devices: the staging figure is proven and
# computed in one pass over the messages, so gen takes seconds (minutes when
# every rank's messages were counted against every rank's), the header stays
# under 1 MB and compiles, and kWorkspaceBytes is the largest rank's staging:
# cross: rank w swaps a 3x3 block (f32) with rank 4095 - w, 18 elements = 72 B;
# uneven: rank (x, y) swaps a 157x16 block (bf16) with rank (y, x), 10048 B.
while IFS='|' read -r name staging_bytes args; do
  [ -f "$include/redist/nccl_exchange.hpp" ] && [ -f "$cuda_include/cuda_runtime.h" ] || break
  eval "gen_args=($args)"
  hdr=$out/$name.hpp
  if ! timeout 30 "$redist" gen "${gen_args[@]}" --strategy exchange --backend nccl --name "$name" -o "$hdr"; then
    ko "$name: redist gen --backend nccl failed or took over 30 s"; continue
  fi
  size=$(stat -c %s "$hdr")
  if [ "$size" -lt 1048576 ] &&
     printf '#include "%s.hpp"\nstatic_assert(redist_gen::%s::kWorkspaceBytes == %s, "staging");\n' \
       "$name" "$name" "$staging_bytes" |
       mpicxx "${CXXFLAGS[@]}" -fsyntax-only -I"$include" -I"$cuda_include" -I"$out" -x c++ -; then
    ok "$name: NCCL exchange header for 4096 devices: $size bytes, compiles, kWorkspaceBytes = $staging_bytes"
  else
    ko "$name: NCCL exchange header for 4096 devices: $size bytes, or does not compile, or wrong kWorkspaceBytes"
  fi
done <<PROBLEMS
nccl_big_cross|72|--from-mesh '{x:4096}' --to-mesh '{y:4096} @ [$big_ranks]' --from '[{x}10007, 3]' --to '[{y}10007, 3]' --dtype f32
nccl_big_uneven|10048|--mesh '{x:64, y:64}' --from '[{x}10007, {y}999]' --to '[{y}10007, {x}999]' --dtype bf16
PROBLEMS

# Exchange headers for the NCCL backend (uneven, cross-mesh with a permuted
# rank list, replicated to sharded): each compiles warning-free, and, where
# the runtime's build has the host emulation of CUDA and NCCL
# (libredist_nccl_emulated), runs under mpirun through
# tests/runtime_gpu/exchange_header_main.cpp, which checks every element of
# every rank and that the busiest rank stages exactly kWorkspaceBytes.
emulated=_build/runtime/libredist_nccl_emulated.a
if grep -q '^REDIST_NCCL_HEADERS_FOUND:INTERNAL=ON$' _build/runtime/CMakeCache.txt 2>/dev/null; then
  cmake --build _build/runtime -j2 --target redist_nccl_emulated -- --no-print-directory >/dev/null ||
    ko "the emulated NCCL backend does not build"
fi
while IFS='|' read -r name np args; do
  [ -z "$name" ] && continue
  [ -f "$include/redist/nccl_exchange.hpp" ] && [ -f "$cuda_include/cuda_runtime.h" ] || break
  eval "gen_args=($args)"
  hdr=$out/$name.hpp
  if ! "$redist" gen "${gen_args[@]}" --strategy exchange --backend nccl --name "$name" -o "$hdr"; then
    ko "$name: redist gen --backend nccl failed"; continue
  fi
  if printf '#include "%s"\n' "$name.hpp" | mpicxx "${CXXFLAGS[@]}" -fsyntax-only -I"$include" -I"$cuda_include" -I"$out" -x c++ -; then
    ok "$name: NCCL exchange header compiles with ${CXXFLAGS[*]}"
  else
    ko "$name: NCCL exchange header does not compile"; continue
  fi
  [ -f "$emulated" ] || continue
  exe=$out/$name.exe
  if ! mpicxx "${CXXFLAGS[@]}" -O1 -I"$include" -I"$cuda_include" -include "$hdr" -DREDIST_NS="redist_gen::$name" \
       tests/runtime_gpu/exchange_header_main.cpp "$emulated" _build/runtime/libredist_common.a -o "$exe"; then
    ko "$name: NCCL exchange driver does not link"; continue
  fi
  if timeout 120 "${MPIRUN[@]}" -np "$np" "$exe" </dev/null; then
    ok "$name: NCCL exchange on $np ranks (emulated), every target box correct, staging = kWorkspaceBytes"
  else
    ko "$name: NCCL exchange wrong under mpirun -np $np (emulated)"
  fi
done <<'PROBLEMS'
nccl_uneven|3|--mesh '{x:3}' --from '[{x}7]' --to '[7]' --dtype f32
nccl_moved|4|--from-mesh '{x:3} @ 1' --to-mesh '{y:2} @ [3, 0]' --from '[{x}7, 5]' --to '[7, {y}5]' --dtype c128
nccl_grid|6|--from-mesh '{x:2, y:3}' --to-mesh '{a:3, b:2} @ [5, 0, 4, 1, 3, 2]' --from '[11, 13]' --to '[{a}11, {b}13]' --dtype bf16
PROBLEMS

# Pending-sum headers for the NCCL backend (reduce_scatter, all_reduce,
# add_pending around Part 1's collectives): each compiles warning-free and,
# with the emulation, runs under mpirun through
# tests/runtime_gpu/sums_header_main.cpp, which checks with runtime/testing/verify.hpp
# that every element of every rank's target box sums, over its target group,
# to the global array.
while IFS='|' read -r name np args; do
  [ -z "$name" ] && continue
  [ -f "$include/redist/nccl_reduce.hpp" ] && [ -f "$cuda_include/cuda_runtime.h" ] || break
  eval "gen_args=($args)"
  hdr=$out/$name.hpp
  if ! "$redist" gen "${gen_args[@]}" --backend nccl --name "$name" -o "$hdr"; then
    ko "$name: redist gen --backend nccl failed"; continue
  fi
  if printf '#include "%s"\n' "$name.hpp" | mpicxx "${CXXFLAGS[@]}" -fsyntax-only -I"$include" -I"$cuda_include" -I"$out" -x c++ -; then
    ok "$name: NCCL pending-sum header compiles with ${CXXFLAGS[*]}"
  else
    ko "$name: NCCL pending-sum header does not compile"; continue
  fi
  [ -f "$emulated" ] || continue
  exe=$out/$name.exe
  if ! mpicxx "${CXXFLAGS[@]}" -O1 -I"$include" -I"$cuda_include" -Iruntime/testing -include "$hdr" -DREDIST_NS="redist_gen::$name" \
       tests/runtime_gpu/sums_header_main.cpp "$emulated" _build/runtime/libredist_mpi.a _build/runtime/libredist_common.a -o "$exe"; then
    ko "$name: NCCL pending-sum driver does not link"; continue
  fi
  if timeout 120 "${MPIRUN[@]}" -np "$np" "$exe" </dev/null; then
    ok "$name: NCCL pending sums on $np ranks (emulated), every target element sums to the global array"
  else
    ko "$name: NCCL pending sums wrong under mpirun -np $np (emulated)"
  fi
done <<'PROBLEMS'
nccl_sum_replicated|4|--mesh '{x:2, y:2}' --from '[4{x}8, 8] sum{y}' --to '[8, 8]' --dtype i32 --strategy collectives
nccl_sum_pending|4|--mesh '{x:2, y:2}' --from '[8, 8] sum{x,y}' --to '[8, 8] sum{y}' --dtype i64 --strategy collectives
nccl_sum_scatter|6|--mesh '{x:2, y:3}' --from '[{y}6, 4] sum{x}' --to '[{x,y}6, 4]' --dtype u8 --strategy collectives
PROBLEMS
# Reducing-exchange headers for the NCCL backend (pending sums on uneven and
# cross-mesh layouts; 16-bit integers too, which its own kernel adds): each
# compiles warning-free and, with the emulation, runs under mpirun through
# tests/runtime_gpu/sumx_header_main.cpp: every element of every rank sums,
# over its target group, to the global array, and kWorkspaceBytes (from Coq)
# is exactly the largest workspace a rank needs.
while IFS='|' read -r name np args; do
  [ -z "$name" ] && continue
  [ -f "$include/redist/nccl_reduce_exchange.hpp" ] && [ -f "$cuda_include/cuda_runtime.h" ] || break
  eval "gen_args=($args)"
  hdr=$out/$name.hpp
  if ! "$redist" gen "${gen_args[@]}" --backend nccl --name "$name" -o "$hdr"; then
    ko "$name: redist gen --backend nccl failed"; continue
  fi
  if printf '#include "%s"\n' "$name.hpp" | mpicxx "${CXXFLAGS[@]}" -fsyntax-only -I"$include" -I"$cuda_include" -I"$out" -x c++ -; then
    ok "$name: NCCL reducing-exchange header compiles with ${CXXFLAGS[*]}"
  else
    ko "$name: NCCL reducing-exchange header does not compile"; continue
  fi
  [ -f "$emulated" ] || continue
  exe=$out/$name.exe
  if ! mpicxx "${CXXFLAGS[@]}" -O1 -I"$include" -I"$cuda_include" -Iruntime/testing -include "$hdr" -DREDIST_NS="redist_gen::$name" \
       tests/runtime_gpu/sumx_header_main.cpp "$emulated" _build/runtime/libredist_mpi.a _build/runtime/libredist_common.a -o "$exe"; then
    ko "$name: NCCL reducing-exchange driver does not link"; continue
  fi
  if timeout 120 "${MPIRUN[@]}" -np "$np" "$exe" </dev/null; then
    ok "$name: NCCL reducing exchange on $np ranks (emulated), every target element sums to the global array, kWorkspaceBytes the largest need"
  else
    ko "$name: NCCL reducing exchange wrong under mpirun -np $np (emulated)"
  fi
done <<'PROBLEMS'
nccl_sumx_uneven|6|--mesh '{x:2, y:3}' --from '[7, 8] sum{x}' --to '[{y}7, 8]' --dtype i32
nccl_sumx_pending|6|--mesh '{x:2, y:3}' --from '[{y}7, 5] sum{x}' --to '[7, 5] sum{y}' --dtype i16
nccl_sumx_moved|5|--from-mesh '{x:2, y:2} @ 1' --to-mesh '{a:3} @ [4, 0, 2]' --from '[{y}5, 3] sum{x}' --to '[{a}5, 3]' --dtype u64
PROBLEMS
for refused in "--mesh '{x:2, y:2}' --from '[8, 8] sum{x}' --to '[8, 8]' --dtype i16 --strategy collectives|--dtype i16: NCCL has no sum of it .no 16-bit integers"; do
  eval "gen_args=(${refused%%|*})"
  msg=$("$redist" gen "${gen_args[@]}" --backend nccl --name refused 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq 2 ] && [ "$(wc -l <<<"$msg")" -eq 1 ] && grep -qE "^redist: error: ${refused#*|}" <<<"$msg"; then
    ok "gen --backend nccl refuses in one line: ${refused#*|}"
  else
    ko "gen --backend nccl ${refused%%|*}: exit $rc: $msg"
  fi
done

# A header refuses a runtime of another interface version, with its message:
# the runtime's headers copied with REDIST_INTERFACE_VERSION changed.
other_runtime=$out/other_interface
rm -rf "$other_runtime" && mkdir -p "$other_runtime" && cp -r "$include/redist" "$other_runtime/"
sed -i 's/^#define REDIST_INTERFACE_VERSION .*/#define REDIST_INTERFACE_VERSION 999/' "$other_runtime/redist/version.hpp"
"$redist" gen "${W[@]}" --name versioned -o "$out/versioned.hpp" || ko "versioned: redist gen failed"
if printf '#include "versioned.hpp"\n' | mpicxx -std=c++17 -fsyntax-only -I"$include" -I"$out" -x c++ -; then
  ok "a header compiles against the runtime it was generated for"
else
  ko "a header does not compile against its own runtime"
fi
if compile_out=$(printf '#include "versioned.hpp"\n' | mpicxx -std=c++17 -fsyntax-only -I"$other_runtime" -I"$out" -x c++ - 2>&1); then
  ko "a header compiled against a runtime of another interface version"
elif grep -q "generated by redist .* for runtime interface version" <<<"$compile_out"; then
  ok "a header refuses a runtime of another interface version, saying so"
else
  ko "another interface version: the compile failed without the message: $compile_out"
fi

# One application (tests/cli/uniform_main.cpp) against the interface every
# header has (Plan, create, run, source_bytes, target_bytes,
# kWorkspaceBytes), compiled unchanged against each kind of plan and run on
# 4 ranks: a round trip there (FORTH) and back (BACK) returns every element
# of every rank; pending sums of ones add up to the group's size.
# name | mesh | from | to | strategy there ("plan:TEXT": a plan file, a hybrid) |
# strategy back ("sum N": pending sums of group size N)
while IFS='|' read -r name mesh from to there back; do
  case $there in
    plan:*) printf "${there#plan:}" >"$out/${name}_forth.plan"; how=(--plan "$out/${name}_forth.plan"); there=hybrid ;;
    *) how=(--strategy "$there") ;;
  esac
  if ! "$redist" gen --mesh "$mesh" --dtype i32 --name "${name}_forth" --from "$from" --to "$to" "${how[@]}" \
       -o "$out/${name}_forth.hpp"; then ko "$name: redist gen failed"; continue; fi
  case $back in
    sum*) defs=(-DSUM_OF="${back#sum }") ;;
    *)
      if ! "$redist" gen --mesh "$mesh" --dtype i32 --name "${name}_back" --from "$to" --to "$from" --strategy "$back" \
           -o "$out/${name}_back.hpp"; then ko "$name: redist gen (back) failed"; continue; fi
      defs=(-include "$out/${name}_back.hpp" -DBACK="redist_gen::${name}_back") ;;
  esac
  if ! mpicxx "${CXXFLAGS[@]}" -O1 -I"$include" -include "$out/${name}_forth.hpp" "${defs[@]}" \
       -DFORTH="redist_gen::${name}_forth" tests/cli/uniform_main.cpp $(runtime_flags --libs) -o "$out/$name.exe" 2>"$out/$name.log"; then
    ko "$name: the one application does not compile against it: $(head -3 "$out/$name.log")"
  elif "${MPIRUN[@]}" -np 4 "$out/$name.exe" </dev/null >"$out/$name.run" 2>&1; then
    ok "$name: one application against the plan interface ($there${back:+, then $back}): every element of every rank"
  else
    ko "$name: $(head -3 "$out/$name.run")"
  fi
done <<'EOF_UNIFORM'
collectives_exchange|{x:2, y:2}|[{x}8, {y}8]|[{y}8, {x}8]|collectives|exchange
exchange_collectives|{x:2, y:2}|[8, {x,y}8]|[{y}8, {x}8]|exchange|collectives
exchange_uneven|{x:2, y:2}|[{x}7, {y}5]|[{y,x}7, 5]|exchange|exchange
hybrid_collectives|{a:2, b:2}|[{b}8, {a}8]|[8, 8]|plan:exchange\nvia [{b}8, 8]\nall_gather(0)\n|collectives
sums_collectives|{x:2, y:2}|[{x}8, 8] sum{y}|[{x}8, {y}8]|collectives|sum 2
sums_exchange|{x:2, y:2}|[{x}8, 8] sum{y}|[{x,y}8, 8]|exchange|sum 2
EOF_UNIFORM

# One header in two translation units links; two headers with one --name
# for different problems do not (the diagnostic names the reused name).
"$redist" gen "${W[@]}" --name twice -o "$out/twice_a.hpp" &&
  "$redist" gen --mesh '{x:2, y:3}' --from '[3{x}6]' --to '[6]' --strategy collectives --name twice -o "$out/twice_b.hpp" ||
  ko "twice: redist gen failed"
tu() { printf '#include "%s"\nint %s() { auto* volatile keep = static_cast<redist::Status (*)(redist_gen::twice::Plan&, const void*, std::size_t, void*, std::size_t, void*, std::size_t)>(&redist_gen::twice::run); return keep != nullptr; }\n' "$1" "$2" |
         mpicxx -std=c++17 -c -I"$include" -I"$out" -x c++ - -o "$out/link/$2.o"; }
tu twice_a.hpp ta && tu twice_a.hpp ta2 && tu twice_b.hpp tb || ko "twice: translation units do not compile"
printf 'int ta(); int ta2();\nint main() { return ta() + ta2(); }\n' | mpicxx -c -x c++ - -o "$out/link/main_same.o"
printf 'int ta(); int tb();\nint main() { return ta() + tb(); }\n' | mpicxx -c -x c++ - -o "$out/link/main_diff.o"
if mpicxx "$out/link/ta.o" "$out/link/ta2.o" "$out/link/main_same.o" $(runtime_flags --libs) -o "$out/twice_same.exe"; then
  ok "one header in two translation units links"
else
  ko "one header in two translation units does not link"
fi
for gc in "" -Wl,--gc-sections; do
  if link_out=$(mpicxx "$out/link/ta.o" "$out/link/tb.o" "$out/link/main_diff.o" $(runtime_flags --libs) $gc -o "$out/twice_diff.exe" 2>&1); then
    ko "two headers with --name twice for different problems linked into one program ${gc:-}"
  elif grep -q "redist_gen.twice.p[0-9a-f]*.name_reused_for_another_problem" <<<"$link_out"; then
    ok "two headers with --name twice for different problems: the link ${gc:+($gc) }fails naming the reused name"
  else
    ko "two headers with --name twice: the link ${gc:-}failed without naming it: $link_out"
  fi
done

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
dtype_i8|{x:2, y:2}|[4{x}8, 6]|[8, 3{y}6]|i8|yes
dtype_i16|{x:2, y:3}|[3{x}6]|[2{y}6]|i16|yes
dtype_u16|{x:4}|[8, 2{x}8]|[2{x}8, 8]|u16|yes
dtype_u32|{x:2, y:2}|[2{x,y}8, 4]|[2{y,x}8, 4]|u32|yes
dtype_u64|{a:3, b:6}|[2{a}6]|[1{b}6]|u64|yes
dtype_bool|{x:2, y:2}|[8, 8]|[4{x}8, 4{y}8]|bool|yes
dtype_c64|{x:2, y:4}|[16{x}32, 64{y}256]|[8{y}32, 128{x}256]|c64|yes
dtype_f8e4m3|{x:2, y:2}|[2{x}4, 3, 4{y}8]|[4, 3, 2{x,y}8]|f8e4m3|yes
dtype_f8e5m2|{x:3}|[3{x}9, 2]|[9, 2]|f8e5m2|yes
'
randgen=_build/default/tests/cli/random_problems.exe
dune build -j 1 ./tests/cli/random_problems.exe || ko "random problem generator does not build"
while IFS='|' read -r name mesh from to dtype run; do
  [ -z "$name" ] && continue
  hdr=$out/$name.hpp
  if ! "$redist" gen --mesh "$mesh" --from "$from" --to "$to" --dtype "$dtype" --strategy collectives --backend mpi --name "$name" -o "$hdr"; then
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
    if "$redist" gen --mesh "$mesh" --from "$from" --to "$to" --dtype "$dtype" --strategy collectives --backend nccl --name "${name}_nccl" -o "$nhdr" &&
       printf '#include "%s"\n' "${name}_nccl.hpp" | mpicxx "${CXXFLAGS[@]}" -fsyntax-only -I"$include" -I"$cuda_include" -I"$out" -x c++ -; then
      ok "$name: NCCL header compiles with ${CXXFLAGS[*]}"
    else
      ko "$name: NCCL header does not compile"
    fi
  fi
  [ "$run" = yes ] || continue
  devices=$(sed -n 's/^inline constexpr int kDevices = \([0-9]*\);/\1/p' "$hdr")
  exe=$out/$name.exe
  if ! mpicxx "${CXXFLAGS[@]}" -O1 -I"$include" -include "$hdr" -DREDIST_NS="redist_gen::$name" tests/cli/e2e_main.cpp $(runtime_flags --libs) -o "$exe"; then
    ko "$name: e2e driver does not link"; continue
  fi
  if timeout 120 "${MPIRUN[@]}" -np "$devices" "$exe" </dev/null; then
    ok "$name: $devices ranks, every target box correct"
  else
    ko "$name: wrong result under mpirun -np $devices"
  fi
done < <(printf '%s' "$fixed_problems"; [ -x "$randgen" ] && "$randgen" "${CLI_RANDOM_PROBLEMS:-8}")
tap_end
