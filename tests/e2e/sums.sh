#!/usr/bin/env bash
# The pending-sum end-to-end suite: COUNT random problems with pending sums
# (tests/e2e/gen_sums.ml, fixed seed) planned by the extracted plan_sums and
# emitted by `redist gen`'s emitter, compiled PER_TU to a translation unit
# into one driver (tests/e2e/sums_main.cpp), and run under one mpirun per
# mesh size; every element of every rank's target box must be right: an
# integer sum over its target group the global array, every other operation
# and element type bitwise the suite's own reference (reference_ops.hpp) of
# the plan's reductions.
#   tests/e2e/sums.sh SUITE COUNT PER_TU [SEED]
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
random_e2e "$1" "$2" "$3" "${4:-20261123}" gen_sums sums_main.cpp "pending-sum problems"
