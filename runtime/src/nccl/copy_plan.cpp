#include "nccl/copy_plan.hpp"

namespace redist::cuda::detail {

namespace {

// Bytes of one index step along `dim` (local.hpp's inner_bytes).
std::size_t step_bytes(const Layout& l, int dim) {
  std::size_t n = l.elem_bytes;
  for (int i = dim + 1; i < l.ndim; ++i) n *= l.extent[i];
  return n;
}

// count_a * inner runs of run_bytes each; run (a, b) starts at source byte
// offset + a * stride_a + b * stride_b.  Runs that follow each other in the
// source are merged first, so that words can be as wide as possible and a
// fully contiguous copy becomes one run.
CopyPlan make_plan(std::size_t count_a, std::size_t inner, std::size_t run_bytes,
                   std::size_t stride_a, std::size_t stride_b, std::size_t offset,
                   const void* src, const void* dst) {
  if (inner > 1 && stride_b == run_bytes) {
    run_bytes *= inner;
    inner = 1;
  }
  if (inner == 1) stride_b = 0;
  if (inner == 1 && count_a > 1 && stride_a == run_bytes) {
    run_bytes *= count_a;
    count_a = 1;
  }
  if (count_a == 1) stride_a = 0;

  const auto src_addr = reinterpret_cast<std::uintptr_t>(src);
  const auto dst_addr = reinterpret_cast<std::uintptr_t>(dst);
  const std::size_t mask = run_bytes | stride_a | stride_b | offset | src_addr | dst_addr;
  std::size_t w = 16;
  while (w > 1 && (mask & (w - 1)) != 0) w /= 2;
  return {w, count_a * inner * run_bytes / w, run_bytes / w, inner, stride_a / w, stride_b / w,
          offset / w};
}

}  // namespace

CopyPlan plan_slice(const Layout& l, int dim, std::size_t parts, std::size_t index,
                    const void* src, const void* dst) {
  const std::size_t inner = step_bytes(l, dim);
  const std::size_t run = l.extent[dim] / parts * inner;
  return make_plan(outer_count(l, dim), 1, run, l.extent[dim] * inner, 0, index * run, src, dst);
}

// Destination order [chunk j][outer o]: a = j, b = o.
CopyPlan plan_pack(const Layout& l, int dim, std::size_t parts, const void* src, const void* dst) {
  const std::size_t run = l.extent[dim] / parts * step_bytes(l, dim);
  return make_plan(parts, outer_count(l, dim), run, run, parts * run, 0, src, dst);
}

// Destination order [outer o][block k]: a = o, b = k.
CopyPlan plan_concat(const Layout& block, int dim, std::size_t parts, const void* src,
                     const void* dst) {
  const std::size_t run = block.extent[dim] * step_bytes(block, dim);
  return make_plan(outer_count(block, dim), parts, run, run, bytes(block), 0, src, dst);
}

}  // namespace redist::cuda::detail
