// The backend's device kernels: the collectives' gather of runs into a
// dense destination (copy_plan.hpp, per word width and index type), the
// exchange's strided box copy (box_copy.hpp, per word width), and the
// reducing exchange's reductions of member arrays, avg's division and the
// identity fill (reduce_kernels.hpp, per type).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "nccl/box_copy.hpp"
#include "nccl/copy_plan.hpp"
#include "nccl/reduce_kernels.hpp"

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

// The arithmetic of local::reduce_blocks per element type: Stored is in
// memory, Acc combines (integer sums and products in unsigned types at least
// as wide as unsigned int, wrapping; max and min compare as the type).
template <typename T, typename A = T> struct Same {
  using Stored = T;
  using Acc = A;
  __device__ static Acc widen(T v) { return static_cast<Acc>(v); }
  __device__ static T narrow(Acc v) { return static_cast<T>(v); }
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

// The fold steps (reduce.cpp's): a NaN stays, then a NaN that comes, else
// the later value only where strictly greater (smaller).
struct Add {
  template <typename Acc> __device__ Acc operator()(Acc a, Acc b) const { return static_cast<Acc>(a + b); }
};
struct Multiply {
  template <typename Acc> __device__ Acc operator()(Acc a, Acc b) const { return static_cast<Acc>(a * b); }
};
template <bool Greater> struct Keep {
  template <typename Acc> __device__ Acc operator()(Acc a, Acc b) const {
    if (a != a) return a;
    if (b != b) return b;
    return (Greater ? b > a : b < a) ? b : a;
  }
};

template <typename A, typename Combine>
__global__ void __launch_bounds__(kThreads)
    fold_members(typename A::Stored* __restrict__ out, const typename A::Stored* __restrict__ in,
                 std::size_t elems, std::size_t count, Combine combine) {
  using Acc = typename A::Acc;
  const std::size_t step = static_cast<std::size_t>(gridDim.x) * kThreads;
  for (std::size_t e = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x; e < elems; e += step) {
    Acc acc = A::widen(in[e]);
    for (std::size_t k = 1; k < count; ++k) acc = combine(acc, A::widen(in[k * elems + e]));
    out[e] = A::narrow(acc);
  }
}

// (a+bi)(c+di) = (ac-bd) + (ad+bc)i in F, members in order.
template <typename F>
__global__ void __launch_bounds__(kThreads)
    complex_product(F* __restrict__ out, const F* __restrict__ in, std::size_t elems, std::size_t count) {
  const std::size_t step = static_cast<std::size_t>(gridDim.x) * kThreads;
  for (std::size_t e = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x; e < elems; e += step) {
    F re = in[2 * e], im = in[2 * e + 1];
    for (std::size_t k = 1; k < count; ++k) {
      const F c = in[2 * (k * elems + e)], d = in[2 * (k * elems + e) + 1];
      const F next_re = re * c - im * d;
      im = re * d + im * c;
      re = next_re;
    }
    out[2 * e] = re;
    out[2 * e + 1] = im;
  }
}

template <typename A>
__global__ void __launch_bounds__(kThreads)
    divide_values(typename A::Stored* __restrict__ data, std::size_t values, std::size_t divisor) {
  using Acc = typename A::Acc;
  const Acc by = static_cast<Acc>(divisor);
  const std::size_t step = static_cast<std::size_t>(gridDim.x) * kThreads;
  for (std::size_t e = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x; e < values; e += step)
    data[e] = A::narrow(static_cast<Acc>(A::widen(data[e]) / by));
}

template <typename V>
__global__ void __launch_bounds__(kThreads) fill_values(V* __restrict__ out, V value, std::size_t values) {
  const std::size_t step = static_cast<std::size_t>(gridDim.x) * kThreads;
  for (std::size_t e = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x; e < values; e += step)
    out[e] = value;
}

unsigned grid_for(std::size_t values) {
  return static_cast<unsigned>(std::min((values + kThreads - 1) / kThreads, kMaxBlocks));
}

template <typename A>
Status launch_fold(Op op, const void* blocks, std::size_t elems, std::size_t count, void* out, cudaStream_t stream) {
  if (elems == 0) return {};
  using S = typename A::Stored;
  auto* o = static_cast<S*>(out);
  const auto* in = static_cast<const S*>(blocks);
  (void)cudaGetLastError();
  switch (op) {
    case Op::sum: fold_members<A><<<grid_for(elems), kThreads, 0, stream>>>(o, in, elems, count, Add{}); break;
    case Op::prod: fold_members<A><<<grid_for(elems), kThreads, 0, stream>>>(o, in, elems, count, Multiply{}); break;
    case Op::max: fold_members<A><<<grid_for(elems), kThreads, 0, stream>>>(o, in, elems, count, Keep<true>{}); break;
    case Op::min: fold_members<A><<<grid_for(elems), kThreads, 0, stream>>>(o, in, elems, count, Keep<false>{}); break;
    case Op::avg: return {Errc::invalid_argument, "reduction kernel: avg is a sum and a division"};
  }
  return cuda_status(cudaGetLastError(), "reduction kernel launch");
}

// Integers: S compares (max, min), U wraps (sum, prod) in Wide.
template <typename S>
Status launch_integer(Op op, const void* blocks, std::size_t elems, std::size_t count, void* out,
                      cudaStream_t stream) {
  using U = std::make_unsigned_t<S>;
  using Wide = std::conditional_t<(sizeof(U) < sizeof(unsigned)), unsigned, U>;
  if (op == Op::max || op == Op::min) return launch_fold<Same<S>>(op, blocks, elems, count, out, stream);
  return launch_fold<Same<U, Wide>>(op, blocks, elems, count, out, stream);
}

template <typename F>
Status launch_complex(Op op, const void* blocks, std::size_t elems, std::size_t count, void* out,
                      cudaStream_t stream) {
  if (op != Op::prod) return launch_fold<Same<F>>(op, blocks, 2 * elems, count, out, stream);
  if (elems == 0) return {};
  (void)cudaGetLastError();
  complex_product<F><<<grid_for(elems), kThreads, 0, stream>>>(static_cast<F*>(out), static_cast<const F*>(blocks),
                                                               elems, count);
  return cuda_status(cudaGetLastError(), "reduction kernel launch");
}

template <typename A>
Status launch_divide_as(void* data, std::size_t values, std::size_t divisor, cudaStream_t stream) {
  if (values == 0) return {};
  (void)cudaGetLastError();
  divide_values<A><<<grid_for(values), kThreads, 0, stream>>>(static_cast<typename A::Stored*>(data), values, divisor);
  return cuda_status(cudaGetLastError(), "division kernel launch");
}

template <typename V>
Status launch_fill(const unsigned char* value, void* out, std::size_t values, cudaStream_t stream) {
  V v;
  std::memcpy(&v, value, sizeof v);
  (void)cudaGetLastError();
  fill_values<V><<<grid_for(values), kThreads, 0, stream>>>(static_cast<V*>(out), v, values);
  return cuda_status(cudaGetLastError(), "fill kernel launch");
}

}  // namespace

Status launch_reduce(Dtype dtype, Op op, const void* blocks, std::size_t elems, std::size_t count, void* out,
                     cudaStream_t stream) {
  if (op == Op::avg) {
    if (Status st = launch_reduce(dtype, Op::sum, blocks, elems, count, out, stream); !st.ok()) return st;
    return launch_divide(dtype, out, elems, count, stream);
  }
  switch (dtype) {
    case Dtype::i8: return launch_integer<std::int8_t>(op, blocks, elems, count, out, stream);
    case Dtype::i16: return launch_integer<std::int16_t>(op, blocks, elems, count, out, stream);
    case Dtype::i32: return launch_integer<std::int32_t>(op, blocks, elems, count, out, stream);
    case Dtype::i64: return launch_integer<std::int64_t>(op, blocks, elems, count, out, stream);
    case Dtype::u8: return launch_integer<std::uint8_t>(op, blocks, elems, count, out, stream);
    case Dtype::u16: return launch_integer<std::uint16_t>(op, blocks, elems, count, out, stream);
    case Dtype::u32: return launch_integer<std::uint32_t>(op, blocks, elems, count, out, stream);
    case Dtype::u64: return launch_integer<std::uint64_t>(op, blocks, elems, count, out, stream);
    case Dtype::f32: return launch_fold<Same<float>>(op, blocks, elems, count, out, stream);
    case Dtype::f64: return launch_fold<Same<double>>(op, blocks, elems, count, out, stream);
    case Dtype::c64: return launch_complex<float>(op, blocks, elems, count, out, stream);
    case Dtype::c128: return launch_complex<double>(op, blocks, elems, count, out, stream);
    case Dtype::f16: return launch_fold<Half>(op, blocks, elems, count, out, stream);
    case Dtype::bf16: return launch_fold<Bfloat>(op, blocks, elems, count, out, stream);
  }
  return {Errc::invalid_argument, "reduction kernel: unknown element type"};
}

Status launch_divide(Dtype dtype, void* data, std::size_t elems, std::size_t divisor, cudaStream_t stream) {
  switch (dtype) {
    case Dtype::f32: return launch_divide_as<Same<float>>(data, elems, divisor, stream);
    case Dtype::f64: return launch_divide_as<Same<double>>(data, elems, divisor, stream);
    case Dtype::c64: return launch_divide_as<Same<float>>(data, 2 * elems, divisor, stream);
    case Dtype::c128: return launch_divide_as<Same<double>>(data, 2 * elems, divisor, stream);
    case Dtype::f16: return launch_divide_as<Half>(data, elems, divisor, stream);
    case Dtype::bf16: return launch_divide_as<Bfloat>(data, elems, divisor, stream);
    default: return {Errc::invalid_argument, std::string("division kernel: ") + dtype_name(dtype) + " has no avg"};
  }
}

// The identity's bytes are the host's (local::fill_identity), written one
// element-wide word at a time.
Status launch_fill_identity(Dtype dtype, Op op, void* out, std::size_t elems, cudaStream_t stream) {
  if (elems == 0) return {};
  unsigned char value[16];
  local::fill_identity(dtype, op, value, 1);
  switch (dtype_bytes(dtype)) {
    case 1: return launch_fill<unsigned char>(value, out, elems, stream);
    case 2: return launch_fill<unsigned short>(value, out, elems, stream);
    case 4: return launch_fill<unsigned int>(value, out, elems, stream);
    case 8: return launch_fill<unsigned long long>(value, out, elems, stream);
    default: return launch_fill<uint4>(value, out, elems, stream);  // c128
  }
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
