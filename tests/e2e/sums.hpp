// What the generated translation units of the pending-sum end-to-end suite
// list: each problem's generated header (codegen/header/emit_sums.ml), by the
// collectives or by the reducing exchange, seen through runtime/testing/verify.hpp's
// SumsProblem as `redist run`'s model header states it (the operation, the
// order of the plan's reductions), with its description.
#pragma once
#include "verify.hpp"

struct sums_entry {
  const char* description;  // meshes, source -> target, dtype
  redist_verify::SumsProblem problem;
};

struct sums_table {
  const sums_entry* entries;
  int count;
};
