#include "redist/mpi.hpp"

#include <climits>
#include <cstring>
#include <utility>

#include "internal/backend_common.hpp"

namespace redist {

using namespace backend;

namespace {

// Tag of all_permute messages; the mesh owns its communicator, so no other
// traffic can match it.
constexpr int kPermuteTag = 0x7ed1;
// all_permute waits for its sends in batches of this many requests, so the
// request array lives on the stack however many ranks read from one source.
// Small, so that the 8-rank tests (one source, seven readers) exercise it.
constexpr int kSendBatch = 4;
// An MPI count is an int (Open MPI here has no MPI-4 large counts), so a
// message longer than kBlockBytes travels as one element of a derived
// datatype: whole blocks of kBlockBytes, then the remainder.  The tests
// build the backend a second time with tiny blocks (REDIST_MPI_BLOCK_BYTES),
// so that small arrays take the derived-datatype path.
#ifdef REDIST_MPI_BLOCK_BYTES
constexpr std::size_t kBlockBytes = REDIST_MPI_BLOCK_BYTES;
#else
constexpr std::size_t kBlockBytes = std::size_t{1} << 30;
#endif
static_assert(kBlockBytes >= 1 && kBlockBytes <= INT_MAX, "a block must fit one int count");
// The block count is an int too.
constexpr std::size_t kMaxMessage = kBlockBytes * INT_MAX;

// One message's (count, datatype) pair; owns the derived datatype when the
// message needs one.  Creating it allocates inside MPI, which only messages
// over kBlockBytes pay.
class Message {
 public:
  explicit Message(std::size_t bytes) : bytes_(bytes) {}
  Message(const Message&) = delete;
  Message& operator=(const Message&) = delete;
  ~Message() {
    if (derived_ != MPI_DATATYPE_NULL) MPI_Type_free(&derived_);
  }

  // Builds the derived datatype if the message is longer than one block.
  Status describe(const char* what);
  int count() const { return derived_ == MPI_DATATYPE_NULL ? static_cast<int>(bytes_) : 1; }
  MPI_Datatype type() const { return derived_ == MPI_DATATYPE_NULL ? MPI_BYTE : derived_; }

 private:
  std::size_t bytes_;
  MPI_Datatype derived_ = MPI_DATATYPE_NULL;
};

Status Message::describe(const char* what) {
  if (bytes_ <= kBlockBytes) return {};
  const std::size_t blocks = bytes_ / kBlockBytes;
  const std::size_t rest = bytes_ % kBlockBytes;
  MPI_Datatype block = MPI_DATATYPE_NULL;
  if (Status st =
          mpi_status(MPI_Type_contiguous(static_cast<int>(kBlockBytes), MPI_BYTE, &block), what);
      !st.ok())
    return st;
  const int lengths[2] = {static_cast<int>(blocks), static_cast<int>(rest)};
  const MPI_Aint displacements[2] = {0, static_cast<MPI_Aint>(blocks * kBlockBytes)};
  const MPI_Datatype types[2] = {block, MPI_BYTE};
  MPI_Datatype joined = MPI_DATATYPE_NULL;
  Status st = mpi_status(
      MPI_Type_create_struct(rest > 0 ? 2 : 1, lengths, displacements, types, &joined), what);
  MPI_Type_free(&block);
  if (!st.ok()) return st;
  // The extent is exactly the message, so the k-th message of a collective
  // lies k * bytes_ into its buffer.
  st = mpi_status(MPI_Type_create_resized(joined, 0, static_cast<MPI_Aint>(bytes_), &derived_),
                  what);
  MPI_Type_free(&joined);
  if (!st.ok()) return st;
  return mpi_status(MPI_Type_commit(&derived_), what);
}

// The group checks of a collective, before its argument checks: the group
// is valid and prepared; *comm is then its communicator (MPI_COMM_SELF for
// a group of one).  Messages without the operation's name.
Status group_setup(const Mesh& mesh, Group g, MPI_Comm* comm) {
  *comm = MPI_COMM_NULL;
  if (Status st = mesh.check_group(g); !st.ok()) return st;
  return mesh.group_comm(g, comm);
}

}  // namespace

// ---- Mesh -------------------------------------------------------------------

Mesh::Mesh(Mesh&& other) noexcept
    : MeshGeometry(std::exchange<MeshGeometry>(other, MeshGeometry())),
      comm_(std::exchange(other.comm_, MPI_COMM_NULL)),
      agreement_(other.agreement_),
      groups_(std::move(other.groups_)) {
  other.groups_.clear();
}

Mesh& Mesh::operator=(Mesh&& other) noexcept {
  if (this != &other) {
    release();
    MeshGeometry::operator=(std::exchange<MeshGeometry>(other, MeshGeometry()));
    comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
    agreement_ = other.agreement_;
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
  MeshGeometry::operator=(MeshGeometry());
}

Status Mesh::create(MPI_Comm comm, const int* axis_sizes, int naxes, const ProblemDigest& problem,
                    Mesh* out) {
  Mesh mesh;
  int rank = -1;
  if (Status st = open_mesh(comm, axis_sizes, naxes, problem, out, &mesh.comm_, &rank); !st.ok())
    return st;
  static_cast<MeshGeometry&>(mesh) = MeshGeometry(rank, axis_sizes, naxes);
  *out = std::move(mesh);
  return {};
}

Status Mesh::group_comm(Group g, MPI_Comm* out) const {
  if (g.size == 1) {
    *out = MPI_COMM_SELF;
    return {};
  }
  const Cached* c = find_prepared(groups_, g);
  if (c == nullptr) return not_prepared(g);
  *out = c->comm;
  return {};
}

Status Mesh::prepare(const Group* groups, std::size_t count) {
  return prepare_groups(*this, comm_, groups, count, groups_, [this](Group g) {
    MPI_Comm sub;
    if (Status st = split_group(comm_, rank(), g, &sub); !st.ok()) return st;
    groups_.push_back({g, sub});
    return Status{};
  });
}

// ---- collectives --------------------------------------------------------------

Status dyn_slice(const Mesh& mesh, Group g, const Layout& layout, int dim, const void* src,
                 std::size_t src_bytes, void* dst, std::size_t dst_bytes) {
  if (Status st = check_collective(mesh, g, "dyn_slice"); !st.ok()) return st;
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

}  // namespace

Status all_gather(const Mesh& mesh, Group g, const Layout& layout, int dim, const void* src,
                  std::size_t src_bytes, void* dst, std::size_t dst_bytes, void* scratch,
                  std::size_t scratch_bytes) {
  if (Status st = check_empty(mesh, "all_gather"); !st.ok()) return st;
  MPI_Comm comm;
  Status local = group_setup(mesh, g, &comm);
  const auto size = static_cast<std::size_t>(g.size);
  const std::size_t fast = all_gather_scratch_bytes(layout, dim, size);
  const bool staged = out_of_place(fast, scratch_bytes);
  const std::size_t need = staged ? fast : all_gather_min_scratch_bytes(layout, dim, size);
  if (local.ok())
    local = check_all_gather(layout, dim, size, src, src_bytes, dst, dst_bytes, scratch,
                             scratch_bytes, need, kMaxMessage);
  const Agreed agreed[] = {agreed_group(g), agreed_layout(layout), agreed_dims(dim)};
  if (Status st = verdict(std::move(local), "all_gather", mesh.size() > 1 && mesh.agreement(),
                          mesh.comm(), agreed);
      !st.ok())
    return st;

  const std::size_t in = bytes(layout);
  if (g.size == 1) {
    std::memcpy(dst, src, in);
    return {};
  }
  Message message(in);
  if (Status st = message.describe("all_gather"); !st.ok()) return st;
  const int count = message.count();
  const MPI_Datatype type = message.type();
  void* recv = staged ? scratch : dst;
  if (Status st = mpi_status(MPI_Allgather(src, count, type, recv, count, type, comm),
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
  if (Status st = check_empty(mesh, "all_to_all"); !st.ok()) return st;
  MPI_Comm comm;
  Status local = group_setup(mesh, g, &comm);
  const auto size = static_cast<std::size_t>(g.size);
  const std::size_t fast = all_to_all_scratch_bytes(layout, s, t, size);
  const bool staged = out_of_place(fast, scratch_bytes);
  const std::size_t need = staged ? fast : all_to_all_min_scratch_bytes(layout, s, t, size);
  const bool pack = local.ok() && outer_count(layout, t) > 1;
  const bool in_place_send = !staged && pack;
  if (local.ok())
    local = check_all_to_all(layout, s, t, size, src, src_bytes, dst, dst_bytes, scratch,
                             scratch_bytes, need, kMaxMessage);
  const Agreed agreed[] = {
      agreed_group(g), agreed_layout(layout), agreed_dims(s, t),
      // MPI_IN_PLACE is all members or none.
      {in_place_send, "members passed scratch sizes that select different paths"}};
  if (Status st = verdict(std::move(local), "all_to_all", mesh.size() > 1 && mesh.agreement(),
                          mesh.comm(), agreed);
      !st.ok())
    return st;

  const std::size_t total = bytes(layout);
  if (g.size == 1) {
    std::memcpy(dst, src, total);
    return {};
  }
  Message message(total / size);
  if (Status st = message.describe("all_to_all"); !st.ok()) return st;
  const int count = message.count();
  const MPI_Datatype type = message.type();
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
    if (Status st = mpi_status(MPI_Alltoall(send, count, type, recv, count, type, comm),
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
  if (Status st = mpi_status(MPI_Alltoall(send, count, type, dst, count, type, comm),
                             "all_to_all");
      !st.ok() || !unpack)
    return st;
  return prefixed("all_to_all",
                  local::transpose_blocks(dst, total, size, outer_count(out, s),
                                          layout.extent[s] * inner_bytes(out, s), scratch, need));
}

Status agree_problem(MPI_Comm comm, const ProblemDigest& problem, const char* what) {
  if (comm == MPI_COMM_NULL) return {Errc::invalid_argument, std::string(what) + ": communicator is MPI_COMM_NULL"};
  Agreed agreed[kProblemAgreed];
  agreed_problem(problem, agreed);
  return agree(comm, Status(), what, agreed, kProblemAgreed);
}

Status check_run(const Mesh& mesh, const char* what, const ProblemDigest& problem, int devices,
                 const void* src, std::size_t src_bytes, std::size_t src_need, const void* dst,
                 std::size_t dst_bytes, std::size_t dst_need, const void* workspace,
                 std::size_t workspace_bytes, std::size_t workspace_need) {
  return backend::check_run(mesh, mesh.comm(), mesh.agreement(), what, problem, devices, src, src_bytes,
                            src_need, dst, dst_bytes, dst_need, workspace, workspace_bytes,
                            workspace_need);
}

Status all_permute(const Mesh& mesh, const int* recv_from, std::size_t table_len,
                   const Layout& layout, const void* src, std::size_t src_bytes, void* dst,
                   std::size_t dst_bytes) {
  std::size_t total = 0;
  if (Status st = check_all_permute(mesh, mesh.comm(), mesh.agreement(), recv_from, table_len,
                                    layout, src, src_bytes, dst, dst_bytes, kMaxMessage, &total);
      !st.ok())
    return st;
  const int me = mesh.rank();
  const int size = mesh.size();

  Message message(total);
  if (Status st = message.describe("all_permute"); !st.ok()) return st;
  const int count = message.count();
  const MPI_Datatype type = message.type();
  MPI_Comm comm = mesh.comm();
  MPI_Request reqs[kSendBatch + 1];
  int pending = 0;
  // The receive is posted before this rank waits on anything, so every
  // send below finds its receive posted once all ranks have entered the call.
  if (recv_from[me] == me) {
    std::memcpy(dst, src, total);
  } else if (Status st = mpi_status(MPI_Irecv(dst, count, type, recv_from[me], kPermuteTag,
                                              comm, &reqs[pending++]),
                                    "all_permute");
             !st.ok()) {
    return st;
  }
  for (int r = 0; r < size; ++r) {
    if (r == me || recv_from[r] != me) continue;
    if (Status st = mpi_status(
            MPI_Isend(src, count, type, r, kPermuteTag, comm, &reqs[pending++]), "all_permute");
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
