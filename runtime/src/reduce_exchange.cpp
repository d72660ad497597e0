#include "redist/reduce_exchange.hpp"

#include <cstring>
#include <string>
#include <utility>

#include "internal/backend_common.hpp"
#include "internal/exchange_peers.hpp"
#include "internal/mpi_regions.hpp"
#include "redist/local.hpp"

namespace redist {

using backend::mpi_status;
using backend::prefixed;
using backend::check_int_extents;
using backend::copy_region;
using backend::subarray;

namespace {

// Pieces between one pair of ranks follow each other in piece order on both
// sides, and MPI keeps the order of messages of one tag between a pair.
constexpr int kReducingTag = 0x7ed3;

// The pending axes of one side: valid axes of its mesh, each once, sharding
// no dimension of its layout.
Status check_pending(const PlacedMesh& mesh, const BlockLayout& layout, const int* axes, int count,
                     const char* what) {
  if (count < 0 || count > mesh.naxes || (count > 0 && axes == nullptr))
    return {Errc::invalid_argument, std::string(what) + " pending axes: bad count " + std::to_string(count)};
  for (int i = 0; i < count; ++i) {
    const int a = axes[i];
    if (a < 0 || a >= mesh.naxes)
      return {Errc::invalid_argument, std::string(what) + " pending axis " + std::to_string(a) + " is not in the mesh"};
    for (int j = 0; j < i; ++j)
      if (axes[j] == a)
        return {Errc::invalid_argument, std::string(what) + " pending axis " + std::to_string(a) + " appears twice"};
    for (int d = 0; d < layout.ndim; ++d)
      for (int k = 0; k < layout.sharding[d].count; ++k)
        if (layout.sharding[d].axis[k] == a)
          return {Errc::invalid_argument, std::string(what) + " pending axis " + std::to_string(a) +
                                              " also shards dim " + std::to_string(d)};
  }
  return {};
}

// Groups over a set of pending axes of a placed mesh, in the model's order
// (group_members: the pending axes in mesh order, the first most
// significant, each coordinate ascending).
class PendingGroups {
 public:
  PendingGroups(const PlacedMesh& mesh, const int* axes, int count) : mesh_(mesh) {
    for (int a = 0; a < mesh.naxes; ++a) {
      pending_[a] = false;
      for (int i = 0; i < count; ++i) pending_[a] = pending_[a] || axes[i] == a;
      if (pending_[a]) size_ *= mesh.axis_size[a];
    }
  }
  int size() const { return size_; }
  // The position of member k of `position`'s group.
  int member(int position, int k) const {
    int result = 0;
    int stride = 1;
    for (int a = mesh_.naxes - 1; a >= 0; --a) {
      int coord = mesh_coord(mesh_, position, a);
      if (pending_[a]) {
        coord = k % mesh_.axis_size[a];
        k /= mesh_.axis_size[a];
      }
      result += coord * stride;
      stride *= mesh_.axis_size[a];
    }
    return result;
  }
  bool same_group(int p, int q) const {
    for (int a = 0; a < mesh_.naxes; ++a)
      if (!pending_[a] && mesh_coord(mesh_, p, a) != mesh_coord(mesh_, q, a)) return false;
    return true;
  }
  // Coordinates 0 on every pending axis.
  bool designated(int position) const {
    for (int a = 0; a < mesh_.naxes; ++a)
      if (pending_[a] && mesh_coord(mesh_, position, a) != 0) return false;
    return true;
  }

 private:
  const PlacedMesh& mesh_;
  bool pending_[kMaxRank] = {};
  int size_ = 1;
};

// The position of world rank `rank` in a placed mesh, -1 outside.
int position_in(const PlacedMesh& mesh, int rank) {
  for (int p = 0; p < mesh.size(); ++p)
    if (mesh.ranks[static_cast<std::size_t>(p)] == rank) return p;
  return -1;
}

struct Message {
  int rank;
  int member;  // receives: the contribution's member index
  Box region;
};

}  // namespace

ReducingExchange::ReducingExchange(ReducingExchange&& other) noexcept { *this = std::move(other); }

ReducingExchange& ReducingExchange::operator=(ReducingExchange&& other) noexcept {
  if (this != &other) {
    release();
    comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
    dtype_ = other.dtype_;
    elem_bytes_ = other.elem_bytes_;
    group_size_ = other.group_size_;
    designated_ = other.designated_;
    source_box_ = other.source_box_;
    target_box_ = other.target_box_;
    kept_ = std::move(other.kept_);
    receives_ = std::move(other.receives_);
    sends_ = std::move(other.sends_);
    receive_slot_ = std::move(other.receive_slot_);
    types_ = std::move(other.types_);
    requests_ = std::move(other.requests_);
    other.types_.clear();
  }
  return *this;
}

ReducingExchange::~ReducingExchange() { release(); }

void ReducingExchange::release() noexcept {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) {
    for (MPI_Datatype& t : types_)
      if (t != MPI_DATATYPE_NULL) MPI_Type_free(&t);
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }
  types_.clear();
  comm_ = MPI_COMM_NULL;
}

Status ReducingExchange::create(MPI_Comm world, const PlacedMesh& source,
                                const BlockLayout& source_layout, const int* source_pending,
                                int source_pending_count, const PlacedMesh& target,
                                const BlockLayout& target_layout, const int* target_pending,
                                int target_pending_count, Dtype dtype, ReducingExchange* out) {
  constexpr const char* what = "ReducingExchange::create";
  if (out == nullptr) return {Errc::invalid_argument, std::string(what) + ": output is null"};
  if (world == MPI_COMM_NULL)
    return {Errc::invalid_argument, std::string(what) + ": communicator is MPI_COMM_NULL"};
  int world_size = 0, me = 0;
  MPI_Comm_size(world, &world_size);
  MPI_Comm_rank(world, &me);
  const std::size_t elem_bytes = dtype_bytes(dtype);
  Status local = backend::validate_exchange(world_size, source, source_layout, target, target_layout, elem_bytes);
  if (local.ok())
    local = check_pending(source, source_layout, source_pending, source_pending_count, "source");
  if (local.ok())
    local = check_pending(target, target_layout, target_pending, target_pending_count, "target");
  local = prefixed(what, std::move(local));
  ReducingExchange ex;
  std::vector<Message> receives, sends;
  if (local.ok()) {
    const PendingGroups src_groups(source, source_pending, source_pending_count);
    const PendingGroups tgt_groups(target, target_pending, target_pending_count);
    ex.dtype_ = dtype;
    ex.elem_bytes_ = elem_bytes;
    ex.group_size_ = src_groups.size();
    const backend::ExchangePeers peers =
        backend::exchange_peers(me, world_size, source, source_layout, target, target_layout);
    ex.source_box_ = peers.source_box;
    ex.target_box_ = peers.target_box;
    const int my_target = position_in(target, me), my_source = position_in(source, me);
    ex.designated_ = my_target >= 0 && tgt_groups.designated(my_target);
    local = check_int_extents(ex.source_box_, "ReducingExchange::create: source");
    if (local.ok()) local = check_int_extents(ex.target_box_, "ReducingExchange::create: target");
    if (local.ok() && ex.designated_) {
      for (const backend::Piece& piece :
           backend::exchange_pieces(me, world_size, source, source_layout, target, target_layout)) {
        for (int k = 0; k < src_groups.size(); ++k) {
          const int member = src_groups.member(piece.holder, k);
          if (member == my_source) ex.kept_.push_back({k, piece.region});
          else receives.push_back({source.ranks[static_cast<std::size_t>(member)], k, piece.region});
        }
      }
    }
    if (local.ok() && my_source >= 0) {
      for (int t = 0; t < target.size(); ++t) {
        const int r = target.ranks[static_cast<std::size_t>(t)];
        if (r == me || !tgt_groups.designated(t)) continue;
        for (const backend::Piece& piece :
             backend::exchange_pieces(r, world_size, source, source_layout, target, target_layout))
          if (src_groups.same_group(piece.holder, my_source)) sends.push_back({r, 0, piece.region});
      }
    }
  }
  std::uint64_t digest = 0;
  if (local.ok()) {
    digest = backend::combine_key(backend::exchange_digest(source, source_layout, target, target_layout, elem_bytes),
                                  static_cast<std::uint64_t>(dtype));
    digest = backend::combine_key(digest, backend::ints_key(source_pending, static_cast<std::size_t>(source_pending_count)));
    digest = backend::combine_key(digest, backend::ints_key(target_pending, static_cast<std::size_t>(target_pending_count)));
  }
  const backend::Agreed agreed[] = {
      {digest, "ranks passed different meshes, layouts, pending axes or element types"}};
  if (Status st = backend::agree(world, std::move(local), what, agreed, 1); !st.ok()) return st;

  if (Status st = mpi_status(MPI_Comm_dup(world, &ex.comm_), what); !st.ok()) return st;
  MPI_Comm_set_errhandler(ex.comm_, MPI_ERRORS_RETURN);
  MPI_Datatype element = MPI_DATATYPE_NULL;
  if (Status st = mpi_status(MPI_Type_contiguous(static_cast<int>(elem_bytes), MPI_BYTE, &element), what);
      !st.ok())
    return st;
  // Receives index a staging array shaped like the target box, sends the
  // source array.
  Status built;
  for (const Message& m : receives) {
    ex.receives_.push_back({m.rank, box_elements(m.region)});
    ex.receive_slot_.push_back(m.member);
    ex.types_.push_back(MPI_DATATYPE_NULL);
    if (built.ok()) built = subarray(ex.target_box_, m.region, element, &ex.types_.back(), what);
  }
  for (const Message& m : sends) {
    ex.sends_.push_back({m.rank, box_elements(m.region)});
    ex.types_.push_back(MPI_DATATYPE_NULL);
    if (built.ok()) built = subarray(ex.source_box_, m.region, element, &ex.types_.back(), what);
  }
  MPI_Type_free(&element);
  if (Status st = backend::agree(ex.comm_, std::move(built), what); !st.ok()) return st;
  ex.requests_.assign(ex.types_.size(), MPI_REQUEST_NULL);
  *out = std::move(ex);
  return {};
}

Status ReducingExchange::run(const void* src, std::size_t src_bytes, void* dst, std::size_t dst_bytes,
                             void* workspace, std::size_t workspace_bytes) {
  constexpr const char* what = "ReducingExchange::run";
  if (comm_ == MPI_COMM_NULL)
    return {Errc::invalid_argument, std::string(what) + ": exchange is empty (not created or moved from)"};
  Status local = backend::check_buffers(src, src_bytes, source_bytes(), dst, dst_bytes, target_bytes(),
                                        workspace, workspace_bytes, this->workspace_bytes());
  if (Status st = backend::agree(comm_, prefixed(what, std::move(local)), what); !st.ok()) return st;

  auto* staging = static_cast<unsigned char*>(workspace);
  const std::size_t box_bytes = target_bytes();
  const std::size_t nrecv = receives_.size();
  for (std::size_t i = 0; i < nrecv; ++i)
    if (Status st = mpi_status(MPI_Irecv(staging + static_cast<std::size_t>(receive_slot_[i]) * box_bytes, 1,
                                         types_[i], receives_[i].rank, kReducingTag, comm_, &requests_[i]),
                               what);
        !st.ok())
      return st;
  for (std::size_t i = 0; i < sends_.size(); ++i)
    if (Status st = mpi_status(MPI_Isend(src, 1, types_[nrecv + i], sends_[i].rank, kReducingTag, comm_,
                                         &requests_[nrecv + i]),
                               what);
        !st.ok())
      return st;
  for (const Kept& k : kept_)
    copy_region(static_cast<const unsigned char*>(src), source_box_,
                staging + static_cast<std::size_t>(k.member) * box_bytes, target_box_, k.region,
                elem_bytes_);
  if (Status st = mpi_status(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(),
                                         MPI_STATUSES_IGNORE),
                             what);
      !st.ok())
    return st;
  if (designated_) local::sum_blocks(dtype_, staging, box_elements(target_box_), static_cast<std::size_t>(group_size_), dst);
  else if (box_bytes > 0) std::memset(dst, 0, box_bytes);
  return {};
}

}  // namespace redist
