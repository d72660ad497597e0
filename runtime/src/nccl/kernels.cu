// The backend's two device kernels, instantiated per word width: the
// collectives' gather of runs into a dense destination (copy_plan.hpp, per
// index type too) and the exchange's strided box copy (box_copy.hpp).
#include <algorithm>
#include <cstdint>
#include <string>

#include <cuda_runtime.h>

#include "nccl/box_copy.hpp"
#include "nccl/copy_plan.hpp"

namespace redist::cuda::detail {

namespace {

template <std::size_t W> struct Word;
template <> struct Word<1> { using type = unsigned char; };
template <> struct Word<2> { using type = unsigned short; };
template <> struct Word<4> { using type = unsigned int; };
template <> struct Word<8> { using type = unsigned long long; };
template <> struct Word<16> { using type = uint4; };

constexpr unsigned kThreads = 256;
// Enough blocks to fill any current GPU many times over; beyond that each
// thread loops, which keeps the grid within limits for any array size.
constexpr std::size_t kMaxBlocks = std::size_t{1} << 20;
static_assert(kMaxBlocks * kThreads <= (std::size_t{1} << 28), "fits_32bit_index assumes this");

// Consecutive threads write consecutive destination words, so stores are
// always coalesced; loads are coalesced within each source run.
template <typename V, typename I>
__global__ void __launch_bounds__(kThreads)
    gather_runs(V* __restrict__ dst, const V* __restrict__ src, I words, I run, I inner,
                I stride_a, I stride_b, I offset) {
  const I step = static_cast<I>(gridDim.x) * kThreads;
  for (I i = static_cast<I>(blockIdx.x) * kThreads + threadIdx.x; i < words; i += step)
    dst[i] = src[source_word<I>(i, run, inner, stride_a, stride_b, offset)];
}

template <std::size_t W, typename I>
Status launch(const CopyPlan& p, const void* src, void* dst, cudaStream_t stream) {
  using V = typename Word<W>::type;
  const std::size_t blocks = std::min((p.words + kThreads - 1) / kThreads, kMaxBlocks);
  // Every earlier failure was already returned by the call that caused it;
  // clear it so that the check below sees only this launch's.
  (void)cudaGetLastError();
  gather_runs<V, I><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      static_cast<V*>(dst), static_cast<const V*>(src), static_cast<I>(p.words),
      static_cast<I>(p.run), static_cast<I>(p.inner), static_cast<I>(p.stride_a),
      static_cast<I>(p.stride_b), static_cast<I>(p.offset));
  return cuda_status(cudaGetLastError(), "copy kernel launch");
}

// 32-bit index arithmetic is much cheaper on the GPU.
template <std::size_t W>
Status launch_width(const CopyPlan& p, const void* src, void* dst, cudaStream_t stream) {
  if (fits_32bit_index(p)) return launch<W, std::uint32_t>(p, src, dst, stream);
  return launch<W, std::uint64_t>(p, src, dst, stream);
}

// The exchange's strided box copy (box_copy.hpp); consecutive threads take
// consecutive words of the box, so the side that is dense (the staging
// workspace, when packing or unpacking) is accessed coalesced.
template <typename V>
__global__ void __launch_bounds__(kThreads)
    copy_box(V* __restrict__ dst, const V* __restrict__ src, BoxCopy p) {
  const std::size_t step = static_cast<std::size_t>(gridDim.x) * kThreads;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x; i < p.words;
       i += step) {
    std::size_t s, d;
    box_words<std::size_t>(p, i, &s, &d);
    dst[d] = src[s];
  }
}

template <std::size_t W>
Status launch_box(const BoxCopy& p, const void* src, void* dst, cudaStream_t stream) {
  using V = typename Word<W>::type;
  const std::size_t blocks = std::min((p.words + kThreads - 1) / kThreads, kMaxBlocks);
  (void)cudaGetLastError();
  copy_box<V><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      static_cast<V*>(dst), static_cast<const V*>(src), p);
  return cuda_status(cudaGetLastError(), "box copy kernel launch");
}

}  // namespace

Status cuda_status(cudaError_t rc, const char* what) {
  if (rc == cudaSuccess) return {};
  return {Errc::backend_error, std::string(what) + ": " + cudaGetErrorString(rc)};
}

Status launch_copy(const CopyPlan& p, const void* src, void* dst, cudaStream_t stream) {
  if (p.words == 0) return {};
  if (contiguous(p))
    return cuda_status(cudaMemcpyAsync(dst, static_cast<const unsigned char*>(src) + p.offset * p.width,
                                       p.words * p.width, cudaMemcpyDeviceToDevice, stream),
                       "cudaMemcpyAsync");
  switch (p.width) {
    case 16: return launch_width<16>(p, src, dst, stream);
    case 8: return launch_width<8>(p, src, dst, stream);
    case 4: return launch_width<4>(p, src, dst, stream);
    case 2: return launch_width<2>(p, src, dst, stream);
    default: return launch_width<1>(p, src, dst, stream);
  }
}

Status launch_box_copy(const BoxCopy& p, const void* src, void* dst, cudaStream_t stream) {
  if (p.words == 0) return {};
  if (contiguous(p))
    return cuda_status(cudaMemcpyAsync(static_cast<unsigned char*>(dst) + p.dst_offset * p.width,
                                       static_cast<const unsigned char*>(src) + p.src_offset * p.width,
                                       p.words * p.width, cudaMemcpyDeviceToDevice, stream),
                       "cudaMemcpyAsync");
  switch (p.width) {
    case 16: return launch_box<16>(p, src, dst, stream);
    case 8: return launch_box<8>(p, src, dst, stream);
    case 4: return launch_box<4>(p, src, dst, stream);
    case 2: return launch_box<2>(p, src, dst, stream);
    default: return launch_box<1>(p, src, dst, stream);
  }
}

}  // namespace redist::cuda::detail
