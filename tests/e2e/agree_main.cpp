// A generated run() whose buffers are wrong on one rank only: every rank
// must return an error (that rank its own, the others remote_error), none
// may hang, and the ranks must stay in step, so that a correct run()
// afterwards moves every element.  Compiled against one header generated
// with --name plan (tests/e2e/agree.sh); rank 0 prints one line per case.
#include <cstdio>
#include <string>
#include <vector>

#include "plan.hpp"

namespace plan = redist_gen::plan;

namespace {

using value_type = plan::value_type;

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

// Row-major linear index in the global array of each element of `rank`'s
// box, in the box's own row-major order.
std::vector<value_type> box_indices(int rank, bool target) {
  std::size_t offset[plan::kRank] = {}, extent[plan::kRank] = {};
  const bool inside = target ? plan::tgt_box(rank, offset, extent) : plan::src_box(rank, offset, extent);
  std::size_t n = 1;
  for (int d = 0; d < plan::kRank; ++d) n *= extent[d];
  std::vector<value_type> v(inside ? n : 0);
  for (std::size_t e = 0; e < v.size(); ++e) {
    std::size_t rest = e, global = 0, scale = 1;
    for (int d = plan::kRank; d-- > 0;) {
      global += (offset[d] + rest % extent[d]) * scale;
      rest /= extent[d];
      scale *= plan::kGlobalShape[d];
    }
    v[e] = static_cast<value_type>(global);
  }
  return v;
}

// Prints the case's line on rank 0: it passed iff it passed on every rank.
bool report(const std::string& name, bool here, const std::string& why) {
  int good = here ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &good, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!here) std::fprintf(stderr, "rank %d: %s: %s\n", world_rank(), name.c_str(), why.c_str());
  if (world_rank() == 0) std::printf("%s %s\n", good ? "ok   " : "FAIL ", name.c_str());
  std::fflush(stdout);
  return good == 1;
}

struct Buffers {
  std::vector<value_type> src = box_indices(world_rank(), false);
  std::vector<value_type> dst = std::vector<value_type>(plan::kTgtElems);
  std::vector<unsigned char> workspace = std::vector<unsigned char>(plan::kWorkspaceBytes);
};

// A correct run moves every element to its target box.
bool correct_run(const redist::Mesh& mesh, const std::string& name) {
  Buffers b;
  const redist::Status st = plan::run(mesh, b.src.data(), plan::kSrcBytes, b.dst.data(), plan::kTgtBytes,
                                      b.workspace.data(), plan::kWorkspaceBytes);
  const bool right = st.ok() && b.dst == box_indices(world_rank(), true);
  return report(name, right, st.ok() ? "wrong target elements" : st.message());
}

// Rank `odd` passes its buffers through `spoil`; every rank must get an
// error: `odd` one of code `code` naming `text`, the others remote_error.
template <class Spoil>
bool one_rank_wrong(const redist::Mesh& mesh, const std::string& name, int odd, redist::Errc code,
                    const std::string& text, Spoil spoil) {
  Buffers b;
  void* workspace = b.workspace.data();
  std::size_t src_bytes = plan::kSrcBytes, dst_bytes = plan::kTgtBytes, ws_bytes = plan::kWorkspaceBytes;
  if (world_rank() == odd) spoil(&src_bytes, &dst_bytes, &workspace, &ws_bytes);
  const redist::Status st = plan::run(mesh, b.src.data(), src_bytes, b.dst.data(), dst_bytes, workspace, ws_bytes);
  const bool here = world_rank() == odd
                        ? st.code() == code && st.message().find(text) != std::string::npos
                        : st.code() == redist::Errc::remote_error;
  return report(name, here, st.ok() ? "returned ok" : st.message());
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int failed = 0;
  {
    redist::Mesh mesh;
    if (redist::Status st = plan::create_mesh(MPI_COMM_WORLD, &mesh); !st.ok()) {
      std::fprintf(stderr, "create_mesh: %s\n", st.message().c_str());
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int last = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &last);
    --last;
    failed += !report("the plan has a workspace", plan::kWorkspaceBytes > 0, "kWorkspaceBytes is 0");
    failed += !correct_run(mesh, "correct buffers: every element arrives");
    failed += !one_rank_wrong(mesh, "last rank's destination 1 byte short", last, redist::Errc::buffer_too_small,
                              "plan::run: destination has " + std::to_string(plan::kTgtBytes - 1) + " bytes",
                              [](std::size_t*, std::size_t* dst, void**, std::size_t*) { --*dst; });
    failed += !one_rank_wrong(mesh, "rank 0's source 1 byte short", 0, redist::Errc::buffer_too_small,
                              "plan::run: source has",
                              [](std::size_t* src, std::size_t*, void**, std::size_t*) { --*src; });
    failed += !one_rank_wrong(mesh, "last rank's workspace 1 byte short", last, redist::Errc::buffer_too_small,
                              "plan::run: workspace has",
                              [](std::size_t*, std::size_t*, void**, std::size_t* ws) { --*ws; });
    failed += !one_rank_wrong(mesh, "rank 0's workspace null", 0, redist::Errc::invalid_argument,
                              "plan::run: workspace is null",
                              [](std::size_t*, std::size_t*, void** ws, std::size_t*) { *ws = nullptr; });
    failed += !correct_run(mesh, "after the refused runs: every element arrives");
  }
  MPI_Finalize();
  return failed == 0 ? 0 : 1;
}
