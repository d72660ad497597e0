// The plan interpreter against generated headers: for each problem of
// problems.inc (written by tests/capi/differential.sh, one header each from
// `redist gen`), on the first kDevices ranks of MPI_COMM_WORLD, the header's
// run() and redist_plan_execute (planned at run time through redist.h) run
// on the same source; their targets must be identical bytes on every rank,
// and right (every element checked).  The C ABI's sizes must equal the
// header's constants, and a bound executor's second run makes no
// operator new and no malloc from this program's code (the runtime and the
// interpreter; MPI's own are not counted: runtime/testing/verify.hpp's counters,
// as `redist run` uses them).  Pending-sum problems (SUM_PROBLEM) are
// compared byte for byte and for allocation only (their values are sums).
// Then a few plans by the direct exchange: every element right, no
// allocation; and by the reducing exchange: no allocation.  Then hybrids
// (hybrids.inc): the header's create() and run() and the C ABI's plan (the
// cost model's choice, or a plan file through redist_plan_check) on the
// world, identical bytes and every element right on every rank, the same
// world, workspace and live bytes, no allocation; a workspace one byte
// short on one rank fails on every rank; and, one more test each, both run
// one executor: the header's Plan is redist::Staged, and the header and the
// C ABI refuse the short workspace with the same code and message.  World
// rank 0 prints "ok NAME ..." or "FAIL NAME: why".
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#define REDIST_VERIFY_MAIN
#include "all_problems.hpp"
#include "verify.hpp"
#include "redist/mpi.hpp"
#include "boxes.h"
#include "redist/redist.h"

namespace {

struct Case {
  const char* name;
  const char* mesh;
  const char* from;
  const char* to;
  const char* dtype;
  int devices;
  bool sums;  // pending sums: the values are sums, checked by sums_c and test-diff-steps; here bytes and allocation
  std::size_t src_bytes, tgt_bytes, workspace_bytes, live_bytes;
  redist::Status (*create_mesh)(MPI_Comm, redist::Mesh*);
  redist::Status (*run)(const redist::Mesh&, const void*, std::size_t, void*, std::size_t, void*, std::size_t);
};

#define CASE(n, mesh, from, to, dtype, sums)                                                                     \
  Case{#n, mesh, from, to, dtype, redist_gen::n::kDevices, sums, redist_gen::n::kSrcBytes, redist_gen::n::kTgtBytes, \
       redist_gen::n::kWorkspaceBytes, redist_gen::n::kLiveBytes, &redist_gen::n::create_mesh, &redist_gen::n::run},
#define PROBLEM(n, mesh, from, to, dtype) CASE(n, mesh, from, to, dtype, false)
#define SUM_PROBLEM(n, mesh, from, to, dtype) CASE(n, mesh, from, to, dtype, true)
const Case kCases[] = {
#include "problems.inc"
};
#undef SUM_PROBLEM
#undef PROBLEM
#undef CASE

// Runs the interpreter twice: the first run sets up MPI's channels; the
// second is counted (operator new and malloc calls).
int run_counted(redist_exec_t* exec, const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                void* workspace, std::size_t workspace_bytes, char* err, std::size_t err_len) {
  int rc = REDIST_OK;
  for (int repeat = 0; repeat < 2 && rc == REDIST_OK; ++repeat) {
    redist_verify::news = 0;
    redist_verify::own_mallocs = 0;
    redist_verify::counting = repeat == 1;
    rc = redist_exec_run(exec, src, src_bytes, dst, dst_bytes, workspace, workspace_bytes, err, err_len);
    redist_verify::counting = false;
  }
  return rc;
}

// Why the interpreter's counted run is wrong: an error, an allocation, or
// target bytes other than the header's; empty when none.
std::string interpreter_verdict(int rc, const char* err, const std::vector<unsigned char>& by_header,
                                const std::vector<unsigned char>& by_interpreter) {
  if (rc != REDIST_OK) return "redist_exec_run: code " + std::to_string(rc) + ": " + err;
  if (redist_verify::news != 0 || redist_verify::own_mallocs != 0)
    return "redist_exec_run allocated: " + std::to_string(redist_verify::news.load()) + " operator new, " +
           std::to_string(redist_verify::own_mallocs.load()) + " malloc";
  if (by_header != by_interpreter) return "the interpreter's target bytes differ from the header's";
  return "";
}

// This rank's verdict on one case: empty when right.
std::string run_case(const Case& c, MPI_Comm comm, int rank) {
  char err[512];
  redist_plan_t* plan = nullptr;
  if (int rc = redist_plan_create_with(c.mesh, nullptr, c.from, c.to, c.dtype, "collectives", &plan, err, sizeof err); rc != REDIST_OK)
    return "redist_plan_create: code " + std::to_string(rc) + ": " + err;
  std::string why;
  if (redist_plan_devices(plan) != c.devices || redist_plan_src_bytes(plan) != c.src_bytes ||
      redist_plan_dst_bytes(plan) != c.tgt_bytes || redist_plan_workspace_bytes(plan) != c.workspace_bytes ||
      redist_plan_live_bytes(plan) != c.live_bytes ||
      redist_plan_alloc_bytes(plan) != c.src_bytes + c.tgt_bytes + c.workspace_bytes)
    why = "the C ABI's devices, source, target, workspace, live or allocated bytes differ from the header's";
  const int ndim = redist_plan_ndim(plan);
  std::size_t src_off[max_dims], src_ext[max_dims], dst_off[max_dims], dst_ext[max_dims], elems = 1;
  if (redist_plan_src_box(plan, rank, src_off, src_ext, err, sizeof err) != REDIST_OK ||
      redist_plan_tgt_box(plan, rank, dst_off, dst_ext, err, sizeof err) != REDIST_OK)
    why = std::string("box: ") + err;
  for (int d = 0; d < ndim; ++d) elems *= src_ext[d];
  const std::size_t elem = c.src_bytes / elems;
  std::vector<unsigned char> src(c.src_bytes), by_header(c.tgt_bytes, 0x5A), by_interpreter(c.tgt_bytes, 0xA5);
  std::vector<unsigned char> workspace(c.workspace_bytes + 1);
  walk_box(src_off, src_ext, ndim, elem, src.data(), 0);
  redist::Mesh mesh;
  redist::Status st = c.create_mesh(comm, &mesh);
  if (st.ok())
    st = c.run(mesh, src.data(), src.size(), by_header.data(), by_header.size(), workspace.data(), c.workspace_bytes);
  if (!st.ok()) why = "the header's run: " + st.message();
  redist_exec_t* exec = nullptr;
  int rc = redist_plan_bind(plan, comm, &exec, err, sizeof err);
  if (rc == REDIST_OK)
    rc = run_counted(exec, src.data(), src.size(), by_interpreter.data(), by_interpreter.size(), workspace.data(),
                     c.workspace_bytes, err, sizeof err);
  redist_exec_free(exec);
  if (why.empty()) why = interpreter_verdict(rc, err, by_header, by_interpreter);
  if (why.empty() && !c.sums) {
    const std::size_t bad = walk_box(dst_off, dst_ext, ndim, elem, by_interpreter.data(), 1);
    if (bad != 0) why = std::to_string(bad) + " wrong elements";
  }
  redist_plan_free(plan);
  return why;
}

// Rank 0 prints "ok WHAT: GOOD" when no rank has a reason to fail, else
// "FAIL WHAT: ..." with the first failing rank's reason.  Collective.
void report(const std::string& reason, const std::string& what, const std::string& good) {
  int world_rank = 0, world_size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  std::string why = reason;
  int failed = !why.empty(), failures = 0, first = world_size;
  int mine = failed ? world_rank : world_size;
  MPI_Allreduce(&failed, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first != world_size && first != 0 && world_rank == first) {
    const int len = static_cast<int>(why.size());
    MPI_Send(&len, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Send(why.data(), len, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
  }
  if (world_rank != 0) return;
  if (first != world_size && first != 0) {
    int len = 0;
    MPI_Recv(&len, 1, MPI_INT, first, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    why.resize(static_cast<std::size_t>(len));
    MPI_Recv(&why[0], len, MPI_CHAR, first, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  if (failures == 0) std::printf("ok %s, %s\n", what.c_str(), good.c_str());
  else std::printf("FAIL %s: %d ranks failed, rank %d: %s\n", what.c_str(), failures, first, why.c_str());
}

// Plans by the direct exchange (uneven, two meshes) on the 8 ranks of
// MPI_COMM_WORLD: every element right, and the second run allocates nothing.
struct ExchangeCase {
  const char *mesh, *to_mesh, *from, *to, *dtype;
};
const ExchangeCase kExchangeCases[] = {
    {"{x:2, y:4}", "{x:2, y:4}", "[{x}1000, {y}37]", "[{y}1000, {x}37]", "f32"},
    {"{x:4}", "{y:2} @ 6", "[{x}10, 3]", "[{y}10, 3]", "i64"},
    {"{a:2, b:2}", "{p:3} @ [6, 0, 3]", "[{a}9, {b}4]", "[{p}9, 4]", "c64"},
};

// Plans by the reducing exchange (pending sums): no allocation (their
// values: sums_c and test-diff-steps).
const ExchangeCase kSumExchangeCases[] = {
    {"{x:2, y:4}", "{x:2, y:4}", "[{x}9, 5] sum{y}", "[{y}9, 5]", "i32"},
    {"{x:4}", "{p:3} @ [6, 0, 3]", "[10, 3] sum{x}", "[{p}10, 3]", "u8"},
};

std::string run_exchange(const ExchangeCase& x, int rank, bool sums) {
  char err[512];
  redist_plan_t* plan = nullptr;
  if (int rc = redist_plan_create_with(x.mesh, x.to_mesh, x.from, x.to, x.dtype, "exchange", &plan, err, sizeof err);
      rc != REDIST_OK)
    return "redist_plan_create_with: code " + std::to_string(rc) + ": " + err;
  std::vector<unsigned char> workspace(redist_plan_workspace_bytes(plan));
  const int ndim = redist_plan_ndim(plan);
  const std::size_t elem = redist_plan_elem_bytes(plan);
  std::size_t src_off[max_dims], src_ext[max_dims], dst_off[max_dims], dst_ext[max_dims];
  std::size_t src_bytes = elem, dst_bytes = elem;
  (void)redist_plan_src_box(plan, rank, src_off, src_ext, err, sizeof err);
  (void)redist_plan_tgt_box(plan, rank, dst_off, dst_ext, err, sizeof err);
  for (int d = 0; d < ndim; ++d) src_bytes *= src_ext[d], dst_bytes *= dst_ext[d];
  std::vector<unsigned char> src(src_bytes), dst(dst_bytes, 0xA5);
  walk_box(src_off, src_ext, ndim, elem, src.data(), 0);
  redist_exec_t* exec = nullptr;
  int rc = redist_plan_bind(plan, MPI_COMM_WORLD, &exec, err, sizeof err);
  for (int repeat = 0; repeat < 2 && rc == REDIST_OK; ++repeat) {
    redist_verify::news = 0;
    redist_verify::own_mallocs = 0;
    redist_verify::counting = repeat == 1;
    rc = redist_exec_run(exec, src_bytes ? src.data() : nullptr, src_bytes, dst_bytes ? dst.data() : nullptr,
                         dst_bytes, workspace.empty() ? nullptr : workspace.data(), workspace.size(), err, sizeof err);
    redist_verify::counting = false;
  }
  redist_exec_free(exec);
  std::string why;
  if (redist_plan_by_exchange(plan) != (sums ? 2 : 1)) why = "not planned by the expected exchange";
  else if (rc != REDIST_OK) why = "redist_exec_run: code " + std::to_string(rc) + ": " + err;
  else if (redist_verify::news != 0 || redist_verify::own_mallocs != 0)
    why = "redist_exec_run allocated: " + std::to_string(redist_verify::news.load()) + " operator new, " +
          std::to_string(redist_verify::own_mallocs.load()) + " malloc";
  else if (std::size_t bad = sums ? 0 : walk_box(dst_off, dst_ext, ndim, elem, dst.data(), 1); bad != 0)
    why = std::to_string(bad) + " wrong elements";
  redist_plan_free(plan);
  return why;
}

// A hybrid's header (redist_gen::NAME) and how the C ABI gets the plan.
struct HybridCase {
  const char *name, *mesh, *to_mesh, *from, *to, *dtype;
  const char* plan_text;  // null: redist_plan_create_with's choice (auto), which must be this hybrid
  int world;
  std::size_t workspace_bytes, live_bytes;
  // The header's create() over the world, then its run() with ws_bytes of
  // the workspace, then with short_bytes, whose status goes to *refusal.
  redist::Status (*run)(MPI_Comm, const void*, std::size_t, void*, std::size_t, void*, std::size_t ws_bytes,
                        std::size_t short_bytes, redist::Status* refusal);
};

// A hybrid header's plan is the runtime's executor of a staged plan, which
// the C ABI runs too.
#define HYBRID_PROBLEM(n, mesh, to_mesh, from, to, dtype, plan_text)                                                  \
  HybridCase{#n, mesh, to_mesh, from, to, dtype, plan_text, redist_gen::n::kWorldSize,                             \
             redist_gen::n::kWorkspaceBytes, redist_gen::n::kLiveBytes,                                              \
             [](MPI_Comm world, const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* ws,  \
                std::size_t ws_bytes, std::size_t short_bytes, redist::Status* refusal) {                            \
               static_assert(std::is_same_v<redist_gen::n::Plan, redist::Staged>, "a hybrid runs redist::Staged");  \
               redist_gen::n::Plan plan;                                                                             \
               redist::Status st = redist_gen::n::create(world, &plan);                                              \
               auto run = [&](std::size_t bytes) {                                                                   \
                 return redist_gen::n::run(plan, static_cast<const redist_gen::n::value_type*>(src), src_bytes,      \
                                           static_cast<redist_gen::n::value_type*>(dst), dst_bytes, ws, bytes);      \
               };                                                                                                    \
               if (st.ok()) st = run(ws_bytes);                                                                      \
               if (st.ok()) *refusal = run(short_bytes);                                                             \
               return st;                                                                                            \
             }},
const HybridCase kHybridCases[] = {
#include "hybrids.inc"
};
#undef HYBRID_PROBLEM

// What follows the caller's name ("NAME::run: " or "redist_exec_run: ")
// in a message of redist::Staged; empty when the name is absent.
std::string after_caller(const std::string& message, const std::string& caller) {
  const std::size_t at = message.find(caller);
  return at == std::string::npos ? std::string() : message.substr(at + caller.size());
}

// Why a hybrid's runs are wrong (`runs`), and why the header and the C ABI
// do not refuse a workspace one byte short on world rank 0 alike, with the
// same code and the same message of redist::Staged after the caller's
// name (`executor`); empty when nothing is.
struct HybridVerdicts {
  std::string runs, executor;
};

HybridVerdicts run_hybrid(const HybridCase& c, int rank) {
  char err[512];
  redist_plan_t* plan = nullptr;
  const int rc0 = c.plan_text != nullptr
                      ? redist_plan_check(c.mesh, c.to_mesh, c.from, c.to, c.dtype, c.plan_text, &plan, err, sizeof err)
                      : redist_plan_create_with(c.mesh, c.to_mesh, c.from, c.to, c.dtype, "auto", &plan, err, sizeof err);
  if (rc0 != REDIST_OK) {
    const std::string why = "planning: code " + std::to_string(rc0) + ": " + err;
    return {why, why};
  }
  std::string why;
  if (redist_plan_by_exchange(plan) != 3) why = "not planned as a hybrid";
  else if (redist_plan_devices(plan) != c.world || redist_plan_workspace_bytes(plan) != c.workspace_bytes ||
           redist_plan_live_bytes(plan) != c.live_bytes ||
           redist_plan_alloc_bytes(plan) !=
               redist_plan_src_bytes(plan) + redist_plan_dst_bytes(plan) + c.workspace_bytes ||
           redist_plan_alloc_bytes(plan) < c.live_bytes)
    why = "the C ABI's world, workspace, live or allocated bytes differ from the header's";
  const int ndim = redist_plan_ndim(plan);
  const std::size_t elem = redist_plan_elem_bytes(plan);
  std::size_t src_off[max_dims], src_ext[max_dims], dst_off[max_dims], dst_ext[max_dims];
  if (redist_plan_src_box(plan, rank, src_off, src_ext, err, sizeof err) != REDIST_OK ||
      redist_plan_tgt_box(plan, rank, dst_off, dst_ext, err, sizeof err) != REDIST_OK)
    why = std::string("box: ") + err;
  std::size_t src_bytes = elem, dst_bytes = elem;
  for (int d = 0; d < ndim; ++d) src_bytes *= src_ext[d], dst_bytes *= dst_ext[d];
  std::vector<unsigned char> src(src_bytes), by_header(dst_bytes, 0x5A), by_interpreter(dst_bytes, 0xA5);
  std::vector<unsigned char> workspace(c.workspace_bytes + 1);
  walk_box(src_off, src_ext, ndim, elem, src.data(), 0);
  // A rank outside a mesh holds an empty box: null and 0.
  const void* src_ptr = src_bytes ? src.data() : nullptr;
  // A workspace one byte short on world rank 0 fails on every rank: there
  // buffer_too_small (code 2), elsewhere another rank's error (code 4).
  const std::size_t short_bytes = c.workspace_bytes - (rank == 0);
  const redist::Errc short_code = rank == 0 ? redist::Errc::buffer_too_small : redist::Errc::remote_error;
  redist::Status header_refusal;
  redist::Status st = c.run(MPI_COMM_WORLD, src_ptr, src_bytes, dst_bytes ? by_header.data() : nullptr, dst_bytes,
                            workspace.data(), c.workspace_bytes, short_bytes, &header_refusal);
  if (!st.ok()) why = "the header's run: " + st.message();
  redist_exec_t* exec = nullptr;
  int rc = redist_plan_bind(plan, MPI_COMM_WORLD, &exec, err, sizeof err);
  if (rc == REDIST_OK)
    rc = run_counted(exec, src_ptr, src_bytes, dst_bytes ? by_interpreter.data() : nullptr, dst_bytes, workspace.data(),
                     c.workspace_bytes, err, sizeof err);
  std::string executor = "not run";
  if (rc == REDIST_OK) {
    char short_err[512];
    const int short_rc = redist_exec_run(exec, src_ptr, src_bytes, dst_bytes ? by_interpreter.data() : nullptr,
                                         dst_bytes, workspace.data(), short_bytes, short_err, sizeof short_err);
    if (short_rc != (rank == 0 ? REDIST_ERR_BAD_INPUT : REDIST_ERR_RUNTIME))
      why = "a short workspace on rank 0: code " + std::to_string(short_rc) + ": " + short_err;
    const std::string by_staged = after_caller(header_refusal.message(), std::string(c.name) + "::run: ");
    if (header_refusal.code() != short_code)
      executor = "the header's run with a short workspace: " + std::string(redist::errc_name(header_refusal.code())) +
                 ": " + header_refusal.message();
    else if (by_staged.empty() || by_staged != after_caller(short_err, "redist_exec_run: "))
      executor = "different refusals: the header's \"" + header_refusal.message() + "\", the C ABI's \"" + short_err + "\"";
    else
      executor.clear();
  }
  redist_exec_free(exec);
  if (why.empty()) why = interpreter_verdict(rc, err, by_header, by_interpreter);
  if (why.empty()) {
    const std::size_t bad = walk_box(dst_off, dst_ext, ndim, elem, by_interpreter.data(), 1);
    if (bad != 0) why = std::to_string(bad) + " wrong elements";
  }
  redist_plan_free(plan);
  return {why, executor};
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world_rank = 0, world_size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  for (const Case& c : kCases) {
    const bool member = world_rank < c.devices;
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, member ? 0 : MPI_UNDEFINED, world_rank, &comm);
    std::string why;
    if (c.devices > world_size) why = "needs " + std::to_string(c.devices) + " ranks";
    else if (member) why = run_case(c, comm, world_rank);
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
    report(why, std::string(c.name) + ": " + c.mesh + " " + c.from + " -> " + c.to + " " + c.dtype,
           "identical bytes on " + std::to_string(c.devices) + " ranks, no allocation");
  }
  for (const ExchangeCase& x : kExchangeCases)
    report(run_exchange(x, world_rank, false), std::string("exchange ") + x.mesh + " " + x.from + " -> " + x.to_mesh + " " + x.to,
           "every element right on every rank, no allocation");
  for (const ExchangeCase& x : kSumExchangeCases)
    report(run_exchange(x, world_rank, true),
           std::string("reducing exchange ") + x.mesh + " " + x.from + " -> " + x.to_mesh + " " + x.to,
           "runs on every rank without allocation");
  for (const HybridCase& c : kHybridCases) {
    const HybridVerdicts verdicts = run_hybrid(c, world_rank);
    const std::string what = std::string(c.name) + ": hybrid " + c.mesh +
                             (c.to_mesh ? std::string(" -> ") + c.to_mesh : "") + " " + c.from + " -> " + c.to + " " +
                             c.dtype + (c.plan_text ? " (plan file)" : " (auto)");
    report(verdicts.runs, what,
           "identical bytes on " + std::to_string(c.world) +
               " ranks, every element right, no allocation, a short workspace on rank 0 fails on every rank");
    report(verdicts.executor, what + ": one executor",
           "the header's Plan is redist::Staged, and it and the C ABI refuse a short workspace with one message");
  }
  MPI_Finalize();
  return 0;
}
