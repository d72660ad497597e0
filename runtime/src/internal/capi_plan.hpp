// Internal to the C ABI (not installed): the plan as the planning half
// (capi.cpp, which enters OCaml) builds it and the execution half
// (capi_exec.cpp, which calls MPI) runs it.  The planning half alone makes
// libredist_planner.so, which needs no MPI library at run time.
#pragma once

#include <cstdio>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "redist/in_place.hpp"
#include "redist/interpreter.hpp"
#include "redist/placed.hpp"
#include "redist/redist.h"
#include "redist/reduce.hpp"
#include "redist/region_exchange.hpp"

// OCaml's compatibility.h defines invalid_argument as a macro: the
// runtime's code of that name is taken before its headers.
constexpr redist::Errc kInvalidArgument = redist::Errc::invalid_argument;

extern "C" {
#include <caml/mlvalues.h>
}

// A plan by the direct exchange: Exchange::create's arguments.
struct ExchangeSpec {
  redist::PlacedMesh source, target;
  redist::BlockLayout source_layout, target_layout;
  std::size_t elem_bytes = 0;
};

// A plan by the reducing exchange: ReducingExchange::create's arguments.
struct ReducingSpec {
  ExchangeSpec layouts;
  std::vector<int> source_pending, target_pending;
  redist::Dtype dtype = redist::Dtype::u8;
  redist::Op op = redist::Op::sum;
};

static_assert(REDIST_MAX_DIMS == redist::kMaxRank, "redist.h and the runtime disagree on the most dimensions");

// Lowering.lowered's tags, and redist_plan_by_exchange's answers.
enum class PlanKind { collectives = 0, exchange = 1, reducing_exchange = 2, hybrid = 3, in_place = 4, regions = 5 };

// Lowering.lowered: a plan by one kind, or a hybrid of two parts.
struct Lowered {
  PlanKind kind = PlanKind::collectives;
  redist::PlanProgram program;  // by the collectives
  ExchangeSpec exchange;        // by the exchange
  ReducingSpec reducing;        // by the reducing exchange
  redist::InPlaceSchedule in_place;  // in place
  // Composed cuts, by the region exchange: per world rank its local shapes
  // and its messages and copies; with pending axes, the reducing exchange's
  // lists and its combination (region_reduction).
  std::vector<redist::LocalShape> region_sources, region_targets;
  std::vector<redist::RegionLists> regions;
  std::optional<redist::RegionReduction> region_reduction;
  std::size_t elem_bytes = 0;
  // A hybrid (the core's Staged, run by redist::Staged): the intermediate
  // fills the workspace's first mid_bytes; the first part moves the source
  // into it, the second moves it into the destination, each with the
  // workspace after it; workspace_bytes in all (program_workspace_bytes).
  std::size_t mid_bytes = 0;
  std::size_t workspace_bytes = 0;
  std::unique_ptr<Lowered> first, second;
};

struct redist_plan {
  Lowered lowered;
  std::string text;
  std::string json;
  std::string guarantees;
  std::vector<std::string> step_texts;
  int devices = 0;
  int ndim = 0;
  std::uint64_t src_bytes = 0, dst_bytes = 0, peak_bytes = 0, workspace_bytes = 0, recv_max_bytes = 0,
                lower_bound_recv_bytes = 0, live_bytes = 0, alloc_bytes = 0;
  std::size_t elem_bytes = 0;
  redist::ProblemDigest digest;  // what redist_plan_bind agrees on
  value problem = Val_unit;  // a generational global root while the plan lives: the OCaml problem, for boxes
};


namespace capi {

inline int fail(char* err, std::size_t errlen, int code, const std::string& message) {
  if (err != nullptr && errlen > 0) std::snprintf(err, errlen, "%s", message.c_str());
  return code;
}

// The caller's misuse is bad input; MPI failures and other ranks' errors
// are the runtime's.
inline int runtime_failure(char* err, std::size_t errlen, const redist::Status& st) {
  const bool theirs = st.code() == redist::Errc::backend_error || st.code() == redist::Errc::remote_error;
  return fail(err, errlen, theirs ? REDIST_ERR_RUNTIME : REDIST_ERR_BAD_INPUT,
              std::string(redist::errc_name(st.code())) + ": " + st.message());
}

}  // namespace capi
