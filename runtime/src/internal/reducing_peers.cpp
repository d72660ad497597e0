#include "internal/reducing_peers.hpp"

#include <string>

#include "internal/backend_common.hpp"

namespace redist::backend {

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

Status check_reducing_op(Dtype dtype, Op op, int target_pending_count) {
  if (!op_computes(dtype, op))
    return {Errc::invalid_argument, std::string("element type ") + dtype_name(dtype) + " has no operation " + op_name(op)};
  if (op == Op::avg && target_pending_count > 0)
    return {Errc::invalid_argument,
            "an avg target's members each hold the value, which the reducing exchange leaves on one member; "
            "plan it by the collectives"};
  return {};
}

namespace {

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

}  // namespace

ReducingPeers reducing_peers(int me, int world_size, const PlacedMesh& source,
                             const BlockLayout& source_layout, const int* source_pending,
                             int source_pending_count, const PlacedMesh& target,
                             const BlockLayout& target_layout, const int* target_pending,
                             int target_pending_count) {
  const PendingGroups src_groups(source, source_pending, source_pending_count);
  const PendingGroups tgt_groups(target, target_pending, target_pending_count);
  ReducingPeers out;
  out.group_size = src_groups.size();
  const ExchangePeers peers = exchange_peers(me, world_size, source, source_layout, target, target_layout);
  out.source_box = peers.source_box;
  out.target_box = peers.target_box;
  const int my_target = position_in(target, me), my_source = position_in(source, me);
  out.designated = my_target >= 0 && tgt_groups.designated(my_target);
  if (out.designated)
    for (const Piece& piece : exchange_pieces(me, world_size, source, source_layout, target, target_layout))
      for (int k = 0; k < src_groups.size(); ++k) {
        const int member = src_groups.member(piece.holder, k);
        if (member == my_source) out.kept.push_back({me, k, piece.region});
        else {
          out.receives.push_back({source.ranks[static_cast<std::size_t>(member)], k, piece.region});
          out.holder_boxes.push_back(block_box(source_layout, source, member));
        }
      }
  if (my_source >= 0)
    for (int t = 0; t < target.size(); ++t) {
      const int r = target.ranks[static_cast<std::size_t>(t)];
      if (r == me || !tgt_groups.designated(t)) continue;
      for (const Piece& piece : exchange_pieces(r, world_size, source, source_layout, target, target_layout))
        if (src_groups.same_group(piece.holder, my_source)) out.sends.push_back({r, piece.region});
    }
  return out;
}

std::uint64_t reducing_digest(const PlacedMesh& source, const BlockLayout& source_layout,
                              const int* source_pending, int source_pending_count,
                              const PlacedMesh& target, const BlockLayout& target_layout,
                              const int* target_pending, int target_pending_count, Dtype dtype) {
  std::uint64_t digest = combine_key(
      exchange_digest(source, source_layout, target, target_layout, dtype_bytes(dtype)),
      static_cast<std::uint64_t>(dtype));
  digest = combine_key(digest, ints_key(source_pending, static_cast<std::size_t>(source_pending_count)));
  return combine_key(digest, ints_key(target_pending, static_cast<std::size_t>(target_pending_count)));
}

}  // namespace redist::backend
