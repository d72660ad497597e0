// redist runtime, MPI backend: the reductions of pending axes (reduce.hpp
// has the element types, operations, result layouts, scratch sizes and the
// order of combination).
//
// Both collectives gather, for the elements a member owns, every member's
// contribution with one MPI_Alltoall on the group's cached communicator and
// combine them by the operation in ascending member order on the host
// (local::reduce_blocks), never with an MPI reduction, whose order MPI
// chooses.  Received per
// member: (size-1)/size of the local array for reduce_scatter,
// 2(size-1)/size for all_reduce (plus, for all_reduce, the n % size tail
// elements of every member), as a ring does.
//
// Same calling rules, agreement and errors as the collectives of mpi.hpp:
// every rank of the mesh calls with the same group, layout, dim, dtype and op;
// with agreement on, one allreduce on the mesh communicator combines the
// verdicts and compares those arguments first.  layout.elem_bytes must be
// dtype_bytes(dtype).  One message (one member's chunk, piece or tail) is at
// most INT_MAX bytes (too_large otherwise).  Nothing allocates on the host;
// the in-place MPI_Alltoall of a packed reduce_scatter may allocate inside
// Open MPI.
#pragma once

#include <cstddef>

#include "redist/mpi.hpp"
#include "redist/reduce.hpp"

namespace redist {

// dst (layout reduce_scatter_out(layout, dim, g.size)) = chunk index_in(g)
// of g.size equal chunks along dim of the reduction by op over the group of
// the members' src (avg: their sum divided by g.size).  g.size must divide extent[dim].  Scratch:
// reduce_scatter_scratch_bytes(layout, dim, g.size).
Status reduce_scatter(const Mesh& mesh, Group g, Dtype dtype, Op op, const Layout& layout, int dim,
                      const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                      void* scratch, std::size_t scratch_bytes);

// dst (same layout) = the reduction by op over the group of the members' src.
// Scratch: all_reduce_scratch_bytes(layout, g.size).
Status all_reduce(const Mesh& mesh, Group g, Dtype dtype, Op op, const Layout& layout, const void* src,
                  std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* scratch,
                  std::size_t scratch_bytes);

}  // namespace redist
