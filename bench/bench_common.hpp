// Shared by the benchmark driver and its baselines: boxes of the global
// array, box copies between dense row-major local arrays, pending-sum
// groups, and the problem table that bench/gen.py writes for each device
// count.
#pragma once


#include <algorithm>
#include <cstddef>
#include <functional>
#include <cstring>
#include <vector>

#include "redist/exchange.hpp"
#include "redist/mpi.hpp"
#include "redist/placed.hpp"
#include "redist/reduce.hpp"

namespace bench {

inline constexpr int kMaxRank = 8;

struct Box {
  int ndim = 0;
  std::size_t off[kMaxRank] = {};
  std::size_t ext[kMaxRank] = {};

  std::size_t elems() const {
    std::size_t n = 1;
    for (int d = 0; d < ndim; ++d) n *= ext[d];
    return n;
  }
  bool same_as(const Box& o) const {
    for (int d = 0; d < ndim; ++d)
      if (off[d] != o.off[d] || ext[d] != o.ext[d]) return false;
    return true;
  }
};

// False (and an empty box) when a and b do not overlap.
inline bool intersect(const Box& a, const Box& b, Box* out) {
  out->ndim = a.ndim;
  for (int d = 0; d < a.ndim; ++d) {
    const std::size_t lo = a.off[d] > b.off[d] ? a.off[d] : b.off[d];
    const std::size_t ha = a.off[d] + a.ext[d], hb = b.off[d] + b.ext[d];
    const std::size_t hi = ha < hb ? ha : hb;
    if (hi <= lo) return false;
    out->off[d] = lo;
    out->ext[d] = hi - lo;
  }
  return true;
}

// Copies `region` (inside both boxes) from the local array of box `fb` to
// the local array of box `tb`; whole rows of the last dimension per memcpy.
inline void copy_region(const float* from, const Box& fb, float* to, const Box& tb, const Box& region) {
  const int n = region.ndim;
  std::size_t idx[kMaxRank] = {};
  const std::size_t row = region.ext[n - 1];
  for (;;) {
    std::size_t fo = 0, to_off = 0;
    for (int d = 0; d < n; ++d) {
      const std::size_t g = region.off[d] + (d == n - 1 ? 0 : idx[d]);
      fo = fo * fb.ext[d] + (g - fb.off[d]);
      to_off = to_off * tb.ext[d] + (g - tb.off[d]);
    }
    std::memcpy(to + to_off, from + fo, row * sizeof(float));
    int d = n - 2;
    while (d >= 0 && ++idx[d] == region.ext[d]) idx[d--] = 0;
    if (d < 0) return;
  }
}

using CreateFn = redist::Status (*)(MPI_Comm, redist::Mesh*);
using RunFn = redist::Status (*)(const redist::Mesh&, const void*, std::size_t, void*, std::size_t, void*,
                                 std::size_t);

// A collective plan's header (`redist gen --strategy collectives`, or a plan
// file), or one that runs an object of its own (an exchange, a hybrid) seen
// as one by bench/gen.py's adapter, whose release() frees that object;
// create == nullptr where the plan does not apply.
struct Plan {
  CreateFn create = nullptr;
  RunFn run = nullptr;
  std::size_t workspace_bytes = 0;
  void (*release)() = nullptr;
};

// The meshes and layouts of the exchange's header (`redist gen --strategy
// exchange`, which every problem has): they define every rank's boxes.
struct Geometry {
  redist::PlacedMesh (*source_mesh)();
  redist::BlockLayout (*source_layout)();
  redist::PlacedMesh (*target_mesh)();
  redist::BlockLayout (*target_layout)();
};

// A candidate plan auto weighed and did not measure under another system
// (bench/gen.py's plan_all): its place in `redist plan --json`'s candidates.
struct Candidate {
  int index;
  Plan plan;
};

struct Problem {
  const char* name;
  int ndim;
  std::size_t shape[kMaxRank];
  Geometry geometry;
  bool pending[kMaxRank]; // per source mesh axis: the source's sums over it are pending (none: plain)
  Plan exchange;          // redist --strategy exchange
  Plan collectives;       // redist --strategy collectives (even problems on one mesh)
  Plan easy;              // the paper's baseline: gather everything, then slice
  int fftw_direction;     // bench/gen.py's fftw_direction: 0 = FFTW cannot express it
  std::vector<Candidate> candidates;
  const char* auto_system;  // the system whose plan auto chose: redist_exch, redist_coll or candK
  bool large;               // of the large suite: its overlap is measured too
  redist::Op op = redist::Op::sum;  // the operation pending over the `pending` axes
};

// The box world rank `rank` holds on a placed mesh (empty when the rank is
// not one of the mesh's).
inline Box placed_box(const redist::PlacedMesh& mesh, const redist::BlockLayout& layout, int rank) {
  Box b;
  b.ndim = layout.ndim;
  for (int q = 0; q < mesh.size(); ++q)
    if (mesh.ranks[q] == rank) {
      const redist::Box r = redist::block_box(layout, mesh, q);
      for (int d = 0; d < b.ndim; ++d) {
        b.off[d] = r.lo[d];
        b.ext[d] = r.hi[d] - r.lo[d];
      }
    }
  return b;
}

inline Box src_box(const Problem& p, int rank) {
  return placed_box(p.geometry.source_mesh(), p.geometry.source_layout(), rank);
}
inline Box tgt_box(const Problem& p, int rank) {
  return placed_box(p.geometry.target_mesh(), p.geometry.target_layout(), rank);
}

// World rank `rank`'s coordinates on the source mesh's axes where `pending`
// is `which`, mixed radix in mesh order: with true, its index in its pending
// group (bench/problems.py's member_index); with false, which group it is
// in.  0 for a rank outside the source mesh.
inline int pending_digits(const Problem& p, int rank, bool which) {
  const redist::PlacedMesh mesh = p.geometry.source_mesh();
  int q = 0;
  while (q < mesh.size() && mesh.ranks[q] != rank) ++q;
  if (q == mesh.size()) return 0;
  int coord[kMaxRank] = {};
  for (int i = mesh.naxes - 1; i >= 0; --i) {
    coord[i] = q % mesh.axis_size[i];
    q /= mesh.axis_size[i];
  }
  int m = 0;
  for (int i = 0; i < mesh.naxes; ++i)
    if (p.pending[i] == which) m = m * mesh.axis_size[i] + coord[i];
  return m;
}

inline int member_index(const Problem& p, int rank) { return pending_digits(p, rank, true); }

// Devices that each hold a part of one element's sum (1: a plain problem).
inline int group_size(const Problem& p) {
  const redist::PlacedMesh mesh = p.geometry.source_mesh();
  int k = 1;
  for (int i = 0; i < mesh.naxes; ++i)
    if (p.pending[i]) k *= mesh.axis_size[i];
  return k;
}

// Heap bytes this process holds (bench/heap_counter.cpp), and the most it
// has held since the last reset.
long long heap_now();
long long heap_peak_since_reset();
void heap_reset_peak();

// Whether `mine` holds on every rank of comm.
inline bool all_ranks(bool mine, MPI_Comm comm) {
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
// behind (MPI's caches) is not a per-call cost.  `prepare` (if any) runs
// untimed before each run: an in-place run consumes its source.
inline Timing time_runs(int reps, MPI_Comm comm, const std::function<void()>& step,
                        const std::function<void()>& prepare = nullptr) {
  Timing t;
  long long base = 0;
  for (int i = 0; i <= reps; ++i) {
    if (i == 1) {
      base = heap_now();
      heap_reset_peak();
    }
    if (prepare) prepare();
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    step();
    double dt = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, comm);
    if (i > 0) t.ms.push_back(dt * 1e3);
  }
  t.heap = heap_peak_since_reset() - base;
  return t;
}

// The one-shot MPI_Alltoallv exchange (bench/alltoallv.cpp).
struct AlltoallvPlan {
  std::vector<int> send_counts, send_displs, recv_counts, recv_displs;
  std::vector<Box> send_regions;  // in packing order
  std::vector<Box> recv_regions;  // in unpacking order
  std::vector<Box> local_regions; // copied from our own source
  std::size_t recv_elems = 0;     // excluding local copies
  Box src_box, tgt_box;           // this rank's
};
AlltoallvPlan alltoallv_plan(const Problem& p, int rank, int size);
void alltoallv_run(const AlltoallvPlan& plan, const float* src, float* dst, std::vector<float>& sendbuf,
                   std::vector<float>& recvbuf, MPI_Comm comm);

// ScaLAPACK's p?gemr2d for rank-2 problems (bench/scalapack.cpp).
struct Gemr2d;
Gemr2d* gemr2d_setup(const Problem& p, int rank, int size, const char** why_not);
void gemr2d_run(Gemr2d* g, const float* src, float* dst);
std::size_t gemr2d_recv_elems(const Gemr2d* g);
void gemr2d_free(Gemr2d* g);

// FFTW-MPI's transpose (fftwf_mpi_plan_many_transpose) for the problems
// fftw_direction marks (bench/fftw.cpp).  Its arrays are its own: `in` of
// in_elems() holding the source box, `out` the target box in its first
// elements (in place: `in` is `out`).
struct FftwTranspose;
FftwTranspose* fftw_setup(const Problem& p, int size, bool in_place = false);
float* fftw_in(FftwTranspose* f);
const float* fftw_out(const FftwTranspose* f);
std::size_t fftw_array_elems(const FftwTranspose* f);
void fftw_run(FftwTranspose* f);
void fftw_free(FftwTranspose* f);

// Plain MPI for pending sums: MPI_Allreduce over each pending group where the
// target is the source's layout without the sums; otherwise
// MPI_Reduce_scatter_block over the group along dimension 0 of the local
// array (the contiguous cut, no packing; MPI_Reduce_scatter where the ceil
// blocks of an uneven dimension differ), then one MPI_Alltoallv from those
// row blocks to the target boxes when they differ (bench/reduce_scatter.cpp).
// The reductions use the problem's op (MPI_MAX, ...); avg reduces with
// MPI_SUM and divides the result by the group size once.
// nullptr (and why_not) where that does not apply.
struct ReduceScatter;
ReduceScatter* reduce_scatter_setup(const Problem& p, int rank, int size, const char** why_not);
void reduce_scatter_run(ReduceScatter* rs, const float* src, float* dst);
// Elements this rank receives: the reduction's nominal figure (k - 1 per
// element of its result for the reduce-scatter, 2 (k - 1) / k per element
// for a ring all-reduce: Open MPI's algorithm choice is not observed) plus
// what the Alltoallv brings from other ranks.
std::size_t reduce_scatter_recv_elems(const ReduceScatter* rs);
std::size_t reduce_scatter_buffer_bytes(const ReduceScatter* rs);
const char* reduce_scatter_what(const ReduceScatter* rs);
void reduce_scatter_free(ReduceScatter* rs);

}  // namespace bench
