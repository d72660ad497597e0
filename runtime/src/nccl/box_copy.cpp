#include "nccl/box_copy.hpp"

#include <cstdint>

namespace redist::cuda::detail {

BoxCopy plan_box_copy(const Box& from, const Box& to, const Box& region, std::size_t elem_bytes,
                      const void* src, const void* dst) {
  BoxCopy p;
  if (box_elements(region) == 0) return p;
  // Dims from the innermost out, in bytes: first the element itself, then
  // every dim of the region longer than 1.
  std::size_t extent[kMaxRank + 1], src_stride[kMaxRank + 1], dst_stride[kMaxRank + 1];
  int n = 0;
  extent[n] = elem_bytes, src_stride[n] = 1, dst_stride[n] = 1, ++n;
  std::size_t src_step = elem_bytes, dst_step = elem_bytes, src_offset = 0, dst_offset = 0;
  for (int d = region.ndim - 1; d >= 0; --d) {
    src_offset += (region.lo[d] - from.lo[d]) * src_step;
    dst_offset += (region.lo[d] - to.lo[d]) * dst_step;
    const std::size_t e = region.hi[d] - region.lo[d];
    if (e > 1) {
      const int in = n - 1;
      // Contiguous after the dim inside it on both sides: one longer dim.
      if (src_step == extent[in] * src_stride[in] && dst_step == extent[in] * dst_stride[in]) {
        extent[in] *= e;
      } else {
        extent[n] = e, src_stride[n] = src_step, dst_stride[n] = dst_step, ++n;
      }
    }
    src_step *= from.hi[d] - from.lo[d];
    dst_step *= to.hi[d] - to.lo[d];
  }
  // The widest word that divides every byte count and address involved.
  std::size_t mask = extent[0] | src_offset | dst_offset | reinterpret_cast<std::uintptr_t>(src) |
                     reinterpret_cast<std::uintptr_t>(dst);
  for (int k = 1; k < n; ++k) mask |= src_stride[k] | dst_stride[k];
  std::size_t w = 16;
  while (w > 1 && (mask & (w - 1)) != 0) w /= 2;
  p.width = w;
  p.ndim = n;
  p.words = 1;
  // Stored outermost first, as box_words reads them.
  for (int k = 0; k < n; ++k) {
    const int at = n - 1 - k;
    p.extent[at] = k == 0 ? extent[0] / w : extent[k];
    p.src_stride[at] = k == 0 ? 1 : src_stride[k] / w;
    p.dst_stride[at] = k == 0 ? 1 : dst_stride[k] / w;
    p.words *= p.extent[at];
  }
  p.src_offset = src_offset / w;
  p.dst_offset = dst_offset / w;
  return p;
}

}  // namespace redist::cuda::detail
