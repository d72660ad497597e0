// Split-phase overlap (runtime/README.md, "Split phase"): how much of an
// exchange hides behind computation run between start() and wait().
// Per problem (the world as one axis, a 1-d array whose blocks all move to
// the reversed ranks: every byte crosses ranks), each repetition measures
//   t_exchange  run(), blocking;
//   t_compute   a busy loop calibrated to last about t_exchange, alone;
//   t_pair      start(), the same loop, wait();
// in two variants of the pair: the loop calls test() between its 100
// slices (MPI progresses inside MPI calls: no progress thread), or never.
// Overlap = (t_exchange + t_compute - t_pair) / min(t_exchange, t_compute):
// 1 when the pair costs max(t_exchange, t_compute), 0 when the sum.  Every
// time is the slowest rank's, between barriers; every element of dst is
// checked after each pair.  Printed as min..max over the repetitions.
// Plans by the collectives do not overlap yet (the C ABI's start runs them
// whole), so only the exchange is measured.
//   mpirun -np 2 overlap [reps]
#include <redist/exchange.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "kernel.hpp"

namespace {

using bench::compute;
using bench::kSlices;

void require(const redist::Status& st) {
  if (!st.ok()) {
    std::fprintf(stderr, "overlap bench: %s\n", st.message().c_str());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

double slowest(double seconds) {
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return seconds;
}

template <class F>
double timed(F f) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  f();
  return slowest(MPI_Wtime() - t0);
}

struct Range {
  double lo = 1e300, hi = -1e300;
  void add(double v) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    const int reps = argc > 1 ? std::max(5, std::atoi(argv[1])) : 7;
    int n = 0, me = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    const auto nop = [] {};
    // Iterations per second of the kernel, measured once (the slowest rank's).
    const long probe = 2000000;
    const double per_iteration = timed([&] { compute(probe / kSlices, nop); }) / probe;
    if (me == 0)
      std::printf("overlap: %d ranks, %d repetitions, times in ms (slowest rank), min..max\n"
                  "%-10s %-17s %-17s %-17s %-13s %-17s %-13s\n",
                  n, reps, "MiB/rank", "t_exchange", "t_compute", "t_pair(test)", "overlap", "t_pair(no test)",
                  "overlap");
    for (std::size_t mib : {1, 16, 64}) {
      const std::size_t elems = mib * (1u << 20) / 4;
      redist::PlacedMesh source = redist::PlacedMesh::contiguous(&n, 1, 0), target = source;
      std::reverse(target.ranks.begin(), target.ranks.end());
      redist::BlockLayout layout;
      layout.ndim = 1;
      layout.extent[0] = elems * static_cast<std::size_t>(n);
      layout.sharding[0] = redist::DimSharding{1, {0}};
      redist::Exchange ex;
      require(redist::Exchange::create(MPI_COMM_WORLD, source, layout, target, layout, 4, &ex));
      std::vector<std::uint32_t> src(elems), dst(elems);
      for (std::size_t i = 0; i < elems; ++i) src[i] = static_cast<std::uint32_t>(elems * me + i);
      const std::size_t bytes = elems * 4;
      const std::uint32_t from = static_cast<std::uint32_t>(elems * (n - 1 - me));
      const auto check = [&] {
        for (std::size_t i = 0; i < elems; ++i)
          if (dst[i] != from + i) {
            std::fprintf(stderr, "overlap bench: rank %d: wrong element %zu\n", me, i);
            MPI_Abort(MPI_COMM_WORLD, 1);
          }
        std::fill(dst.begin(), dst.end(), 0u);
      };
      const auto run = [&] { require(ex.run(src.data(), bytes, dst.data(), bytes)); };
      run();  // warm-up
      check();
      // The kernel lasts about the exchange's median blocking time (rank 0's count, for all).
      std::vector<double> warm;
      for (int r = 0; r < 5; ++r) warm.push_back(timed(run));
      std::sort(warm.begin(), warm.end());
      long iterations = std::max(1L, static_cast<long>(warm[2] / per_iteration / kSlices));
      MPI_Bcast(&iterations, 1, MPI_LONG, 0, MPI_COMM_WORLD);
      Range t_ex, t_comp, t_pair, t_pair_quiet, overlap, overlap_quiet;
      for (int r = 0; r < reps; ++r) {
        const double e = timed(run);
        check();
        const double c = timed([&] { compute(iterations, nop); });
        const double p = timed([&] {
          require(ex.start(src.data(), bytes, dst.data(), bytes));
          bool done = false;
          compute(iterations, [&] {
            if (!done) require(ex.test(&done));
          });
          require(ex.wait());
        });
        check();
        const double q = timed([&] {
          require(ex.start(src.data(), bytes, dst.data(), bytes));
          compute(iterations, nop);
          require(ex.wait());
        });
        check();
        t_ex.add(e * 1e3);
        t_comp.add(c * 1e3);
        t_pair.add(p * 1e3);
        t_pair_quiet.add(q * 1e3);
        overlap.add((e + c - p) / std::min(e, c));
        overlap_quiet.add((e + c - q) / std::min(e, c));
      }
      if (me == 0)
        std::printf("%-10zu %7.2f..%-8.2f %7.2f..%-8.2f %7.2f..%-8.2f %5.2f..%-6.2f %7.2f..%-8.2f %5.2f..%-6.2f\n", mib,
                    t_ex.lo, t_ex.hi, t_comp.lo, t_comp.hi, t_pair.lo, t_pair.hi, overlap.lo, overlap.hi,
                    t_pair_quiet.lo, t_pair_quiet.hi, overlap_quiet.lo, overlap_quiet.hi);
    }
    if (me == 0) std::printf("plans by the collectives: no overlap yet (their start runs them whole)\n");
  }
  MPI_Finalize();
  return 0;
}
