// The MPI side of the benchmark: for every problem of one device count
// (the table bench/gen.py writes into problems.hpp), runs redist's plan, the
// gather-everything plan, the one-shot MPI_Alltoallv and, for rank-2
// problems, ScaLAPACK's psgemr2d on the same source array, checks every
// target element, and prints one JSON line per problem and system.
//
//   mpirun -np N driver REPS
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "problems.hpp"

namespace {

using bench::Box;
using bench::Problem;

// Element value = its global row-major index (exact in f32: gen.py keeps
// every array below 2^24 elements).
void fill_box(const Problem& p, const Box& b, float* a) {
  std::size_t idx[bench::kMaxRank] = {};
  const std::size_t n = b.elems();
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t g = 0;
    for (int d = 0; d < p.ndim; ++d) g = g * p.shape[d] + b.off[d] + idx[d];
    a[i] = static_cast<float>(g);
    for (int d = p.ndim - 1; d >= 0 && ++idx[d] == b.ext[d]; --d) idx[d] = 0;
  }
}

bool all_ranks(bool mine, MPI_Comm comm) {
  int v = mine ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MIN, comm);
  return v == 1;
}

struct Timing {
  std::vector<double> ms;  // max over ranks, per repetition
  long long heap = 0;      // this rank's heap growth at its highest during the timed runs
  double median() const {
    std::vector<double> t = ms;
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  }
};

// One warm-up run, then `reps` timed ones; each time is the slowest rank's.
// The heap is watched over the timed runs only: what the warm-up leaves
// behind (MPI's caches) is not a per-call cost.
Timing time_runs(int reps, MPI_Comm comm, const std::function<void()>& step) {
  Timing t;
  long long base = 0;
  for (int i = 0; i <= reps; ++i) {
    if (i == 1) {
      base = bench::heap_now();
      bench::heap_reset_peak();
    }
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    step();
    double dt = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, comm);
    if (i > 0) t.ms.push_back(dt * 1e3);
  }
  t.heap = bench::heap_peak_since_reset() - base;
  return t;
}

// peak_bytes: the most any rank holds: its buffers (`buffers`, allocated
// before timing) plus its heap growth inside the timed calls.
void report(int rank, const Problem& p, const char* system, const Timing& t, bool ok, long long recv_max,
            long long recv_total, long long buffers, const char* note) {
  long long mine[2] = {buffers + t.heap, t.heap}, most[2] = {0, 0};
  MPI_Allreduce(mine, most, 2, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  const long long peak_bytes = buffers < 0 ? -1 : most[0];
  if (rank != 0) return;
  std::string times;
  for (double v : t.ms) times += (times.empty() ? "" : ",") + std::to_string(v);
  std::printf(
      "{\"problem\":\"%s\",\"system\":\"%s\",\"time_ms\":%.4f,\"times_ms\":[%s],\"ok\":%s,"
      "\"recv_max\":%lld,\"recv_total\":%lld,\"peak_bytes\":%lld,\"heap_bytes\":%lld,\"note\":\"%s\"}\n",
      p.name, system, t.ms.empty() ? -1.0 : t.median(), times.c_str(), ok ? "true" : "false", recv_max,
      recv_total, peak_bytes, most[1], note);
  std::fflush(stdout);
}

void recv_stats(std::size_t mine, MPI_Comm comm, long long* max, long long* total) {
  long long v = static_cast<long long>(mine);
  MPI_Allreduce(&v, max, 1, MPI_LONG_LONG, MPI_MAX, comm);
  MPI_Allreduce(&v, total, 1, MPI_LONG_LONG, MPI_SUM, comm);
}

void fail(const char* what, const redist::Status& st) {
  std::fprintf(stderr, "bench driver: %s: %s\n", what, st.message().c_str());
  MPI_Abort(MPI_COMM_WORLD, 1);
}

void run_plan(const Problem& p, const bench::Plan& plan, const char* system, int rank, int reps,
              const std::vector<float>& src, std::vector<float>& dst, const std::vector<float>& want) {
  redist::Mesh mesh;
  if (redist::Status st = plan.create(MPI_COMM_WORLD, &mesh); !st.ok()) fail("create_mesh", st);
  std::vector<unsigned char> ws(plan.workspace_bytes == 0 ? 1 : plan.workspace_bytes);
  std::fill(dst.begin(), dst.end(), -1.0f);
  const Timing t = time_runs(reps, MPI_COMM_WORLD, [&] {
    redist::Status st = plan.run(mesh, src.data(), src.size() * sizeof(float), dst.data(),
                                 dst.size() * sizeof(float), ws.data(), ws.size());
    if (!st.ok()) fail(system, st);
  });
  const bool ok = all_ranks(dst == want, MPI_COMM_WORLD);
  const long long buffers = static_cast<long long>((src.size() + dst.size()) * sizeof(float) + plan.workspace_bytes);
  // Traffic of the plans comes from the verified checker (gen.py), not here.
  report(rank, p, system, t, ok, -1, -1, buffers, "");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int reps = argc > 1 ? std::atoi(argv[1]) : 5;
  if (size != kDevices || reps < 1) {
    if (rank == 0) std::fprintf(stderr, "bench driver: needs %d ranks and REPS >= 1\n", kDevices);
    MPI_Finalize();
    return 2;
  }
  for (const Problem& p : kProblems) {
    const Box sb = bench::box_of(p.src_box, p.ndim, rank);
    const Box tb = bench::box_of(p.tgt_box, p.ndim, rank);
    std::vector<float> src(p.src_elems), dst(p.tgt_elems), want(p.tgt_elems);
    fill_box(p, sb, src.data());
    fill_box(p, tb, want.data());

    run_plan(p, p.redist, "redist", rank, reps, src, dst, want);
    run_plan(p, p.easy, "gather_all", rank, reps, src, dst, want);

    {
      const bench::AlltoallvPlan plan = bench::alltoallv_plan(p, rank, size);
      std::vector<float> sendbuf(plan.send_displs.back() + plan.send_counts.back());
      std::vector<float> recvbuf(plan.recv_displs.back() + plan.recv_counts.back());
      std::fill(dst.begin(), dst.end(), -1.0f);
      const Timing t = time_runs(reps, MPI_COMM_WORLD, [&] {
        bench::alltoallv_run(p, plan, rank, src.data(), dst.data(), sendbuf, recvbuf, MPI_COMM_WORLD);
      });
      const bool ok = all_ranks(dst == want, MPI_COMM_WORLD);
      long long rmax = 0, rtot = 0;
      recv_stats(plan.recv_elems, MPI_COMM_WORLD, &rmax, &rtot);
      const long long buffers =
          static_cast<long long>((src.size() + dst.size() + sendbuf.size() + recvbuf.size()) * sizeof(float));
      report(rank, p, "alltoallv", t, ok, rmax, rtot, buffers, "");
    }

    {
      const char* why_not = "";
      bench::Gemr2d* g = bench::gemr2d_setup(p, rank, size, &why_not);
      if (g == nullptr) {
        report(rank, p, "scalapack", Timing{}, false, -1, -1, -1, why_not);
      } else {
        std::fill(dst.begin(), dst.end(), -1.0f);
        const Timing t = time_runs(reps, MPI_COMM_WORLD, [&] { bench::gemr2d_run(g, src.data(), dst.data()); });
        const bool ok = all_ranks(dst == want, MPI_COMM_WORLD);
        long long rmax = 0, rtot = 0;
        recv_stats(bench::gemr2d_recv_elems(g), MPI_COMM_WORLD, &rmax, &rtot);
        const long long buffers = static_cast<long long>((src.size() + dst.size()) * sizeof(float));
        report(rank, p, "scalapack", t, ok, rmax, rtot, buffers, "");
        bench::gemr2d_free(g);
      }
    }
  }
  MPI_Finalize();
  return 0;
}
