// What the generated translation units of the in-place end-to-end suite
// list (tests/e2e/gen_inplace.ml): per problem, runtime/testing/verify.hpp's
// view of its in-place header with the Coq model's boxes (the model header
// of `redist run`).
#pragma once
#include "verify.hpp"

struct in_place_entry {
  const char* description;  // class: meshes, source -> target, dtype, staging
  redist_verify::InPlaceProblem in_place;
  const redist::InPlaceTables* schedule;  // the header's kSchedule
  redist::ProblemDigest problem;          // the header's kProblem
};

struct in_place_table {
  const in_place_entry* entries;
  int count;
};
