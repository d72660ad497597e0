#include "redist/nccl.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "internal/backend_common.hpp"
#include "nccl/calls.hpp"
#include "nccl/copy_plan.hpp"
#include "redist/local.hpp"

namespace redist::nccl {

using namespace backend;
using detail::grouped;
using detail::nccl_status;
using detail::recv_bytes;
using detail::send_bytes;

namespace detail {

Status nccl_status(ncclResult_t rc, ncclComm_t comm, const char* what) {
  if (rc == ncclSuccess) return {};
  std::string message = std::string(what) + ": " + ncclGetErrorString(rc);
  if (const char* last = ncclGetLastError(comm); last != nullptr && *last != '\0')
    message += std::string(" (") + last + ")";
  return {Errc::backend_error, std::move(message)};
}

Status send_bytes(const void* buf, std::size_t n, int peer, ncclComm_t comm, cudaStream_t stream) {
  return nccl_status(ncclSend(buf, n, ncclUint8, peer, comm, stream), comm, "ncclSend");
}

Status recv_bytes(void* buf, std::size_t n, int peer, ncclComm_t comm, cudaStream_t stream) {
  return nccl_status(ncclRecv(buf, n, ncclUint8, peer, comm, stream), comm, "ncclRecv");
}

Status nccl_reduce_min(const void* agreement, std::uint64_t* words, std::size_t n) {
  using cuda::detail::cuda_status;
  const auto& a = *static_cast<const NcclAgreement*>(agreement);
  const std::size_t n_bytes = n * sizeof words[0];
  if (Status st = cuda_status(cudaMemcpyAsync(a.device_words, words, n_bytes, cudaMemcpyHostToDevice,
                                              a.stream),
                              "cudaMemcpyAsync");
      !st.ok())
    return st;
  if (Status st = nccl_status(ncclAllReduce(a.device_words, a.device_words, n, ncclUint64, ncclMin,
                                            a.comm, a.stream),
                              a.comm, "ncclAllReduce");
      !st.ok())
    return st;
  if (Status st = cuda_status(cudaMemcpyAsync(words, a.device_words, n_bytes, cudaMemcpyDeviceToHost,
                                              a.stream),
                              "cudaMemcpyAsync");
      !st.ok())
    return st;
  return cuda_status(cudaStreamSynchronize(a.stream), "cudaStreamSynchronize");
}

}  // namespace detail

namespace {

using cuda::detail::cuda_status;
// NCCL counts in size_t: no per-message limit beyond the buffers'.
constexpr std::size_t kMaxMessage = SIZE_MAX;

Status device_copy(void* dst, const void* src, std::size_t n, cudaStream_t stream, const char* what) {
  return prefixed(what, cuda_status(cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice, stream),
                                    "cudaMemcpyAsync"));
}

}  // namespace

// ---- Mesh -------------------------------------------------------------------

Mesh::Mesh(Mesh&& other) noexcept
    : MeshGeometry(std::exchange<MeshGeometry>(other, MeshGeometry())),
      comm_(std::exchange(other.comm_, MPI_COMM_NULL)),
      nccl_(std::exchange(other.nccl_, nullptr)),
      owns_nccl_(std::exchange(other.owns_nccl_, true)),
      agree_device_(std::exchange(other.agree_device_, nullptr)),
      stream_(std::exchange(other.stream_, nullptr)),
      device_(std::exchange(other.device_, -1)),
      agreement_(other.agreement_),
      groups_(std::move(other.groups_)) {
  other.groups_.clear();
}

Mesh& Mesh::operator=(Mesh&& other) noexcept {
  if (this != &other) {
    release();
    MeshGeometry::operator=(std::exchange<MeshGeometry>(other, MeshGeometry()));
    comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
    nccl_ = std::exchange(other.nccl_, nullptr);
    owns_nccl_ = std::exchange(other.owns_nccl_, true);
    agree_device_ = std::exchange(other.agree_device_, nullptr);
    stream_ = std::exchange(other.stream_, nullptr);
    device_ = std::exchange(other.device_, -1);
    agreement_ = other.agreement_;
    groups_ = std::move(other.groups_);
    other.groups_.clear();
  }
  return *this;
}

Mesh::~Mesh() { release(); }

// A destructor cannot report errors; destroying is best effort.
void Mesh::release() noexcept {
  for (Cached& c : groups_) (void)ncclCommDestroy(c.nccl);
  if (nccl_ != nullptr && owns_nccl_) (void)ncclCommDestroy(nccl_);
  if (agree_device_ != nullptr) (void)cudaFree(agree_device_);
  int finalized = 0;
  MPI_Finalized(&finalized);
  // After MPI_Finalize freeing is erroneous; the handles died with MPI.
  if (!finalized && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  groups_.clear();
  comm_ = MPI_COMM_NULL;
  nccl_ = nullptr;
  owns_nccl_ = true;
  agree_device_ = nullptr;
  stream_ = nullptr;
  device_ = -1;
  MeshGeometry::operator=(MeshGeometry());
}

Status Mesh::create(MPI_Comm comm, const int* axis_sizes, int naxes, const ProblemDigest& problem,
                    cudaStream_t stream, Mesh* out) {
  Mesh mesh;
  int rank = -1;
  if (Status st = open_mesh(comm, axis_sizes, naxes, problem, out, &mesh.comm_, &rank); !st.ok())
    return st;
  static_cast<MeshGeometry&>(mesh) = MeshGeometry(rank, axis_sizes, naxes);
  mesh.stream_ = stream;

  // Everything that can fail locally happens, and is agreed on, before
  // ncclCommInitRank, which would wait forever for a rank that never joins.
  int devices = 0;
  Status local = cuda_status(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
  if (local.ok() && devices == 0) local = {Errc::backend_error, "no CUDA device"};
  if (local.ok()) local = cuda_status(cudaGetDevice(&mesh.device_), "cudaGetDevice");
  ncclUniqueId id;
  std::memset(&id, 0, sizeof id);
  if (local.ok() && rank == 0) local = nccl_status(ncclGetUniqueId(&id), nullptr, "ncclGetUniqueId");
  if (Status st = agree(mesh.comm_, prefixed("Mesh::create", std::move(local)), "Mesh::create");
      !st.ok())
    return st;
  if (Status st = mpi_status(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, mesh.comm_), "Mesh::create");
      !st.ok())
    return st;
  ncclComm_t world = nullptr;
  local = nccl_status(ncclCommInitRank(&world, mesh.size(), id, rank), nullptr,
                      "Mesh::create: ncclCommInitRank");
  if (local.ok()) mesh.nccl_ = world;
  if (Status st = agree(mesh.comm_, std::move(local), "Mesh::create"); !st.ok()) return st;
  *out = std::move(mesh);
  return {};
}

Status Mesh::reduce_over_nccl(const void* mesh, std::uint64_t* words, std::size_t n) {
  const auto& m = *static_cast<const Mesh*>(mesh);
  const detail::NcclAgreement over{m.nccl_, m.agree_device_, m.stream_};
  return detail::nccl_reduce_min(&over, words, n);
}

AgreeOver agree_over(const Mesh& mesh) {
  if (mesh.comm_ != MPI_COMM_NULL) return mesh.comm_;
  return {&Mesh::reduce_over_nccl, &mesh};
}

Status Mesh::create(ncclComm_t comm, const int* axis_sizes, int naxes, const ProblemDigest& problem,
                    cudaStream_t stream, Mesh* out) {
  if (comm == nullptr) return {Errc::invalid_argument, "Mesh::create: NCCL communicator is null"};
  int count = 0, rank = 0;
  if (Status st = nccl_status(ncclCommCount(comm, &count), comm, "Mesh::create: ncclCommCount");
      !st.ok())
    return st;
  if (Status st = nccl_status(ncclCommUserRank(comm, &rank), comm, "Mesh::create: ncclCommUserRank");
      !st.ok())
    return st;
  Mesh mesh;
  mesh.nccl_ = comm;
  mesh.owns_nccl_ = false;
  mesh.stream_ = stream;
  // Agreement itself needs these words; without them no rank can agree.
  if (Status st = cuda_status(cudaMalloc(reinterpret_cast<void**>(&mesh.agree_device_),
                                         kMaxAgreedWords * sizeof(std::uint64_t)),
                              "Mesh::create: cudaMalloc");
      !st.ok())
    return st;
  Agreed agreed[kProblemAgreed + 1];
  agreed_problem(problem, agreed);
  Status local = check_mesh_args(count, axis_sizes, naxes, out, &agreed[kProblemAgreed]);
  if (local.ok()) local = cuda_status(cudaGetDevice(&mesh.device_), "Mesh::create: cudaGetDevice");
  if (Status st = agree(agree_over(mesh), std::move(local), "Mesh::create", agreed, kProblemAgreed + 1);
      !st.ok())
    return st;
  static_cast<MeshGeometry&>(mesh) = MeshGeometry(rank, axis_sizes, naxes);
  *out = std::move(mesh);
  return {};
}

Status Mesh::group_comm(Group g, ncclComm_t* out) const {
  const Cached* c = find_prepared(groups_, g);
  if (c == nullptr) return not_prepared(g);
  *out = c->nccl;
  return {};
}

Status Mesh::prepare(const Group* groups, std::size_t count) {
  return prepare_groups(*this, agree_over(*this), groups, count, groups_, [this](Group g) {
    ncclComm_t sub = nullptr;
    if (Status st = nccl_status(ncclCommSplit(nccl_, group_member(rank(), g, 0), index_in(g), &sub,
                                              nullptr),
                                nccl_, "Mesh::prepare: ncclCommSplit");
        !st.ok())
      return st;
    groups_.push_back({g, sub});
    return Status{};
  });
}

Status Mesh::synchronize() const {
  if (Status st = check_empty(*this, "Mesh::synchronize"); !st.ok()) return st;
  if (Status st = cuda_status(cudaStreamSynchronize(stream_), "Mesh::synchronize: cudaStreamSynchronize");
      !st.ok())
    return st;
  auto async_error = [](ncclComm_t comm) -> Status {
    ncclResult_t async = ncclSuccess;
    if (Status st = nccl_status(ncclCommGetAsyncError(comm, &async), comm,
                                "Mesh::synchronize: ncclCommGetAsyncError");
        !st.ok())
      return st;
    return nccl_status(async, comm, "Mesh::synchronize: NCCL asynchronous error");
  };
  if (Status st = async_error(nccl_); !st.ok()) return st;
  for (const Cached& c : groups_)
    if (Status st = async_error(c.nccl); !st.ok()) return st;
  return {};
}

// ---- collectives --------------------------------------------------------------

namespace {

// The group checks of a collective, before its argument checks: the group
// is valid and prepared; *comm is then its NCCL communicator (none for a
// group of one).  Messages without the operation's name.
Status group_setup(const Mesh& mesh, Group g, ncclComm_t* comm) {
  *comm = nullptr;
  if (Status st = mesh.check_group(g); !st.ok()) return st;
  if (g.size == 1) return {};
  return mesh.group_comm(g, comm);
}

}  // namespace

Status dyn_slice(const Mesh& mesh, Group g, const Layout& layout, int dim, const void* src,
                 std::size_t src_bytes, void* dst, std::size_t dst_bytes) {
  if (Status st = check_collective(mesh, g, "dyn_slice"); !st.ok()) return st;
  return prefixed("dyn_slice", cuda::slice(layout, dim, static_cast<std::size_t>(g.size),
                                           static_cast<std::size_t>(mesh.index_in(g)), src,
                                           src_bytes, dst, dst_bytes, mesh.stream()));
}

Status all_gather(const Mesh& mesh, Group g, const Layout& layout, int dim, const void* src,
                  std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* scratch,
                  std::size_t scratch_bytes) {
  if (Status st = check_empty(mesh, "all_gather"); !st.ok()) return st;
  ncclComm_t comm;
  Status local = group_setup(mesh, g, &comm);
  const auto size = static_cast<std::size_t>(g.size);
  if (local.ok())
    local = check_all_gather(layout, dim, size, src, src_bytes, dst, dst_bytes, scratch,
                             scratch_bytes, all_gather_scratch_bytes(layout, dim, size), kMaxMessage);
  const Agreed agreed[] = {agreed_group(g), agreed_layout(layout), agreed_dims(dim)};
  if (Status st = verdict(std::move(local), "all_gather", mesh.size() > 1 && mesh.agreement(),
                          agree_over(mesh), agreed);
      !st.ok())
    return st;

  const std::size_t in = bytes(layout);
  if (g.size == 1) return device_copy(dst, src, in, mesh.stream(), "all_gather");
  const bool unpack = all_gather_scratch_bytes(layout, dim, size) > 0;
  if (Status st = nccl_status(ncclAllGather(src, unpack ? scratch : dst, in, ncclUint8, comm,
                                            mesh.stream()),
                              comm, "all_gather: ncclAllGather");
      !st.ok())
    return st;
  if (!unpack) return {};
  return prefixed("all_gather", cuda::concat_blocks(layout, dim, size, scratch, in * size, dst,
                                                    dst_bytes, mesh.stream()));
}

Status all_to_all(const Mesh& mesh, Group g, const Layout& layout, int s, int t, const void* src,
                  std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* scratch,
                  std::size_t scratch_bytes) {
  if (Status st = check_empty(mesh, "all_to_all"); !st.ok()) return st;
  ncclComm_t comm;
  Status local = group_setup(mesh, g, &comm);
  const auto size = static_cast<std::size_t>(g.size);
  if (local.ok())
    local = check_all_to_all(layout, s, t, size, src, src_bytes, dst, dst_bytes, scratch,
                             scratch_bytes, all_to_all_scratch_bytes(layout, s, t, size), kMaxMessage);
  const Agreed agreed[] = {agreed_group(g), agreed_layout(layout), agreed_dims(s, t)};
  if (Status st = verdict(std::move(local), "all_to_all", mesh.size() > 1 && mesh.agreement(),
                          agree_over(mesh), agreed);
      !st.ok())
    return st;

  const std::size_t total = bytes(layout);
  cudaStream_t stream = mesh.stream();
  if (g.size == 1) return device_copy(dst, src, total, stream, "all_to_all");
  const std::size_t chunk = total / size;
  const Layout block = dyn_slice_out(layout, t, size);
  const bool pack = outer_count(layout, t) > 1;
  const bool unpack = outer_count(all_to_all_out(layout, s, t, size), s) > 1;
  // Where the packed send buffer and the received blocks live, chosen so
  // that at most one local array of scratch is needed (see redist.hpp).
  const auto* send = static_cast<const unsigned char*>(src);
  auto* recv = static_cast<unsigned char*>(unpack ? scratch : dst);
  if (pack) {
    void* packed = unpack ? dst : scratch;
    if (Status st = cuda::pack_chunks(layout, t, size, src, total, packed, total, stream); !st.ok())
      return prefixed("all_to_all", st);
    send = static_cast<const unsigned char*>(packed);
  }
  const int me = mesh.index_in(g);
  if (Status st = device_copy(recv + me * chunk, send + me * chunk, chunk, stream, "all_to_all");
      !st.ok())
    return st;
  if (Status st = grouped(comm, "all_to_all",
                          [&]() -> Status {
                            for (int j = 0; j < g.size; ++j) {
                              if (j == me) continue;
                              if (Status e = send_bytes(send + j * chunk, chunk, j, comm, stream);
                                  !e.ok())
                                return e;
                              if (Status e = recv_bytes(recv + j * chunk, chunk, j, comm, stream);
                                  !e.ok())
                                return e;
                            }
                            return {};
                          });
      !st.ok())
    return st;
  if (!unpack) return {};
  return prefixed("all_to_all",
                  cuda::concat_blocks(block, s, size, scratch, total, dst, total, stream));
}

Status check_run(const Mesh& mesh, const char* what, const ProblemDigest& problem, int devices,
                 const void* src, std::size_t src_bytes, std::size_t src_need, const void* dst,
                 std::size_t dst_bytes, std::size_t dst_need, const void* workspace,
                 std::size_t workspace_bytes, std::size_t workspace_need) {
  return backend::check_run(mesh, agree_over(mesh), mesh.agreement(), what, problem, devices, src, src_bytes,
                            src_need, dst, dst_bytes, dst_need, workspace, workspace_bytes,
                            workspace_need);
}

Status all_permute(const Mesh& mesh, const int* recv_from, std::size_t table_len,
                   const Layout& layout, const void* src, std::size_t src_bytes, void* dst,
                   std::size_t dst_bytes) {
  std::size_t total = 0;
  if (Status st = check_all_permute(mesh, agree_over(mesh), mesh.agreement(), recv_from, table_len,
                                    layout, src, src_bytes, dst, dst_bytes, kMaxMessage, &total);
      !st.ok())
    return st;
  const int me = mesh.rank();
  const int size = mesh.size();

  cudaStream_t stream = mesh.stream();
  if (recv_from[me] == me)
    if (Status st = device_copy(dst, src, total, stream, "all_permute"); !st.ok()) return st;
  ncclComm_t comm = mesh.nccl_comm();
  return grouped(comm, "all_permute", [&]() -> Status {
    if (recv_from[me] != me)
      if (Status e = recv_bytes(dst, total, recv_from[me], comm, stream); !e.ok()) return e;
    for (int r = 0; r < size; ++r) {
      if (r == me || recv_from[r] != me) continue;
      if (Status e = send_bytes(src, total, r, comm, stream); !e.ok()) return e;
    }
    return {};
  });
}

}  // namespace redist::nccl
