#include "redist/mpi.hpp"

#include <climits>
#include <cstring>
#include <string>
#include <utility>

namespace redist {

namespace {

// Tag of all_permute messages; the mesh owns its communicator, so no other
// traffic can match it.
constexpr int kPermuteTag = 0x7ed1;
// all_permute waits for its sends in batches of this many requests, so the
// request array lives on the stack however many ranks read from one source.
// Small, so that the 8-rank tests (one source, seven readers) exercise it.
constexpr int kSendBatch = 4;

std::string str(long long v) { return std::to_string(v); }

Status mpi_status(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return {};
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  return {Errc::backend_error, std::string(what) + ": " + std::string(text, len)};
}

Status check_count(std::size_t bytes) {
  if (bytes > static_cast<std::size_t>(INT_MAX))
    return {Errc::too_large,
            "message of " + std::to_string(bytes) + " bytes exceeds MPI's int count"};
  return {};
}

// Combines the local verdict of every rank of `comm`: returns the local
// error if there is one, remote_error if only another rank failed.  `path`
// (0 or 1) must also agree: it says whether a rank uses MPI_IN_PLACE, which
// MPI requires of all members or none.
Status agree(MPI_Comm comm, Status local, const char* what, int path = 0) {
  const int verdict = local.ok() ? 1 + path : 0;
  int send[2] = {verdict, -verdict}, lo[2] = {0, 0};
  if (Status st = mpi_status(MPI_Allreduce(send, lo, 2, MPI_INT, MPI_MIN, comm), what); !st.ok())
    return st;
  if (!local.ok()) return local;
  if (lo[0] == 0)
    return {Errc::remote_error, std::string(what) + ": another rank reported an error"};
  if (lo[0] != -lo[1])
    return {Errc::invalid_argument,
            std::string(what) + ": members passed scratch sizes that select different paths"};
  return {};
}

// Names the operation in front of a message that does not.
Status prefixed(const char* what, Status st) {
  if (st.ok()) return st;
  return {st.code(), std::string(what) + ": " + st.message()};
}

Status check_empty(const Mesh& mesh, const char* what) {
  if (mesh.size() == 0)
    return {Errc::invalid_argument, std::string(what) + ": mesh is empty (not created or moved from)"};
  return {};
}

// Checks shared by every collective over a group: mesh, group, and its
// communicator (which may be null for a group of size 1).
Status group_setup(const Mesh& mesh, Group g, const char* what, MPI_Comm* comm) {
  if (Status st = check_empty(mesh, what); !st.ok()) return st;
  if (Status st = mesh.check_group(g); !st.ok()) return prefixed(what, st);
  *comm = MPI_COMM_NULL;
  if (g.size == 1) return {};
  return prefixed(what, mesh.group_comm(g, comm));
}

// Pairwise disjointness of the bytes a call uses in its three buffers.
Status check_three(const void* src, std::size_t src_need, void* dst, std::size_t dst_need,
                   void* scratch, std::size_t scratch_need) {
  using local::check_disjoint;
  if (Status st = check_disjoint(src, src_need, "source", dst, dst_need, "destination"); !st.ok())
    return st;
  if (Status st = check_disjoint(src, src_need, "source", scratch, scratch_need, "scratch");
      !st.ok())
    return st;
  return check_disjoint(dst, dst_need, "destination", scratch, scratch_need, "scratch");
}

}  // namespace

// ---- Mesh -------------------------------------------------------------------

Mesh::Mesh(Mesh&& other) noexcept
    : comm_(std::exchange(other.comm_, MPI_COMM_NULL)),
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

void Mesh::release() noexcept {
  int finalized = 0;
  MPI_Finalized(&finalized);
  // After MPI_Finalize freeing is erroneous; the handles died with MPI.
  if (!finalized) {
    for (Cached& c : groups_) MPI_Comm_free(&c.comm);
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }
  groups_.clear();
  comm_ = MPI_COMM_NULL;
  size_ = 0;
  rank_ = -1;
  naxes_ = 0;
}

Status Mesh::create(MPI_Comm comm, const int* axis_sizes, int naxes, Mesh* out) {
  if (out == nullptr) return {Errc::invalid_argument, "Mesh::create: output mesh is null"};
  if (comm == MPI_COMM_NULL) return {Errc::invalid_argument, "Mesh::create: communicator is MPI_COMM_NULL"};
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
  *out = std::move(mesh);
  return {};
}

int Mesh::axis_stride(int axis) const {
  int stride = 1;
  for (int i = axis + 1; i < naxes_; ++i) stride *= axis_sizes_[i];
  return stride;
}

int Mesh::coord_of(int rank, int axis) const {
  return (rank / axis_stride(axis)) % axis_sizes_[axis];
}

int Mesh::rank_of(const int* coords) const {
  int rank = 0;
  for (int i = 0; i < naxes_; ++i) {
    if (coords[i] < 0 || coords[i] >= axis_sizes_[i]) return -1;
    rank = rank * axis_sizes_[i] + coords[i];
  }
  return rank;
}

Status Mesh::check_group(Group g) const {
  const long long span = static_cast<long long>(g.stride) * g.size;
  if (g.stride < 1 || g.size < 1 || span > size_ || size_ % span != 0)
    return {Errc::invalid_argument, "group (stride " + str(g.stride) + ", size " + str(g.size) +
                                        ") is not a group of a mesh of " + str(size_) + " devices"};
  return {};
}

Status Mesh::group_comm(Group g, MPI_Comm* out) const {
  if (g.size == 1) {
    *out = MPI_COMM_SELF;
    return {};
  }
  for (const Cached& c : groups_) {
    if (c.group.stride == g.stride && c.group.size == g.size) {
      *out = c.comm;
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
  // One MIN-allreduce gives both the smallest and (negated) largest length.
  const int n = count > static_cast<std::size_t>(INT_MAX) ? INT_MAX : static_cast<int>(count);
  int verdict[3] = {local.ok() ? 1 : 0, n, -n};
  int lo[3] = {0, 0, 0};
  if (Status st = mpi_status(MPI_Allreduce(verdict, lo, 3, MPI_INT, MPI_MIN, comm_), "Mesh::prepare");
      !st.ok())
    return st;
  if (!local.ok()) return local;
  if (lo[0] == 0) return {Errc::remote_error, "Mesh::prepare: another rank reported an error"};
  if (lo[1] != -lo[2])
    return {Errc::invalid_argument, "Mesh::prepare: ranks passed group lists of different lengths"};

  for (std::size_t i = 0; i < count; ++i) {
    const Group g = groups[i];
    MPI_Comm existing;
    if (g.size == 1 || group_comm(g, &existing).ok()) continue;
    MPI_Comm sub = MPI_COMM_NULL;
    if (Status st = mpi_status(MPI_Comm_split(comm_, group_member(rank_, g, 0), group_index(rank_, g), &sub),
                               "Mesh::prepare");
        !st.ok())
      return st;
    MPI_Comm_set_errhandler(sub, MPI_ERRORS_RETURN);
    groups_.push_back({g, sub});
  }
  return {};
}

// ---- collectives --------------------------------------------------------------

Status dyn_slice(const Mesh& mesh, Group g, const Layout& layout, int dim, const void* src,
                 std::size_t src_bytes, void* dst, std::size_t dst_bytes) {
  if (Status st = check_empty(mesh, "dyn_slice"); !st.ok()) return st;
  if (Status st = mesh.check_group(g); !st.ok()) return prefixed("dyn_slice", st);
  return prefixed("dyn_slice",
                  local::slice(layout, dim, static_cast<std::size_t>(g.size),
                               static_cast<std::size_t>(mesh.index_in(g)), src, src_bytes, dst,
                               dst_bytes));
}

namespace {

// The out-of-place path when the scratch given allows it (see redist.hpp).
bool out_of_place(std::size_t fast_need, std::size_t scratch_bytes) {
  return fast_need > 0 && scratch_bytes >= fast_need;
}

Status check_all_gather(const Layout& layout, int dim, std::size_t size, const void* src,
                        std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* scratch,
                        std::size_t scratch_bytes, std::size_t need_scratch) {
  if (Status st = validate_layout(layout); !st.ok()) return st;
  if (Status st = local::check_dim(layout, dim, "dim"); !st.ok()) return st;
  const std::size_t in = bytes(layout);
  if (Status st = check_count(in); !st.ok()) return st;
  if (Status st = local::check_buffer(src, src_bytes, in, "source"); !st.ok()) return st;
  if (Status st = local::check_buffer(dst, dst_bytes, in * size, "destination"); !st.ok()) return st;
  if (Status st = local::check_buffer(scratch, scratch_bytes, need_scratch, "scratch"); !st.ok())
    return st;
  return check_three(src, in, dst, in * size, scratch, need_scratch);
}

Status check_all_to_all(const Layout& layout, int s, int t, std::size_t size, const void* src,
                        std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* scratch,
                        std::size_t scratch_bytes, std::size_t need_scratch) {
  if (Status st = validate_layout(layout); !st.ok()) return st;
  if (Status st = local::check_dim(layout, s, "source dim"); !st.ok()) return st;
  if (Status st = local::check_dim(layout, t, "target dim"); !st.ok()) return st;
  if (s == t) return {Errc::invalid_argument, "source and target dim are both " + str(s)};
  if (layout.extent[t] % size != 0)
    return {Errc::invalid_argument, "extent " + std::to_string(layout.extent[t]) + " of dim " +
                                        str(t) + " is not divisible by the group size " +
                                        std::to_string(size)};
  const std::size_t total = bytes(layout);
  if (Status st = check_count(total / size); !st.ok()) return st;
  if (Status st = local::check_buffer(src, src_bytes, total, "source"); !st.ok()) return st;
  if (Status st = local::check_buffer(dst, dst_bytes, total, "destination"); !st.ok()) return st;
  if (Status st = local::check_buffer(scratch, scratch_bytes, need_scratch, "scratch"); !st.ok())
    return st;
  return check_three(src, total, dst, total, scratch, need_scratch);
}

}  // namespace

Status all_gather(const Mesh& mesh, Group g, const Layout& layout, int dim, const void* src,
                  std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* scratch,
                  std::size_t scratch_bytes) {
  MPI_Comm comm;
  if (Status st = group_setup(mesh, g, "all_gather", &comm); !st.ok()) return st;
  const auto size = static_cast<std::size_t>(g.size);
  const std::size_t fast = all_gather_scratch_bytes(layout, dim, size);
  const bool staged = out_of_place(fast, scratch_bytes);
  const std::size_t need = staged ? fast : all_gather_min_scratch_bytes(layout, dim, size);
  Status local = prefixed("all_gather", check_all_gather(layout, dim, size, src, src_bytes, dst,
                                                         dst_bytes, scratch, scratch_bytes, need));
  if (g.size > 1 && mesh.agreement()) local = agree(comm, std::move(local), "all_gather");
  if (!local.ok()) return local;

  const std::size_t in = bytes(layout);
  if (g.size == 1) {
    std::memcpy(dst, src, in);
    return {};
  }
  const int count = static_cast<int>(in);
  void* recv = staged ? scratch : dst;
  if (Status st = mpi_status(MPI_Allgather(src, count, MPI_BYTE, recv, count, MPI_BYTE, comm),
                             "all_gather");
      !st.ok() || fast == 0)
    return st;
  if (staged)
    return prefixed("all_gather",
                    local::concat_blocks(layout, dim, size, scratch, in * size, dst, dst_bytes));
  return prefixed("all_gather",
                  local::transpose_blocks(dst, in * size, size, outer_count(layout, dim),
                                          layout.extent[dim] * inner_bytes(layout, dim), scratch,
                                          need));
}

Status all_to_all(const Mesh& mesh, Group g, const Layout& layout, int s, int t, const void* src,
                  std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* scratch,
                  std::size_t scratch_bytes) {
  MPI_Comm comm;
  if (Status st = group_setup(mesh, g, "all_to_all", &comm); !st.ok()) return st;
  const auto size = static_cast<std::size_t>(g.size);
  const std::size_t fast = all_to_all_scratch_bytes(layout, s, t, size);
  const bool staged = out_of_place(fast, scratch_bytes);
  const std::size_t need = staged ? fast : all_to_all_min_scratch_bytes(layout, s, t, size);
  Status local = prefixed("all_to_all", check_all_to_all(layout, s, t, size, src, src_bytes, dst,
                                                         dst_bytes, scratch, scratch_bytes, need));
  const bool pack = outer_count(layout, t) > 1;
  const bool in_place_send = !staged && pack;
  if (g.size > 1 && mesh.agreement())
    local = agree(comm, std::move(local), "all_to_all", in_place_send ? 1 : 0);
  if (!local.ok()) return local;

  const std::size_t total = bytes(layout);
  if (g.size == 1) {
    std::memcpy(dst, src, total);
    return {};
  }
  const int count = static_cast<int>(total / size);
  const Layout out = all_to_all_out(layout, s, t, size);
  const bool unpack = outer_count(out, s) > 1;
  if (staged) {
    // Where the packed send buffer and the received blocks live, chosen so
    // that one local array of scratch is enough (see redist.hpp).
    const void* send = src;
    void* recv = unpack ? scratch : dst;
    if (pack) {
      void* packed = unpack ? dst : scratch;
      if (Status st = local::pack_chunks(layout, t, size, src, total, packed, total); !st.ok())
        return prefixed("all_to_all", st);
      send = packed;
    }
    if (Status st = mpi_status(MPI_Alltoall(send, count, MPI_BYTE, recv, count, MPI_BYTE, comm),
                               "all_to_all");
        !st.ok() || !unpack)
      return st;
    const Layout block = dyn_slice_out(layout, t, size);
    return prefixed("all_to_all", local::concat_blocks(block, s, size, scratch, total, dst, total));
  }
  // In place in the destination: packed chunks are exchanged where they lie.
  if (pack) {
    if (Status st = local::pack_chunks(layout, t, size, src, total, dst, total); !st.ok())
      return prefixed("all_to_all", st);
  }
  const void* send = in_place_send ? MPI_IN_PLACE : src;
  if (Status st = mpi_status(MPI_Alltoall(send, count, MPI_BYTE, dst, count, MPI_BYTE, comm),
                             "all_to_all");
      !st.ok() || !unpack)
    return st;
  return prefixed("all_to_all",
                  local::transpose_blocks(dst, total, size, outer_count(out, s),
                                          layout.extent[s] * inner_bytes(out, s), scratch, need));
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
  if (local.ok()) local = prefixed("all_permute", check_count(total));
  if (local.ok()) local = prefixed("all_permute", local::check_buffer(src, src_bytes, total, "source"));
  if (local.ok())
    local = prefixed("all_permute", local::check_buffer(dst, dst_bytes, total, "destination"));
  if (local.ok())
    local = prefixed("all_permute",
                     local::check_disjoint(src, total, "source", dst, total, "destination"));
  if (size > 1 && mesh.agreement()) local = agree(mesh.comm(), std::move(local), "all_permute");
  if (!local.ok()) return local;

  const int count = static_cast<int>(total);
  MPI_Comm comm = mesh.comm();
  MPI_Request reqs[kSendBatch + 1];
  int pending = 0;
  // The receive is posted before this rank waits on anything, so every
  // send below finds its receive posted once all ranks have entered the call.
  if (recv_from[me] == me) {
    std::memcpy(dst, src, total);
  } else if (Status st = mpi_status(MPI_Irecv(dst, count, MPI_BYTE, recv_from[me], kPermuteTag,
                                              comm, &reqs[pending++]),
                                    "all_permute");
             !st.ok()) {
    return st;
  }
  for (int r = 0; r < size; ++r) {
    if (r == me || recv_from[r] != me) continue;
    if (Status st = mpi_status(
            MPI_Isend(src, count, MPI_BYTE, r, kPermuteTag, comm, &reqs[pending++]), "all_permute");
        !st.ok())
      return st;
    if (pending == kSendBatch + 1) {
      if (Status st = mpi_status(MPI_Waitall(pending, reqs, MPI_STATUSES_IGNORE), "all_permute");
          !st.ok())
        return st;
      pending = 0;
    }
  }
  return mpi_status(MPI_Waitall(pending, reqs, MPI_STATUSES_IGNORE), "all_permute");
}

}  // namespace redist
