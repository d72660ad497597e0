#!/usr/bin/env bash
# test-capi-cuts: composed cuts through the C ABI (tests/capi/cuts_c.c says
# what each case checks): 110 random problems on one mesh, 20 on each of 2
# and 3 ranks, 40 on 4 (on {a:4} and on {a:2, b:2}), 15 on 6 ({a:2, b:3})
# and 15 on 8 ({a:8}), each again through the region queries (the lists
# alone, applied here, give every rank its target array); 30 between two
# meshes placed on random world ranks, 15 on 6 and 15 on 8; every element
# of every rank checked, every other one run in split phase; then the
# DTensor and ScaLAPACK cases (ScaLAPACK also in split phase), the refused
# box queries and a refused region query on 4 ranks; then pending axes (the
# reducing region exchange): 20 random problems on each of 2, 3 and 4
# ranks, 15 on 6 and 8, and 15 between two placed meshes on 6 and 8, sum,
# prod, max or min on an integer type, every element against a reference
# grouped by hand.  Two tests per random problem on one mesh without
# pending axes, one per other problem and per fixed case.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
out=_build/capi
mkdir -p "$out"
# shellcheck disable=SC2046  # pkg-config prints several words
mpicc -std=c11 -Wall -Wextra -Werror -pedantic $(capi_flags --cflags) tests/capi/cuts_c.c \
  $(capi_flags --libs) -o "$out/cuts_c" ||
  { ko "cuts_c.c does not compile as C11 against redist/redist.h"; tap_end; exit 1; }
# The seed's parity picks the mesh on 4 ranks: odd {a:4}, even {a:2, b:2}.
seed=${CUTS_SEED:-20261129}
status=0
for run in "random 2 20 $seed" "random 3 20 $seed" "random 4 20 $seed" "random 4 20 $((seed + 1))" \
           "random 6 15 $((seed + 1))" "random 8 15 $seed" "between 6 15 $seed" "between 8 15 $seed"; do
  set -- $run
  tap_program "cuts_c $1 on $2 ranks, seed $4" \
    timeout --kill-after=10 300 "${MPIRUN[@]}" -np "$2" "$out/cuts_c" "$1" "$3" "$4" </dev/null || status=1
done
for run in "pending 2 20 $seed" "pending 3 20 $seed" "pending 4 20 $seed" "pending 6 15 $seed" \
           "pending 8 15 $seed" "pending-between 6 15 $seed" "pending-between 8 15 $seed"; do
  set -- $run
  tap_program "cuts_c $1 on $2 ranks, seed $4" \
    timeout --kill-after=10 300 "${MPIRUN[@]}" -np "$2" "$out/cuts_c" "$1" "$3" "$4" </dev/null || status=1
done
tap_program "cuts_c fixed" timeout --kill-after=10 120 "${MPIRUN[@]}" -np 4 "$out/cuts_c" fixed </dev/null || status=1
tap_end
exit "$status"
