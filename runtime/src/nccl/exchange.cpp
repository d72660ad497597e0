#include "redist/nccl_exchange.hpp"

#include <string>
#include <utility>

#include "internal/backend_common.hpp"
#include "internal/exchange_peers.hpp"
#include "nccl/box_copy.hpp"
#include "nccl/calls.hpp"
#include "redist/local.hpp"

namespace redist::nccl {

using backend::prefixed;
using cuda::detail::cuda_status;
using detail::nccl_status;

Exchange::Exchange(Exchange&& other) noexcept { *this = std::move(other); }

Exchange& Exchange::operator=(Exchange&& other) noexcept {
  if (this != &other) {
    release();
    comm_ = std::exchange(other.comm_, nullptr);
    owned_ = std::move(other.owned_);
    world_size_ = std::exchange(other.world_size_, 0);
    elem_bytes_ = std::exchange(other.elem_bytes_, 0);
    source_box_ = std::exchange(other.source_box_, Box{});
    target_box_ = std::exchange(other.target_box_, Box{});
    kept_ = std::exchange(other.kept_, Box{});
    receives_ = std::exchange(other.receives_, {});
    sends_ = std::exchange(other.sends_, {});
    workspace_bytes_ = std::exchange(other.workspace_bytes_, 0);
    agreement_ = other.agreement_;
    agree_device_ = std::exchange(other.agree_device_, nullptr);
  }
  return *this;
}

Exchange::~Exchange() { release(); }

// A destructor cannot report errors; freeing is best effort.
void Exchange::release() noexcept {
  if (agree_device_ != nullptr) (void)cudaFree(agree_device_);
  agree_device_ = nullptr;
  owned_ = Mesh();
  comm_ = nullptr;
}

Status Exchange::agree(Status local, const char* what, const std::uint64_t* digest,
                       cudaStream_t stream) {
  const backend::Agreed agreed[] = {
      {digest != nullptr ? *digest : 0, "ranks passed different meshes, layouts or element sizes"}};
  const std::size_t count = digest != nullptr ? 1 : 0;
  if (owned_.comm() != MPI_COMM_NULL)
    return backend::agree(owned_.comm(), std::move(local), what, agreed, count);
  const detail::NcclAgreement over{comm_, agree_device_, stream};
  return backend::agree({&detail::nccl_reduce_min, &over}, std::move(local), what, agreed, count);
}

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
                        const PlacedMesh& target, const BlockLayout& target_layout,
                        std::size_t elem_bytes, cudaStream_t stream, Exchange* out) {
  return create_over(comm, Mesh(), source, source_layout, target, target_layout, elem_bytes,
                     stream, out);
}

Status Exchange::create(MPI_Comm world, const PlacedMesh& source, const BlockLayout& source_layout,
                        const PlacedMesh& target, const BlockLayout& target_layout,
                        std::size_t elem_bytes, Exchange* out) {
  if (out == nullptr) return {Errc::invalid_argument, "Exchange::create: output is null"};
  if (world == MPI_COMM_NULL)
    return {Errc::invalid_argument, "Exchange::create: communicator is MPI_COMM_NULL"};
  int world_size = 0;
  MPI_Comm_size(world, &world_size);
  // A one-axis mesh over the whole world: Mesh::create's bootstrap of NCCL.
  Mesh mesh;
  if (Status st = Mesh::create(world, &world_size, 1, nullptr, &mesh); !st.ok())
    return prefixed("Exchange::create", st);
  ncclComm_t comm = mesh.nccl_comm();
  return create_over(comm, std::move(mesh), source, source_layout, target, target_layout,
                     elem_bytes, nullptr, out);
}

Status Exchange::create_over(ncclComm_t comm, Mesh owned, const PlacedMesh& source,
                             const BlockLayout& source_layout, const PlacedMesh& target,
                             const BlockLayout& target_layout, std::size_t elem_bytes,
                             cudaStream_t stream, Exchange* out) {
  if (out == nullptr) return {Errc::invalid_argument, "Exchange::create: output is null"};
  if (comm == nullptr) return {Errc::invalid_argument, "Exchange::create: communicator is null"};
  Exchange ex;
  ex.comm_ = comm;
  ex.owned_ = std::move(owned);
  int me = 0;
  if (Status st = nccl_status(ncclCommCount(comm, &ex.world_size_), comm, "ncclCommCount"); !st.ok())
    return prefixed("Exchange::create", st);
  if (Status st = nccl_status(ncclCommUserRank(comm, &me), comm, "ncclCommUserRank"); !st.ok())
    return prefixed("Exchange::create", st);
  if (ex.owned_.comm() == MPI_COMM_NULL)
    if (Status st = cuda_status(cudaMalloc(reinterpret_cast<void**>(&ex.agree_device_),
                                           backend::kMaxAgreedWords * sizeof(std::uint64_t)),
                                "cudaMalloc");
        !st.ok())
      return prefixed("Exchange::create", st);

  Status local = prefixed("Exchange::create",
                          backend::validate_exchange(ex.world_size_, source, source_layout, target,
                                                     target_layout, elem_bytes));
  if (local.ok()) {
    const backend::ExchangePeers peers = backend::exchange_peers(
        me, ex.world_size_, source, source_layout, target, target_layout);
    ex.elem_bytes_ = elem_bytes;
    ex.source_box_ = peers.source_box;
    ex.target_box_ = peers.target_box;
    ex.kept_ = peers.kept;
    ex.receives_ = staged(peers.receives, elem_bytes, &ex.workspace_bytes_);
    ex.sends_ = staged(peers.sends, elem_bytes, &ex.workspace_bytes_);
  }
  const std::uint64_t digest =
      backend::exchange_digest(source, source_layout, target, target_layout, elem_bytes);
  if (Status st = ex.agree(std::move(local), "Exchange::create", &digest, stream); !st.ok())
    return st;
  *out = std::move(ex);
  return {};
}

Status Exchange::run(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                     void* workspace, std::size_t workspace_bytes, cudaStream_t stream) {
  if (comm_ == nullptr)
    return {Errc::invalid_argument, "Exchange::run: exchange is empty (not created or moved from)"};
  using local::check_buffer;
  using local::check_disjoint;
  Status local = check_buffer(src, src_bytes, source_bytes(), "source");
  if (local.ok()) local = check_buffer(dst, dst_bytes, target_bytes(), "destination");
  if (local.ok()) local = check_buffer(workspace, workspace_bytes, workspace_bytes_, "workspace");
  if (local.ok())
    local = check_disjoint(src, source_bytes(), "source", dst, target_bytes(), "destination");
  if (local.ok())
    local = check_disjoint(src, source_bytes(), "source", workspace, workspace_bytes_, "workspace");
  if (local.ok())
    local = check_disjoint(dst, target_bytes(), "destination", workspace, workspace_bytes_,
                           "workspace");
  local = prefixed("Exchange::run", std::move(local));
  if (agreement_ && world_size_ > 1) local = agree(std::move(local), "Exchange::run", nullptr, stream);
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
  if (Status st = detail::grouped(comm_, "Exchange::run",
                                  [&]() -> Status {
                                    for (const Message& m : receives_)
                                      if (Status e = detail::recv_bytes(staging + m.offset, m.bytes,
                                                                        m.rank, comm_, stream);
                                          !e.ok())
                                        return e;
                                    for (const Message& m : sends_)
                                      if (Status e = detail::send_bytes(staging + m.offset, m.bytes,
                                                                        m.rank, comm_, stream);
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
