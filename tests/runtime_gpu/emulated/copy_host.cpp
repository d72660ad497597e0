// Host emulation of kernels.cu: runs a copy plan word by word with the same
// index function the kernel uses (copy_plan.hpp's source_word, box_copy.hpp's
// box_words); the reduction, division and identity kernels are
// local::reduce_blocks, divide and fill_identity, whose order and arithmetic
// they follow (reduce_kernels.hpp).
#include <cstring>
#include <string>

#include "nccl/box_copy.hpp"
#include "nccl/copy_plan.hpp"
#include "nccl/reduce_kernels.hpp"

namespace redist::cuda::detail {

Status cuda_status(cudaError_t rc, const char* what) {
  if (rc == cudaSuccess) return {};
  return {Errc::backend_error, std::string(what) + ": " + cudaGetErrorString(rc)};
}

Status launch_copy(const CopyPlan& p, const void* src, void* dst, cudaStream_t) {
  const auto* in = static_cast<const unsigned char*>(src);
  auto* out = static_cast<unsigned char*>(dst);
  for (std::size_t i = 0; i < p.words; ++i)
    std::memcpy(out + i * p.width, in + source_word(p, i) * p.width, p.width);
  return {};
}

Status launch_box_copy(const BoxCopy& p, const void* src, void* dst, cudaStream_t) {
  const auto* in = static_cast<const unsigned char*>(src);
  auto* out = static_cast<unsigned char*>(dst);
  for (std::size_t i = 0; i < p.words; ++i) {
    std::size_t s, d;
    box_words<std::size_t>(p, i, &s, &d);
    std::memcpy(out + d * p.width, in + s * p.width, p.width);
  }
  return {};
}

Status launch_reduce(Dtype dtype, Op op, const void* blocks, std::size_t elems, std::size_t count, void* out,
                     cudaStream_t) {
  local::reduce_blocks(dtype, op, blocks, elems, count, out);
  return {};
}

Status launch_divide(Dtype dtype, void* data, std::size_t elems, std::size_t divisor, cudaStream_t) {
  local::divide(dtype, data, elems, divisor);
  return {};
}

Status launch_fill_identity(Dtype dtype, Op op, void* out, std::size_t elems, cudaStream_t) {
  local::fill_identity(dtype, op, out, elems);
  return {};
}

}  // namespace redist::cuda::detail
