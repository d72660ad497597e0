// Internal to the NCCL/CUDA backend: the reducing exchange's reduction
// kernel, local::reduce_blocks (redist/reduce.hpp) on device buffers: out[e] =
// blocks[0][e] + blocks[1][e] + ... + blocks[count-1][e], a left fold in that
// order with reduce_blocks' sum arithmetic (integers wrap; f16 and bf16 widen to
// f32 and round once to nearest even; complex part by part), so the device
// gives the host's bits (NaN payloads aside).
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

#include "redist/reduce.hpp"

namespace redist::cuda::detail {

// Enqueues the sum on `stream`; blocks: `count` dense arrays of `elems`
// elements back to back, none overlapping out.
Status launch_sum(Dtype dtype, const void* blocks, std::size_t elems, std::size_t count, void* out,
                  cudaStream_t stream);

}  // namespace redist::cuda::detail
