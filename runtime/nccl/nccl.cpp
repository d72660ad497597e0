#include "redist/nccl.hpp"

#include <climits>
#include <cstring>
#include <string>
#include <utility>

#include "copy_plan.hpp"
#include "redist/local.hpp"

namespace redist::nccl {

namespace {

using cuda::detail::cuda_status;

std::string str(long long v) { return std::to_string(v); }

Status mpi_status(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return {};
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  return {Errc::backend_error, std::string(what) + ": " + std::string(text, len)};
}

Status nccl_status(ncclResult_t rc, ncclComm_t comm, const char* what) {
  if (rc == ncclSuccess) return {};
  std::string message = std::string(what) + ": " + ncclGetErrorString(rc);
  if (const char* last = ncclGetLastError(comm); last != nullptr && *last != '\0')
    message += std::string(" (") + last + ")";
  return {Errc::backend_error, std::move(message)};
}

Status prefixed(const char* what, Status st) {
  if (st.ok()) return st;
  return {st.code(), std::string(what) + ": " + st.message()};
}

// Combines the local verdict of every rank of `comm` on the host: returns
// the local error if there is one, remote_error if only another rank failed.
Status agree(MPI_Comm comm, Status local, const char* what) {
  int all_ok = local.ok() ? 1 : 0;
  if (Status st = mpi_status(MPI_Allreduce(MPI_IN_PLACE, &all_ok, 1, MPI_INT, MPI_MIN, comm), what);
      !st.ok())
    return st;
  if (!local.ok()) return local;
  if (!all_ok) return {Errc::remote_error, std::string(what) + ": another rank reported an error"};
  return {};
}

Status check_empty(const Mesh& mesh, const char* what) {
  if (mesh.size() == 0)
    return {Errc::invalid_argument, std::string(what) + ": mesh is empty (not created or moved from)"};
  return {};
}

// Opens an NCCL group, enqueues `body` (which stops at its first failure),
// and closes the group whatever happened, as NCCL requires.
template <typename Body>
Status grouped(ncclComm_t comm, const char* what, Body&& body) {
  if (Status st = nccl_status(ncclGroupStart(), comm, "ncclGroupStart"); !st.ok())
    return prefixed(what, st);
  Status inside = body();
  Status end = nccl_status(ncclGroupEnd(), comm, "ncclGroupEnd");
  return prefixed(what, inside.ok() ? end : inside);
}

Status device_copy(void* dst, const void* src, std::size_t n, cudaStream_t stream, const char* what) {
  return prefixed(what, cuda_status(cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice, stream),
                                    "cudaMemcpyAsync"));
}

}  // namespace

// ---- Mesh -------------------------------------------------------------------

Mesh::Mesh(Mesh&& other) noexcept
    : comm_(std::exchange(other.comm_, MPI_COMM_NULL)),
      nccl_(std::exchange(other.nccl_, nullptr)),
      stream_(std::exchange(other.stream_, nullptr)),
      device_(std::exchange(other.device_, -1)),
      size_(std::exchange(other.size_, 0)),
      rank_(std::exchange(other.rank_, -1)),
      naxes_(std::exchange(other.naxes_, 0)),
      agreement_(other.agreement_),
      groups_(std::move(other.groups_)) {
  std::memcpy(axis_sizes_, other.axis_sizes_, sizeof axis_sizes_);
  other.groups_.clear();
}

Mesh& Mesh::operator=(Mesh&& other) noexcept {
  if (this != &other) {
    release();
    comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
    nccl_ = std::exchange(other.nccl_, nullptr);
    stream_ = std::exchange(other.stream_, nullptr);
    device_ = std::exchange(other.device_, -1);
    size_ = std::exchange(other.size_, 0);
    rank_ = std::exchange(other.rank_, -1);
    naxes_ = std::exchange(other.naxes_, 0);
    agreement_ = other.agreement_;
    std::memcpy(axis_sizes_, other.axis_sizes_, sizeof axis_sizes_);
    groups_ = std::move(other.groups_);
    other.groups_.clear();
  }
  return *this;
}

Mesh::~Mesh() { release(); }

// A destructor cannot report errors; destroying is best effort.
void Mesh::release() noexcept {
  for (Cached& c : groups_) (void)ncclCommDestroy(c.nccl);
  if (nccl_ != nullptr) (void)ncclCommDestroy(nccl_);
  int finalized = 0;
  MPI_Finalized(&finalized);
  // After MPI_Finalize freeing is erroneous; the handles died with MPI.
  if (!finalized) {
    for (Cached& c : groups_) MPI_Comm_free(&c.mpi);
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }
  groups_.clear();
  comm_ = MPI_COMM_NULL;
  nccl_ = nullptr;
  stream_ = nullptr;
  device_ = -1;
  size_ = 0;
  rank_ = -1;
  naxes_ = 0;
}

Status Mesh::create(MPI_Comm comm, const int* axis_sizes, int naxes, cudaStream_t stream,
                    Mesh* out) {
  if (out == nullptr) return {Errc::invalid_argument, "Mesh::create: output mesh is null"};
  if (comm == MPI_COMM_NULL)
    return {Errc::invalid_argument, "Mesh::create: communicator is MPI_COMM_NULL"};
  if (naxes < 1 || naxes > kMaxRank)
    return {Errc::invalid_argument,
            "Mesh::create: axis count " + str(naxes) + " is not in 1.." + str(kMaxRank)};
  if (axis_sizes == nullptr) return {Errc::invalid_argument, "Mesh::create: axis sizes are null"};
  long long total = 1;
  for (int i = 0; i < naxes; ++i) {
    if (axis_sizes[i] < 1)
      return {Errc::invalid_argument,
              "Mesh::create: size " + str(axis_sizes[i]) + " of axis " + str(i) + " is below 1"};
    total *= axis_sizes[i];
    if (total > INT_MAX) return {Errc::too_large, "Mesh::create: mesh has more than INT_MAX devices"};
  }
  int comm_size = 0;
  if (Status st = mpi_status(MPI_Comm_size(comm, &comm_size), "Mesh::create"); !st.ok()) return st;
  if (comm_size != total)
    return {Errc::mesh_mismatch, "Mesh::create: communicator has " + str(comm_size) +
                                     " ranks but the mesh has " + str(total) + " devices"};

  Mesh mesh;
  if (Status st = mpi_status(MPI_Comm_dup(comm, &mesh.comm_), "Mesh::create"); !st.ok()) return st;
  MPI_Comm_set_errhandler(mesh.comm_, MPI_ERRORS_RETURN);
  mesh.size_ = comm_size;
  MPI_Comm_rank(mesh.comm_, &mesh.rank_);
  mesh.naxes_ = naxes;
  for (int i = 0; i < naxes; ++i) mesh.axis_sizes_[i] = axis_sizes[i];
  mesh.stream_ = stream;

  // Everything that can fail locally happens, and is agreed on, before
  // ncclCommInitRank, which would wait forever for a rank that never joins.
  int devices = 0;
  Status local = cuda_status(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
  if (local.ok() && devices == 0) local = {Errc::backend_error, "no CUDA device"};
  if (local.ok()) local = cuda_status(cudaGetDevice(&mesh.device_), "cudaGetDevice");
  ncclUniqueId id;
  std::memset(&id, 0, sizeof id);
  if (local.ok() && mesh.rank_ == 0) local = nccl_status(ncclGetUniqueId(&id), nullptr, "ncclGetUniqueId");
  if (Status st = agree(mesh.comm_, prefixed("Mesh::create", std::move(local)), "Mesh::create");
      !st.ok())
    return st;
  if (Status st = mpi_status(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, mesh.comm_), "Mesh::create");
      !st.ok())
    return st;
  ncclComm_t world = nullptr;
  local = nccl_status(ncclCommInitRank(&world, comm_size, id, mesh.rank_), nullptr,
                      "Mesh::create: ncclCommInitRank");
  if (local.ok()) mesh.nccl_ = world;
  if (Status st = agree(mesh.comm_, std::move(local), "Mesh::create"); !st.ok()) return st;
  *out = std::move(mesh);
  return {};
}

Status Mesh::check_group(Group g) const {
  const long long span = static_cast<long long>(g.stride) * g.size;
  if (g.stride < 1 || g.size < 1 || span > size_ || size_ % span != 0)
    return {Errc::invalid_argument, "group (stride " + str(g.stride) + ", size " + str(g.size) +
                                        ") is not a group of a mesh of " + str(size_) + " devices"};
  return {};
}

Status Mesh::group_comms(Group g, MPI_Comm* mpi_out, ncclComm_t* nccl_out) const {
  for (const Cached& c : groups_) {
    if (c.group.stride == g.stride && c.group.size == g.size) {
      *mpi_out = c.mpi;
      *nccl_out = c.nccl;
      return {};
    }
  }
  return {Errc::mesh_mismatch, "group (stride " + str(g.stride) + ", size " + str(g.size) +
                                   ") was not prepared (call Mesh::prepare first)"};
}

Status Mesh::prepare(const Group* groups, std::size_t count) {
  if (Status st = check_empty(*this, "Mesh::prepare"); !st.ok()) return st;
  Status local;
  if (count > 0 && groups == nullptr)
    local = {Errc::invalid_argument, "Mesh::prepare: group list is null"};
  for (std::size_t i = 0; local.ok() && i < count; ++i)
    local = prefixed("Mesh::prepare", check_group(groups[i]));
  // Every rank must split the same groups in the same order, so the lists
  // must agree in length as well as in validity.
  const long long n = static_cast<long long>(count);
  int verdict[2] = {local.ok() ? 1 : 0, n > INT_MAX ? INT_MAX : static_cast<int>(n)};
  int lo[2] = {0, 0}, hi[2] = {0, 0};
  if (Status st = mpi_status(MPI_Allreduce(verdict, lo, 2, MPI_INT, MPI_MIN, comm_), "Mesh::prepare");
      !st.ok())
    return st;
  if (Status st = mpi_status(MPI_Allreduce(verdict, hi, 2, MPI_INT, MPI_MAX, comm_), "Mesh::prepare");
      !st.ok())
    return st;
  if (!local.ok()) return local;
  if (lo[0] == 0) return {Errc::remote_error, "Mesh::prepare: another rank reported an error"};
  if (lo[1] != hi[1])
    return {Errc::invalid_argument, "Mesh::prepare: ranks passed group lists of different lengths"};

  for (std::size_t i = 0; i < count; ++i) {
    const Group g = groups[i];
    MPI_Comm existing_mpi;
    ncclComm_t existing_nccl;
    if (g.size == 1 || group_comms(g, &existing_mpi, &existing_nccl).ok()) continue;
    const int color = group_member(rank_, g, 0);
    const int key = group_index(rank_, g);
    MPI_Comm mpi = MPI_COMM_NULL;
    if (Status st = mpi_status(MPI_Comm_split(comm_, color, key, &mpi), "Mesh::prepare"); !st.ok())
      return st;
    MPI_Comm_set_errhandler(mpi, MPI_ERRORS_RETURN);
    ncclComm_t sub = nullptr;
    if (Status st = nccl_status(ncclCommSplit(nccl_, color, key, &sub, nullptr), nccl_,
                                "Mesh::prepare: ncclCommSplit");
        !st.ok()) {
      MPI_Comm_free(&mpi);
      return st;
    }
    groups_.push_back({g, mpi, sub});
  }
  return {};
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

// Checks shared by every collective over a group: mesh, group, and its
// communicators (none for a group of size 1).
Status group_setup(const Mesh& mesh, Group g, const char* what, MPI_Comm* mpi, ncclComm_t* comm) {
  if (Status st = check_empty(mesh, what); !st.ok()) return st;
  if (Status st = mesh.check_group(g); !st.ok()) return prefixed(what, st);
  *mpi = MPI_COMM_NULL;
  *comm = nullptr;
  if (g.size == 1) return {};
  return prefixed(what, mesh.group_comms(g, mpi, comm));
}

Status check_three(const void* src, std::size_t src_need, void* dst, std::size_t dst_need,
                   void* scratch, std::size_t scratch_need) {
  using local::check_disjoint;
  if (Status st = check_disjoint(src, src_need, "source", dst, dst_need, "destination"); !st.ok())
    return st;
  if (Status st = check_disjoint(src, src_need, "source", scratch, scratch_need, "scratch"); !st.ok())
    return st;
  return check_disjoint(dst, dst_need, "destination", scratch, scratch_need, "scratch");
}

Status check_buffers(const void* src, std::size_t src_bytes, std::size_t src_need, void* dst,
                     std::size_t dst_bytes, std::size_t dst_need, void* scratch,
                     std::size_t scratch_bytes, std::size_t scratch_need) {
  if (Status st = local::check_buffer(src, src_bytes, src_need, "source"); !st.ok()) return st;
  if (Status st = local::check_buffer(dst, dst_bytes, dst_need, "destination"); !st.ok()) return st;
  if (Status st = local::check_buffer(scratch, scratch_bytes, scratch_need, "scratch"); !st.ok())
    return st;
  return check_three(src, src_need, dst, dst_need, scratch, scratch_need);
}

Status check_all_gather(const Layout& layout, int dim, std::size_t size, const void* src,
                        std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* scratch,
                        std::size_t scratch_bytes) {
  if (Status st = validate_layout(layout); !st.ok()) return st;
  if (Status st = local::check_dim(layout, dim, "dim"); !st.ok()) return st;
  const std::size_t in = bytes(layout);
  return check_buffers(src, src_bytes, in, dst, dst_bytes, in * size, scratch, scratch_bytes,
                       all_gather_scratch_bytes(layout, dim, size));
}

Status check_all_to_all(const Layout& layout, int s, int t, std::size_t size, const void* src,
                        std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* scratch,
                        std::size_t scratch_bytes) {
  if (Status st = validate_layout(layout); !st.ok()) return st;
  if (Status st = local::check_dim(layout, s, "source dim"); !st.ok()) return st;
  if (Status st = local::check_dim(layout, t, "target dim"); !st.ok()) return st;
  if (s == t) return {Errc::invalid_argument, "source and target dim are both " + str(s)};
  if (layout.extent[t] % size != 0)
    return {Errc::invalid_argument, "extent " + std::to_string(layout.extent[t]) + " of dim " +
                                        str(t) + " is not divisible by the group size " +
                                        std::to_string(size)};
  const std::size_t total = bytes(layout);
  return check_buffers(src, src_bytes, total, dst, dst_bytes, total, scratch, scratch_bytes,
                       all_to_all_scratch_bytes(layout, s, t, size));
}

}  // namespace

Status dyn_slice(const Mesh& mesh, Group g, const Layout& layout, int dim, const void* src,
                 std::size_t src_bytes, void* dst, std::size_t dst_bytes) {
  if (Status st = check_empty(mesh, "dyn_slice"); !st.ok()) return st;
  if (Status st = mesh.check_group(g); !st.ok()) return prefixed("dyn_slice", st);
  return prefixed("dyn_slice", cuda::slice(layout, dim, static_cast<std::size_t>(g.size),
                                           static_cast<std::size_t>(mesh.index_in(g)), src,
                                           src_bytes, dst, dst_bytes, mesh.stream()));
}

Status all_gather(const Mesh& mesh, Group g, const Layout& layout, int dim, const void* src,
                  std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* scratch,
                  std::size_t scratch_bytes) {
  MPI_Comm mpi;
  ncclComm_t comm;
  if (Status st = group_setup(mesh, g, "all_gather", &mpi, &comm); !st.ok()) return st;
  const auto size = static_cast<std::size_t>(g.size);
  Status local = prefixed("all_gather", check_all_gather(layout, dim, size, src, src_bytes, dst,
                                                         dst_bytes, scratch, scratch_bytes));
  if (g.size > 1 && mesh.agreement()) local = agree(mpi, std::move(local), "all_gather");
  if (!local.ok()) return local;

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
  MPI_Comm mpi;
  ncclComm_t comm;
  if (Status st = group_setup(mesh, g, "all_to_all", &mpi, &comm); !st.ok()) return st;
  const auto size = static_cast<std::size_t>(g.size);
  Status local = prefixed("all_to_all", check_all_to_all(layout, s, t, size, src, src_bytes, dst,
                                                         dst_bytes, scratch, scratch_bytes));
  if (g.size > 1 && mesh.agreement()) local = agree(mpi, std::move(local), "all_to_all");
  if (!local.ok()) return local;

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
                              if (Status e = nccl_status(ncclSend(send + j * chunk, chunk, ncclUint8,
                                                                  j, comm, stream),
                                                         comm, "ncclSend");
                                  !e.ok())
                                return e;
                              if (Status e = nccl_status(ncclRecv(recv + j * chunk, chunk, ncclUint8,
                                                                  j, comm, stream),
                                                         comm, "ncclRecv");
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

Status all_permute(const Mesh& mesh, const int* recv_from, std::size_t table_len,
                   const Layout& layout, const void* src, std::size_t src_bytes, void* dst,
                   std::size_t dst_bytes) {
  if (Status st = check_empty(mesh, "all_permute"); !st.ok()) return st;
  const int me = mesh.rank();
  const int size = mesh.size();
  Status local;
  if (recv_from == nullptr) {
    local = {Errc::invalid_argument, "all_permute: table is null"};
  } else if (table_len != static_cast<std::size_t>(size)) {
    local = {Errc::mesh_mismatch, "all_permute: table has " + std::to_string(table_len) +
                                      " entries but the mesh has " + str(size) + " devices"};
  } else {
    for (int r = 0; r < size && local.ok(); ++r)
      if (recv_from[r] < 0 || recv_from[r] >= size)
        local = {Errc::invalid_argument, "all_permute: rank " + str(r) + " receives from rank " +
                                             str(recv_from[r]) + ", which is not in the mesh"};
  }
  if (local.ok()) local = prefixed("all_permute", validate_layout(layout));
  const std::size_t total = local.ok() ? bytes(layout) : 0;
  if (local.ok()) local = prefixed("all_permute", local::check_buffer(src, src_bytes, total, "source"));
  if (local.ok())
    local = prefixed("all_permute", local::check_buffer(dst, dst_bytes, total, "destination"));
  if (local.ok())
    local = prefixed("all_permute",
                     local::check_disjoint(src, total, "source", dst, total, "destination"));
  if (size > 1 && mesh.agreement()) local = agree(mesh.comm(), std::move(local), "all_permute");
  if (!local.ok()) return local;

  cudaStream_t stream = mesh.stream();
  if (recv_from[me] == me)
    if (Status st = device_copy(dst, src, total, stream, "all_permute"); !st.ok()) return st;
  ncclComm_t comm = mesh.nccl_comm();
  return grouped(comm, "all_permute", [&]() -> Status {
    if (recv_from[me] != me)
      if (Status e = nccl_status(ncclRecv(dst, total, ncclUint8, recv_from[me], comm, stream), comm,
                                 "ncclRecv");
          !e.ok())
        return e;
    for (int r = 0; r < size; ++r) {
      if (r == me || recv_from[r] != me) continue;
      if (Status e = nccl_status(ncclSend(src, total, ncclUint8, r, comm, stream), comm, "ncclSend");
          !e.ok())
        return e;
    }
    return {};
  });
}

}  // namespace redist::nccl
