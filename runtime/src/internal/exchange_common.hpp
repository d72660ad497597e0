// Internal to the runtime (not installed): what the direct exchange
// (exchange.cpp) and the reducing exchange (reduce_exchange.cpp) share: the
// blocks of a layout on its placed mesh, the model's spread rule for which
// source device a target rank reads each piece of its box from, argument
// checks and fingerprints, and the MPI datatypes and copies of box regions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "internal/backend_common.hpp"
#include "redist/mpi_c.hpp"
#include "redist/placed.hpp"

namespace redist::exchange_internal {

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

// A region of global indices that moves between two ranks.
struct Transfer {
  int rank;
  Box region;
};

// The source positions holding `block`, in source-mesh order: how many
// there are and which one is number `k` of them (k < count).
int holder_count(const Side& source, std::size_t block);
int nth_holder(const Side& source, std::size_t block, int k);

// World rank `me`'s target box cut along the source blocks: fn(region,
// holder) for each non-empty piece, in block order, with the source mesh
// position the spread rule reads it from: me's own when its source box has
// the piece; otherwise, me being number k among the needers of the piece
// (target devices of me's target block whose source box lacks it, in
// target-mesh order), holder number k mod |holders| of its block.
template <class Fn>
void for_each_piece(int me, const Side& source, const Side& target, Fn fn) {
  const Box box = target.box_of_rank(me);
  const int ndim = box.ndim;
  const int my_position = target.position_of(me);
  if (box_elements(box) == 0) return;
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
      fn(region, source.position_of(me));
    } else {
      int k = 0;
      for (int t = 0; t < my_position; ++t)
        if (target.block_of(t) == mine && !source.rank_has_block(target.mesh().ranks[t], block)) ++k;
      fn(region, nth_holder(source, block, k % holder_count(source, block)));
    }
    int d = ndim - 1;
    while (d >= 0 && index[d] == last[d]) index[d] = first[d], --d;
    if (d < 0) break;
    ++index[d];
  }
}

// Both meshes and layouts valid on a world of world_size ranks, of one
// global shape (messages without the operation's name).
Status validate(int world_size, const PlacedMesh& source, const BlockLayout& source_layout,
                const PlacedMesh& target, const BlockLayout& target_layout, std::size_t elem_bytes);

// Subarray datatypes take int extents.
Status check_int_extents(const Box& box, const char* what);

// A digest of the arguments, so that ranks can compare them with one allreduce.
class Fingerprint {
 public:
  void add(std::uint64_t v) { hash_ = backend::combine_key(hash_, v); }
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

// A committed datatype for `region` inside the dense local array of `array`.
Status subarray(const Box& array, const Box& region, MPI_Datatype element, MPI_Datatype* out,
                const char* what);

// Copies `region` of the local array of box `from` into the local array of
// box `to` with one memcpy per contiguous run.
void copy_region(const unsigned char* src, const Box& from, unsigned char* dst, const Box& to,
                 const Box& region, std::size_t elem_bytes);

}  // namespace redist::exchange_internal
