// The C ABI's execution half (redist/redist.h): a plan of capi.cpp bound
// to a communicator and run by the plan interpreter or the runtime's
// exchanges, without entering OCaml.
#include <memory>
#include <new>
#include <string>
#include <utility>

#include "internal/backend_common.hpp"
#include "internal/capi_plan.hpp"
#include "redist/exchange.hpp"
#include "redist/reduce_exchange.hpp"

// A lowering bound to a communicator, its parts' too for a hybrid.
struct redist_exec {
  const Lowered* lowered = nullptr;
  redist::PlanInterpreter interpreter;
  redist::Exchange exchange;
  redist::ReducingExchange reducing;
  // A collectives part of a hybrid runs on world ranks 0 .. devices - 1
  // (its mesh at world rank 0, as in a generated header); the others skip it.
  bool member = true;
  // A hybrid: the bound communicator's duplicate, over which the ranks
  // agree on each part's verdict; its parts.
  MPI_Comm world = MPI_COMM_NULL;
  std::unique_ptr<redist_exec> first, second;
  std::uint64_t workspace_bytes = 0;  // redist_plan_workspace_bytes: checked once, before a hybrid's parts
  // Between redist_exec_start and redist_exec_wait (the whole plan's executor only).
  bool started = false;

  redist_exec() = default;
  redist_exec(const redist_exec&) = delete;
  redist_exec& operator=(const redist_exec&) = delete;
  ~redist_exec() {
    if (world != MPI_COMM_NULL) MPI_Comm_free(&world);
  }
};

namespace {

using capi::fail;
using capi::runtime_failure;

// Binds a lowering to `comm` (collective over it).  A hybrid's parts are
// bound in turn over its duplicate, as a generated hybrid's create() does:
// a collectives part over the world ranks of its mesh, the ranks agreeing
// on the verdict; an exchange part over the whole world.
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
      break;
  }
  if (redist::Status st = redist::backend::mpi_status(MPI_Comm_dup(comm, &exec->world), "redist_plan_bind"); !st.ok())
    return st;
  int rank = 0;
  MPI_Comm_rank(exec->world, &rank);
  for (auto [part, out] :
       {std::pair{lowered.first.get(), &exec->first}, std::pair{lowered.second.get(), &exec->second}}) {
    *out = std::make_unique<redist_exec>();
    if (part->kind != PlanKind::collectives) {
      if (redist::Status st = bind(*part, exec->world, out->get()); !st.ok()) return st;
      continue;
    }
    (*out)->lowered = part;
    (*out)->member = rank < part->program.devices();
    MPI_Comm mesh = MPI_COMM_NULL;
    if (redist::Status st = redist::backend::mpi_status(
            MPI_Comm_split(exec->world, (*out)->member ? 0 : MPI_UNDEFINED, rank, &mesh), "redist_plan_bind");
        !st.ok())
      return st;
    redist::Status st;
    if (mesh != MPI_COMM_NULL) {
      st = bind(*part, mesh, out->get());
      MPI_Comm_free(&mesh);
    }
    if (st = redist::backend::agree(exec->world, std::move(st), "redist_plan_bind"); !st.ok()) return st;
  }
  return redist::Status();
}

// The bytes of this rank's array before a bound lowering (its source box)
// and after it (its target box): for a hybrid's parts, the rank's box of the
// intermediate.
std::size_t source_bytes(const redist_exec& exec) {
  switch (exec.lowered->kind) {
    case PlanKind::collectives: return exec.member ? redist::bytes(exec.lowered->program.src_layout) : 0;
    case PlanKind::exchange: return exec.exchange.source_bytes();
    case PlanKind::reducing_exchange: return exec.reducing.source_bytes();
    case PlanKind::hybrid: return source_bytes(*exec.first);
  }
  return 0;
}

std::size_t target_bytes(const redist_exec& exec) {
  switch (exec.lowered->kind) {
    case PlanKind::collectives: return exec.member ? redist::bytes(exec.lowered->program.tgt_layout) : 0;
    case PlanKind::exchange: return exec.exchange.target_bytes();
    case PlanKind::reducing_exchange: return exec.reducing.target_bytes();
    case PlanKind::hybrid: return target_bytes(*exec.second);
  }
  return 0;
}

// Starts a bound lowering; allocates nothing.  An exchange (direct or
// reducing) posts its messages and returns with them in flight; a plan by
// the collectives runs whole (no overlap for the collectives yet).  A
// hybrid (its workspace checked by the caller): the first part runs whole
// from src into the intermediate at the workspace's start, then the second
// starts from there into dst, each part's own workspace after the
// intermediate; the ranks agree on each verdict, so that no rank waits on
// one that failed (`what` names the C function in their messages).
redist::Status start(redist_exec& exec, const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                     void* workspace, std::size_t workspace_bytes, const char* what);

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
      return advance(*exec.second, block, done);
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

redist::Status start(redist_exec& exec, const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                     void* workspace, std::size_t workspace_bytes, const char* what) {
  switch (exec.lowered->kind) {
    case PlanKind::collectives:
      return exec.member ? exec.interpreter.run(src, src_bytes, dst, dst_bytes, workspace, workspace_bytes)
                         : redist::Status();
    case PlanKind::exchange:  // needs no workspace
      return exec.exchange.start(src, src_bytes, dst, dst_bytes);
    case PlanKind::reducing_exchange: {
      // Only designated target ranks stage contributions; the others need none.
      const bool stages = exec.reducing.workspace_bytes() > 0;
      return exec.reducing.start(src, src_bytes, dst, dst_bytes, stages ? workspace : nullptr,
                                 stages ? workspace_bytes : 0);
    }
    case PlanKind::hybrid:
      break;
  }
  unsigned char* mid = static_cast<unsigned char*>(workspace);
  unsigned char* rest = mid + exec.lowered->mid_bytes;
  const std::size_t rest_bytes = workspace_bytes - exec.lowered->mid_bytes;
  // A rank that holds no intermediate box passes null and 0, as to any part.
  const std::size_t mid_out = target_bytes(*exec.first), mid_in = source_bytes(*exec.second);
  if (redist::Status st = redist::backend::agree(
          exec.world, run(*exec.first, src, src_bytes, mid_out ? mid : nullptr, mid_out, rest, rest_bytes, what),
          what);
      !st.ok())
    return st;
  return redist::backend::agree(
      exec.world, start(*exec.second, mid_in ? mid : nullptr, mid_in, dst, dst_bytes, rest, rest_bytes, what), what);
}

// redist_exec_start's (and _run's) checks of its own, before start(): an
// operation started and not yet waited for, and a hybrid's whole
// workspace (each part's share follows the intermediate, within it).  An
// exchange's start() refuses an operation in flight itself, agreed; for
// the others the verdict is agreed here.
redist::Status check_start(redist_exec& exec, std::size_t workspace_bytes, const void* workspace, const char* what) {
  const PlanKind kind = exec.lowered->kind;
  if (kind == PlanKind::exchange || kind == PlanKind::reducing_exchange) return redist::Status();
  redist::Status local;
  if (exec.started)
    local = redist::Status(kInvalidArgument, "an operation is already started (not yet waited for): "
                                             "call redist_exec_wait first");
  else if (kind == PlanKind::hybrid &&
           (workspace_bytes < exec.workspace_bytes || (workspace == nullptr && exec.workspace_bytes > 0)))
    local = redist::Status(redist::Errc::buffer_too_small, "the workspace is shorter than redist_plan_workspace_bytes");
  return redist::backend::agree(kind == PlanKind::hybrid ? exec.world : exec.interpreter.mesh().comm(),
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
    exec->workspace_bytes = plan->workspace_bytes;
    *out = exec.release();
    return REDIST_OK;
  } catch (const std::bad_alloc&) {
    return fail(err, errlen, REDIST_ERR_INTERNAL, "internal error: out of memory");
  }
}

int redist_exec_start(redist_exec_t* exec, const void* src, size_t src_bytes, void* dst, size_t dst_bytes,
                      void* workspace, size_t workspace_bytes, char* err, size_t errlen) {
  if (exec == nullptr) return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_exec_start: null executor");
  redist::Status st = check_start(*exec, workspace_bytes, workspace, "redist_exec_start");
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
  redist::Status st = check_start(*exec, workspace_bytes, workspace, "redist_exec_run");
  if (st.ok()) st = run(*exec, src, src_bytes, dst, dst_bytes, workspace, workspace_bytes, "redist_exec_run");
  return st.ok() ? REDIST_OK : runtime_failure(err, errlen, st);
}

void redist_exec_free(redist_exec_t* exec) { delete exec; }

int redist_plan_execute(const redist_plan_t* plan, MPI_Comm comm, const void* src, size_t src_bytes, void* dst,
                        size_t dst_bytes, void* workspace, size_t workspace_bytes, char* err, size_t errlen) {
  redist_exec_t* exec = nullptr;
  if (int rc = redist_plan_bind(plan, comm, &exec, err, errlen); rc != REDIST_OK) return rc;
  const int rc = redist_exec_run(exec, src, src_bytes, dst, dst_bytes, workspace, workspace_bytes, err, errlen);
  redist_exec_free(exec);
  return rc;
}

}  // extern "C"
