// redist::cuda: the local kernels of local.hpp on device buffers.  The
// argument checks and their messages are those of local.cpp (messages name
// the problem, callers prefix the operation), so that both backends report
// the same errors.
#include <string>

#include "copy_plan.hpp"
#include "redist/local.hpp"
#include "redist/nccl.hpp"

namespace redist::cuda {

namespace {

std::string str(std::size_t v) { return std::to_string(v); }

// Part counts are bounded as in local.cpp, which keeps byte arithmetic exact.
constexpr std::size_t kMaxParts = std::size_t{1} << 23;

Status check_split(const Layout& l, int dim, std::size_t parts) {
  if (Status st = validate_layout(l); !st.ok()) return st;
  if (Status st = local::check_dim(l, dim, "dim"); !st.ok()) return st;
  if (parts < 1 || parts >= kMaxParts)
    return {Errc::invalid_argument, "part count " + str(parts) + " is not in 1..2^23-1"};
  return {};
}

Status check_divisible(const Layout& l, int dim, std::size_t parts) {
  if (l.extent[dim] % parts != 0)
    return {Errc::invalid_argument, "extent " + str(l.extent[dim]) + " of dim " +
                                        std::to_string(dim) + " is not divisible by " + str(parts)};
  return {};
}

Status check_io(const void* src, std::size_t src_bytes, std::size_t src_need, void* dst,
                std::size_t dst_bytes, std::size_t dst_need) {
  if (Status st = local::check_buffer(src, src_bytes, src_need, "source"); !st.ok()) return st;
  if (Status st = local::check_buffer(dst, dst_bytes, dst_need, "destination"); !st.ok()) return st;
  return local::check_disjoint(src, src_need, "source", dst, dst_need, "destination");
}

}  // namespace

Status slice(const Layout& l, int dim, std::size_t parts, std::size_t index, const void* src,
             std::size_t src_bytes, void* dst, std::size_t dst_bytes, cudaStream_t stream) {
  if (Status st = check_split(l, dim, parts); !st.ok()) return st;
  if (Status st = check_divisible(l, dim, parts); !st.ok()) return st;
  if (index >= parts)
    return {Errc::invalid_argument,
            "chunk index " + str(index) + " is not below " + str(parts)};
  const std::size_t total = bytes(l);
  if (Status st = check_io(src, src_bytes, total, dst, dst_bytes, total / parts); !st.ok()) return st;
  return detail::launch_copy(detail::plan_slice(l, dim, parts, index, src, dst), src, dst, stream);
}

Status pack_chunks(const Layout& l, int dim, std::size_t parts, const void* src,
                   std::size_t src_bytes, void* dst, std::size_t dst_bytes, cudaStream_t stream) {
  if (Status st = check_split(l, dim, parts); !st.ok()) return st;
  if (Status st = check_divisible(l, dim, parts); !st.ok()) return st;
  const std::size_t total = bytes(l);
  if (Status st = check_io(src, src_bytes, total, dst, dst_bytes, total); !st.ok()) return st;
  return detail::launch_copy(detail::plan_pack(l, dim, parts, src, dst), src, dst, stream);
}

Status concat_blocks(const Layout& block, int dim, std::size_t parts, const void* src,
                     std::size_t src_bytes, void* dst, std::size_t dst_bytes, cudaStream_t stream) {
  if (Status st = check_split(block, dim, parts); !st.ok()) return st;
  const std::size_t total = bytes(block) * parts;
  if (Status st = check_io(src, src_bytes, total, dst, dst_bytes, total); !st.ok()) return st;
  return detail::launch_copy(detail::plan_concat(block, dim, parts, src, dst), src, dst, stream);
}

}  // namespace redist::cuda
