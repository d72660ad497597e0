#include "redist/nccl_exchange.hpp"

#include <string>
#include <utility>

#include "internal/backend_common.hpp"
#include "nccl/calls.hpp"
#include "nccl/copy_plan.hpp"
#include "redist/local.hpp"

namespace redist::nccl::detail {

using backend::prefixed;
using cuda::detail::cuda_status;

Endpoint::Endpoint(Endpoint&& other) noexcept { *this = std::move(other); }

Endpoint& Endpoint::operator=(Endpoint&& other) noexcept {
  if (this != &other) {
    release();
    comm_ = std::exchange(other.comm_, nullptr);
    owned_ = std::move(other.owned_);
    size_ = std::exchange(other.size_, 0);
    rank_ = std::exchange(other.rank_, 0);
    agree_device_ = std::exchange(other.agree_device_, nullptr);
  }
  return *this;
}

Endpoint::~Endpoint() { release(); }

// A destructor cannot report errors; freeing is best effort.
void Endpoint::release() noexcept {
  if (agree_device_ != nullptr) (void)cudaFree(agree_device_);
  agree_device_ = nullptr;
  owned_ = Mesh();
  comm_ = nullptr;
}

Status Endpoint::over(ncclComm_t comm, const char* what, Endpoint* out) {
  if (comm == nullptr) return {Errc::invalid_argument, std::string(what) + ": communicator is null"};
  Endpoint e;
  e.comm_ = comm;
  if (Status st = nccl_status(ncclCommCount(comm, &e.size_), comm, "ncclCommCount"); !st.ok())
    return prefixed(what, st);
  if (Status st = nccl_status(ncclCommUserRank(comm, &e.rank_), comm, "ncclCommUserRank"); !st.ok())
    return prefixed(what, st);
  if (Status st = cuda_status(cudaMalloc(reinterpret_cast<void**>(&e.agree_device_),
                                         backend::kMaxAgreedWords * sizeof(std::uint64_t)),
                              "cudaMalloc");
      !st.ok())
    return prefixed(what, st);
  *out = std::move(e);
  return {};
}

Status Endpoint::over(MPI_Comm world, const char* what, Endpoint* out, const ProblemDigest& problem) {
  if (world == MPI_COMM_NULL)
    return {Errc::invalid_argument, std::string(what) + ": communicator is MPI_COMM_NULL"};
  int world_size = 0;
  MPI_Comm_size(world, &world_size);
  // A one-axis mesh over the whole world: Mesh::create's bootstrap of NCCL.
  Endpoint e;
  if (Status st = Mesh::create(world, &world_size, 1, problem, nullptr, &e.owned_); !st.ok()) return prefixed(what, st);
  e.comm_ = e.owned_.nccl_comm();
  e.size_ = world_size;
  e.rank_ = e.owned_.rank();
  *out = std::move(e);
  return {};
}

Status Endpoint::agree(Status local, const char* what, const backend::Agreed* agreed, std::size_t count,
                       cudaStream_t stream) {
  if (owned_.comm() != MPI_COMM_NULL) return backend::agree(owned_.comm(), std::move(local), what, agreed, count);
  const NcclAgreement over{comm_, agree_device_, stream};
  return backend::agree({&nccl_reduce_min, &over}, std::move(local), what, agreed, count);
}

Status check_exchange_buffers(const void* src, std::size_t src_bytes, std::size_t src_need, const void* dst,
                              std::size_t dst_bytes, std::size_t dst_need, const void* workspace,
                              std::size_t workspace_bytes, std::size_t workspace_need) {
  using local::check_buffer;
  using local::check_disjoint;
  Status st = check_buffer(src, src_bytes, src_need, "source");
  if (st.ok()) st = check_buffer(dst, dst_bytes, dst_need, "destination");
  if (st.ok()) st = check_buffer(workspace, workspace_bytes, workspace_need, "workspace");
  if (st.ok()) st = check_disjoint(src, src_need, "source", dst, dst_need, "destination");
  if (st.ok()) st = check_disjoint(src, src_need, "source", workspace, workspace_need, "workspace");
  if (st.ok()) st = check_disjoint(dst, dst_need, "destination", workspace, workspace_need, "workspace");
  return st;
}

}  // namespace redist::nccl::detail
