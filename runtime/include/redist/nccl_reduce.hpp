// redist runtime, NCCL backend: the reductions of pending sums on device
// buffers, with the contract of mpi_reduce.hpp (same arguments, result
// layouts, checks, messages and agreement; scratch as there, so a plan runs
// on either backend with the same workspace), enqueued on mesh.stream():
//
//   reduce_scatter: the chunks along dim packed into scratch when they are
//                   not contiguous (a pack kernel), then ncclReduceScatter.
//   all_reduce:     ncclAllReduce (no scratch used).
//
// The operation is NCCL's (ncclSum, ncclProd, ncclMax, ncclMin); avg is
// ncclSum then one division by the group size (divide below), and a plan of
// several steps passes step_op (sum) and divides once at the end.
// ncclSum on NCCL's own types: f16 and bf16 natively (NCCL accumulates
// them as it chooses), c64 and c128 as pairs of f32 and f64.  NCCL has no
// 16-bit integers: i16 and u16 are refused (invalid_argument).  Order of
// additions: NCCL's (its ring or tree, fixed for a given communicator and
// NCCL version), not the MPI backend's ascending member order, so floating-
// point sums may differ in their last bits between the backends; integers
// are exact (wrapping) on both.
#pragma once

#include <cstddef>

#include "redist/nccl.hpp"
#include "redist/reduce.hpp"

namespace redist::nccl {

Status reduce_scatter(const Mesh& mesh, Group g, Dtype dtype, Op op, const Layout& layout, int dim,
                      const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                      void* scratch, std::size_t scratch_bytes);

Status all_reduce(const Mesh& mesh, Group g, Dtype dtype, Op op, const Layout& layout, const void* src,
                  std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* scratch,
                  std::size_t scratch_bytes);

// avg's one division: each of the `elems` elements of dtype (a floating or
// complex type) at data, device memory, divided by divisor in place with
// local::divide's arithmetic; enqueued on mesh.stream().
Status divide(const Mesh& mesh, Dtype dtype, void* data, std::size_t elems, std::size_t divisor);

// add_pending's fill: the `elems` elements of dtype at data, device memory,
// set to op's identity (local::fill_identity's bytes); enqueued on
// mesh.stream().  op_computes(dtype, op) must hold.
Status fill_identity(const Mesh& mesh, Dtype dtype, Op op, void* data, std::size_t elems);

}  // namespace redist::nccl
