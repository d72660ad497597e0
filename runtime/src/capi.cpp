// The C ABI (redist/redist.h): OCaml's runtime, started once, runs the
// verified planner (codegen/capi/redist_plan_ocaml.ml, linked into this
// library as one object); the plan's lowering is copied into a PlanProgram
// that the interpreter runs, or into the arguments of the runtime's
// Exchange, or, for a hybrid, into one of those per part, so that binding
// and running never enter OCaml.
#include "redist/redist.h"

#include <cstdio>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include <signal.h>

#include "internal/backend_common.hpp"
#include "internal/exchange_peers.hpp"
#include "redist/exchange.hpp"
#include "redist/interpreter.hpp"
#include "redist/placed.hpp"
#include "redist/reduce_exchange.hpp"

// OCaml's compatibility.h defines invalid_argument as a macro: the
// runtime's code of that name is taken before its headers.
constexpr redist::Errc kInvalidArgument = redist::Errc::invalid_argument;

extern "C" {
#include <caml/alloc.h>
#include <caml/callback.h>
#include <caml/memory.h>
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
};

static_assert(REDIST_MAX_DIMS == redist::kMaxRank, "redist.h and the runtime disagree on the most dimensions");

// Lowering.lowered's tags, and redist_plan_by_exchange's answers.
enum class PlanKind { collectives = 0, exchange = 1, reducing_exchange = 2, hybrid = 3 };

// Lowering.lowered: a plan by one kind, or a hybrid of two parts.
struct Lowered {
  PlanKind kind = PlanKind::collectives;
  redist::PlanProgram program;  // by the collectives
  ExchangeSpec exchange;        // by the exchange
  ReducingSpec reducing;        // by the reducing exchange
  std::size_t elem_bytes = 0;
  // A hybrid (the core's Staged): the intermediate fills the workspace's
  // first mid_bytes; the first part moves the source into it, the second
  // moves it into the destination, each with the workspace after it.
  std::size_t mid_bytes = 0;
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
                lower_bound_recv_bytes = 0, live_bytes = 0;
  std::size_t elem_bytes = 0;
  redist::ProblemDigest digest;  // what redist_plan_bind agrees on
  value problem = Val_unit;  // a generational global root while the plan lives: the OCaml problem, for boxes
};

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

// OCaml's runtime is single-threaded: every entry into it holds this lock.
std::mutex ocaml_lock;

int fail(char* err, std::size_t errlen, int code, const std::string& message) {
  if (err != nullptr && errlen > 0) std::snprintf(err, errlen, "%s", message.c_str());
  return code;
}

// The caller's misuse is bad input; MPI failures and other ranks' errors
// are the runtime's.
int runtime_failure(char* err, std::size_t errlen, const redist::Status& st) {
  const bool theirs = st.code() == redist::Errc::backend_error || st.code() == redist::Errc::remote_error;
  return fail(err, errlen, theirs ? REDIST_ERR_RUNTIME : REDIST_ERR_BAD_INPUT,
              std::string(redist::errc_name(st.code())) + ": " + st.message());
}

// Under ocaml_lock.
const value* ocaml_function(const char* name) {
  static bool started = false;
  if (!started) {
    static char program_name[] = "libredist_plan";
    static char* argv[] = {program_name, nullptr};
    // OCaml's runtime takes SIGSEGV (and an alternate signal stack) to turn
    // a stack overflow into an exception; the host program's own handler
    // (MPI's, Python's, the JVM's) is put back: a library must not change
    // the process's signal handling.  The planner's recursion is bounded
    // by the input limits.
    struct sigaction host_segv;
    stack_t host_stack;
    sigaction(SIGSEGV, nullptr, &host_segv);
    sigaltstack(nullptr, &host_stack);
    caml_startup(argv);
    sigaction(SIGSEGV, &host_segv, nullptr);
    sigaltstack(&host_stack, nullptr);
    started = true;
  }
  return caml_named_value(name);
}

std::vector<int> int_array(value a) {
  std::vector<int> out(Wosize_val(a));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<int>(Long_val(Field(a, i)));
  return out;
}

std::uint64_t uint_field(value v, int i) { return static_cast<std::uint64_t>(Long_val(Field(v, i))); }

bool layout_of(value shape, std::size_t elem_bytes, redist::Layout* out) {
  const std::size_t n = Wosize_val(shape);
  if (n < 1 || n > static_cast<std::size_t>(redist::kMaxRank)) return false;
  *out = redist::Layout{static_cast<int>(n), {}, elem_bytes};
  for (std::size_t d = 0; d < n; ++d) out->extent[d] = static_cast<std::size_t>(Long_val(Field(shape, d)));
  return true;
}

// Lowering.step.
bool step_of(value s, std::size_t elem_bytes, redist::PlanStep* step) {
  *step = redist::PlanStep{};
  step->op = static_cast<redist::PlanOp>(Long_val(Field(s, 0)));
  step->group = redist::Group{static_cast<int>(Long_val(Field(s, 1))), static_cast<int>(Long_val(Field(s, 2)))};
  if (!layout_of(Field(s, 3), elem_bytes, &step->layout)) return false;
  step->dim_a = static_cast<int>(Long_val(Field(s, 4)));
  step->dim_b = static_cast<int>(Long_val(Field(s, 5)));
  step->input = static_cast<redist::PlanBuffer>(Long_val(Field(s, 6)));
  step->output = static_cast<redist::PlanBuffer>(Long_val(Field(s, 7)));
  step->recv_from = int_array(Field(s, 8));
  return true;
}

bool steps_of(value steps, std::size_t elem_bytes, std::vector<redist::PlanStep>* out) {
  for (std::size_t i = 0; i < Wosize_val(steps); ++i) {
    redist::PlanStep step;
    if (!step_of(Field(steps, i), elem_bytes, &step)) return false;
    out->push_back(std::move(step));
  }
  return true;
}

// Lowering.program (codegen/capi/lowering.ml), field by field.  Reads
// only: no OCaml allocation happens while the value is held.
bool program_of(value v, redist::PlanProgram* p) {
  p->mesh_sizes = int_array(Field(v, 0));
  const auto elem_bytes = static_cast<std::size_t>(Long_val(Field(v, 1)));
  if (!layout_of(Field(v, 2), elem_bytes, &p->src_layout) || !layout_of(Field(v, 3), elem_bytes, &p->tgt_layout))
    return false;
  p->ping_bytes = uint_field(v, 4);
  p->pong_bytes = uint_field(v, 5);
  p->scratch_bytes = uint_field(v, 6);
  const value groups = Field(v, 7);
  for (std::size_t i = 0; i < Wosize_val(groups); ++i) {
    const value g = Field(groups, i);
    p->groups.push_back(redist::Group{static_cast<int>(Long_val(Field(g, 0))), static_cast<int>(Long_val(Field(g, 1)))});
  }
  if (!steps_of(Field(v, 8), elem_bytes, &p->steps)) return false;
  const long dtype = Long_val(Field(v, 9));
  p->red0_bytes = uint_field(v, 10);
  p->red1_bytes = uint_field(v, 11);
  p->red_scratch_bytes = uint_field(v, 12);
  if (!steps_of(Field(v, 13), elem_bytes, &p->reductions)) return false;
  p->collectives_source = static_cast<redist::PlanBuffer>(Long_val(Field(v, 14)));
  if (!steps_of(Field(v, 15), elem_bytes, &p->additions)) return false;
  // Lowering.dtype_code: -1 is an element type the runtime does not add, which only a plan without reductions may have.
  if (dtype >= 0) p->dtype = static_cast<redist::Dtype>(dtype);
  return dtype >= 0 || p->reductions.empty();
}

// Lowering.placed_layout into the runtime's placed mesh and block layout.
bool placed_layout_of(value v, redist::PlacedMesh* mesh, redist::BlockLayout* layout) {
  const std::vector<int> sizes = int_array(Field(v, 0));
  const value extents = Field(v, 2), axes = Field(v, 3);
  const std::size_t ndim = Wosize_val(extents);
  if (sizes.empty() || sizes.size() > redist::kMaxRank || ndim < 1 || ndim > redist::kMaxRank) return false;
  mesh->naxes = static_cast<int>(sizes.size());
  for (std::size_t a = 0; a < sizes.size(); ++a) mesh->axis_size[a] = sizes[a];
  mesh->ranks = int_array(Field(v, 1));
  layout->ndim = static_cast<int>(ndim);
  for (std::size_t d = 0; d < ndim; ++d) {
    layout->extent[d] = static_cast<std::size_t>(Long_val(Field(extents, d)));
    const std::vector<int> dim_axes = int_array(Field(axes, d));
    if (dim_axes.size() > redist::kMaxRank) return false;
    layout->sharding[d].count = static_cast<int>(dim_axes.size());
    for (std::size_t k = 0; k < dim_axes.size(); ++k) layout->sharding[d].axis[k] = dim_axes[k];
  }
  return true;
}

// Lowering.exchange.
bool exchange_of(value v, ExchangeSpec* x) {
  x->elem_bytes = static_cast<std::size_t>(Long_val(Field(v, 2)));
  return placed_layout_of(Field(v, 0), &x->source, &x->source_layout) &&
         placed_layout_of(Field(v, 1), &x->target, &x->target_layout);
}

// Lowering.reducing_exchange.
bool reducing_of(value v, ReducingSpec* x) {
  if (!exchange_of(Field(v, 0), &x->layouts)) return false;
  x->source_pending = int_array(Field(v, 1));
  x->target_pending = int_array(Field(v, 2));
  const long dtype = Long_val(Field(v, 3));
  if (dtype < 0) return false;
  x->dtype = static_cast<redist::Dtype>(dtype);
  return true;
}

// Lowering.lowered (tags: PlanKind), recursively for a hybrid's parts.
bool lowered_of(value v, Lowered* out) {
  out->kind = static_cast<PlanKind>(Tag_val(v));
  switch (out->kind) {
    case PlanKind::exchange:
      if (!exchange_of(Field(v, 0), &out->exchange)) return false;
      out->elem_bytes = out->exchange.elem_bytes;
      return true;
    case PlanKind::reducing_exchange:
      if (!reducing_of(Field(v, 0), &out->reducing)) return false;
      out->exchange = out->reducing.layouts;  // for the box queries' and receives' geometry
      out->elem_bytes = out->reducing.layouts.elem_bytes;
      return true;
    case PlanKind::collectives:
      if (!program_of(Field(v, 0), &out->program)) return false;
      out->elem_bytes = out->program.src_layout.elem_bytes;
      return true;
    case PlanKind::hybrid:
      out->mid_bytes = static_cast<std::size_t>(Long_val(Field(v, 0)));
      out->first = std::make_unique<Lowered>();
      out->second = std::make_unique<Lowered>();
      if (!lowered_of(Field(v, 1), out->first.get()) || !lowered_of(Field(v, 2), out->second.get())) return false;
      out->elem_bytes = out->first->elem_bytes;
      return true;
  }
  return false;
}

// Every collectives program of a lowering (a hybrid's parts too) creates its
// mesh for the whole plan's problem, which bind has agreed on.
void stamp_problem(const redist::ProblemDigest& digest, Lowered* lowered) {
  lowered->program.problem = digest;
  if (lowered->first) stamp_problem(digest, lowered->first.get());
  if (lowered->second) stamp_problem(digest, lowered->second.get());
}

// Redist_plan_ocaml.info, field by field.
bool plan_of(value info, redist_plan* plan) {
  if (!lowered_of(Field(info, 0), &plan->lowered)) return false;
  plan->elem_bytes = plan->lowered.elem_bytes;
  plan->text = String_val(Field(info, 2));
  plan->json = String_val(Field(info, 3));
  plan->guarantees = String_val(Field(info, 4));
  const value texts = Field(info, 5);
  for (std::size_t i = 0; i < Wosize_val(texts); ++i) plan->step_texts.emplace_back(String_val(Field(texts, i)));
  plan->devices = static_cast<int>(Long_val(Field(info, 6)));
  plan->ndim = static_cast<int>(Wosize_val(Field(info, 7)));
  plan->src_bytes = uint_field(info, 8);
  plan->dst_bytes = uint_field(info, 9);
  plan->peak_bytes = uint_field(info, 10);
  plan->workspace_bytes = uint_field(info, 11);
  plan->recv_max_bytes = uint_field(info, 12);
  plan->lower_bound_recv_bytes = uint_field(info, 13);
  plan->live_bytes = uint_field(info, 14);
  const value digest = Field(info, 15);
  plan->digest = redist::ProblemDigest{static_cast<std::uint64_t>(Int64_val(Field(digest, 0))),
                                       static_cast<std::uint64_t>(Int64_val(Field(digest, 1))),
                                       static_cast<std::uint64_t>(Int64_val(Field(digest, 2))),
                                       static_cast<std::uint64_t>(Int64_val(Field(digest, 3)))};
  stamp_problem(plan->digest, &plan->lowered);
  // redist_plan_step's steps are the step texts, one for one.
  const redist::PlanProgram& p = plan->lowered.program;
  return plan->lowered.kind != PlanKind::collectives ||
         p.reductions.size() + p.steps.size() + p.additions.size() == plan->step_texts.size();
}

// Calls the OCaml function `name` (redist_plan_create, redist_plan_check or
// redist_plan_from_json) on its strings (at most six; NULL passes "").
int create(const char* name, std::initializer_list<const char*> strings, redist_plan_t** out, char* err,
           std::size_t errlen) {
  std::lock_guard<std::mutex> guard(ocaml_lock);
  const value* planner = ocaml_function(name);
  if (planner == nullptr) return fail(err, errlen, REDIST_ERR_INTERNAL, "internal error: the planner is not linked in");
  CAMLparam0();
  CAMLlocal1(outcome);
  CAMLlocalN(args, 6);
  int nargs = 0;
  for (const char* s : strings) args[nargs++] = caml_copy_string(s == nullptr ? "" : s);
  // An exception result is no value for the GC: checked before it is rooted.
  const value result = caml_callbackN_exn(*planner, nargs, args);
  if (Is_exception_result(result))
    CAMLreturnT(int, fail(err, errlen, REDIST_ERR_INTERNAL, "internal error: an OCaml exception escaped the planner"));
  outcome = result;
  if (Tag_val(outcome) == 1)
    CAMLreturnT(int, fail(err, errlen, static_cast<int>(Long_val(Field(outcome, 0))), String_val(Field(outcome, 1))));
  auto* plan = new redist_plan;
  if (!plan_of(Field(outcome, 0), plan)) {
    delete plan;
    CAMLreturnT(int, fail(err, errlen, REDIST_ERR_INTERNAL, "internal error: the lowering exceeds the runtime's limits"));
  }
  plan->problem = Field(Field(outcome, 0), 1);
  caml_register_generational_global_root(&plan->problem);
  *out = plan;
  CAMLreturnT(int, REDIST_OK);
}

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
          x.target, x.target_layout, rx.target_pending.data(), static_cast<int>(rx.target_pending.size()), rx.dtype,
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

int box(const redist_plan_t* plan, int which, int rank, std::size_t* offset, std::size_t* extent, char* err,
        std::size_t errlen) {
  if (plan == nullptr || offset == nullptr || extent == nullptr)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_plan box: null plan, offset or extent");
  if (rank < 0)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_plan box: rank " + std::to_string(rank) + " is negative");
  std::lock_guard<std::mutex> guard(ocaml_lock);
  CAMLparam0();
  CAMLlocal1(boxes);
  const value result = caml_callback3_exn(*ocaml_function("redist_plan_box"), plan->problem, Val_int(which), Val_int(rank));
  if (Is_exception_result(result))
    CAMLreturnT(int, fail(err, errlen, REDIST_ERR_INTERNAL, "internal error: an OCaml exception escaped the box query"));
  boxes = result;
  for (std::size_t d = 0; d < Wosize_val(boxes); ++d) {
    offset[d] = static_cast<std::size_t>(Long_val(Field(Field(boxes, d), 0)));
    extent[d] = static_cast<std::size_t>(Long_val(Field(Field(boxes, d), 1)));
  }
  CAMLreturnT(int, REDIST_OK);
}

// redist_plan_create_from's structs in the command line's notation, which
// the planner then reads as it reads `redist plan`'s arguments (so both
// paths share its checks); false with the offending field in *why.
bool notation(const redist_mesh_t& m, const char* what, std::string* out, std::string* why) {
  if (m.naxes < 1 || m.naxes > REDIST_MAX_DIMS || m.axis_names == nullptr || m.axis_sizes == nullptr) {
    *why = std::string(what) + ": naxes " + std::to_string(m.naxes) + " (1 to " + std::to_string(REDIST_MAX_DIMS) +
           ") or null axis_names or axis_sizes";
    return false;
  }
  long long devices = 1;
  *out = "{";
  for (int a = 0; a < m.naxes; ++a) {
    if (m.axis_names[a] == nullptr) {
      *why = std::string(what) + ": axis_names[" + std::to_string(a) + "] is null";
      return false;
    }
    // The notation is quoted in the planner's messages, which are one line.
    for (const char* c = m.axis_names[a]; *c != '\0'; ++c)
      if (static_cast<unsigned char>(*c) < 0x20) {
        *why = std::string(what) + ": axis_names[" + std::to_string(a) + "] holds a control character";
        return false;
      }
    devices *= m.axis_sizes[a];
    if (m.axis_sizes[a] < 1 || devices > 65536) {
      *why = std::string(what) + ": axis_sizes[" + std::to_string(a) + "] = " + std::to_string(m.axis_sizes[a]) +
             " (at least 1, and at most 65,536 devices in all)";
      return false;
    }
    *out += (a ? ", " : "") + std::string(m.axis_names[a]) + ":" + std::to_string(m.axis_sizes[a]);
  }
  *out += "}";
  if (m.ranks != nullptr) {
    *out += " @ [";
    for (long long p = 0; p < devices; ++p) *out += (p ? ", " : "") + std::to_string(m.ranks[p]);
    *out += "]";
  }
  return true;
}

bool notation(const redist_layout_t& t, const redist_mesh_t& m, const char* what, std::string* out, std::string* why);

// A layout with pending axes: the plain layout's notation, then " sum{...}".
bool notation(const redist_pending_layout_t& t, const redist_mesh_t& m, const char* what, std::string* out,
              std::string* why) {
  if (!notation(t.layout, m, what, out, why)) return false;
  if (t.npending < 0 || t.npending > m.naxes || (t.npending > 0 && t.pending == nullptr)) {
    *why = std::string(what) + ": npending " + std::to_string(t.npending) + " (0 to the mesh's " +
           std::to_string(m.naxes) + ") or null pending";
    return false;
  }
  for (int k = 0; k < t.npending; ++k) {
    const int a = t.pending[k];
    if (a < 0 || a >= m.naxes) {
      *why = std::string(what) + ": pending[" + std::to_string(k) + "] = " + std::to_string(a) +
             " is not an axis of the mesh (0 to " + std::to_string(m.naxes - 1) + ")";
      return false;
    }
    *out += (k ? "," : " sum{") + std::string(m.axis_names[a]);
  }
  if (t.npending > 0) *out += "}";
  return true;
}

bool notation(const redist_layout_t& t, const redist_mesh_t& m, const char* what, std::string* out, std::string* why) {
  if (t.ndim < 1 || t.ndim > REDIST_MAX_DIMS || t.extents == nullptr || t.naxes == nullptr || t.axes == nullptr) {
    *why = std::string(what) + ": ndim " + std::to_string(t.ndim) + " (1 to " + std::to_string(REDIST_MAX_DIMS) +
           ") or null extents, naxes or axes";
    return false;
  }
  *out = "[";
  for (int d = 0; d < t.ndim; ++d) {
    const std::string dim = std::string(what) + ": dimension " + std::to_string(d);
    if (t.naxes[d] < 0 || t.naxes[d] > m.naxes) {
      *why = dim + ": naxes " + std::to_string(t.naxes[d]) + " (0 to the mesh's " + std::to_string(m.naxes) + ")";
      return false;
    }
    *out += d ? ", " : "";
    if (t.naxes[d] > 0) {
      *out += "{";
      for (int k = 0; k < t.naxes[d]; ++k) {
        const int a = t.axes[d][k];
        if (a < 0 || a >= m.naxes) {
          *why = dim + ": axes[" + std::to_string(k) + "] = " + std::to_string(a) + " is not an axis of the mesh (0 to " +
                 std::to_string(m.naxes - 1) + ")";
          return false;
        }
        *out += (k ? "," : "") + std::string(m.axis_names[a]);
      }
      *out += "}";
    }
    *out += std::to_string(t.extents[d]);
  }
  *out += "]";
  return true;
}

}  // namespace

extern "C" {

int redist_plan_create(const char* mesh, const char* from, const char* to, const char* dtype,
                       redist_plan_t** out, char* err, size_t errlen) {
  return redist_plan_create_with(mesh, nullptr, from, to, dtype, nullptr, out, err, errlen);
}

int redist_plan_create_with(const char* mesh, const char* to_mesh, const char* from, const char* to,
                            const char* dtype, const char* strategy, redist_plan_t** out, char* err, size_t errlen) {
  if (mesh == nullptr || from == nullptr || to == nullptr || out == nullptr)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_plan_create: null mesh, from, to or out");
  *out = nullptr;
  try {
    return create("redist_plan_create", {mesh, to_mesh, from, to, dtype, strategy}, out, err, errlen);
  } catch (const std::bad_alloc&) {
    return fail(err, errlen, REDIST_ERR_INTERNAL, "internal error: out of memory");
  }
}

int redist_plan_create_from(const redist_mesh_t* mesh, const redist_mesh_t* to_mesh, const redist_layout_t* from,
                            const redist_layout_t* to, const char* dtype, const char* strategy, redist_plan_t** out,
                            char* err, size_t errlen) {
  if (mesh == nullptr || from == nullptr || to == nullptr || out == nullptr)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_plan_create_from: null mesh, from, to or out");
  const redist_pending_layout_t plain_from = {*from, 0, nullptr}, plain_to = {*to, 0, nullptr};
  return redist_plan_create_pending_from(mesh, to_mesh, &plain_from, &plain_to, dtype, strategy, out, err, errlen);
}

int redist_plan_create_pending_from(const redist_mesh_t* mesh, const redist_mesh_t* to_mesh,
                                    const redist_pending_layout_t* from, const redist_pending_layout_t* to,
                                    const char* dtype, const char* strategy, redist_plan_t** out, char* err,
                                    size_t errlen) {
  if (mesh == nullptr || from == nullptr || to == nullptr || out == nullptr)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_plan_create_from: null mesh, from, to or out");
  *out = nullptr;
  try {
    std::string mesh_text, to_mesh_text, from_text, to_text, why;
    if (!notation(*mesh, "mesh", &mesh_text, &why) ||
        (to_mesh != nullptr && !notation(*to_mesh, "to_mesh", &to_mesh_text, &why)) ||
        !notation(*from, *mesh, "from", &from_text, &why) ||
        !notation(*to, to_mesh != nullptr ? *to_mesh : *mesh, "to", &to_text, &why))
      return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_plan_create_from: " + why);
    const int rc = create("redist_plan_create",
                          {mesh_text.c_str(), to_mesh != nullptr ? to_mesh_text.c_str() : nullptr, from_text.c_str(),
                           to_text.c_str(), dtype, strategy},
                          out, err, errlen);
    // The planner's message quotes the notation; say what it was written from.
    if (rc == REDIST_ERR_BAD_INPUT && err != nullptr && errlen > 0) {
      const std::string message = err;
      fail(err, errlen, rc,
           message + " (redist_plan_create_from's structs as: mesh " + mesh_text +
               (to_mesh != nullptr ? ", to_mesh " + to_mesh_text : "") + ", from " + from_text + ", to " + to_text + ")");
    }
    return rc;
  } catch (const std::bad_alloc&) {
    return fail(err, errlen, REDIST_ERR_INTERNAL, "internal error: out of memory");
  }
}

int redist_plan_check(const char* mesh, const char* to_mesh, const char* from, const char* to, const char* dtype,
                      const char* plan_text, redist_plan_t** out, char* err, size_t errlen) {
  if (mesh == nullptr || from == nullptr || to == nullptr || plan_text == nullptr || out == nullptr)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_plan_check: null mesh, from, to, plan_text or out");
  *out = nullptr;
  try {
    return create("redist_plan_check", {mesh, to_mesh, from, to, dtype, plan_text}, out, err, errlen);
  } catch (const std::bad_alloc&) {
    return fail(err, errlen, REDIST_ERR_INTERNAL, "internal error: out of memory");
  }
}

int redist_plan_from_json(const char* json, redist_plan_t** out, char* err, size_t errlen) {
  if (json == nullptr || out == nullptr)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_plan_from_json: null json or out");
  *out = nullptr;
  try {
    return create("redist_plan_from_json", {json}, out, err, errlen);
  } catch (const std::bad_alloc&) {
    return fail(err, errlen, REDIST_ERR_INTERNAL, "internal error: out of memory");
  }
}

void redist_plan_free(redist_plan_t* plan) {
  if (plan == nullptr) return;
  {
    std::lock_guard<std::mutex> guard(ocaml_lock);
    caml_remove_generational_global_root(&plan->problem);
  }
  delete plan;
}

// Queries of a null plan answer 0 or NULL.
int redist_plan_devices(const redist_plan_t* plan) { return plan ? plan->devices : 0; }
int redist_plan_ndim(const redist_plan_t* plan) { return plan ? plan->ndim : 0; }
int redist_plan_by_exchange(const redist_plan_t* plan) { return plan ? static_cast<int>(plan->lowered.kind) : 0; }
size_t redist_plan_elem_bytes(const redist_plan_t* plan) { return plan ? plan->elem_bytes : 0; }
size_t redist_plan_num_steps(const redist_plan_t* plan) { return plan ? plan->step_texts.size() : 0; }
const char* redist_plan_step_text(const redist_plan_t* plan, size_t i) {
  return plan && i < plan->step_texts.size() ? plan->step_texts[i].c_str() : nullptr;
}
const char* redist_plan_text(const redist_plan_t* plan) { return plan ? plan->text.c_str() : nullptr; }
const char* redist_plan_json(const redist_plan_t* plan) { return plan ? plan->json.c_str() : nullptr; }
const char* redist_plan_guarantees(const redist_plan_t* plan) { return plan ? plan->guarantees.c_str() : nullptr; }
uint64_t redist_plan_src_bytes(const redist_plan_t* plan) { return plan ? plan->src_bytes : 0; }
uint64_t redist_plan_dst_bytes(const redist_plan_t* plan) { return plan ? plan->dst_bytes : 0; }
uint64_t redist_plan_peak_bytes(const redist_plan_t* plan) { return plan ? plan->peak_bytes : 0; }
uint64_t redist_plan_workspace_bytes(const redist_plan_t* plan) { return plan ? plan->workspace_bytes : 0; }
uint64_t redist_plan_live_bytes(const redist_plan_t* plan) { return plan ? plan->live_bytes : 0; }
uint64_t redist_plan_recv_max_bytes(const redist_plan_t* plan) { return plan ? plan->recv_max_bytes : 0; }
uint64_t redist_plan_lower_bound_recv_bytes(const redist_plan_t* plan) {
  return plan ? plan->lower_bound_recv_bytes : 0;
}

int redist_plan_src_box(const redist_plan_t* plan, int rank, size_t* offset, size_t* extent, char* err,
                        size_t errlen) {
  return box(plan, 0, rank, offset, extent, err, errlen);
}
int redist_plan_tgt_box(const redist_plan_t* plan, int rank, size_t* offset, size_t* extent, char* err,
                        size_t errlen) {
  return box(plan, 1, rank, offset, extent, err, errlen);
}

int redist_plan_step(const redist_plan_t* plan, size_t i, redist_step_info_t* out, char* err, size_t errlen) {
  if (plan == nullptr || out == nullptr) return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_plan_step: null plan or out");
  if (plan->lowered.kind != PlanKind::collectives)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT,
                plan->lowered.kind == PlanKind::hybrid ? "redist_plan_step: the plan is a hybrid, not collectives"
                                                       : "redist_plan_step: the plan is one exchange, not collectives");
  const redist::PlanProgram& p = plan->lowered.program;
  const std::size_t count = p.reductions.size() + p.steps.size() + p.additions.size();
  if (i >= count)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT,
                "redist_plan_step: step " + std::to_string(i) + " of a plan of " + std::to_string(count) + " steps");
  // In execution order: the reductions, the collectives, the add_pending steps.
  const std::size_t collectives_end = p.reductions.size() + p.steps.size();
  const redist::PlanStep& step = i < p.reductions.size() ? p.reductions[i]
                                 : i < collectives_end   ? p.steps[i - p.reductions.size()]
                                                         : p.additions[i - collectives_end];
  *out = redist_step_info_t{};
  out->op = static_cast<int>(step.op);
  out->group_stride = step.group.stride;
  out->group_size = step.group.size;
  out->dim_a = step.dim_a;
  out->dim_b = step.dim_b;
  out->ndim = step.layout.ndim;
  for (int d = 0; d < step.layout.ndim; ++d) out->shape[d] = step.layout.extent[d];
  out->recv_from = step.recv_from.empty() ? nullptr : step.recv_from.data();
  return REDIST_OK;
}

int redist_plan_receives(const redist_plan_t* plan, int rank, redist_region_t* regions, size_t max_regions,
                         size_t* count, char* err, size_t errlen) {
  if (plan == nullptr || count == nullptr || (regions == nullptr && max_regions > 0))
    return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_plan_receives: null plan, regions or count");
  if (plan->lowered.kind != PlanKind::exchange)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT,
                plan->lowered.kind == PlanKind::collectives
                    ? "redist_plan_receives: the plan is collectives, not one exchange"
                : plan->lowered.kind == PlanKind::hybrid
                    ? "redist_plan_receives: the plan is a hybrid, not one exchange"
                    : "redist_plan_receives: the plan is the reducing exchange: ask redist_plan_sum_receives");
  if (rank < 0 || rank >= plan->devices)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT,
                "redist_plan_receives: rank " + std::to_string(rank) + " outside the world of " +
                    std::to_string(plan->devices) + " ranks");
  try {
    const ExchangeSpec& x = plan->lowered.exchange;
    redist::backend::ExchangePeers peers = redist::backend::exchange_peers(
        rank, plan->devices, x.source, x.source_layout, x.target, x.target_layout);
    std::vector<redist::backend::Transfer>& pieces = peers.receives;
    if (redist::box_elements(peers.kept) > 0) pieces.insert(pieces.begin(), redist::backend::Transfer{rank, peers.kept});
    *count = pieces.size();
    for (std::size_t k = 0; k < pieces.size() && k < max_regions; ++k) {
      regions[k] = redist_region_t{};
      regions[k].from_rank = pieces[k].rank;
      for (int d = 0; d < pieces[k].region.ndim; ++d) {
        regions[k].offset[d] = pieces[k].region.lo[d];
        regions[k].extent[d] = pieces[k].region.hi[d] - pieces[k].region.lo[d];
      }
    }
    return REDIST_OK;
  } catch (const std::bad_alloc&) {
    return fail(err, errlen, REDIST_ERR_INTERNAL, "internal error: out of memory");
  }
}

int redist_plan_sum_receives(const redist_plan_t* plan, int rank, redist_contribution_t* contributions,
                             size_t max_contributions, size_t* count, int* designated, int* group_size, char* err,
                             size_t errlen) {
  if (plan == nullptr || count == nullptr || designated == nullptr || group_size == nullptr ||
      (contributions == nullptr && max_contributions > 0))
    return fail(err, errlen, REDIST_ERR_BAD_INPUT,
                "redist_plan_sum_receives: null plan, contributions, count, designated or group_size");
  if (plan->lowered.kind != PlanKind::reducing_exchange)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_plan_sum_receives: the plan is not the reducing exchange");
  if (rank < 0 || rank >= plan->devices)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT,
                "redist_plan_sum_receives: rank " + std::to_string(rank) + " outside the world of " +
                    std::to_string(plan->devices) + " ranks");
  std::lock_guard<std::mutex> guard(ocaml_lock);
  CAMLparam0();
  CAMLlocal1(answer);
  const value result =
      caml_callback2_exn(*ocaml_function("redist_plan_sum_receives"), plan->problem, Val_int(rank));
  if (Is_exception_result(result))
    CAMLreturnT(int, fail(err, errlen, REDIST_ERR_INTERNAL,
                          "internal error: an OCaml exception escaped the reducing exchange's query"));
  answer = result;  // Lowering.sum_receives: (designated, group size, [| (cell, senders) |])
  *designated = Bool_val(Field(answer, 0)) ? 1 : 0;
  *group_size = static_cast<int>(Long_val(Field(answer, 1)));
  const value pieces = Field(answer, 2);
  std::size_t n = 0;
  for (std::size_t i = 0; i < Wosize_val(pieces); ++i) {
    const value cell = Field(Field(pieces, i), 0), senders = Field(Field(pieces, i), 1);
    for (std::size_t k = 0; k < Wosize_val(senders); ++k, ++n) {
      if (n >= max_contributions) continue;
      redist_contribution_t& c = contributions[n];
      c = redist_contribution_t{};
      c.from_rank = static_cast<int>(Long_val(Field(senders, k)));
      c.member = static_cast<int>(k);
      for (std::size_t d = 0; d < Wosize_val(cell) && d < REDIST_MAX_DIMS; ++d) {
        c.offset[d] = static_cast<std::size_t>(Long_val(Field(Field(cell, d), 0)));
        c.extent[d] = static_cast<std::size_t>(Long_val(Field(Field(cell, d), 1)));
      }
    }
  }
  *count = n;
  CAMLreturnT(int, REDIST_OK);
}

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
