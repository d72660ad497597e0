// The step-by-step differential test's driver: on an MPI world of N ranks,
// runs every case of DIR/casesN.txt (tests/diff/gen_diff.ml: a program of
// the extracted lowering, with or without pending sums, or a direct or
// reducing exchange's two placed layouts, with each rank's source bytes and
// the destination bytes the extracted semantics gives) through the
// runtime's plan interpreter, its Exchange or its ReducingExchange, or a
// hybrid's plan file through the C ABI (redist_plan_check, bind, run), and
// compares every byte of every rank's destination.  Also
// checked: the source is unchanged, nothing is written outside the
// destination and the workspace (guard bytes), and an exchange's source
// and target arrays (and a reducing exchange's workspace) fit in its
// stated live bytes; for a reducing exchange, each rank's messages
// received and sent and its workspace are those of the extracted lowering
// (lower_sumx), within the header's workspace; for a hybrid, the C ABI's
// plan is a hybrid whose workspace and live bytes are the extracted
// lowering's (program_workspace_bytes, splan_live_bytes) and whose boxes
// are the reference's.  Rank 0 prints one line per case.
//
//     mpirun -np N diff_main DIR
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "redist/exchange.hpp"
#include "redist/interpreter.hpp"  // and, through redist/mpi.hpp, mpi.h without its C++ bindings
#include "redist/redist.h"
#include "redist/reduce_exchange.hpp"

namespace {

constexpr std::size_t kGuard = 64;
constexpr unsigned char kGuardByte = 0xA5;

enum class Kind { program, exchange, reducing_exchange, hybrid };

struct Case {
  int id = 0;
  std::string description;
  Kind kind = Kind::program;
  redist::PlanProgram program;
  redist::PlacedMesh source, target;
  redist::BlockLayout source_layout, target_layout;
  std::size_t elem_bytes = 0;
  std::size_t live_bytes = 0;   // the exchanges' and the hybrid's stated bytes alive on a rank
  std::vector<int> source_pending, target_pending;  // the reducing exchange's
  // The reducing exchange's stated workspace, and this rank's messages
  // (rank, elements) and staging in its lowering (lower_sumx).
  std::size_t workspace_bytes = 0, staging_bytes = 0;
  std::vector<redist::Exchange::Peer> receives, sends;
  redist::Dtype dtype = redist::Dtype::u8;
  redist::Op op = redist::Op::sum;  // a reducing exchange's operation
  // The hybrid's problem in the command line's notation (to_mesh "-": one
  // mesh) and its plan file; workspace_bytes is its stated workspace.
  std::string mesh, to_mesh, from, to, dtype_name, plan_text;
  std::vector<unsigned char> src;       // this rank's
  std::vector<unsigned char> expected;  // this rank's destination, from the reference
};

std::vector<unsigned char> from_hex(const std::string& token) {
  std::vector<unsigned char> out;
  for (std::size_t i = 1; i + 1 < token.size(); i += 2) out.push_back(static_cast<unsigned char>(std::stoi(token.substr(i, 2), nullptr, 16)));
  return out;
}

redist::Layout read_layout(std::istream& in, std::size_t elem) {
  redist::Layout l{};
  in >> l.ndim;
  for (int d = 0; d < l.ndim; ++d) in >> l.extent[d];
  l.elem_bytes = elem;
  return l;
}

void read_steps(std::istream& in, std::size_t elem, std::vector<redist::PlanStep>* steps) {
  int nsteps = 0;
  in >> nsteps;
  steps->assign(nsteps, redist::PlanStep{});
  for (redist::PlanStep& s : *steps) {
    int op = 0, input = 0, output = 0, nrecv = 0;
    in >> op >> s.group.stride >> s.group.size;
    s.layout = read_layout(in, elem);
    in >> s.dim_a >> s.dim_b >> input >> output >> nrecv;
    s.op = static_cast<redist::PlanOp>(op);
    s.input = static_cast<redist::PlanBuffer>(input);
    s.output = static_cast<redist::PlanBuffer>(output);
    s.recv_from.assign(nrecv, 0);
    for (int& r : s.recv_from) in >> r;
  }
}

void read_program(std::istream& in, redist::PlanProgram* program) {
  redist::PlanProgram& p = *program;
  int naxes = 0;
  in >> naxes;
  p.mesh_sizes.assign(naxes, 0);
  for (int& s : p.mesh_sizes) in >> s;
  std::size_t elem = 0;
  in >> elem;
  p.src_layout = read_layout(in, elem);
  p.tgt_layout = read_layout(in, elem);
  in >> p.ping_bytes >> p.pong_bytes >> p.scratch_bytes;
  int ngroups = 0;
  in >> ngroups;
  p.groups.assign(ngroups, redist::Group{});
  for (redist::Group& g : p.groups) in >> g.stride >> g.size;
  read_steps(in, elem, &p.steps);
  int dtype = 0, source = 0, op = 0;
  in >> dtype >> p.red0_bytes >> p.red1_bytes >> p.red_scratch_bytes >> source >> op;
  if (dtype >= 0) p.dtype = static_cast<redist::Dtype>(dtype);
  p.op = static_cast<redist::Op>(op);
  p.collectives_source = static_cast<redist::PlanBuffer>(source);
  read_steps(in, elem, &p.reductions);
  read_steps(in, elem, &p.additions);
}

// Lowering.placed_layout: axis sizes, world ranks, global extents, each
// dimension's axes.
void read_placed(std::istream& in, redist::PlacedMesh* mesh, redist::BlockLayout* layout) {
  int nranks = 0;
  in >> mesh->naxes;
  for (int a = 0; a < mesh->naxes && a < redist::kMaxRank; ++a) in >> mesh->axis_size[a];
  in >> nranks;
  mesh->ranks.assign(nranks, 0);
  for (int& r : mesh->ranks) in >> r;
  in >> layout->ndim;
  for (int d = 0; d < layout->ndim && d < redist::kMaxRank; ++d) in >> layout->extent[d];
  for (int d = 0; d < layout->ndim && d < redist::kMaxRank; ++d) {
    in >> layout->sharding[d].count;
    for (int k = 0; k < layout->sharding[d].count && k < redist::kMaxRank; ++k) in >> layout->sharding[d].axis[k];
  }
}

std::vector<redist::Exchange::Peer> read_peers(std::istream& in) {
  int n = 0;
  in >> n;
  std::vector<redist::Exchange::Peer> out(n > 0 ? static_cast<std::size_t>(n) : 0);
  for (redist::Exchange::Peer& p : out) in >> p.rank >> p.elements;
  return out;
}

bool same_peers(const std::vector<redist::Exchange::Peer>& a, const std::vector<redist::Exchange::Peer>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].rank != b[i].rank || a[i].elements != b[i].elements) return false;
  return true;
}

// False at the end of the file.
bool read_case(std::istream& in, int me, int world, Case* c) {
  std::string word;
  if (!(in >> word)) return false;
  if (word != "case" && word != "xcase" && word != "scase" && word != "hcase")
    throw std::runtime_error("cases file: expected a case, read '" + word + "'");
  c->kind = word == "xcase"   ? Kind::exchange
            : word == "scase" ? Kind::reducing_exchange
            : word == "hcase" ? Kind::hybrid
                              : Kind::program;
  in >> c->id;
  std::getline(in, c->description);
  auto read_pending = [&](std::vector<int>* axes) {
    int n = 0;
    in >> n;
    axes->assign(n, 0);
    for (int& a : *axes) in >> a;
  };
  int ranks = 0, dtype = 0, op = 0;
  switch (c->kind) {
    case Kind::exchange:
      in >> ranks >> c->elem_bytes >> c->live_bytes;
      read_placed(in, &c->source, &c->source_layout);
      read_placed(in, &c->target, &c->target_layout);
      break;
    case Kind::reducing_exchange:
      in >> ranks >> c->elem_bytes >> dtype >> op >> c->workspace_bytes >> c->live_bytes;
      c->dtype = static_cast<redist::Dtype>(dtype);
      c->op = static_cast<redist::Op>(op);
      read_placed(in, &c->source, &c->source_layout);
      read_pending(&c->source_pending);
      read_placed(in, &c->target, &c->target_layout);
      read_pending(&c->target_pending);
      break;
    case Kind::hybrid: {
      int nlines = 0;
      in >> ranks >> c->elem_bytes >> c->workspace_bytes >> c->live_bytes >> nlines;
      for (std::string* field : {&c->mesh, &c->to_mesh, &c->from, &c->to, &c->dtype_name}) std::getline(in >> std::ws, *field);
      c->plan_text.clear();
      for (std::string line; nlines > 0 && std::getline(in >> std::ws, line); --nlines) c->plan_text += line + "\n";
      break;
    }
    case Kind::program:
      read_program(in, &c->program);
      ranks = world;
      break;
  }
  if (ranks != world) throw std::runtime_error("cases file: an exchange over another world");
  for (int r = 0; r < world; ++r) {
    std::string src, expected;
    in >> src >> expected;
    if (r == me) {
      c->src = from_hex(src);
      c->expected = from_hex(expected);
    }
  }
  if (c->kind == Kind::reducing_exchange)
    for (int r = 0; r < world; ++r) {
      std::vector<redist::Exchange::Peer> receives = read_peers(in), sends = read_peers(in);
      std::size_t staging = 0;
      in >> staging;
      if (r == me) c->receives = receives, c->sends = sends, c->staging_bytes = staging;
    }
  if (!in) throw std::runtime_error("cases file: truncated case " + std::to_string(c->id));
  return true;
}

bool guards_intact(const std::vector<unsigned char>& buf) {
  for (std::size_t i = 0; i < kGuard; ++i)
    if (buf[i] != kGuardByte || buf[buf.size() - 1 - i] != kGuardByte) return false;
  return true;
}

// The bytes of world rank `rank`'s source (or target) box in a C ABI plan.
std::size_t box_bytes(const redist_plan_t* plan, bool source, int rank) {
  std::size_t offset[REDIST_MAX_DIMS], extent[REDIST_MAX_DIMS];
  const int rc = source ? redist_plan_src_box(plan, rank, offset, extent, nullptr, 0)
                        : redist_plan_tgt_box(plan, rank, offset, extent, nullptr, 0);
  if (rc != REDIST_OK) return SIZE_MAX;
  std::size_t bytes = redist_plan_elem_bytes(plan);
  for (int d = 0; d < redist_plan_ndim(plan); ++d) bytes *= extent[d];
  return bytes;
}

// What in the C ABI's plan of a hybrid case differs from the reference on
// this rank, or null.
const char* hybrid_mismatch(const Case& c, const redist_plan_t* plan, int me) {
  if (redist_plan_by_exchange(plan) != 3) return "the C ABI's plan is not a hybrid";
  if (redist_plan_elem_bytes(plan) != c.elem_bytes) return "the C ABI's element size is not the problem's";
  if (redist_plan_workspace_bytes(plan) != c.workspace_bytes)
    return "the C ABI's workspace is not program_workspace_bytes of lower_splan";
  if (redist_plan_live_bytes(plan) != c.live_bytes) return "the C ABI's live bytes are not splan_live_bytes";
  if (box_bytes(plan, true, me) != c.src.size() || box_bytes(plan, false, me) != c.expected.size())
    return "the C ABI's boxes differ from the reference's";
  return nullptr;
}

// A hybrid through the C ABI into out, its workspace in ws (with guards):
// its plan file checked, then bound and run over the world.
redist::Status run_hybrid(const Case& c, const std::vector<unsigned char>& src, unsigned char* out,
                          std::vector<unsigned char>* ws) {
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  char err[1024] = "";
  redist_plan_t* checked = nullptr;
  std::string why;
  if (redist_plan_check(c.mesh.c_str(), c.to_mesh == "-" ? nullptr : c.to_mesh.c_str(), c.from.c_str(), c.to.c_str(),
                        c.dtype_name.c_str(), c.plan_text.c_str(), &checked, err, sizeof err) != REDIST_OK)
    why = std::string("redist_plan_check: ") + err;
  const std::unique_ptr<redist_plan_t, void (*)(redist_plan_t*)> plan(checked, redist_plan_free);
  if (const char* mismatch = why.empty() ? hybrid_mismatch(c, plan.get(), me) : nullptr) why = mismatch;
  // Agreed before the collective bind, so that no rank waits for one that stopped.
  int bad = !why.empty(), any_bad = 0;
  MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (any_bad != 0) return redist::Status(redist::Errc::invalid_argument, bad ? why : "another rank's check failed");
  redist_exec_t* bound = nullptr;
  if (redist_plan_bind(plan.get(), MPI_COMM_WORLD, &bound, err, sizeof err) != REDIST_OK)
    return redist::Status(redist::Errc::invalid_argument, std::string("redist_plan_bind: ") + err);
  const std::unique_ptr<redist_exec_t, void (*)(redist_exec_t*)> exec(bound, redist_exec_free);
  ws->assign(c.workspace_bytes + 2 * kGuard, kGuardByte);
  if (redist_exec_run(exec.get(), src.empty() ? nullptr : src.data(), src.size(), c.expected.empty() ? nullptr : out,
                      c.expected.size(), ws->data() + kGuard, c.workspace_bytes, err, sizeof err) != REDIST_OK)
    return redist::Status(redist::Errc::invalid_argument, std::string("redist_exec_run: ") + err);
  return redist::Status();
}

// Runs the case into dst (kGuard bytes of guard on each side) and ws.
redist::Status run(const Case& c, const std::vector<unsigned char>& src, std::vector<unsigned char>* dst,
                   std::vector<unsigned char>* ws) {
  unsigned char* out = dst->data() + kGuard;
  const void* in = src.empty() ? nullptr : src.data();
  if (c.kind == Kind::hybrid) return run_hybrid(c, src, out, ws);
  if (c.kind == Kind::reducing_exchange) {
    redist::ReducingExchange ex;
    if (redist::Status st = redist::ReducingExchange::create(
            MPI_COMM_WORLD, c.source, c.source_layout, c.source_pending.data(), static_cast<int>(c.source_pending.size()),
            c.target, c.target_layout, c.target_pending.data(), static_cast<int>(c.target_pending.size()), c.dtype, c.op, &ex);
        !st.ok())
      return st;
    const char* why = nullptr;
    if (ex.source_bytes() != src.size() || ex.target_bytes() != c.expected.size())
      why = "the runtime's boxes differ from the reference's";
    else if (!same_peers(ex.receives(), c.receives))
      why = "the messages it receives are not the lowered pieces' (sx_pieces)";
    else if (!same_peers(ex.sends(), c.sends))
      why = "the messages it sends are not the lowering's (sx_sends)";
    else if (ex.workspace_bytes() != c.staging_bytes)
      why = "its workspace is not the lowering's staging (sx_staging)";
    else if (ex.workspace_bytes() > c.workspace_bytes)
      why = "its workspace exceeds the header's (sx_workspace_bytes)";
    else if (ex.source_bytes() + ex.target_bytes() + ex.workspace_bytes() > c.live_bytes)
      why = "source + destination + workspace exceed the stated live bytes";
    int bad = why != nullptr, any_bad = 0;
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any_bad != 0)
      return redist::Status(redist::Errc::invalid_argument, why != nullptr ? why : "another rank's check failed");
    ws->assign(ex.workspace_bytes() + 2 * kGuard, kGuardByte);
    return ex.run(in, src.size(), c.expected.empty() ? nullptr : out, c.expected.size(),
                  ex.workspace_bytes() == 0 ? nullptr : ws->data() + kGuard, ex.workspace_bytes());
  }
  if (c.kind == Kind::exchange) {
    redist::Exchange ex;
    if (redist::Status st = redist::Exchange::create(MPI_COMM_WORLD, c.source, c.source_layout, c.target,
                                                     c.target_layout, c.elem_bytes, &ex);
        !st.ok())
      return st;
    // Agreed between the ranks before the collective run, so that no rank
    // is left waiting for one that stopped.
    const char* why = nullptr;
    if (ex.source_bytes() != src.size() || ex.target_bytes() != c.expected.size())
      why = "the runtime's boxes differ from the reference's";
    else if (ex.source_bytes() + ex.target_bytes() > c.live_bytes)
      why = "the rank's arrays exceed the stated live bytes";
    int bad = why != nullptr, any_bad = 0;
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any_bad != 0)
      return redist::Status(redist::Errc::invalid_argument, why != nullptr ? why : "another rank's check failed");
    return ex.run(in, src.size(), c.expected.empty() ? nullptr : out, c.expected.size());
  }
  redist::PlanInterpreter exec;
  if (redist::Status st = redist::PlanInterpreter::bind(&c.program, MPI_COMM_WORLD, &exec); !st.ok()) return st;
  return exec.run(src.data(), src.size(), out, c.expected.size(), ws->data() + kGuard, c.program.workspace_bytes());
}

// This rank's verdict on one case: empty when every check passed.
std::string run_case(const Case& c) {
  const std::vector<unsigned char> src = c.src;
  std::vector<unsigned char> dst(c.expected.size() + 2 * kGuard, kGuardByte);
  std::vector<unsigned char> ws((c.kind == Kind::program ? c.program.workspace_bytes() : 0) + 2 * kGuard, kGuardByte);
  if (redist::Status st = run(c, src, &dst, &ws); !st.ok()) return "run: " + st.message();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < c.expected.size(); ++i) wrong += dst[kGuard + i] != c.expected[i];
  if (wrong != 0)
    return std::to_string(wrong) + " of " + std::to_string(c.expected.size()) + " destination bytes differ from the reference";
  if (src != c.src) return "the source changed";
  if (!guards_intact(dst) || !guards_intact(ws)) return "bytes outside the destination or the workspace changed";
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world = 0, me = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (argc != 2) {
    if (me == 0) std::fprintf(stderr, "usage: diff_main DIR\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const std::string file = std::string(argv[1]) + "/cases" + std::to_string(world) + ".txt";
  std::ifstream in(file);
  if (!in) {
    if (me == 0) std::fprintf(stderr, "cannot read %s\n", file.c_str());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  try {
    Case c;
    while (read_case(in, me, world, &c)) {
      const std::string why = run_case(c);
      int bad = why.empty() ? 0 : 1, any_bad = 0;
      MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      // The first failing rank's reason reaches rank 0.
      int first = bad ? me : world, first_bad = world;
      MPI_Allreduce(&first, &first_bad, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
      std::string reason = why;
      if (any_bad != 0 && first_bad != 0) {
        if (me == first_bad) {
          MPI_Send(why.data(), static_cast<int>(why.size()), MPI_CHAR, 0, 0, MPI_COMM_WORLD);
        } else if (me == 0) {
          MPI_Status status;
          MPI_Probe(first_bad, 0, MPI_COMM_WORLD, &status);
          int n = 0;
          MPI_Get_count(&status, MPI_CHAR, &n);
          reason.assign(static_cast<std::size_t>(n), ' ');
          MPI_Recv(&reason[0], n, MPI_CHAR, first_bad, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
      }
      if (me == 0) {
        if (any_bad == 0) std::printf("ok    case %d:%s\n", c.id, c.description.c_str());
        else std::printf("FAIL  case %d:%s: rank %d: %s\n", c.id, c.description.c_str(), first_bad, reason.c_str());
        std::fflush(stdout);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rank %d: %s\n", me, e.what());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Finalize();
  return 0;
}
