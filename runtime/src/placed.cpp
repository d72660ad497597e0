#include "redist/placed.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace redist {

namespace {

std::string str(long long v) { return std::to_string(v); }

}  // namespace

PlacedMesh PlacedMesh::contiguous(const int* axis_sizes, int naxes, int first_rank) {
  PlacedMesh mesh;
  mesh.naxes = naxes;
  long long devices = 1;
  for (int a = 0; a < naxes && a < kMaxRank; ++a) {
    mesh.axis_size[a] = axis_sizes[a];
    devices *= std::max(axis_sizes[a], 0);
  }
  // validate_placed_mesh reports a mesh too large for int ranks.
  for (long long p = 0; p < devices && p <= INT32_MAX; ++p)
    mesh.ranks.push_back(static_cast<int>(first_rank + p));
  return mesh;
}

std::size_t box_elements(const Box& box) {
  std::size_t n = 1;
  for (int d = 0; d < box.ndim; ++d) n *= box.hi[d] - box.lo[d];
  return n;
}

Box intersect(const Box& a, const Box& b) {
  Box out;
  out.ndim = a.ndim;
  for (int d = 0; d < a.ndim; ++d) {
    out.lo[d] = std::max(a.lo[d], b.lo[d]);
    out.hi[d] = std::max(out.lo[d], std::min(a.hi[d], b.hi[d]));
  }
  return out;
}

int mesh_coord(const PlacedMesh& mesh, int position, int axis) {
  int stride = 1;
  for (int a = axis + 1; a < mesh.naxes; ++a) stride *= mesh.axis_size[a];
  return position / stride % mesh.axis_size[axis];
}

std::size_t block_count(const BlockLayout& layout, const PlacedMesh& mesh, int dim) {
  std::size_t parts = 1;
  const DimSharding& s = layout.sharding[dim];
  for (int k = 0; k < s.count; ++k) parts *= static_cast<std::size_t>(mesh.axis_size[s.axis[k]]);
  return parts;
}

std::size_t block_size(const BlockLayout& layout, const PlacedMesh& mesh, int dim) {
  const std::size_t parts = block_count(layout, mesh, dim);
  return (layout.extent[dim] + parts - 1) / parts;
}

std::size_t block_index(const BlockLayout& layout, const PlacedMesh& mesh, int position, int dim) {
  std::size_t c = 0;
  const DimSharding& s = layout.sharding[dim];
  for (int k = 0; k < s.count; ++k)
    c = c * static_cast<std::size_t>(mesh.axis_size[s.axis[k]]) +
        static_cast<std::size_t>(mesh_coord(mesh, position, s.axis[k]));
  return c;
}

Box block_at(const BlockLayout& layout, const PlacedMesh& mesh, const std::size_t* index) {
  Box box;
  box.ndim = layout.ndim;
  for (int d = 0; d < layout.ndim; ++d) {
    const std::size_t n = layout.extent[d];
    const std::size_t block = block_size(layout, mesh, d);
    // index * block <= (parts - 1) * block < n + parts: no overflow for valid layouts.
    box.lo[d] = std::min(n, index[d] * block);
    box.hi[d] = std::min(n, box.lo[d] + block);
  }
  return box;
}

Box block_box(const BlockLayout& layout, const PlacedMesh& mesh, int position) {
  std::size_t index[kMaxRank];
  for (int d = 0; d < layout.ndim; ++d) index[d] = block_index(layout, mesh, position, d);
  return block_at(layout, mesh, index);
}

Status validate_placed_mesh(const PlacedMesh& mesh, int world_size) {
  if (mesh.naxes < 1 || mesh.naxes > kMaxRank)
    return {Errc::invalid_argument,
            "axis count " + str(mesh.naxes) + " is not in 1.." + str(kMaxRank)};
  long long devices = 1;
  for (int a = 0; a < mesh.naxes; ++a) {
    if (mesh.axis_size[a] < 1)
      return {Errc::invalid_argument,
              "size " + str(mesh.axis_size[a]) + " of axis " + str(a) + " is below 1"};
    devices *= mesh.axis_size[a];
    if (devices > world_size)
      return {Errc::invalid_argument, "mesh has more devices than the world's " +
                                          str(world_size) + " ranks"};
  }
  if (static_cast<long long>(mesh.ranks.size()) != devices)
    return {Errc::invalid_argument, "mesh has " + str(devices) + " devices but " +
                                        str(static_cast<long long>(mesh.ranks.size())) +
                                        " ranks are listed"};
  std::vector<int> position_of(static_cast<std::size_t>(world_size), -1);
  for (int p = 0; p < mesh.size(); ++p) {
    const int r = mesh.ranks[static_cast<std::size_t>(p)];
    if (r < 0 || r >= world_size)
      return {Errc::invalid_argument, "rank " + str(r) + " at position " + str(p) +
                                          " is outside the world of " + str(world_size) +
                                          " ranks"};
    int& seen = position_of[static_cast<std::size_t>(r)];
    if (seen >= 0)
      return {Errc::invalid_argument, "rank " + str(r) + " appears at positions " + str(seen) +
                                          " and " + str(p)};
    seen = p;
  }
  return {};
}

Status validate_block_layout(const BlockLayout& layout, const PlacedMesh& mesh,
                             std::size_t elem_bytes) {
  if (layout.ndim < 1 || layout.ndim > kMaxRank)
    return {Errc::invalid_argument,
            "array rank " + str(layout.ndim) + " is not in 1.." + str(kMaxRank)};
  switch (elem_bytes) {
    case 1: case 2: case 4: case 8: case 16: break;
    default:
      return {Errc::invalid_argument, "element size " + str(static_cast<long long>(elem_bytes)) +
                                          " bytes is not 1, 2, 4, 8 or 16"};
  }
  std::uint64_t total = elem_bytes;
  int dim_of_axis[kMaxRank];
  std::fill(dim_of_axis, dim_of_axis + kMaxRank, -1);
  for (int d = 0; d < layout.ndim; ++d) {
    const std::size_t n = layout.extent[d];
    if (n < 1) return {Errc::invalid_argument, "global extent of dim " + str(d) + " is 0"};
    if (n > (std::uint64_t{1} << 62) / total)
      return {Errc::too_large, "global array of more than 2^62 bytes"};
    total *= n;
    const DimSharding& s = layout.sharding[d];
    if (s.count < 0 || s.count > mesh.naxes)
      return {Errc::invalid_argument, "dim " + str(d) + " is sharded over " + str(s.count) +
                                          " axes but the mesh has " + str(mesh.naxes)};
    for (int k = 0; k < s.count; ++k) {
      const int a = s.axis[k];
      if (a < 0 || a >= mesh.naxes)
        return {Errc::invalid_argument, "dim " + str(d) + " is sharded over axis " + str(a) +
                                            " but the mesh has axes 0.." + str(mesh.naxes - 1)};
      if (dim_of_axis[a] == d)
        return {Errc::invalid_argument,
                "axis " + str(a) + " appears twice in the sharding of dim " + str(d)};
      if (dim_of_axis[a] >= 0)
        return {Errc::invalid_argument, "axis " + str(a) + " shards both dim " +
                                            str(dim_of_axis[a]) + " and dim " + str(d)};
      dim_of_axis[a] = d;
    }
  }
  return {};
}

}  // namespace redist
