// The pending-sum suite's problem table (bench/sums_bench.py writes one per
// world size) and its plain-MPI baseline (bench/reduce_scatter.cpp).
#pragma once

#include <cstddef>

#include "bench_common.hpp"

namespace bench {

using BoxFn = bool (*)(int, std::size_t*, std::size_t*);
using SumsRunFn = redist::Status (*)(const redist::Mesh&, const void*, std::size_t, void*, std::size_t, void*,
                                     std::size_t);

struct SumsProblem {
  const char* name;
  int ndim;
  std::size_t shape[kMaxRank];
  int mesh_axes;
  int mesh_sizes[kMaxRank];  // first axis most significant in the rank
  bool pending[kMaxRank];    // the source's pending-sum axes
  // redist gen's header: its mesh, run, workspace and every rank's boxes
  CreateFn create;
  SumsRunFn run;
  std::size_t workspace_bytes;
  BoxFn src_box, tgt_box;
};

inline Box sums_box(const SumsProblem& p, BoxFn box, int rank) {
  Box b;
  b.ndim = p.ndim;
  box(rank, b.off, b.ext);
  return b;
}

// The rank's coordinates on the axes where `pending` is `which`, mixed
// radix in mesh order: with true, its index in its pending group; with
// false, which group it is in.
inline int pending_digits(const SumsProblem& p, int rank, bool which) {
  int coord[kMaxRank] = {};
  for (int i = p.mesh_axes - 1; i >= 0; --i) {
    coord[i] = rank % p.mesh_sizes[i];
    rank /= p.mesh_sizes[i];
  }
  int m = 0;
  for (int i = 0; i < p.mesh_axes; ++i)
    if (p.pending[i] == which) m = m * p.mesh_sizes[i] + coord[i];
  return m;
}

inline int member_index(const SumsProblem& p, int rank) { return pending_digits(p, rank, true); }

inline int group_size(const SumsProblem& p) {
  int k = 1;
  for (int i = 0; i < p.mesh_axes; ++i)
    if (p.pending[i]) k *= p.mesh_sizes[i];
  return k;
}

// Plain MPI: MPI_Allreduce over each pending group where the target is the
// source's layout without the sums; otherwise MPI_Reduce_scatter_block over
// the group along dimension 0 of the local array (the contiguous cut, no
// packing), then one MPI_Alltoallv from those row blocks to the target boxes
// when they differ.  nullptr (and why_not) where that does not apply.
struct ReduceScatter;
ReduceScatter* reduce_scatter_setup(const SumsProblem& p, int rank, int size, const char** why_not);
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
