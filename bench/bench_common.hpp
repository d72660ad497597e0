// Shared by the benchmark driver and its baselines: boxes of the global
// array, box copies between dense row-major local arrays, and the problem
// table that bench/gen.py writes for each device count.
#pragma once


#include <cstddef>
#include <cstring>
#include <vector>

#include "redist/mpi.hpp"

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

using BoxFn = bool (*)(int, std::size_t*, std::size_t*);
using CreateFn = redist::Status (*)(MPI_Comm, redist::Mesh*);
using RunFn = redist::Status (*)(const redist::Mesh&, const void*, std::size_t, void*, std::size_t, void*,
                                 std::size_t);

struct Plan {
  CreateFn create;
  RunFn run;
  std::size_t workspace_bytes;
};

struct Problem {
  const char* name;
  int ndim;
  std::size_t shape[kMaxRank];
  BoxFn src_box;
  BoxFn tgt_box;
  std::size_t src_elems;
  std::size_t tgt_elems;
  Plan redist;  // the verified planner's plan
  Plan easy;    // the paper's baseline: gather everything, then slice
};

inline Box box_of(BoxFn f, int ndim, int rank) {
  Box b;
  b.ndim = ndim;
  f(rank, b.off, b.ext);
  return b;
}

// Heap bytes this process holds (bench/heap_counter.cpp), and the most it
// has held since the last reset.
long long heap_now();
long long heap_peak_since_reset();
void heap_reset_peak();

// The one-shot MPI_Alltoallv exchange (bench/alltoallv.cpp).
struct AlltoallvPlan {
  std::vector<int> send_counts, send_displs, recv_counts, recv_displs;
  std::vector<Box> send_regions;  // in packing order
  std::vector<Box> recv_regions;  // in unpacking order
  std::vector<Box> local_regions; // copied from our own source
  std::size_t recv_elems = 0;     // excluding local copies
};
AlltoallvPlan alltoallv_plan(const Problem& p, int rank, int size);
void alltoallv_run(const Problem& p, const AlltoallvPlan& plan, int rank, const float* src, float* dst,
                   std::vector<float>& sendbuf, std::vector<float>& recvbuf, MPI_Comm comm);

// ScaLAPACK's p?gemr2d for rank-2 problems (bench/scalapack.cpp).
struct Gemr2d;
Gemr2d* gemr2d_setup(const Problem& p, int rank, int size, const char** why_not);
void gemr2d_run(Gemr2d* g, const float* src, float* dst);
std::size_t gemr2d_recv_elems(const Gemr2d* g);
void gemr2d_free(Gemr2d* g);

}  // namespace bench
