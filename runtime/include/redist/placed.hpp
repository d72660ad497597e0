// Layouts over placed meshes, as data (the model's Part 2: placed meshes and
// ceil blocks, docs/model.md).
//
// A placed mesh is a mesh whose devices are given world ranks: `{x:2, y:2}`
// placed at `[3, 1, 2, 0]` is the device at coordinates (0, 0) on world rank
// 3, (0, 1) on rank 1, and so on (positions are row-major, the first axis
// most significant).  A source and a target layout may live on different
// placed meshes of one world.
//
// A block layout shards each dimension of a global array over a list of mesh
// axes (major to minor; none = replicated).  Along dimension d, with P the
// product of its axes' sizes and c the device's linear coordinate along them,
// the device holds the ceil block [min(N, c*b), min(N, (c+1)*b)) with
// b = ceil(N / P): clipped at N, possibly empty.  Its local array is dense
// row-major of the box's true extents (no padding).
#pragma once

#include <cstddef>
#include <vector>

#include "redist/redist.hpp"

namespace redist {

struct PlacedMesh {
  int naxes = 0;
  int axis_size[kMaxRank] = {};
  // World rank of each mesh position, row-major; distinct.
  std::vector<int> ranks;

  int size() const { return static_cast<int>(ranks.size()); }
  // The mesh on world ranks first_rank, first_rank + 1, ... (`@ first_rank`).
  static PlacedMesh contiguous(const int* axis_sizes, int naxes, int first_rank);
};

// The mesh axes that shard one dimension, major to minor.
struct DimSharding {
  int count = 0;
  int axis[kMaxRank] = {};
};

struct BlockLayout {
  int ndim = 0;
  std::size_t extent[kMaxRank] = {};  // global extents
  DimSharding sharding[kMaxRank];
};

// A half-open box [lo, hi) of global indices; empty when some lo == hi.
struct Box {
  int ndim = 0;
  std::size_t lo[kMaxRank] = {};
  std::size_t hi[kMaxRank] = {};
};

std::size_t box_elements(const Box& box);
Box intersect(const Box& a, const Box& b);

// Coordinate of mesh position `position` on `axis` (row-major).
int mesh_coord(const PlacedMesh& mesh, int position, int axis);

// P: how many blocks dimension `dim` is cut into (1 when replicated).
std::size_t block_count(const BlockLayout& layout, const PlacedMesh& mesh, int dim);
// b = ceil(N / P): the extent of a full block along `dim`.
std::size_t block_size(const BlockLayout& layout, const PlacedMesh& mesh, int dim);
// c: which of them mesh position `position` holds.
std::size_t block_index(const BlockLayout& layout, const PlacedMesh& mesh, int position, int dim);
// The box of the block with index[d] along each dim d (index[d] < block_count).
Box block_at(const BlockLayout& layout, const PlacedMesh& mesh, const std::size_t* index);
// The ceil-block box of mesh position `position`.
Box block_box(const BlockLayout& layout, const PlacedMesh& mesh, int position);

// Naxes in 1..kMaxRank, axis sizes >= 1, as many ranks as devices, every rank
// in 0..world_size-1 and none twice.
Status validate_placed_mesh(const PlacedMesh& mesh, int world_size);
// ndim in 1..kMaxRank, extents >= 1, the global array below 2^62 bytes of
// `elem_bytes` elements, every sharding axis one of the mesh's and none used
// twice.  Assumes `mesh` is valid.
Status validate_block_layout(const BlockLayout& layout, const PlacedMesh& mesh,
                             std::size_t elem_bytes);

}  // namespace redist
