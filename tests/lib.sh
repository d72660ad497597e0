# Sourced by every test script: the one mpirun command line and the tests'
# one protocol, TAP 13, which tests/tap_count.sh counts.
#
# mpirun flags, and why each is there:
#   --allow-run-as-root   CI and fresh machines run the tests as root, which
#                         Open MPI refuses by default;
#   --oversubscribe       suites start up to 18 ranks on a 2-core machine;
#   --mca btl self,vader  shared memory only: the tests never leave the host,
#                         and probing network interfaces in a container is
#                         slow and noisy;
#   --mca btl_vader_single_copy_mechanism none
#                         containers often forbid the cross-process memory
#                         calls (CMA) that vader would try first.
# shellcheck disable=SC2034  # used by the scripts that source this file
MPIRUN=(mpirun --allow-run-as-root --oversubscribe --mca btl self,vader
        --mca btl_vader_single_copy_mechanism none)

# A script's results form TAP documents: the header before the first
# result, "ok N - WHAT", "not ok N - WHAT" or "ok N - WHAT # SKIP WHY", and
# the plan "1..N" that tap_plan prints.  A script that runs programs which
# print documents of their own closes its current one first (tap_plan).
tap_number=0 tap_failures=0
tap_result() {
  [ "$tap_number" -eq 0 ] && echo "TAP version 13"
  tap_number=$((tap_number + 1))
  echo "$1 $tap_number - $2"
}
ok() { tap_result ok "$*"; }
ko() { tap_failures=$((tap_failures + 1)); tap_result "not ok" "$*"; }
# skipped WHAT WHY: a test that does not run here, counted as skipped.
skipped() { tap_result ok "$1 # SKIP $2"; }

# tap_plan: closes the current document (nothing when it has no result).
tap_plan() {
  [ "$tap_number" -gt 0 ] && echo "1..$tap_number"
  tap_number=0
}

# tap_program WHAT COMMAND [ARG...]: closes the current document and runs
# COMMAND, which prints TAP documents of its own; COMMAND exiting non-zero
# with no failed result is one more failed test, WHAT's exit.
tap_program() {
  local what=$1 out rc
  shift
  tap_plan
  out=$("$@" 2>&1)
  rc=$?
  printf '%s\n' "$out"
  if [ "$rc" -ne 0 ] && ! grep -q '^not ok ' <<<"$out"; then
    ko "$what exited with status $rc: $(tail -n 3 <<<"$out" | tr '\n' ' ')"
    tap_plan
  fi
  return "$rc"
}

# tap_end [NOTE]: NOTE as a comment, the plan; non-zero when any result of
# the script failed.
tap_end() {
  [ -n "${1:-}" ] && echo "# $1"
  tap_plan
  [ "$tap_failures" -eq 0 ]
}

# run_per_world EXE SIZES OUT [ARG...]: runs EXE ARG... under mpirun once per line "WORLD
# EXPECTED" of SIZES (logs in OUT/npWORLD.log), prints its ok/FAIL lines (a
# driver's line per case of one property, not TAP: callers that print them
# into their TAP comment them out) and adds to good/bad; a crashed or hung mpirun loses the lines of its remaining
# problems, which count as failed (expected minus ok lines).
run_per_world() {
  local exe=$1 sizes=$2 out=$3 world expected log rc ok
  shift 3
  while read -r world expected; do
    log=$out/np$world.log
    timeout --kill-after=10 600 "${MPIRUN[@]}" -np "$world" "$exe" "$@" </dev/null >"$log" 2>&1
    rc=$?
    grep -E '^(ok|FAIL) ' "$log"
    ok=$(grep -c '^ok ' "$log")
    good=$((good + ok))
    bad=$((bad + expected - ok))
    if [ "$ok" -ne "$expected" ]; then
      echo "FAIL  np $world: $ok of $expected problems passed (mpirun exit $rc)"; grep -vE '^(ok|FAIL) ' "$log" | head -5
    fi
  done <"$sizes"
}

# runtime_flags --cflags|--libs: compiler or linker flags for a program
# against the runtime that `make runtime` stages in _build/prefix, from its
# pkg-config file (scripts run from the repository root).
runtime_flags() {
  PKG_CONFIG_PATH=_build/prefix/lib/pkgconfig pkg-config "$1" redist_mpi
}

# capi_flags --cflags|--libs: the same for a program against the C ABI
# (redist/redist.h, libredist_plan).
capi_flags() {
  PKG_CONFIG_PATH=_build/prefix/lib/pkgconfig pkg-config "$1" redist_plan
}

# random_e2e_build SUITE COUNT PER_TU SEED GENERATOR DRIVER: a random
# end-to-end suite's executable.  tests/e2e/GENERATOR.ml writes COUNT random
# problems (seed SEED) into _build/SUITE as translation units of PER_TU
# headers each and the world sizes they need (sizes.txt: "WORLD COUNT"
# lines); they are compiled into _build/SUITE/e2e.exe with the driver
# tests/e2e/DRIVER.  On failure build_failure says why and it returns 1.
random_e2e_build() {
  local suite=$1 count=$2 per_tu=$3 seed=$4 generator=$5 driver=$6
  local out=_build/$suite tu objs=()
  rm -rf "$out" && mkdir -p "$out"
  build_failure=
  runtime_flags --libs >/dev/null ||
    { build_failure="the runtime is not staged in _build/prefix (make runtime)"; return 1; }
  dune build -j 1 "./tests/e2e/$generator.exe" 2>&1 || { build_failure="the problem generator does not build"; return 1; }
  "_build/default/tests/e2e/$generator.exe" "$seed" "$count" "$per_tu" "$out" ||
    { build_failure="the problem generator failed"; return 1; }
  local CXX=(mpicxx -std=c++17 -O1 -Wall -Wextra -Werror $(runtime_flags --cflags) -Itests/e2e -Iruntime/testing -I"$out")
  for tu in "$out"/tu*.cpp; do
    "${CXX[@]}" -c "$tu" -o "${tu%.cpp}.o" 2>"${tu%.cpp}.log" ||
      { head -30 "${tu%.cpp}.log"; build_failure="$tu does not compile"; return 1; }
    objs+=("${tu%.cpp}.o")
  done
  "${CXX[@]}" "tests/e2e/$driver" "${objs[@]}" $(runtime_flags --libs) -o "$out/e2e.exe" 2>"$out/link.log" ||
    { head -30 "$out/link.log"; build_failure="the driver does not link"; return 1; }
}

# random_e2e SUITE COUNT PER_TU SEED GENERATOR DRIVER WHAT: a random
# end-to-end suite built by random_e2e_build and run under one mpirun per
# world size (run_per_world).  One property test, "COUNT random WHAT", its
# case count beside it.
random_e2e() {
  local suite=$1 count=$2 per_tu=$3 seed=$4 generator=$5 driver=$6 what=$7
  local out=_build/$suite
  random_e2e_build "$suite" "$count" "$per_tu" "$seed" "$generator" "$driver" ||
    { ko "$build_failure"; tap_end "property: $count random $what"; exit 1; }
  good=0 bad=0
  run_per_world "$out/e2e.exe" "$out/sizes.txt" "$out" >"$out/cases.log"
  sed 's/^/# /' "$out/cases.log"
  if [ "$bad" -eq 0 ]; then ok "$good of $count random $what"; else ko "$bad of $count random $what"; fi
  tap_end "property: $count random $what, $good passed, $bad failed"
}
