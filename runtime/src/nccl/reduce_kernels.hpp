// Internal to the NCCL/CUDA backend: the reduction kernels on device
// buffers, with local::reduce_blocks' arithmetic (redist/reduce.hpp), so
// the device gives the host's bits (NaN payloads aside):
//   launch_reduce: out[e] = blocks[0][e] op blocks[1][e] op ... op
//     blocks[count-1][e], a left fold in that order (integers wrap; max and
//     min keep a NaN, else the first of equal values; f16 and bf16 widen to
//     f32 and round once to nearest even; complex numbers part by part, the
//     product (ac-bd) + (ad+bc)i); avg is the sum, then launch_divide by count;
//   launch_divide: avg's one division, in place (local::divide);
//   launch_fill_identity: op's identity (local::fill_identity).
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

#include "redist/reduce.hpp"

namespace redist::cuda::detail {

// Enqueue on `stream`.  blocks: `count` dense arrays of `elems` elements
// back to back, none overlapping out; op_computes(dtype, op) must hold.
Status launch_reduce(Dtype dtype, Op op, const void* blocks, std::size_t elems, std::size_t count, void* out,
                     cudaStream_t stream);
Status launch_divide(Dtype dtype, void* data, std::size_t elems, std::size_t divisor, cudaStream_t stream);
Status launch_fill_identity(Dtype dtype, Op op, void* out, std::size_t elems, cudaStream_t stream);

}  // namespace redist::cuda::detail
