// redist::cuda: the local kernels of local.hpp on device buffers.  The
// argument checks are local.cpp's own (messages name the problem, callers
// prefix the operation), so that both backends report the same errors.
#include "nccl/copy_plan.hpp"
#include "redist/local.hpp"
#include "redist/nccl.hpp"

namespace redist::cuda {

Status slice(const Layout& l, int dim, std::size_t parts, std::size_t index, const void* src,
             std::size_t src_bytes, void* dst, std::size_t dst_bytes, cudaStream_t stream) {
  if (Status st = local::check_slice(l, dim, parts, index, src, src_bytes, dst, dst_bytes);
      !st.ok())
    return st;
  return detail::launch_copy(detail::plan_slice(l, dim, parts, index, src, dst), src, dst, stream);
}

Status pack_chunks(const Layout& l, int dim, std::size_t parts, const void* src,
                   std::size_t src_bytes, void* dst, std::size_t dst_bytes, cudaStream_t stream) {
  if (Status st = local::check_pack(l, dim, parts, src, src_bytes, dst, dst_bytes); !st.ok())
    return st;
  return detail::launch_copy(detail::plan_pack(l, dim, parts, src, dst), src, dst, stream);
}

Status concat_blocks(const Layout& block, int dim, std::size_t parts, const void* src,
                     std::size_t src_bytes, void* dst, std::size_t dst_bytes, cudaStream_t stream) {
  if (Status st = local::check_concat(block, dim, parts, src, src_bytes, dst, dst_bytes); !st.ok())
    return st;
  return detail::launch_copy(detail::plan_concat(block, dim, parts, src, dst), src, dst, stream);
}

}  // namespace redist::cuda
