// Internal to the NCCL/CUDA backend: the exchange's copies (pack a region of
// the source array into the staging workspace, unpack a staged region into
// the destination array, copy the kept region from source to destination)
// are one "strided box" copy: every word of a box of up to kMaxRank + 1
// dims, read at its source offset and written at its destination offset.
// The collectives' slice/pack/unpack (copy_plan.hpp) only ever need two
// levels of runs and a dense destination; a region of an N-dim box needs N
// levels and a strided destination, hence this second plan.  The index
// function is shared by host and device so that the host tests replay a
// plan exactly as the kernel does.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

#include "nccl/copy_plan.hpp"
#include "redist/placed.hpp"

namespace redist::cuda::detail {

// Word i of the box (row-major over `extent`, the last dim fastest) moves
// from source word src_offset + sum(c[k] * src_stride[k]) to destination
// word dst_offset + sum(c[k] * dst_stride[k]), c being i's coordinates.
// Dims are merged where both sides are contiguous, so the last dim is the
// longest run that is contiguous on both sides (strides 1).
struct BoxCopy {
  std::size_t width = 1;  // bytes per word
  int ndim = 0;
  std::size_t extent[kMaxRank + 1] = {};
  std::size_t src_stride[kMaxRank + 1] = {};
  std::size_t dst_stride[kMaxRank + 1] = {};
  std::size_t src_offset = 0, dst_offset = 0;
  std::size_t words = 0;
};

template <typename I>
REDIST_HD inline void box_words(const BoxCopy& p, I i, I* src_word, I* dst_word) {
  I s = static_cast<I>(p.src_offset), d = static_cast<I>(p.dst_offset);
  for (int k = p.ndim - 1; k >= 0; --k) {
    const I e = static_cast<I>(p.extent[k]);
    const I c = i % e;
    i /= e;
    s += c * static_cast<I>(p.src_stride[k]);
    d += c * static_cast<I>(p.dst_stride[k]);
  }
  *src_word = s;
  *dst_word = d;
}

// Whether the plan is one contiguous run on both sides (a plain memcpy).
inline bool contiguous(const BoxCopy& p) { return p.ndim <= 1; }

// The copy of `region` from the dense local array of box `from` (at `src`)
// into the dense local array of box `to` (at `dst`); region lies in both.
// src and dst are used for their alignment only.
BoxCopy plan_box_copy(const Box& from, const Box& to, const Box& region, std::size_t elem_bytes,
                      const void* src, const void* dst);

// Enqueues the plan's copy on `stream` (kernel, or cudaMemcpyAsync when
// contiguous).
Status launch_box_copy(const BoxCopy& plan, const void* src, void* dst, cudaStream_t stream);

}  // namespace redist::cuda::detail
