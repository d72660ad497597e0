// The backend's device kernels: the collectives' gather of runs into a
// dense destination (copy_plan.hpp, per word width and index type), the
// exchange's strided box copy (box_copy.hpp, per word width), and the
// reducing exchange's sum of member arrays (sum_kernel.hpp, per type).
#include <algorithm>
#include <cstdint>
#include <string>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "nccl/box_copy.hpp"
#include "nccl/copy_plan.hpp"
#include "nccl/sum_kernel.hpp"

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

// The arithmetic of local::reduce_blocks per element type: T is stored, Acc
// accumulates (static_cast keeps integer sums at their width, wrapping).
template <typename T> struct Same {
  using Stored = T;
  using Acc = T;
  __device__ static Acc widen(T v) { return v; }
  __device__ static T narrow(Acc v) { return v; }
};
struct Half {
  using Stored = unsigned short;
  using Acc = float;
  __device__ static float widen(unsigned short v) { return __half2float(__ushort_as_half(v)); }
  __device__ static unsigned short narrow(float v) { return __half_as_ushort(__float2half_rn(v)); }
};
struct Bfloat {
  using Stored = unsigned short;
  using Acc = float;
  __device__ static float widen(unsigned short v) { return __bfloat162float(__ushort_as_bfloat16(v)); }
  __device__ static unsigned short narrow(float v) { return __bfloat16_as_ushort(__float2bfloat16_rn(v)); }
};

template <typename A>
__global__ void __launch_bounds__(kThreads)
    sum_members(typename A::Stored* __restrict__ out, const typename A::Stored* __restrict__ in,
                std::size_t elems, std::size_t count) {
  using Acc = typename A::Acc;
  const std::size_t step = static_cast<std::size_t>(gridDim.x) * kThreads;
  for (std::size_t e = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x; e < elems; e += step) {
    Acc acc = A::widen(in[e]);
    for (std::size_t k = 1; k < count; ++k) acc = static_cast<Acc>(acc + A::widen(in[k * elems + e]));
    out[e] = A::narrow(acc);
  }
}

template <typename A>
Status launch_sum_as(const void* blocks, std::size_t elems, std::size_t count, void* out, cudaStream_t stream) {
  if (elems == 0) return {};
  const std::size_t grid = std::min((elems + kThreads - 1) / kThreads, kMaxBlocks);
  (void)cudaGetLastError();
  sum_members<A><<<static_cast<unsigned>(grid), kThreads, 0, stream>>>(
      static_cast<typename A::Stored*>(out), static_cast<const typename A::Stored*>(blocks), elems, count);
  return cuda_status(cudaGetLastError(), "sum kernel launch");
}

}  // namespace

Status launch_sum(Dtype dtype, const void* blocks, std::size_t elems, std::size_t count, void* out,
                  cudaStream_t stream) {
  switch (dtype) {
    case Dtype::i8: case Dtype::u8: return launch_sum_as<Same<std::uint8_t>>(blocks, elems, count, out, stream);
    case Dtype::i16: case Dtype::u16: return launch_sum_as<Same<std::uint16_t>>(blocks, elems, count, out, stream);
    case Dtype::i32: case Dtype::u32: return launch_sum_as<Same<std::uint32_t>>(blocks, elems, count, out, stream);
    case Dtype::i64: case Dtype::u64: return launch_sum_as<Same<std::uint64_t>>(blocks, elems, count, out, stream);
    case Dtype::f32: return launch_sum_as<Same<float>>(blocks, elems, count, out, stream);
    case Dtype::f64: return launch_sum_as<Same<double>>(blocks, elems, count, out, stream);
    // A complex number is two consecutive reals, added part by part.
    case Dtype::c64: return launch_sum_as<Same<float>>(blocks, 2 * elems, count, out, stream);
    case Dtype::c128: return launch_sum_as<Same<double>>(blocks, 2 * elems, count, out, stream);
    case Dtype::f16: return launch_sum_as<Half>(blocks, elems, count, out, stream);
    case Dtype::bf16: return launch_sum_as<Bfloat>(blocks, elems, count, out, stream);
  }
  return {Errc::invalid_argument, "sum kernel: unknown element type"};
}

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
