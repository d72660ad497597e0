#include "redist/nccl_reduce_exchange.hpp"

#include <string>
#include <utility>

#include "internal/backend_common.hpp"
#include "internal/reducing_peers.hpp"
#include "nccl/box_copy.hpp"
#include "nccl/calls.hpp"
#include "nccl/reduce_kernels.hpp"

namespace redist::nccl {

using backend::prefixed;
using cuda::detail::cuda_status;

ReducingExchange::ReducingExchange(ReducingExchange&& other) noexcept { *this = std::move(other); }

ReducingExchange& ReducingExchange::operator=(ReducingExchange&& other) noexcept {
  if (this != &other) {
    endpoint_ = std::move(other.endpoint_);
    dtype_ = other.dtype_;
    op_ = other.op_;
    elem_bytes_ = std::exchange(other.elem_bytes_, 0);
    group_size_ = std::exchange(other.group_size_, 1);
    designated_ = std::exchange(other.designated_, false);
    source_box_ = std::exchange(other.source_box_, Box{});
    target_box_ = std::exchange(other.target_box_, Box{});
    kept_ = std::exchange(other.kept_, {});
    receives_ = std::exchange(other.receives_, {});
    sends_ = std::exchange(other.sends_, {});
    member_arrays_bytes_ = std::exchange(other.member_arrays_bytes_, 0);
    workspace_bytes_ = std::exchange(other.workspace_bytes_, 0);
    agreement_ = other.agreement_;
  }
  return *this;
}

ReducingExchange::~ReducingExchange() = default;

Status ReducingExchange::create(ncclComm_t comm, const PlacedMesh& source, const BlockLayout& source_layout,
                                const int* source_pending, int source_pending_count, const PlacedMesh& target,
                                const BlockLayout& target_layout, const int* target_pending,
                                int target_pending_count, Dtype dtype, Op op, cudaStream_t stream,
                                ReducingExchange* out) {
  constexpr const char* what = "ReducingExchange::create";
  if (out == nullptr) return {Errc::invalid_argument, std::string(what) + ": output is null"};
  ReducingExchange ex;
  if (Status st = detail::Endpoint::over(comm, what, &ex.endpoint_); !st.ok()) return st;
  return ex.build(source, source_layout, source_pending, source_pending_count, target, target_layout,
                  target_pending, target_pending_count, dtype, op, stream, out);
}

Status ReducingExchange::create(MPI_Comm world, const PlacedMesh& source, const BlockLayout& source_layout,
                                const int* source_pending, int source_pending_count, const PlacedMesh& target,
                                const BlockLayout& target_layout, const int* target_pending,
                                int target_pending_count, Dtype dtype, Op op, ReducingExchange* out) {
  constexpr const char* what = "ReducingExchange::create";
  if (out == nullptr) return {Errc::invalid_argument, std::string(what) + ": output is null"};
  ReducingExchange ex;
  if (Status st = detail::Endpoint::over(world, what, &ex.endpoint_); !st.ok()) return st;
  return ex.build(source, source_layout, source_pending, source_pending_count, target, target_layout,
                  target_pending, target_pending_count, dtype, op, nullptr, out);
}

Status ReducingExchange::build(const PlacedMesh& source, const BlockLayout& source_layout,
                               const int* source_pending, int source_pending_count, const PlacedMesh& target,
                               const BlockLayout& target_layout, const int* target_pending,
                               int target_pending_count, Dtype dtype, Op op, cudaStream_t stream,
                               ReducingExchange* out) {
  constexpr const char* what = "ReducingExchange::create";
  const std::size_t elem_bytes = dtype_bytes(dtype);
  Status local = backend::validate_exchange(endpoint_.size(), source, source_layout, target, target_layout,
                                            elem_bytes);
  if (local.ok())
    local = backend::check_pending(source, source_layout, source_pending, source_pending_count, "source");
  if (local.ok())
    local = backend::check_pending(target, target_layout, target_pending, target_pending_count, "target");
  if (local.ok()) local = backend::check_reducing_op(dtype, op, target_pending_count);
  local = prefixed(what, std::move(local));
  std::uint64_t digest = 0;
  if (local.ok()) {
    const backend::ReducingPeers peers = backend::reducing_peers(
        endpoint_.rank(), endpoint_.size(), source, source_layout, source_pending, source_pending_count,
        target, target_layout, target_pending, target_pending_count);
    dtype_ = dtype;
    op_ = op;
    elem_bytes_ = elem_bytes;
    group_size_ = peers.group_size;
    designated_ = peers.designated;
    source_box_ = peers.source_box;
    target_box_ = peers.target_box;
    for (const backend::Contribution& k : peers.kept) kept_.push_back({k.member, k.region});
    member_arrays_bytes_ = designated_ ? static_cast<std::size_t>(group_size_) * target_bytes() : 0;
    workspace_bytes_ = member_arrays_bytes_;
    for (const backend::Contribution& m : peers.receives) {
      const std::size_t bytes = box_elements(m.region) * elem_bytes;
      receives_.push_back({m.rank, m.member, m.region, workspace_bytes_, bytes});
      workspace_bytes_ += bytes;
    }
    for (const backend::Transfer& m : peers.sends) {
      const std::size_t bytes = box_elements(m.region) * elem_bytes;
      sends_.push_back({m.rank, -1, m.region, workspace_bytes_, bytes});
      workspace_bytes_ += bytes;
    }
    digest = backend::reducing_digest(source, source_layout, source_pending, source_pending_count, target,
                                      target_layout, target_pending, target_pending_count, dtype) * 8 +
             static_cast<std::uint64_t>(op);
  }
  const backend::Agreed agreed[] = {
      {digest, "ranks passed different meshes, layouts, pending axes, element types or operations"}};
  if (Status st = endpoint_.agree(std::move(local), what, agreed, 1, stream); !st.ok()) return st;
  *out = std::move(*this);
  return {};
}

Status ReducingExchange::run(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                             void* workspace, std::size_t workspace_bytes, cudaStream_t stream) {
  constexpr const char* what = "ReducingExchange::run";
  if (endpoint_.empty())
    return {Errc::invalid_argument, std::string(what) + ": exchange is empty (not created or moved from)"};
  Status local = prefixed(what, detail::check_exchange_buffers(src, src_bytes, source_bytes(), dst, dst_bytes,
                                                               target_bytes(), workspace, workspace_bytes,
                                                               workspace_bytes_));
  if (agreement_ && endpoint_.size() > 1) local = endpoint_.agree(std::move(local), what, nullptr, 0, stream);
  if (!local.ok()) return local;

  using cuda::detail::launch_box_copy;
  using cuda::detail::plan_box_copy;
  auto* staging = static_cast<unsigned char*>(workspace);
  const std::size_t box_bytes = target_bytes();
  auto member_array = [&](int member) { return staging + static_cast<std::size_t>(member) * box_bytes; };
  auto copy = [&](const Box& from, const Box& to, const Box& region, const void* in, void* out) {
    return prefixed(what, launch_box_copy(plan_box_copy(from, to, region, elem_bytes_, in, out), in, out, stream));
  };
  for (const Message& m : sends_)
    if (Status st = copy(source_box_, m.region, m.region, src, staging + m.offset); !st.ok()) return st;
  for (const Kept& k : kept_)
    if (Status st = copy(source_box_, target_box_, k.region, src, member_array(k.member)); !st.ok()) return st;
  const ncclComm_t comm = endpoint_.comm();
  if (Status st = detail::grouped(comm, what,
                                  [&]() -> Status {
                                    for (const Message& m : receives_)
                                      if (Status e = detail::recv_bytes(staging + m.offset, m.bytes, m.rank,
                                                                        comm, stream);
                                          !e.ok())
                                        return e;
                                    for (const Message& m : sends_)
                                      if (Status e = detail::send_bytes(staging + m.offset, m.bytes, m.rank,
                                                                        comm, stream);
                                          !e.ok())
                                        return e;
                                    return {};
                                  });
      !st.ok())
    return st;
  for (const Message& m : receives_)
    if (Status st = copy(m.region, target_box_, m.region, staging + m.offset, member_array(m.member)); !st.ok())
      return st;
  if (box_bytes == 0) return {};
  if (designated_)
    return prefixed(what, cuda::detail::launch_reduce(dtype_, op_, staging, box_elements(target_box_),
                                                      static_cast<std::size_t>(group_size_), dst, stream));
  return prefixed(what, cuda::detail::launch_fill_identity(dtype_, op_, dst, box_elements(target_box_), stream));
}

}  // namespace redist::nccl
