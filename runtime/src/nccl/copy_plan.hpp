// Internal to the NCCL/CUDA backend: every device kernel (slice, pack,
// unpack) is one "gather runs" copy into a dense destination, described by a
// CopyPlan that the host builds and the kernel follows.  The index function
// is shared by host and device so that the host tests can replay a plan
// exactly as the kernel does.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "redist/redist.hpp"

#ifdef __CUDACC__
#define REDIST_HD __host__ __device__
#else
#define REDIST_HD
#endif

namespace redist::cuda::detail {

// Destination word i (a word is `width` bytes) is source word
// source_word(i, ...).  The destination is written in order: it is runs of
// `run` words; run number r = a * inner + b starts at source word
// offset + a * stride_a + b * stride_b.
struct CopyPlan {
  std::size_t width;
  std::size_t words;
  std::size_t run;
  std::size_t inner;
  std::size_t stride_a;
  std::size_t stride_b;
  std::size_t offset;
};

template <typename I>
REDIST_HD inline I source_word(I i, I run, I inner, I stride_a, I stride_b, I offset) {
  const I r = i / run;
  const I v = i - r * run;
  const I a = r / inner;
  const I b = r - a * inner;
  return offset + a * stride_a + b * stride_b + v;
}

inline std::size_t source_word(const CopyPlan& p, std::size_t i) {
  return source_word<std::size_t>(i, p.run, p.inner, p.stride_a, p.stride_b, p.offset);
}

// Whether the plan is one contiguous run (a plain device memcpy).
inline bool contiguous(const CopyPlan& p) { return p.run == p.words; }

// Whether the kernel may index in 32 bits: every destination word, the
// largest source word, and the grid-stride loop's last increment (at most
// 2^28 past a destination word) stay below 2^32.  The largest source word
// is the last one, since every term of source_word grows with i.
inline bool fits_32bit_index(const CopyPlan& p) {
  constexpr std::size_t kLimit = std::size_t{1} << 31;
  return p.words == 0 || (p.words < kLimit && source_word(p, p.words - 1) < kLimit);
}

// Plans of the three kernels of local.hpp for valid arguments (checked by
// the caller); src and dst are the buffers' addresses, for alignment only.
CopyPlan plan_slice(const Layout& l, int dim, std::size_t parts, std::size_t index,
                    const void* src, const void* dst);
CopyPlan plan_pack(const Layout& l, int dim, std::size_t parts, const void* src, const void* dst);
CopyPlan plan_concat(const Layout& block, int dim, std::size_t parts, const void* src,
                     const void* dst);

// backend_error "<what>: <CUDA's error string>" unless rc == cudaSuccess.
Status cuda_status(cudaError_t rc, const char* what);

// Enqueues the plan's copy on `stream` (kernel, or cudaMemcpyAsync when
// contiguous).
Status launch_copy(const CopyPlan& plan, const void* src, void* dst, cudaStream_t stream);

}  // namespace redist::cuda::detail
