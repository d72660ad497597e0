// The C ABI's execution half (redist/redist.h): a plan of capi.cpp bound
// to a communicator and run by the plan interpreter, the runtime's
// exchanges or, a hybrid, its staged plan executor, without entering OCaml.
#include <memory>
#include <new>
#include <string>
#include <utility>

#include "internal/backend_common.hpp"
#include "internal/capi_plan.hpp"
#include "internal/shared_windows.hpp"
#include "redist/exchange.hpp"
#include "redist/in_place.hpp"
#include "redist/reduce_exchange.hpp"
#include "redist/region_exchange.hpp"
#include "redist/staged.hpp"

// A lowering bound to a communicator.
struct redist_exec {
  const Lowered* lowered = nullptr;
  redist::PlanInterpreter interpreter;
  redist::Exchange exchange;
  redist::ReducingExchange reducing;
  redist::Staged staged;  // a hybrid
  redist::InPlace in_place;
  redist::RegionExchange regions;
  // Between redist_exec_start and redist_exec_wait.
  bool started = false;
};

namespace {

using capi::fail;
using capi::runtime_failure;

// A hybrid's part as redist::Staged runs it, unbound; null for a kind
// lower_splan never makes a part of (the reducing exchange), which
// Staged::bind refuses.
std::unique_ptr<redist::StagedPart> staged_part(const Lowered& lowered) {
  const ExchangeSpec& x = lowered.exchange;
  switch (lowered.kind) {
    case PlanKind::collectives:
      return std::make_unique<redist::InterpreterPart>(&lowered.program);
    case PlanKind::exchange:
      return std::make_unique<redist::ExchangePart>(x.source, x.source_layout, x.target, x.target_layout,
                                                    x.elem_bytes);
    case PlanKind::hybrid:
      return std::make_unique<redist::Staged>(lowered.mid_bytes, lowered.workspace_bytes,
                                              staged_part(*lowered.first), staged_part(*lowered.second));
    case PlanKind::reducing_exchange:
    case PlanKind::in_place:
    case PlanKind::regions:
      break;
  }
  return nullptr;
}

// This rank's part of a region exchange; a rank beyond the plan's world
// holds nothing and exchanges nothing.
redist::Status bind_regions(const Lowered& lowered, MPI_Comm comm, redist::RegionExchange* out) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const auto r = static_cast<std::size_t>(rank);
  redist::LocalShape empty;
  empty.ndim = lowered.region_sources.front().ndim;
  const bool listed = r < lowered.regions.size();
  const redist::LocalShape& source = listed ? lowered.region_sources[r] : empty;
  const redist::LocalShape& target = listed ? lowered.region_targets[r] : empty;
  const redist::RegionLists none;
  const redist::RegionLists& lists = listed ? lowered.regions[r] : none;
  if (lowered.region_reduction)
    return redist::RegionExchange::create(comm, source, target, *lowered.region_reduction, lists,
                                          lowered.program.problem, out);
  return redist::RegionExchange::create(comm, source, target, lowered.elem_bytes, lists, lowered.program.problem, out);
}

// Binds a lowering to `comm` (collective over it); a hybrid as a generated
// hybrid header's create() does, by redist::Staged.
redist::Status bind(const Lowered& lowered, MPI_Comm comm, redist_exec* exec) {
  exec->lowered = &lowered;
  const ExchangeSpec& x = lowered.exchange;
  const ReducingSpec& rx = lowered.reducing;
  switch (lowered.kind) {
    case PlanKind::collectives:
      return redist::PlanInterpreter::bind(&lowered.program, comm, &exec->interpreter);
    case PlanKind::exchange:
      return redist::Exchange::create(comm, x.source, x.source_layout, x.target, x.target_layout, x.elem_bytes,
                                      &exec->exchange);
    case PlanKind::reducing_exchange:
      return redist::ReducingExchange::create(
          comm, x.source, x.source_layout, rx.source_pending.data(), static_cast<int>(rx.source_pending.size()),
          x.target, x.target_layout, rx.target_pending.data(), static_cast<int>(rx.target_pending.size()), rx.dtype, rx.op,
          &exec->reducing);
    case PlanKind::hybrid:
      return redist::Staged::create(comm, "redist_plan_bind", lowered.mid_bytes, lowered.workspace_bytes,
                                    staged_part(*lowered.first), staged_part(*lowered.second), &exec->staged);
    case PlanKind::in_place:
      return redist::InPlace::create(comm, lowered.in_place, lowered.elem_bytes, lowered.program.problem,
                                     &exec->in_place);
    case PlanKind::regions:
      return bind_regions(lowered, comm, &exec->regions);
  }
  return redist::Status(kInvalidArgument, "unknown plan kind");
}

// Completes what start() left in flight: block (wait) or not (test, *done
// false while messages are outstanding).  Local to the rank.
redist::Status advance(redist_exec& exec, bool block, bool* done) {
  switch (exec.lowered->kind) {
    case PlanKind::collectives:
      *done = true;
      return redist::Status();
    case PlanKind::exchange:
      *done = block;
      return block ? exec.exchange.wait() : exec.exchange.test(done);
    case PlanKind::reducing_exchange:
      *done = block;
      return block ? exec.reducing.wait() : exec.reducing.test(done);
    case PlanKind::hybrid:
      return exec.staged.advance(block, done);
    case PlanKind::regions:
      *done = block;
      return block ? exec.regions.wait() : exec.regions.test(done);
    case PlanKind::in_place:  // never started (check_start)
      break;
  }
  return redist::Status(kInvalidArgument, "unknown plan kind");
}

// Starts a bound lowering; allocates nothing.  An exchange (direct or
// reducing) posts its messages and returns with them in flight; a plan by
// the collectives runs whole (no overlap for the collectives yet); a
// hybrid runs its first part whole and starts its second (Staged::start,
// which checks the workspace; `what` names the C function in messages).
redist::Status start(redist_exec& exec, const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                     void* workspace, std::size_t workspace_bytes, const char* what) {
  switch (exec.lowered->kind) {
    case PlanKind::collectives:
      return exec.interpreter.run(src, src_bytes, dst, dst_bytes, workspace, workspace_bytes);
    case PlanKind::exchange:  // needs no workspace
      return exec.exchange.start(src, src_bytes, dst, dst_bytes);
    case PlanKind::reducing_exchange: {
      // Only designated target ranks stage contributions; the others need none.
      const bool stages = exec.reducing.workspace_bytes() > 0;
      return exec.reducing.start(src, src_bytes, dst, dst_bytes, stages ? workspace : nullptr,
                                 stages ? workspace_bytes : 0);
    }
    case PlanKind::hybrid:
      return exec.staged.start(src, src_bytes, dst, dst_bytes, workspace, workspace_bytes, what);
    case PlanKind::regions:  // needs no workspace
      return exec.regions.start(src, src_bytes, dst, dst_bytes);
    case PlanKind::in_place:  // refused by check_start
      break;
  }
  return redist::Status(kInvalidArgument, "unknown plan kind");
}

redist::Status run(redist_exec& exec, const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                   void* workspace, std::size_t workspace_bytes, const char* what) {
  if (redist::Status st = start(exec, src, src_bytes, dst, dst_bytes, workspace, workspace_bytes, what); !st.ok())
    return st;
  bool done = false;
  return advance(exec, true, &done);
}

// redist_exec_start's (and _run's) check of its own, before start(): an
// operation started and not yet waited for.  An exchange's start()
// refuses one itself, agreed; for the others the verdict is agreed here
// (a hybrid's before its first part writes the intermediate that its
// second part may still be reading).
redist::Status check_start(redist_exec& exec, const char* what) {
  const PlanKind kind = exec.lowered->kind;
  // Every rank bound the same plan (redist_plan_bind agreed), so every rank refuses alike.
  if (kind == PlanKind::in_place)
    return redist::Status(kInvalidArgument, std::string(what) +
                                                ": the plan is in place (one buffer): call redist_exec_run_in_place");
  if (kind == PlanKind::exchange || kind == PlanKind::reducing_exchange || kind == PlanKind::regions)
    return redist::Status();
  redist::Status local;
  if (exec.started)
    local = redist::Status(kInvalidArgument, "an operation is already started (not yet waited for): "
                                             "call redist_exec_wait first");
  return redist::backend::agree(kind == PlanKind::hybrid ? exec.staged.comm() : exec.interpreter.mesh().comm(),
                                redist::backend::prefixed(what, std::move(local)), what);
}

}  // namespace

extern "C" {


int redist_plan_bind(const redist_plan_t* plan, MPI_Comm comm, redist_exec_t** out, char* err, size_t errlen) {
  if (out != nullptr) *out = nullptr;
  if (comm == MPI_COMM_NULL) return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_plan_bind: comm is MPI_COMM_NULL");
  try {
    // Before any collective work every rank's arguments and whole problem
    // are compared: a rank that returned here, or bound another plan, would
    // leave the others waiting or pair their messages with the wrong ones.
    redist::Status local;
    if (plan == nullptr || out == nullptr) local = redist::Status(kInvalidArgument, "null plan or out");
    redist::backend::Agreed agreed[redist::backend::kProblemAgreed];
    redist::backend::agreed_problem(plan != nullptr ? plan->digest : redist::ProblemDigest{}, agreed);
    if (redist::Status st = redist::backend::agree(comm, redist::backend::prefixed("redist_plan_bind", std::move(local)),
                                                   "redist_plan_bind", agreed, redist::backend::kProblemAgreed);
        !st.ok())
      return runtime_failure(err, errlen, st);
    auto exec = std::make_unique<redist_exec>();
    if (redist::Status st = redist::backend::agree(comm, bind(plan->lowered, comm, exec.get()), "redist_plan_bind");
        !st.ok())
      return runtime_failure(err, errlen, st);
    *out = exec.release();
    return REDIST_OK;
  } catch (const std::bad_alloc&) {
    return fail(err, errlen, REDIST_ERR_INTERNAL, "internal error: out of memory");
  }
}

int redist_exec_start(redist_exec_t* exec, const void* src, size_t src_bytes, void* dst, size_t dst_bytes,
                      void* workspace, size_t workspace_bytes, char* err, size_t errlen) {
  if (exec == nullptr) return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_exec_start: null executor");
  redist::Status st = check_start(*exec, "redist_exec_start");
  if (st.ok()) st = start(*exec, src, src_bytes, dst, dst_bytes, workspace, workspace_bytes, "redist_exec_start");
  if (!st.ok()) return runtime_failure(err, errlen, st);
  exec->started = true;
  return REDIST_OK;
}

int redist_exec_test(redist_exec_t* exec, int* done, char* err, size_t errlen) {
  if (exec == nullptr || done == nullptr)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_exec_test: null executor or done");
  *done = 0;
  if (!exec->started)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_exec_test: nothing started: call redist_exec_start first");
  bool complete = false;
  const redist::Status st = advance(*exec, false, &complete);
  if (!st.ok()) {
    exec->started = false;  // an error ends the operation
    return runtime_failure(err, errlen, st);
  }
  *done = complete ? 1 : 0;
  return REDIST_OK;
}

int redist_exec_wait(redist_exec_t* exec, char* err, size_t errlen) {
  if (exec == nullptr) return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_exec_wait: null executor");
  if (!exec->started)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_exec_wait: nothing started: call redist_exec_start first");
  exec->started = false;
  bool done = false;
  const redist::Status st = advance(*exec, true, &done);
  return st.ok() ? REDIST_OK : runtime_failure(err, errlen, st);
}

int redist_exec_run(redist_exec_t* exec, const void* src, size_t src_bytes, void* dst, size_t dst_bytes,
                    void* workspace, size_t workspace_bytes, char* err, size_t errlen) {
  if (exec == nullptr) return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_exec_run: null executor");
  redist::Status st = check_start(*exec, "redist_exec_run");
  if (st.ok()) st = run(*exec, src, src_bytes, dst, dst_bytes, workspace, workspace_bytes, "redist_exec_run");
  return st.ok() ? REDIST_OK : runtime_failure(err, errlen, st);
}

int redist_exec_run_in_place(redist_exec_t* exec, void* buf, size_t buf_bytes, void* staging, size_t staging_bytes,
                             char* err, size_t errlen) {
  if (exec == nullptr) return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_exec_run_in_place: null executor");
  // As in check_start: every rank bound the same plan, so every rank refuses alike.
  if (exec->lowered->kind != PlanKind::in_place)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT,
                "redist_exec_run_in_place: the plan is not in place (source and destination apart): call "
                "redist_exec_run");
  const redist::Status st = exec->in_place.run(buf, buf_bytes, staging, staging_bytes);
  return st.ok() ? REDIST_OK : runtime_failure(err, errlen, st);
}

void redist_exec_free(redist_exec_t* exec) { delete exec; }

size_t redist_exec_direct_bytes(const redist_exec_t* exec) {
  if (exec == nullptr) return 0;
  switch (exec->lowered->kind) {
    case PlanKind::exchange:
      return exec->exchange.direct_elements() * exec->lowered->exchange.elem_bytes;
    case PlanKind::reducing_exchange:
      return exec->reducing.direct_elements() * redist::dtype_bytes(exec->lowered->reducing.dtype);
    case PlanKind::hybrid:
      return exec->staged.direct_bytes();
    case PlanKind::collectives:
      return exec->interpreter.direct_bytes();
    case PlanKind::in_place:
      return 0;  // its messages go by MPI, between parts of one buffer
    case PlanKind::regions:
      return 0;  // every message goes by MPI (region_exchange.hpp)
  }
  return 0;
}

int redist_alloc(MPI_Comm comm, size_t bytes, void** out, char* err, size_t errlen) {
  try {
    const redist::Status st = redist::backend::allocate_shared(comm, bytes, out, "redist_alloc");
    return st.ok() ? REDIST_OK : runtime_failure(err, errlen, st);
  } catch (const std::bad_alloc&) {
    return fail(err, errlen, REDIST_ERR_INTERNAL, "internal error: out of memory");
  }
}

int redist_free(MPI_Comm comm, void* ptr, char* err, size_t errlen) {
  try {
    const redist::Status st = redist::backend::free_shared(comm, ptr, "redist_free", "redist_alloc");
    return st.ok() ? REDIST_OK : runtime_failure(err, errlen, st);
  } catch (const std::bad_alloc&) {
    return fail(err, errlen, REDIST_ERR_INTERNAL, "internal error: out of memory");
  }
}

int redist_plan_execute(const redist_plan_t* plan, MPI_Comm comm, const void* src, size_t src_bytes, void* dst,
                        size_t dst_bytes, void* workspace, size_t workspace_bytes, char* err, size_t errlen) {
  redist_exec_t* exec = nullptr;
  if (int rc = redist_plan_bind(plan, comm, &exec, err, errlen); rc != REDIST_OK) return rc;
  const int rc = redist_exec_run(exec, src, src_bytes, dst, dst_bytes, workspace, workspace_bytes, err, errlen);
  redist_exec_free(exec);
  return rc;
}

}  // extern "C"
