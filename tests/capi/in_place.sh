#!/usr/bin/env bash
# test-capi-in-place: the C ABI's in-place plans (tests/capi/in_place_c.c
# says what each case checks): 200 random problems, 40 on each of 2, 3, 4,
# 6 and 8 ranks (one mesh or two placed at random, uneven, 1 to 3
# dimensions, elements of 1 to 16 bytes, staging from one element to
# unbounded), every element of every rank checked and the heap measured
# during the runs; then redist_plan_create_within and the misuse cases on
# 4 ranks.  One test per problem and per case.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
out=_build/capi
mkdir -p "$out"
# shellcheck disable=SC2046  # pkg-config prints several words
mpicc -std=c11 -Wall -Wextra -Werror -pedantic -pthread $(capi_flags --cflags) tests/capi/in_place_c.c \
  $(capi_flags --libs) -o "$out/in_place_c" ||
  { ko "in_place_c.c does not compile as C11 against redist/redist.h"; tap_end; exit 1; }
seed=${IN_PLACE_SEED:-20261201}
status=0
for world in 2 3 4 6 8; do
  tap_program "in_place_c random on $world ranks" \
    timeout --kill-after=10 300 "${MPIRUN[@]}" -np "$world" "$out/in_place_c" random 40 "$seed" </dev/null || status=1
done
tap_program "in_place_c within" timeout --kill-after=10 120 "${MPIRUN[@]}" -np 4 "$out/in_place_c" within </dev/null ||
  status=1
tap_program "in_place_c misuse" timeout --kill-after=10 120 "${MPIRUN[@]}" -np 4 "$out/in_place_c" misuse </dev/null ||
  status=1
tap_end
exit "$status"
