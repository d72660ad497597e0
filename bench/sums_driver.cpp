// The MPI side of the pending-sum suite (issue 14): for every problem of one
// world size (the table bench/sums_bench.py writes into sums_problems.hpp),
// runs redist's generated plan and the plain-MPI baseline (reduce_scatter.cpp)
// on the same partial sums, checks every target element against the global
// array, and prints one JSON line per problem and system.
//
//   mpirun -np N sums_driver REPS
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "sums_common.hpp"
#include "sums_problems.hpp"

namespace {

using bench::Box;
using bench::SumsProblem;
using bench::Timing;
using bench::all_ranks;
using bench::time_runs;

// Contributions as bench/sums_problems.py defines them: member m > 0 of a
// pending group holds ((31 g + 17 m) mod 13) - 6 at global index g, member 0
// the rest of g mod kSumsModulus.  Small integers: exact in f32.
long long part(std::size_t g, int m) { return static_cast<long long>((31 * g + 17 * static_cast<std::size_t>(m)) % 13) - 6; }

long long contribution(std::size_t g, int m, int group) {
  if (m > 0) return part(g, m);
  long long v = static_cast<long long>(g % kSumsModulus);
  for (int j = 1; j < group; ++j) v -= part(g, j);
  return v;
}

// Fills box b with member m's contribution, or (m < 0) with the global values.
void fill_box(const SumsProblem& p, const Box& b, int m, int group, float* a) {
  std::size_t idx[bench::kMaxRank] = {};
  const std::size_t n = b.elems();
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t g = 0;
    for (int d = 0; d < p.ndim; ++d) g = g * p.shape[d] + b.off[d] + idx[d];
    a[i] = static_cast<float>(m < 0 ? static_cast<long long>(g % kSumsModulus) : contribution(g, m, group));
    for (int d = p.ndim - 1; d >= 0 && ++idx[d] == b.ext[d]; --d) idx[d] = 0;
  }
}

// peak_bytes: the most any rank holds: its buffers plus its heap growth in
// the timed calls.  recv_max < 0: the traffic comes from elsewhere (redist's
// plan JSON).
void report(int rank, const SumsProblem& p, const char* system, const Timing& t, bool ok, long long recv_max,
            long long buffers, const char* note) {
  long long mine[3] = {buffers + t.heap, t.heap, recv_max}, most[3] = {0, 0, 0};
  MPI_Allreduce(mine, most, 3, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  if (rank != 0) return;
  std::string times;
  for (double v : t.ms) times += (times.empty() ? "" : ",") + std::to_string(v);
  std::printf(
      "{\"problem\":\"%s\",\"system\":\"%s\",\"times_ms\":[%s],\"ok\":%s,\"recv_max\":%lld,"
      "\"peak_bytes\":%lld,\"heap_bytes\":%lld,\"note\":\"%s\"}\n",
      p.name, system, times.c_str(), ok ? "true" : "false", recv_max < 0 ? -1 : most[2], most[0], most[1], note);
  std::fflush(stdout);
}

void fail(const char* what, const redist::Status& st) {
  std::fprintf(stderr, "sums driver: %s: %s\n", what, st.message().c_str());
  MPI_Abort(MPI_COMM_WORLD, 1);
}

void run_redist(const SumsProblem& p, int rank, int reps, const std::vector<float>& src, std::vector<float>& dst,
                const std::vector<float>& want) {
  redist::Mesh mesh;
  if (redist::Status st = p.create(MPI_COMM_WORLD, &mesh); !st.ok()) fail("create_mesh", st);
  std::vector<unsigned char> ws(p.workspace_bytes == 0 ? 1 : p.workspace_bytes);
  std::fill(dst.begin(), dst.end(), -1.0f);
  const Timing t = time_runs(reps, MPI_COMM_WORLD, [&] {
    redist::Status st = p.run(mesh, src.data(), src.size() * sizeof(float), dst.data(), dst.size() * sizeof(float),
                              ws.data(), ws.size());
    if (!st.ok()) fail("redist", st);
  });
  const bool ok = all_ranks(dst == want, MPI_COMM_WORLD);
  const long long buffers = static_cast<long long>((src.size() + dst.size()) * sizeof(float) + p.workspace_bytes);
  report(rank, p, "redist", t, ok, -1, buffers, "");
}

void run_mpi(const SumsProblem& p, int rank, int size, int reps, const std::vector<float>& src,
             std::vector<float>& dst, const std::vector<float>& want) {
  const char* why_not = "";
  bench::ReduceScatter* rs = bench::reduce_scatter_setup(p, rank, size, &why_not);
  if (rs == nullptr) {
    report(rank, p, "mpi_rs", Timing{}, false, 0, -1, why_not);
    return;
  }
  std::fill(dst.begin(), dst.end(), -1.0f);
  const Timing t = time_runs(reps, MPI_COMM_WORLD, [&] { bench::reduce_scatter_run(rs, src.data(), dst.data()); });
  const bool ok = all_ranks(dst == want, MPI_COMM_WORLD);
  const long long buffers =
      static_cast<long long>((src.size() + dst.size()) * sizeof(float) + bench::reduce_scatter_buffer_bytes(rs));
  report(rank, p, "mpi_rs", t, ok, static_cast<long long>(bench::reduce_scatter_recv_elems(rs)), buffers,
         bench::reduce_scatter_what(rs));
  bench::reduce_scatter_free(rs);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int reps = argc > 1 ? std::atoi(argv[1]) : 5;
  if (size != kWorld || reps < 1) {
    if (rank == 0) std::fprintf(stderr, "sums driver: needs %d ranks and REPS >= 1\n", kWorld);
    MPI_Finalize();
    return 2;
  }
  for (const SumsProblem& p : kSumsProblems) {
    const Box sb = bench::sums_box(p, p.src_box, rank), tb = bench::sums_box(p, p.tgt_box, rank);
    std::vector<float> src(sb.elems()), dst(tb.elems()), want(tb.elems());
    fill_box(p, sb, bench::member_index(p, rank), bench::group_size(p), src.data());
    fill_box(p, tb, -1, 0, want.data());
    run_redist(p, rank, reps, src, dst, want);
    run_mpi(p, rank, size, reps, src, dst, want);
  }
  MPI_Finalize();
  return 0;
}
