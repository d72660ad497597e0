#include "redist/nccl_exchange.hpp"

#include <string>
#include <utility>

#include "internal/backend_common.hpp"
#include "internal/exchange_peers.hpp"
#include "nccl/box_copy.hpp"
#include "nccl/calls.hpp"

namespace redist::nccl {

using backend::prefixed;
using cuda::detail::cuda_status;
using detail::nccl_status;

Exchange::Exchange(Exchange&& other) noexcept { *this = std::move(other); }

Exchange& Exchange::operator=(Exchange&& other) noexcept {
  if (this != &other) {
    endpoint_ = std::move(other.endpoint_);
    elem_bytes_ = std::exchange(other.elem_bytes_, 0);
    source_box_ = std::exchange(other.source_box_, Box{});
    target_box_ = std::exchange(other.target_box_, Box{});
    kept_ = std::exchange(other.kept_, Box{});
    receives_ = std::exchange(other.receives_, {});
    sends_ = std::exchange(other.sends_, {});
    workspace_bytes_ = std::exchange(other.workspace_bytes_, 0);
    agreement_ = other.agreement_;
  }
  return *this;
}

Exchange::~Exchange() = default;


namespace {

// The messages of one direction, laid out back to back in the staging
// workspace from `*offset` on, which ends past them.
std::vector<Exchange::Message> staged(const std::vector<backend::Transfer>& transfers,
                                      std::size_t elem_bytes, std::size_t* offset) {
  std::vector<Exchange::Message> messages;
  for (const backend::Transfer& t : transfers) {
    const std::size_t bytes = box_elements(t.region) * elem_bytes;
    messages.push_back({t.rank, t.region, *offset, bytes});
    *offset += bytes;
  }
  return messages;
}

}  // namespace

Status Exchange::create(ncclComm_t comm, const PlacedMesh& source, const BlockLayout& source_layout,
                        const PlacedMesh& target, const BlockLayout& target_layout, std::size_t elem_bytes,
                        const ProblemDigest& problem, cudaStream_t stream, Exchange* out) {
  if (out == nullptr) return {Errc::invalid_argument, "Exchange::create: output is null"};
  Exchange ex;
  if (Status st = detail::Endpoint::over(comm, "Exchange::create", &ex.endpoint_); !st.ok()) return st;
  return ex.build(source, source_layout, target, target_layout, elem_bytes, problem, stream, out);
}

Status Exchange::create(MPI_Comm world, const PlacedMesh& source, const BlockLayout& source_layout,
                        const PlacedMesh& target, const BlockLayout& target_layout, std::size_t elem_bytes,
                        const ProblemDigest& problem, Exchange* out) {
  if (out == nullptr) return {Errc::invalid_argument, "Exchange::create: output is null"};
  Exchange ex;
  if (Status st = detail::Endpoint::over(world, "Exchange::create", &ex.endpoint_, problem); !st.ok()) return st;
  return ex.build(source, source_layout, target, target_layout, elem_bytes, problem, nullptr, out);
}

Status Exchange::build(const PlacedMesh& source, const BlockLayout& source_layout, const PlacedMesh& target,
                       const BlockLayout& target_layout, std::size_t elem_bytes, const ProblemDigest& problem,
                       cudaStream_t stream, Exchange* out) {
  const int me = endpoint_.rank(), world_size = endpoint_.size();
  Status local = prefixed("Exchange::create",
                          backend::validate_exchange(world_size, source, source_layout, target,
                                                     target_layout, elem_bytes));
  if (local.ok()) {
    const backend::ExchangePeers peers = backend::exchange_peers(
        me, world_size, source, source_layout, target, target_layout);
    elem_bytes_ = elem_bytes;
    source_box_ = peers.source_box;
    target_box_ = peers.target_box;
    kept_ = peers.kept;
    receives_ = staged(peers.receives, elem_bytes, &workspace_bytes_);
    sends_ = staged(peers.sends, elem_bytes, &workspace_bytes_);
  }
  backend::Agreed agreed[backend::kProblemAgreed + 1];
  backend::agreed_problem(problem, agreed);
  agreed[backend::kProblemAgreed] = {backend::exchange_digest(source, source_layout, target, target_layout, elem_bytes),
                                     "ranks passed different meshes, layouts or element sizes"};
  if (Status st = endpoint_.agree(std::move(local), "Exchange::create", agreed, backend::kProblemAgreed + 1, stream);
      !st.ok())
    return st;
  *out = std::move(*this);
  return {};
}

Status Exchange::run(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                     void* workspace, std::size_t workspace_bytes, cudaStream_t stream) {
  if (endpoint_.empty())
    return {Errc::invalid_argument, "Exchange::run: exchange is empty (not created or moved from)"};
  Status local = detail::check_exchange_buffers(src, src_bytes, source_bytes(), dst, dst_bytes, target_bytes(),
                                                workspace, workspace_bytes, workspace_bytes_);
  local = prefixed("Exchange::run", std::move(local));
  if (agreement_ && endpoint_.size() > 1) local = endpoint_.agree(std::move(local), "Exchange::run", nullptr, 0, stream);
  if (!local.ok()) return local;

  using cuda::detail::launch_box_copy;
  using cuda::detail::plan_box_copy;
  auto* staging = static_cast<unsigned char*>(workspace);
  auto copy = [&](const Box& from, const Box& to, const Box& region, const void* in, void* out) {
    return prefixed("Exchange::run", launch_box_copy(plan_box_copy(from, to, region, elem_bytes_,
                                                                   in, out),
                                                     in, out, stream));
  };
  for (const Message& m : sends_)
    if (Status st = copy(source_box_, m.region, m.region, src, staging + m.offset); !st.ok())
      return st;
  if (Status st = copy(source_box_, target_box_, kept_, src, dst); !st.ok()) return st;
  if (Status st = detail::grouped(endpoint_.comm(), "Exchange::run",
                                  [&]() -> Status {
                                    for (const Message& m : receives_)
                                      if (Status e = detail::recv_bytes(staging + m.offset, m.bytes,
                                                                        m.rank, endpoint_.comm(), stream);
                                          !e.ok())
                                        return e;
                                    for (const Message& m : sends_)
                                      if (Status e = detail::send_bytes(staging + m.offset, m.bytes,
                                                                        m.rank, endpoint_.comm(), stream);
                                          !e.ok())
                                        return e;
                                    return {};
                                  });
      !st.ok())
    return st;
  for (const Message& m : receives_)
    if (Status st = copy(m.region, target_box_, m.region, staging + m.offset, dst); !st.ok())
      return st;
  return {};
}

}  // namespace redist::nccl
