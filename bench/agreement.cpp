// The cost of argument agreement (runtime/README.md, "Errors and agreement
// between ranks"): time per call of all_gather, all_to_all and all_permute
// over the whole mesh, with agreement on and off, for a small (64-byte)
// and a 1 MiB local array.  Each measurement is `reps` back-to-back calls
// between barriers, the slowest rank's time divided by reps; on and off
// alternate for `rounds` rounds; printed in microseconds: the minimum (the
// least disturbed round) and the median [max] over the rounds, and the
// ratios on/off of the minima and of the medians.  Then the agreement on
// the whole problem (ProblemDigest): Mesh::create with a problem, whose
// one allreduce carries it, beside the bare allreduce of that size and one
// of the 3 words the axis sizes alone needed.
//   mpirun -np N agreement [rounds]
#include <redist/mpi.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {

// Seconds per call of `reps` calls of `step`, the slowest rank's.
double per_call(MPI_Comm comm, int reps, const std::function<redist::Status()>& step) {
  MPI_Barrier(comm);
  const double t0 = MPI_Wtime();
  for (int i = 0; i < reps; ++i) {
    if (const redist::Status st = step(); !st.ok()) {
      std::fprintf(stderr, "agreement bench: %s\n", st.message().c_str());
      MPI_Abort(comm, 1);
    }
  }
  double dt = (MPI_Wtime() - t0) / reps;
  MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, comm);
  return dt;
}

struct Range {
  double lo, median, hi;
};

Range range_us(std::vector<double> t) {
  std::sort(t.begin(), t.end());
  return {t.front() * 1e6, t[t.size() / 2] * 1e6, t.back() * 1e6};
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 15;
    int n = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    const int axes[] = {n};
    redist::Mesh mesh;
    const redist::Group g{1, n};
    if (!redist::Mesh::create(MPI_COMM_WORLD, axes, 1, &mesh).ok() || !mesh.prepare(&g, 1).ok())
      MPI_Abort(MPI_COMM_WORLD, 1);
    std::vector<int> ring(n);
    for (int r = 0; r < n; ++r) ring[r] = (r + 1) % n;
    const auto N = static_cast<std::size_t>(n);

    struct Row {
      const char* name;
      std::function<redist::Status()> call;
    };
    if (mesh.rank() == 0)
      std::printf("%d ranks; us per call over %d rounds, min median [max]; agreement on | off | on/off of min, median\n",
                  n, rounds);
    // {rows, n * cols} 4-byte elements: dim 0 gathers without scratch,
    // all_to_all 0<-1 needs no packing when rows == 1.
    struct Size {
      const char* name;
      std::size_t cols;
      int reps;
    };
    for (const Size& size : {Size{"64 B", 16 / N > 0 ? 16 / N : 1, 400}, Size{"1 MiB", (1u << 18) / N, 20}}) {
      const redist::Layout l{2, {1, N * size.cols}, 4};
      const std::size_t b = redist::bytes(l);
      std::vector<unsigned char> src(b, 1), dst(b * N), scratch(b * N);
      const Row rows[] = {
          {"all_gather", [&] { return redist::all_gather(mesh, g, l, 0, src.data(), b, dst.data(), dst.size(), scratch.data(), scratch.size()); }},
          {"all_to_all", [&] { return redist::all_to_all(mesh, g, l, 0, 1, src.data(), b, dst.data(), b, scratch.data(), scratch.size()); }},
          {"all_permute", [&] { return redist::all_permute(mesh, ring.data(), N, l, src.data(), b, dst.data(), b); }},
      };
      for (const Row& row : rows) {
        std::vector<double> on, off;
        for (int i = 0; i < rounds; ++i) {
          mesh.set_agreement(true);
          on.push_back(per_call(mesh.comm(), size.reps, row.call));
          mesh.set_agreement(false);
          off.push_back(per_call(mesh.comm(), size.reps, row.call));
        }
        const Range a = range_us(on), z = range_us(off);
        if (mesh.rank() == 0)
          std::printf("  %-6s %-12s %8.1f %8.1f [%8.1f] | %8.1f %8.1f [%8.1f] | %5.2f %5.2f\n", size.name,
                      row.name, a.lo, a.median, a.hi, z.lo, z.median, z.hi, a.lo / z.lo, a.median / z.median);
      }
    }

    // Mesh::create (its allreduce, MPI_Comm_dup, freeing) with a problem to
    // agree on, and the bare allreduces: 13 words (every agreement now) and
    // 3 (the axis sizes alone, as before the problem was agreed).
    const redist::ProblemDigest problem{1, 2, 3, 4};
    auto allreduce = [&](int words) {
      return [&mesh, words] {
        std::uint64_t in[13] = {}, out[13];
        MPI_Allreduce(in, out, words, MPI_UINT64_T, MPI_MIN, mesh.comm());
        return redist::Status();
      };
    };
    const Row creates[] = {
        {"Mesh::create with a problem", [&] { redist::Mesh m; return redist::Mesh::create(MPI_COMM_WORLD, axes, 1, problem, &m); }},
        {"allreduce of 13 words", allreduce(13)},
        {"allreduce of 3 words", allreduce(3)},
    };
    if (mesh.rank() == 0) std::printf("  us per call, min median [max]\n");
    for (const Row& row : creates) {
      std::vector<double> t;
      for (int i = 0; i < rounds; ++i) t.push_back(per_call(mesh.comm(), 100, row.call));
      const Range a = range_us(t);
      if (mesh.rank() == 0) std::printf("  %-28s %8.1f %8.1f [%8.1f]\n", row.name, a.lo, a.median, a.hi);
    }
  }
  MPI_Finalize();
}
