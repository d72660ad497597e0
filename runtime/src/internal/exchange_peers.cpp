#include "internal/exchange_peers.hpp"

#include <string>

#include "internal/backend_common.hpp"

namespace redist::backend {

namespace {

std::string str(long long v) { return std::to_string(v); }

// One side of the exchange: a layout on its placed mesh, with the mesh
// position of every world rank (-1 outside) and the block every position
// holds, numbered (mixed radix of the block indices over the block counts)
// so that the peer search compares integers.
class Side {
 public:
  Side(const PlacedMesh& mesh, const BlockLayout& layout, int world_size)
      : mesh_(mesh), layout_(layout), position_of_(static_cast<std::size_t>(world_size), -1) {
    for (int p = 0; p < mesh.size(); ++p) {
      position_of_[static_cast<std::size_t>(mesh.ranks[p])] = p;
      std::size_t index[kMaxRank];
      for (int d = 0; d < layout.ndim; ++d) index[d] = block_index(layout, mesh, p, d);
      block_of_.push_back(block_number(index));
    }
  }
  const PlacedMesh& mesh() const { return mesh_; }
  int position_of(int world_rank) const { return position_of_[static_cast<std::size_t>(world_rank)]; }
  std::size_t block_of(int position) const { return block_of_[static_cast<std::size_t>(position)]; }
  // Whether world rank r's box on this side is block `block`; for a
  // non-empty region of that block, whether r's box contains the region.
  bool rank_has_block(int r, std::size_t block) const {
    const int p = position_of(r);
    return p >= 0 && block_of(p) == block;
  }
  Box box_of_rank(int r) const {
    const int p = position_of(r);
    return p < 0 ? Box{layout_.ndim, {}, {}} : block_box(layout_, mesh_, p);
  }
  Box block_box_at(const std::size_t* index) const { return block_at(layout_, mesh_, index); }
  std::size_t block_size(int d) const { return redist::block_size(layout_, mesh_, d); }
  std::size_t block_number(const std::size_t* index) const {
    std::size_t n = 0;
    for (int d = 0; d < layout_.ndim; ++d) n = n * block_count(layout_, mesh_, d) + index[d];
    return n;
  }
  std::size_t blocks() const {
    std::size_t n = 1;
    for (int d = 0; d < layout_.ndim; ++d) n *= block_count(layout_, mesh_, d);
    return n;
  }

 private:
  const PlacedMesh& mesh_;
  const BlockLayout& layout_;
  std::vector<int> position_of_;
  std::vector<std::size_t> block_of_;  // by mesh position
};


// The source positions holding `block`, in source-mesh order: how many
// there are and which one is number `k` of them (k < count).
int holder_count(const Side& source, std::size_t block) {
  int count = 0;
  for (int p = 0; p < source.mesh().size(); ++p) count += source.block_of(p) == block ? 1 : 0;
  return count;
}
int nth_holder(const Side& source, std::size_t block, int k) {
  for (int p = 0; p < source.mesh().size(); ++p)
    if (source.block_of(p) == block && k-- == 0) return p;
  return -1;
}

// World rank `me`'s pieces (see Piece).
std::vector<Piece> pieces_of(int me, const Side& source, const Side& target) {
  std::vector<Piece> pieces;
  const Box box = target.box_of_rank(me);
  const int ndim = box.ndim;
  const int my_position = target.position_of(me);
  if (box_elements(box) == 0) return pieces;
  const std::size_t mine = target.block_of(my_position);
  std::size_t first[kMaxRank], last[kMaxRank], index[kMaxRank];
  for (int d = 0; d < ndim; ++d) {
    first[d] = box.lo[d] / source.block_size(d);
    last[d] = (box.hi[d] - 1) / source.block_size(d);
    index[d] = first[d];
  }
  for (;;) {
    const Box region = intersect(box, source.block_box_at(index));
    const std::size_t block = source.block_number(index);
    if (source.rank_has_block(me, block)) {
      pieces.push_back({region, source.position_of(me)});
    } else {
      // k: my index among the needers of the region, in target-mesh order.
      int k = 0;
      for (int t = 0; t < my_position; ++t)
        if (target.block_of(t) == mine && !source.rank_has_block(target.mesh().ranks[t], block)) ++k;
      pieces.push_back({region, nth_holder(source, block, k % holder_count(source, block))});
    }
    int d = ndim - 1;
    while (d >= 0 && index[d] == last[d]) index[d] = first[d], --d;
    if (d < 0) break;
    ++index[d];
  }
  return pieces;
}

// What world rank `me` receives: every piece of its target box from the
// holder the spread rule names (with the holder's source box), except the
// one its own source box has, which it keeps.
void find_receives(int me, const Side& source, const Side& target, ExchangePeers* peers) {
  peers->kept = Box{target.box_of_rank(me).ndim, {}, {}};
  for (const Piece& piece : pieces_of(me, source, target)) {
    if (piece.holder == source.position_of(me)) {
      peers->kept = piece.region;
      continue;
    }
    const int holder = source.mesh().ranks[static_cast<std::size_t>(piece.holder)];
    peers->receives.push_back({holder, piece.region});
    peers->holder_boxes.push_back(source.box_of_rank(holder));
  }
}

// What world rank `me` sends: the inverse of find_receives, in one pass over
// the target mesh, counting the needers of each target block as it goes.
void find_sends(int me, const Side& source, const Side& target, std::vector<Transfer>* sends) {
  const int my_position = source.position_of(me);
  if (my_position < 0) return;
  const Box box = source.box_of_rank(me);
  if (box_elements(box) == 0) return;
  const std::size_t mine = source.block_of(my_position);
  const int holders = holder_count(source, mine);
  int my_turn = 0;  // my index among the holders
  while (nth_holder(source, mine, my_turn) != my_position) ++my_turn;
  std::vector<int> needers_so_far(target.blocks(), 0);
  for (int t = 0; t < target.mesh().size(); ++t) {
    const int r = target.mesh().ranks[t];
    if (source.rank_has_block(r, mine)) continue;
    const Box region = intersect(box, target.box_of_rank(r));
    if (box_elements(region) == 0) continue;
    if (needers_so_far[target.block_of(t)]++ % holders == my_turn) sends->push_back({r, region});
  }
}

Status check_shapes(const BlockLayout& source, const BlockLayout& target) {
  auto shape = [](const BlockLayout& l) {
    std::string s = "[";
    for (int d = 0; d < l.ndim; ++d) s += (d ? ", " : "") + str(static_cast<long long>(l.extent[d]));
    return s + "]";
  };
  bool same = source.ndim == target.ndim;
  for (int d = 0; same && d < source.ndim; ++d) same = source.extent[d] == target.extent[d];
  if (!same)
    return {Errc::invalid_argument, "source shape " + shape(source) +
                                        " differs from target shape " + shape(target)};
  return {};
}

// A digest of the arguments, so that ranks can compare them with one allreduce.
class Fingerprint {
 public:
  void add(std::uint64_t v) { hash_ = combine_key(hash_, v); }
  void add(const PlacedMesh& m) {
    add(static_cast<std::uint64_t>(m.naxes));
    for (int a = 0; a < m.naxes && a < kMaxRank; ++a) add(static_cast<std::uint64_t>(m.axis_size[a]));
    add(m.ranks.size());
    for (int r : m.ranks) add(static_cast<std::uint64_t>(r));
  }
  void add(const BlockLayout& l) {
    add(static_cast<std::uint64_t>(l.ndim));
    for (int d = 0; d < l.ndim && d < kMaxRank; ++d) {
      add(l.extent[d]);
      add(static_cast<std::uint64_t>(l.sharding[d].count));
      for (int k = 0; k < l.sharding[d].count && k < kMaxRank; ++k)
        add(static_cast<std::uint64_t>(l.sharding[d].axis[k]));
    }
  }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 0;
};

}  // namespace

Status validate_exchange(int world_size, const PlacedMesh& source, const BlockLayout& source_layout,
                         const PlacedMesh& target, const BlockLayout& target_layout,
                         std::size_t elem_bytes) {
  if (Status st = validate_placed_mesh(source, world_size); !st.ok())
    return prefixed("source mesh", st);
  if (Status st = validate_placed_mesh(target, world_size); !st.ok())
    return prefixed("target mesh", st);
  if (Status st = validate_block_layout(source_layout, source, elem_bytes); !st.ok())
    return prefixed("source layout", st);
  if (Status st = validate_block_layout(target_layout, target, elem_bytes); !st.ok())
    return prefixed("target layout", st);
  return check_shapes(source_layout, target_layout);
}

std::uint64_t exchange_digest(const PlacedMesh& source, const BlockLayout& source_layout,
                              const PlacedMesh& target, const BlockLayout& target_layout,
                              std::size_t elem_bytes) {
  Fingerprint fp;
  fp.add(source);
  fp.add(source_layout);
  fp.add(target);
  fp.add(target_layout);
  fp.add(elem_bytes);
  return fp.value();
}

ExchangePeers exchange_peers(int me, int world_size, const PlacedMesh& source,
                             const BlockLayout& source_layout, const PlacedMesh& target,
                             const BlockLayout& target_layout) {
  const Side src(source, source_layout, world_size), tgt(target, target_layout, world_size);
  ExchangePeers peers;
  peers.source_box = src.box_of_rank(me);
  peers.target_box = tgt.box_of_rank(me);
  find_receives(me, src, tgt, &peers);
  find_sends(me, src, tgt, &peers.sends);
  return peers;
}

std::vector<Piece> exchange_pieces(int me, int world_size, const PlacedMesh& source,
                                   const BlockLayout& source_layout, const PlacedMesh& target,
                                   const BlockLayout& target_layout) {
  const Side src(source, source_layout, world_size), tgt(target, target_layout, world_size);
  return pieces_of(me, src, tgt);
}

}  // namespace redist::backend
