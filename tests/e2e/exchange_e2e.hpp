// What the generated translation units of the exchange end-to-end suite
// list (tests/e2e/gen_exchange.ml): per problem, runtime/testing/verify.hpp's view of
// its exchange header with the Coq model's boxes and bounds (the model
// header of `redist run`) and, for an even problem, of its collectives
// header.
#pragma once
#include "verify.hpp"

struct exchange_entry {
  const char* description;                      // class: meshes, source -> target, dtype
  redist_verify::ExchangeProblem exchange;
  const redist_verify::Problem* collectives;   // null: the problem is not even on one mesh
};

struct exchange_table {
  const exchange_entry* entries;
  int count;
};
