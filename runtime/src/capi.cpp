// The C ABI's planning half (redist/redist.h): OCaml's runtime, started
// once, runs the verified planner (codegen/abi/redist_plan_ocaml.ml,
// linked into this library as one object); the plan's lowering is copied
// into a PlanProgram that the interpreter runs, or into the arguments of
// the runtime's Exchange, or, for a hybrid, into one of those per part, so
// that binding and running (capi_exec.cpp) never enter OCaml.
#include "redist/redist.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include <signal.h>

#include "internal/capi_plan.hpp"
#include "internal/exchange_peers.hpp"

extern "C" {
#include <caml/alloc.h>
#include <caml/callback.h>
#include <caml/memory.h>
#include <caml/mlvalues.h>
}

namespace {

// OCaml's runtime is single-threaded: every entry into it holds this lock.
std::mutex ocaml_lock;

using capi::fail;

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

// The planner's answers (codegen/abi/abi_data.ml), read field by field by
// name: a field the planner does not give, or one of another kind, is an
// error naming its path, and every later read returns zero.  Reads only: no
// OCaml allocation happens while a value is held.
class PlannerData {
 public:
  // Abi_data.t's constructors, in their order there.
  enum Tag : tag_t { kInt = 0, kInt64 = 1, kText = 2, kItems = 3, kRecord = 4 };

  PlannerData(value v, std::string* error) : v_(v), path_("plan"), error_(error) {}

  PlannerData field(const char* name) const {
    if (is(kRecord, "a record"))
      for (mlsize_t i = 0; i < Wosize_val(Field(v_, 1)); ++i) {
        const value entry = Field(Field(v_, 1), i);
        if (std::strcmp(String_val(Field(entry, 0)), name) == 0) return PlannerData(Field(entry, 1), path_ + "." + name, error_);
      }
    return missing(path_ + "." + name, "no such field");
  }
  std::string kind() const { return is(kRecord, "a record") ? String_val(Field(v_, 0)) : std::string(); }
  std::size_t size() const { return is(kItems, "a list") ? Wosize_val(Field(v_, 0)) : 0; }
  PlannerData item(std::size_t i) const {
    const std::string at = path_ + "[" + std::to_string(i) + "]";
    return i < size() ? PlannerData(Field(Field(v_, 0), i), at, error_) : missing(at, "out of range");
  }
  long integer() const { return is(kInt, "an integer") ? Long_val(Field(v_, 0)) : 0; }
  std::size_t count() const {
    const long n = integer();
    if (n < 0) fail_at(path_, "negative");
    return n < 0 ? 0 : static_cast<std::size_t>(n);
  }
  std::uint64_t word64() const { return is(kInt64, "a 64-bit integer") ? static_cast<std::uint64_t>(Int64_val(Field(v_, 0))) : 0; }
  std::string text() const { return is(kText, "a string") ? String_val(Field(v_, 0)) : std::string(); }
  std::vector<int> ints() const {
    std::vector<int> out(size());
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<int>(item(i).integer());
    return out;
  }
  bool ok() const { return error_->empty(); }

 private:
  PlannerData(value v, std::string path, std::string* error) : v_(v), path_(std::move(path)), error_(error) {}
  PlannerData missing(const std::string& at, const char* why) const {
    fail_at(at, why);
    return PlannerData(Val_unit, at, error_);
  }
  bool is(Tag tag, const char* what) const {
    if (Is_block(v_) && Tag_val(v_) == tag) return true;
    fail_at(path_, (std::string("expected ") + what).c_str());
    return false;
  }
  void fail_at(const std::string& at, const char* why) const {
    if (error_->empty()) *error_ = "internal error: the planner's data at " + at + ": " + why;
  }

  value v_;
  std::string path_;
  std::string* error_;
};

bool layout_of(const PlannerData& shape, std::size_t elem_bytes, redist::Layout* out) {
  const std::size_t n = shape.size();
  if (n < 1 || n > static_cast<std::size_t>(redist::kMaxRank)) return false;
  *out = redist::Layout{static_cast<int>(n), {}, elem_bytes};
  for (std::size_t d = 0; d < n; ++d) out->extent[d] = shape.item(d).count();
  return true;
}

redist::Group group_of(const PlannerData& g) {
  return redist::Group{static_cast<int>(g.field("stride").integer()), static_cast<int>(g.field("size").integer())};
}

// Lowering.step.
bool step_of(const PlannerData& s, std::size_t elem_bytes, redist::PlanStep* step) {
  *step = redist::PlanStep{};
  step->op = static_cast<redist::PlanOp>(s.field("op").integer());
  step->group = group_of(s);
  if (!layout_of(s.field("shape"), elem_bytes, &step->layout)) return false;
  step->dim_a = static_cast<int>(s.field("dim_a").integer());
  step->dim_b = static_cast<int>(s.field("dim_b").integer());
  step->input = static_cast<redist::PlanBuffer>(s.field("input").integer());
  step->output = static_cast<redist::PlanBuffer>(s.field("output").integer());
  step->recv_from = s.field("recv_from").ints();
  return true;
}

bool steps_of(const PlannerData& steps, std::size_t elem_bytes, std::vector<redist::PlanStep>* out) {
  for (std::size_t i = 0; i < steps.size(); ++i) {
    redist::PlanStep step;
    if (!step_of(steps.item(i), elem_bytes, &step)) return false;
    out->push_back(std::move(step));
  }
  return true;
}

// Lowering.program.
bool program_of(const PlannerData& v, redist::PlanProgram* p) {
  p->mesh_sizes = v.field("mesh_sizes").ints();
  const std::size_t elem_bytes = v.field("elem_bytes").count();
  if (!layout_of(v.field("src_shape"), elem_bytes, &p->src_layout) ||
      !layout_of(v.field("tgt_shape"), elem_bytes, &p->tgt_layout))
    return false;
  p->ping_bytes = v.field("ping_bytes").count();
  p->pong_bytes = v.field("pong_bytes").count();
  p->scratch_bytes = v.field("scratch_bytes").count();
  const PlannerData groups = v.field("groups");
  for (std::size_t i = 0; i < groups.size(); ++i) p->groups.push_back(group_of(groups.item(i)));
  if (!steps_of(v.field("steps"), elem_bytes, &p->steps)) return false;
  const long dtype = v.field("dtype").integer();
  p->red0_bytes = v.field("red0_bytes").count();
  p->red1_bytes = v.field("red1_bytes").count();
  p->red_scratch_bytes = v.field("red_scratch_bytes").count();
  p->avg_divisor = v.field("avg_divisor").count();
  if (!steps_of(v.field("reductions"), elem_bytes, &p->reductions)) return false;
  p->collectives_source = static_cast<redist::PlanBuffer>(v.field("collectives_source").integer());
  if (!steps_of(v.field("additions"), elem_bytes, &p->additions)) return false;
  // Lowering.dtype_code: -1 is an element type the runtime does not add, which only a plan without reductions may have.
  if (dtype >= 0) p->dtype = static_cast<redist::Dtype>(dtype);
  p->op = static_cast<redist::Op>(v.field("reduction").integer());
  return dtype >= 0 || p->reductions.empty();
}

// Lowering.placed_layout into the runtime's placed mesh and block layout.
bool placed_layout_of(const PlannerData& v, redist::PlacedMesh* mesh, redist::BlockLayout* layout) {
  const std::vector<int> sizes = v.field("axis_sizes").ints();
  const PlannerData extents = v.field("extents"), axes = v.field("axes");
  const std::size_t ndim = extents.size();
  if (sizes.empty() || sizes.size() > redist::kMaxRank || ndim < 1 || ndim > redist::kMaxRank || axes.size() != ndim)
    return false;
  mesh->naxes = static_cast<int>(sizes.size());
  for (std::size_t a = 0; a < sizes.size(); ++a) mesh->axis_size[a] = sizes[a];
  mesh->ranks = v.field("ranks").ints();
  layout->ndim = static_cast<int>(ndim);
  for (std::size_t d = 0; d < ndim; ++d) {
    layout->extent[d] = extents.item(d).count();
    const std::vector<int> dim_axes = axes.item(d).ints();
    if (dim_axes.size() > redist::kMaxRank) return false;
    layout->sharding[d].count = static_cast<int>(dim_axes.size());
    for (std::size_t k = 0; k < dim_axes.size(); ++k) layout->sharding[d].axis[k] = dim_axes[k];
  }
  return true;
}

// Lowering.exchange.
bool exchange_of(const PlannerData& v, ExchangeSpec* x) {
  x->elem_bytes = v.field("elem_bytes").count();
  return placed_layout_of(v.field("source"), &x->source, &x->source_layout) &&
         placed_layout_of(v.field("target"), &x->target, &x->target_layout);
}

// Lowering.By_reducing_exchange.
bool reducing_of(const PlannerData& v, ReducingSpec* x) {
  if (!exchange_of(v.field("exchange"), &x->layouts)) return false;
  x->source_pending = v.field("source_pending").ints();
  x->target_pending = v.field("target_pending").ints();
  const long dtype = v.field("dtype").integer();
  if (dtype < 0) return false;
  x->dtype = static_cast<redist::Dtype>(dtype);
  x->op = static_cast<redist::Op>(v.field("op").integer());
  return true;
}

// Lowering.in_place: the schedule of Lowering.schedule_data.
bool in_place_of(const PlannerData& v, redist::InPlaceSchedule* out) {
  const PlannerData buffers = v.field("buffer_elements"), rounds = v.field("rounds");
  for (std::size_t r = 0; r < buffers.size(); ++r) out->buffer_elements.push_back(buffers.item(r).count());
  out->staging_elements = v.field("staging_elements").count();
  auto area_of = [](long code, redist::InPlaceArea* area) {
    *area = code == 0 ? redist::InPlaceArea::buffer : redist::InPlaceArea::staging;
    return code == 0 || code == 1;
  };
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    const PlannerData round = rounds.item(r);
    std::vector<redist::InPlaceMove>& moves = out->rounds.emplace_back();
    for (std::size_t m = 0; m < round.size(); ++m) {
      const PlannerData mv = round.item(m);
      redist::InPlaceMove move{};
      move.from.rank = static_cast<int>(mv.field("from_rank").integer());
      move.from.offset = mv.field("from_offset").count();
      move.to.rank = static_cast<int>(mv.field("to_rank").integer());
      move.to.offset = mv.field("to_offset").count();
      move.length = mv.field("length").count();
      if (!area_of(mv.field("from_area").integer(), &move.from.area) ||
          !area_of(mv.field("to_area").integer(), &move.to.area))
        return false;
      moves.push_back(move);
    }
  }
  return true;
}

// A local shape or a local box (Abi_data.box: per dimension offset and extent) of Lowering.regions.
bool local_shape_of(const PlannerData& v, redist::LocalShape* out) {
  const std::vector<int> extents = v.ints();
  if (extents.empty() || extents.size() > redist::kMaxRank) return false;
  out->ndim = static_cast<int>(extents.size());
  for (std::size_t d = 0; d < extents.size(); ++d) out->extent[d] = static_cast<std::size_t>(extents[d]);
  return true;
}

bool region_box_of(const PlannerData& v, redist::RegionBox* out) {
  if (v.size() > redist::kMaxRank) return false;
  for (std::size_t d = 0; d < v.size(); ++d) {
    out->offset[d] = v.item(d).field("offset").count();
    out->extent[d] = v.item(d).field("extent").count();
  }
  return true;
}

bool region_messages_of(const PlannerData& v, std::vector<redist::RegionMessage>* out) {
  for (std::size_t m = 0; m < v.size(); ++m) {
    redist::RegionMessage& message = out->emplace_back();
    message.peer = static_cast<int>(v.item(m).field("peer").integer());
    const PlannerData boxes = v.item(m).field("boxes");
    message.boxes.resize(boxes.size());
    for (std::size_t b = 0; b < boxes.size(); ++b)
      if (!region_box_of(boxes.item(b), &message.boxes[b])) return false;
  }
  return true;
}

// Lowering.regions: every world rank's shapes and lists.
bool regions_of(const PlannerData& v, Lowered* out) {
  const PlannerData sources = v.field("source_shapes"), targets = v.field("target_shapes"), sends = v.field("sends"),
                    recvs = v.field("recvs"), copies = v.field("copies");
  const std::size_t world = sources.size();
  if (targets.size() != world || sends.size() != world || recvs.size() != world || copies.size() != world) return false;
  out->region_sources.resize(world);
  out->region_targets.resize(world);
  out->regions.resize(world);
  for (std::size_t r = 0; r < world; ++r) {
    redist::RegionLists& lists = out->regions[r];
    if (!local_shape_of(sources.item(r), &out->region_sources[r]) ||
        !local_shape_of(targets.item(r), &out->region_targets[r]) || !region_messages_of(sends.item(r), &lists.sends) ||
        !region_messages_of(recvs.item(r), &lists.recvs))
      return false;
    const PlannerData rank_copies = copies.item(r);
    lists.copies.resize(rank_copies.size());
    for (std::size_t c = 0; c < rank_copies.size(); ++c)
      if (!region_box_of(rank_copies.item(c).field("from"), &lists.copies[c].from) ||
          !region_box_of(rank_copies.item(c).field("to"), &lists.copies[c].to))
        return false;
  }
  // Lowering.regions: dtype and op -1 for the plain exchange.
  const long dtype = v.field("dtype").integer(), op = v.field("op").integer();
  if (op >= 0) {
    if (dtype < 0) return false;
    out->region_reduction = redist::RegionReduction{static_cast<redist::Dtype>(dtype), static_cast<redist::Op>(op),
                                                    v.field("avg_divisor").count()};
  }
  return world > 0;
}

// Lowering.lowered, by its kind, recursively for a hybrid's parts.
bool lowered_of(const PlannerData& v, Lowered* out) {
  const std::string kind = v.kind();
  if (kind == "exchange") {
    out->kind = PlanKind::exchange;
    if (!exchange_of(v.field("exchange"), &out->exchange)) return false;
    out->elem_bytes = out->exchange.elem_bytes;
    return true;
  }
  if (kind == "reducing_exchange") {
    out->kind = PlanKind::reducing_exchange;
    if (!reducing_of(v, &out->reducing)) return false;
    out->exchange = out->reducing.layouts;  // for the box queries' and receives' geometry
    out->elem_bytes = out->reducing.layouts.elem_bytes;
    return true;
  }
  if (kind == "collectives") {
    out->kind = PlanKind::collectives;
    if (!program_of(v.field("program"), &out->program)) return false;
    out->elem_bytes = out->program.src_layout.elem_bytes;
    return true;
  }
  if (kind == "in_place") {
    out->kind = PlanKind::in_place;
    out->elem_bytes = v.field("elem_bytes").count();
    return in_place_of(v, &out->in_place);
  }
  if (kind == "regions") {
    out->kind = PlanKind::regions;
    out->elem_bytes = v.field("elem_bytes").count();
    return regions_of(v, out);
  }
  if (kind == "hybrid") {
    out->kind = PlanKind::hybrid;
    out->mid_bytes = v.field("mid_bytes").count();
    out->workspace_bytes = v.field("workspace_bytes").count();
    out->first = std::make_unique<Lowered>();
    out->second = std::make_unique<Lowered>();
    if (!lowered_of(v.field("first"), out->first.get()) || !lowered_of(v.field("second"), out->second.get())) return false;
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

// Redist_plan_ocaml.info_data.
bool plan_of(const PlannerData& info, redist_plan* plan) {
  if (!lowered_of(info.field("lowered"), &plan->lowered)) return false;
  plan->elem_bytes = plan->lowered.elem_bytes;
  plan->text = info.field("text").text();
  plan->json = info.field("json").text();
  plan->guarantees = info.field("guarantees").text();
  const PlannerData texts = info.field("step_texts");
  for (std::size_t i = 0; i < texts.size(); ++i) plan->step_texts.emplace_back(texts.item(i).text());
  plan->devices = static_cast<int>(info.field("devices").integer());
  plan->ndim = static_cast<int>(info.field("global_shape").size());
  plan->src_bytes = info.field("src_bytes").count();
  plan->dst_bytes = info.field("tgt_bytes").count();
  plan->peak_bytes = info.field("peak_bytes").count();
  plan->workspace_bytes = info.field("workspace_bytes").count();
  plan->recv_max_bytes = info.field("recv_max_bytes").count();
  plan->lower_bound_recv_bytes = info.field("lower_bound_recv_max_bytes").count();
  plan->live_bytes = info.field("live_bytes").count();
  plan->alloc_bytes = info.field("alloc_bytes").count();
  const PlannerData digest = info.field("digest");
  plan->digest = redist::ProblemDigest{digest.field("meshes").word64(), digest.field("layouts").word64(),
                                       digest.field("element").word64(), digest.field("plan").word64()};
  stamp_problem(plan->digest, &plan->lowered);
  // redist_plan_step's steps are the step texts, one for one.
  const redist::PlanProgram& p = plan->lowered.program;
  return plan->lowered.kind != PlanKind::collectives ||
         p.reductions.size() + p.steps.size() + p.additions.size() == plan->step_texts.size();
}

// Calls the OCaml function `name` (redist_plan_create, redist_plan_check,
// redist_plan_from_json, redist_plan_create_in_place or
// redist_plan_create_within) on its strings
// (NULL passes ""), then `count` when given (an OCaml int: larger counts
// are max_int); six arguments at most.
int create(const char* name, std::initializer_list<const char*> strings, redist_plan_t** out, char* err,
           std::size_t errlen, const std::size_t* count = nullptr) {
  std::lock_guard<std::mutex> guard(ocaml_lock);
  const value* planner = ocaml_function(name);
  if (planner == nullptr) return fail(err, errlen, REDIST_ERR_INTERNAL, "internal error: the planner is not linked in");
  CAMLparam0();
  CAMLlocal1(outcome);
  CAMLlocalN(args, 6);
  int nargs = 0;
  for (const char* s : strings) args[nargs++] = caml_copy_string(s == nullptr ? "" : s);
  if (count != nullptr) args[nargs++] = Val_long(std::min<std::size_t>(*count, Max_long));
  // An exception result is no value for the GC: checked before it is rooted.
  const value result = caml_callbackN_exn(*planner, nargs, args);
  if (Is_exception_result(result))
    CAMLreturnT(int, fail(err, errlen, REDIST_ERR_INTERNAL, "internal error: an OCaml exception escaped the planner"));
  outcome = result;
  // Redist_plan_ocaml.outcome: Created (data, problem) or Failed (code, message).
  if (Tag_val(outcome) == 1)
    CAMLreturnT(int, fail(err, errlen, static_cast<int>(Long_val(Field(outcome, 0))), String_val(Field(outcome, 1))));
  auto* plan = new redist_plan;
  std::string data_error;
  if (!plan_of(PlannerData(Field(outcome, 0), &data_error), plan) || !data_error.empty()) {
    delete plan;
    CAMLreturnT(int, fail(err, errlen, REDIST_ERR_INTERNAL,
                          data_error.empty() ? "internal error: the lowering exceeds the runtime's limits" : data_error));
  }
  plan->problem = Field(outcome, 1);
  caml_register_generational_global_root(&plan->problem);
  *out = plan;
  CAMLreturnT(int, REDIST_OK);
}

int box(const redist_plan_t* plan, int which, int rank, std::size_t* offset, std::size_t* extent, char* err,
        std::size_t errlen) {
  if (plan == nullptr || offset == nullptr || extent == nullptr)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_plan box: null plan, offset or extent");
  if (rank < 0)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_plan box: rank " + std::to_string(rank) + " is negative");
  if (plan->lowered.kind == PlanKind::regions)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT,
                std::string(which == 0 ? "redist_plan_src_box" : "redist_plan_tgt_box") +
                    ": the plan has composed cuts, and a rank's composed holding is not one box of the global array");
  std::lock_guard<std::mutex> guard(ocaml_lock);
  CAMLparam0();
  CAMLlocal1(boxes);
  const value result = caml_callback3_exn(*ocaml_function("redist_plan_box"), plan->problem, Val_int(which), Val_int(rank));
  if (Is_exception_result(result))
    CAMLreturnT(int, fail(err, errlen, REDIST_ERR_INTERNAL, "internal error: an OCaml exception escaped the box query"));
  boxes = result;
  std::string data_error;
  const PlannerData intervals(boxes, &data_error);
  for (std::size_t d = 0; d < intervals.size(); ++d) {
    offset[d] = intervals.item(d).field("offset").count();
    extent[d] = intervals.item(d).field("extent").count();
  }
  if (!data_error.empty()) CAMLreturnT(int, fail(err, errlen, REDIST_ERR_INTERNAL, data_error));
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

// A layout with pending axes: the plain layout's notation, then " OP{...}".
bool notation(const redist_pending_layout_t& t, const redist_mesh_t& m, const char* what, std::string* out,
              std::string* why) {
  if (!notation(t.layout, m, what, out, why)) return false;
  if (t.npending < 0 || t.npending > m.naxes || (t.npending > 0 && t.pending == nullptr)) {
    *why = std::string(what) + ": npending " + std::to_string(t.npending) + " (0 to the mesh's " +
           std::to_string(m.naxes) + ") or null pending";
    return false;
  }
  const std::string op = t.op == nullptr ? "sum" : t.op;
  if (t.npending > 0 && op != "sum" && op != "prod" && op != "max" && op != "min" && op != "avg") {
    std::string shown = op.substr(0, 32);
    for (char& ch : shown)
      if (static_cast<unsigned char>(ch) < 0x20) ch = '?';  // the message stays one line
    *why = std::string(what) + ": op \"" + shown + "\" (sum, prod, max, min or avg; NULL: sum)";
    return false;
  }
  for (int k = 0; k < t.npending; ++k) {
    const int a = t.pending[k];
    if (a < 0 || a >= m.naxes) {
      *why = std::string(what) + ": pending[" + std::to_string(k) + "] = " + std::to_string(a) +
             " is not an axis of the mesh (0 to " + std::to_string(m.naxes - 1) + ")";
      return false;
    }
    *out += (k ? "," : " " + op + "{") + std::string(m.axis_names[a]);
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
  const redist_pending_layout_t plain_from = {*from, 0, nullptr, nullptr}, plain_to = {*to, 0, nullptr, nullptr};
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

int redist_plan_create_in_place(const char* mesh, const char* to_mesh, const char* from, const char* to,
                                const char* dtype, size_t staging_bytes, redist_plan_t** out, char* err,
                                size_t errlen) {
  if (mesh == nullptr || from == nullptr || to == nullptr || out == nullptr)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_plan_create_in_place: null mesh, from, to or out");
  *out = nullptr;
  try {
    return create("redist_plan_create_in_place", {mesh, to_mesh, from, to, dtype}, out, err, errlen, &staging_bytes);
  } catch (const std::bad_alloc&) {
    return fail(err, errlen, REDIST_ERR_INTERNAL, "internal error: out of memory");
  }
}

int redist_plan_create_within(const char* mesh, const char* to_mesh, const char* from, const char* to,
                              const char* dtype, size_t budget_bytes, redist_plan_t** out, char* err, size_t errlen) {
  if (mesh == nullptr || from == nullptr || to == nullptr || out == nullptr)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_plan_create_within: null mesh, from, to or out");
  *out = nullptr;
  try {
    return create("redist_plan_create_within", {mesh, to_mesh, from, to, dtype}, out, err, errlen, &budget_bytes);
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
uint64_t redist_plan_alloc_bytes(const redist_plan_t* plan) { return plan ? plan->alloc_bytes : 0; }
uint64_t redist_plan_buffer_bytes(const redist_plan_t* plan, int rank) {
  if (plan == nullptr || plan->lowered.kind != PlanKind::in_place || rank < 0) return 0;
  const std::vector<std::size_t>& buffers = plan->lowered.in_place.buffer_elements;
  return static_cast<std::size_t>(rank) < buffers.size() ? buffers[static_cast<std::size_t>(rank)] * plan->elem_bytes
                                                         : 0;
}
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
                plan->lowered.kind == PlanKind::hybrid     ? "redist_plan_step: the plan is a hybrid, not collectives"
                : plan->lowered.kind == PlanKind::in_place ? "redist_plan_step: the plan is in place, not collectives"
                : plan->lowered.kind == PlanKind::regions  ? "redist_plan_step: the plan is the region exchange, not collectives"
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
                : plan->lowered.kind == PlanKind::in_place
                    ? "redist_plan_receives: the plan is in place, not one exchange"
                : plan->lowered.kind == PlanKind::regions
                    ? "redist_plan_receives: the plan is the region exchange (composed cuts), whose pieces are not boxes of the global array"
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
  answer = result;
  std::string data_error;
  const PlannerData receives(answer, &data_error);  // Lowering.sum_receives
  *designated = receives.field("designated").integer() != 0 ? 1 : 0;
  *group_size = static_cast<int>(receives.field("group_size").integer());
  const PlannerData pieces = receives.field("pieces");
  std::size_t n = 0;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const PlannerData cell = pieces.item(i).field("cell");
    const std::vector<int> senders = pieces.item(i).field("senders").ints();
    for (std::size_t k = 0; k < senders.size(); ++k, ++n) {
      if (n >= max_contributions) continue;
      redist_contribution_t& c = contributions[n];
      c = redist_contribution_t{};
      c.from_rank = senders[k];
      c.member = static_cast<int>(k);
      for (std::size_t d = 0; d < cell.size() && d < REDIST_MAX_DIMS; ++d) {
        c.offset[d] = cell.item(d).field("offset").count();
        c.extent[d] = cell.item(d).field("extent").count();
      }
    }
  }
  if (!data_error.empty()) CAMLreturnT(int, fail(err, errlen, REDIST_ERR_INTERNAL, data_error));
  *count = n;
  CAMLreturnT(int, REDIST_OK);
}
}  // extern "C"

// The region exchange's lists (redist_plan_local_shape, redist_plan_region_*):
// Lowering.regions as regions_of copied it at create, handed out as they are.
static_assert(redist::kMaxRank == REDIST_MAX_DIMS, "a local box has REDIST_MAX_DIMS entries per side");

namespace {

void local_box_out(const redist::RegionBox& in, int ndim, redist_local_box_t* out) {
  *out = redist_local_box_t{};
  for (int d = 0; d < ndim; ++d) {
    out->offset[d] = in.offset[d];
    out->extent[d] = in.extent[d];
  }
}

// Code 2 with one line unless `plan` is the region exchange and `rank` one of its world ranks.
// messages: the query reads the lists as plain messages and copies, which a
// reducing region exchange's are not (its receives are combined).
int region_lists_refused(const redist_plan_t* plan, int rank, const char* what, char* err, std::size_t errlen,
                         bool messages = true) {
  if (plan->lowered.kind != PlanKind::regions)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT,
                std::string(what) + ": the plan is not the region exchange (composed cuts, kind 5), kind " +
                    std::to_string(static_cast<int>(plan->lowered.kind)));
  if (messages && plan->lowered.region_reduction)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT,
                std::string(what) + ": the plan is the reducing region exchange (pending axes): its receives are combined " +
                    "(" + redist::op_name(plan->lowered.region_reduction->op) +
                    "), not copies; run it with redist_exec_run");
  if (rank < 0 || static_cast<std::size_t>(rank) >= plan->lowered.regions.size())
    return fail(err, errlen, REDIST_ERR_BAD_INPUT,
                std::string(what) + ": rank " + std::to_string(rank) + " outside the world of " +
                    std::to_string(plan->lowered.regions.size()) + " ranks");
  return REDIST_OK;
}

const std::vector<redist::RegionMessage>* region_messages(const redist_plan_t* plan, int rank, int list) {
  const redist::RegionLists& lists = plan->lowered.regions[static_cast<std::size_t>(rank)];
  return list == REDIST_REGION_SENDS ? &lists.sends : list == REDIST_REGION_RECVS ? &lists.recvs : nullptr;
}

}  // namespace

extern "C" {

int redist_plan_local_shape(const redist_plan_t* plan, int which, int rank, size_t* extent, char* err,
                            size_t errlen) {
  if (plan == nullptr || extent == nullptr)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_plan_local_shape: null plan or extent");
  if (which != 0 && which != 1)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT,
                "redist_plan_local_shape: which " + std::to_string(which) + " is neither 0 (source) nor 1 (target)");
  if (rank < 0 || rank >= plan->devices)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT,
                "redist_plan_local_shape: rank " + std::to_string(rank) + " outside the world of " +
                    std::to_string(plan->devices) + " ranks");
  if (plan->lowered.kind != PlanKind::regions) {
    size_t offset[REDIST_MAX_DIMS];
    return box(plan, which, rank, offset, extent, err, errlen);
  }
  if (const int rc = region_lists_refused(plan, rank, "redist_plan_local_shape", err, errlen, false); rc != REDIST_OK)
    return rc;
  const redist::LocalShape& shape =
      (which == 0 ? plan->lowered.region_sources : plan->lowered.region_targets)[static_cast<std::size_t>(rank)];
  for (int d = 0; d < plan->ndim; ++d) extent[d] = d < shape.ndim ? shape.extent[d] : 0;
  return REDIST_OK;
}

int redist_plan_region_count(const redist_plan_t* plan, int rank, int list, size_t* count, char* err, size_t errlen) {
  if (plan == nullptr || count == nullptr)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_plan_region_count: null plan or count");
  if (const int rc = region_lists_refused(plan, rank, "redist_plan_region_count", err, errlen); rc != REDIST_OK)
    return rc;
  if (list == REDIST_REGION_COPIES) {
    *count = plan->lowered.regions[static_cast<std::size_t>(rank)].copies.size();
    return REDIST_OK;
  }
  const std::vector<redist::RegionMessage>* messages = region_messages(plan, rank, list);
  if (messages == nullptr)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT,
                "redist_plan_region_count: list " + std::to_string(list) +
                    " is none of REDIST_REGION_SENDS (0), _RECVS (1), _COPIES (2)");
  *count = messages->size();
  return REDIST_OK;
}

int redist_plan_region_message(const redist_plan_t* plan, int rank, int list, size_t i, int* peer,
                               redist_local_box_t* boxes, size_t max_boxes, size_t* nboxes, char* err,
                               size_t errlen) {
  if (plan == nullptr || peer == nullptr || nboxes == nullptr || (boxes == nullptr && max_boxes > 0))
    return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_plan_region_message: null plan, peer, boxes or nboxes");
  if (const int rc = region_lists_refused(plan, rank, "redist_plan_region_message", err, errlen); rc != REDIST_OK)
    return rc;
  const std::vector<redist::RegionMessage>* messages = region_messages(plan, rank, list);
  if (messages == nullptr)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT,
                "redist_plan_region_message: list " + std::to_string(list) +
                    " is neither REDIST_REGION_SENDS (0) nor _RECVS (1)");
  if (i >= messages->size())
    return fail(err, errlen, REDIST_ERR_BAD_INPUT,
                "redist_plan_region_message: message " + std::to_string(i) + " of rank " + std::to_string(rank) +
                    ", which has " + std::to_string(messages->size()));
  const redist::RegionMessage& message = (*messages)[i];
  *peer = message.peer;
  *nboxes = message.boxes.size();
  for (std::size_t b = 0; b < message.boxes.size() && b < max_boxes; ++b)
    local_box_out(message.boxes[b], plan->ndim, &boxes[b]);
  return REDIST_OK;
}

int redist_plan_region_copy(const redist_plan_t* plan, int rank, size_t i, redist_local_box_t* from,
                            redist_local_box_t* to, char* err, size_t errlen) {
  if (plan == nullptr || from == nullptr || to == nullptr)
    return fail(err, errlen, REDIST_ERR_BAD_INPUT, "redist_plan_region_copy: null plan, from or to");
  if (const int rc = region_lists_refused(plan, rank, "redist_plan_region_copy", err, errlen); rc != REDIST_OK)
    return rc;
  const std::vector<redist::RegionCopy>& copies = plan->lowered.regions[static_cast<std::size_t>(rank)].copies;
  if (i >= copies.size())
    return fail(err, errlen, REDIST_ERR_BAD_INPUT,
                "redist_plan_region_copy: copy " + std::to_string(i) + " of rank " + std::to_string(rank) +
                    ", which has " + std::to_string(copies.size()));
  local_box_out(copies[i].from, plan->ndim, from);
  local_box_out(copies[i].to, plan->ndim, to);
  return REDIST_OK;
}
}  // extern "C"
