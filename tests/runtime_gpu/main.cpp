// Runs the NCCL/CUDA backend's test cases on every rank of MPI_COMM_WORLD.
// Cases that need a GPU run only if every rank has its own CUDA device
// (rank i on a node uses device i); otherwise they are skipped.  Rank 0
// prints the results in the tests' one protocol (TAP 13,
// tests/tap_count.sh): one per case, a case not run here "# SKIP" with why;
// exits non-zero if any case failed.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "check.hpp"

namespace gputest {

std::string describe(const redist::Layout& l) {
  std::string s = "[";
  for (int i = 0; i < l.ndim; ++i) s += (i ? "x" : "") + std::to_string(l.extent[i]);
  return s + "]*" + std::to_string(l.elem_bytes) + "B";
}

}  // namespace gputest

namespace {

// Empty if this rank can use a device of its own; else why not.
// *none: whether CUDA reports no device at all.
std::string device_problem(bool* none) {
  // Collective, so every rank splits before any can return early.
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int local_rank = 0, local_size = 0;
  MPI_Comm_rank(node, &local_rank);
  MPI_Comm_size(node, &local_size);
  MPI_Comm_free(&node);
  int count = 0;
  const cudaError_t rc = cudaGetDeviceCount(&count);
  *none = rc != cudaSuccess || count == 0;
  if (rc != cudaSuccess) return std::string("cudaGetDeviceCount: ") + cudaGetErrorString(rc);
  if (count == 0) return "cudaGetDeviceCount reports 0 devices";
  // NCCL refuses two ranks of one communicator on the same GPU.
  if (local_size > count)
    return std::to_string(local_size) + " ranks on this node but only " + std::to_string(count) +
           " CUDA devices";
  if (const cudaError_t set = cudaSetDevice(local_rank); set != cudaSuccess)
    return std::string("cudaSetDevice: ") + cudaGetErrorString(set);
  return {};
}

// no_device: no rank sees any device (not merely too few of them).
bool runs(gputest::Needs needs, bool have_gpu, bool no_device) {
  switch (needs) {
    case gputest::Needs::anything: return true;
    case gputest::Needs::gpu: return have_gpu;
    case gputest::Needs::no_gpu: return no_device;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int me = gputest::world_rank();
  // --skip TEXT (repeatable): skip the cases whose name contains TEXT.
  std::vector<std::string> skips;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--skip" && i + 1 < argc) {
      skips.push_back(argv[++i]);
    } else {
      if (me == 0) std::fprintf(stderr, "redist_gpu_tests: unknown argument '%s' (usage: [--skip TEXT]...)\n", argv[i]);
      MPI_Finalize();
      return 2;
    }
  }
  auto skipped_by_name = [&](const std::string& name) {
    for (const std::string& s : skips)
      if (name.find(s) != std::string::npos) return true;
    return false;
  };
  bool none = false;
  const std::string problem = device_problem(&none);
  int mine[2] = {problem.empty() ? 1 : 0, none ? 1 : 0}, all[2] = {0, 0};
  MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  const bool have_gpu = all[0] == 1;
  const bool no_device = all[1] == 1;

  std::vector<gputest::Case> cases;
  gputest::add_plan_cases(cases);
  gputest::add_argument_cases(cases);
  gputest::add_kernel_cases(cases);
  gputest::add_collective_cases(cases);
  gputest::add_misuse_cases(cases);
  gputest::add_exchange_cases(cases);
  gputest::add_nccl_comm_cases(cases);
  gputest::add_reduce_cases(cases);

  const std::string no_gpu_here =
      "no CUDA device (" + (problem.empty() ? std::string("another rank has none") : problem) + ")";
  if (me == 0) std::printf("TAP version 13\n");
  int number = 0, failed = 0;
  auto result = [&](const char* status, const std::string& name, const std::string& directive) {
    ++number;
    if (me == 0) std::printf("%s %d - %s%s\n", status, number, name.c_str(), directive.c_str());
  };
  for (const gputest::Case& c : cases) {
    if (skipped_by_name(c.name)) {
      result("ok", c.name, " # SKIP skipped by --skip");
      continue;
    }
    if (!runs(c.needs, have_gpu, no_device)) {
      result("ok", c.name,
             c.needs == gputest::Needs::gpu ? " # SKIP " + no_gpu_here
                                            : std::string(" # SKIP runs only where no rank sees a CUDA device"));
      continue;
    }
    gputest::Tally t;
    try {
      c.body(t);
    } catch (const std::exception& e) {
      t.fail(std::string("exception: ") + e.what());
    }
    long bad = t.bad(), total = 0;
    MPI_Allreduce(&bad, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (bad > 0)
      std::fprintf(stderr, "rank %d: %s: %ld failures, first: %s\n", me, c.name.c_str(), bad,
                   t.first().c_str());
    failed += total == 0 ? 0 : 1;
    result(total == 0 ? "ok" : "not ok", c.name, "");
  }
  if (me == 0) std::printf("1..%d\n", number);
  std::fflush(stdout);
  MPI_Finalize();
  return failed == 0 ? 0 : 1;
}
