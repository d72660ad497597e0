// What the generated translation units of the end-to-end suite list: each
// problem (runtime/testing/verify.hpp's view of one generated header) with a
// description for the log.
#pragma once
#include "verify.hpp"

struct e2e_entry {
  redist_verify::Problem problem;
  const char* description;  // mesh, source -> target, dtype
};

struct e2e_table {
  const e2e_entry* entries;
  int count;
};
