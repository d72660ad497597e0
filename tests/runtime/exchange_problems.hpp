// Random problems for the direct exchange, shared by the MPI backend's
// tests (test_exchange.cpp) and the NCCL backend's (tests/runtime_gpu):
// uneven extents (primes, fewer elements than devices), 1..4 dims, every
// element size, source and target meshes of different sizes and placements
// (contiguous at an offset, or any permuted subset of the world's ranks).
#pragma once

#include <algorithm>
#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "redist/placed.hpp"

namespace exchange_test {

inline constexpr std::size_t kElemSizes[] = {1, 2, 4, 8, 16};

struct Problem {
  redist::PlacedMesh source, target;
  redist::BlockLayout source_layout, target_layout;
  std::size_t elem_bytes;
};

// The world of `devices` ranks as one axis sharding a 1-d array of
// `extent` 4-byte elements, the target ranks reversed (the MPI backend's
// misuse and split-phase tests).
inline Problem flat_problem(int devices, std::size_t extent) {
  Problem p;
  p.source = redist::PlacedMesh::contiguous(&devices, 1, 0);
  p.target = p.source;
  std::reverse(p.target.ranks.begin(), p.target.ranks.end());
  p.source_layout.ndim = p.target_layout.ndim = 1;
  p.source_layout.extent[0] = p.target_layout.extent[0] = extent;
  p.source_layout.sharding[0] = p.target_layout.sharding[0] = redist::DimSharding{1, {0}};
  p.elem_bytes = 4;
  return p;
}

inline std::string mesh_text(const redist::PlacedMesh& m) {
  std::string s = "{";
  for (int a = 0; a < m.naxes; ++a) s += (a ? "," : "") + std::to_string(m.axis_size[a]);
  s += "}@[";
  for (std::size_t p = 0; p < m.ranks.size(); ++p) s += (p ? "," : "") + std::to_string(m.ranks[p]);
  return s + "]";
}

inline std::string layout_text(const redist::BlockLayout& l) {
  std::string s = "[";
  for (int d = 0; d < l.ndim; ++d) {
    s += d ? ", " : "";
    s += "{";
    for (int k = 0; k < l.sharding[d].count; ++k)
      s += (k ? "," : "") + std::to_string(l.sharding[d].axis[k]);
    s += "}" + std::to_string(l.extent[d]);
  }
  return s + "]";
}

inline std::string describe(const Problem& p) {
  return mesh_text(p.source) + " " + layout_text(p.source_layout) + " -> " + mesh_text(p.target) +
         " " + layout_text(p.target_layout) + " elem " + std::to_string(p.elem_bytes);
}

// ---- random problems -----------------------------------------------------------

// A mesh on some of the ranks `free` (ascending): a run of them in order
// (`@ k` when they are consecutive) or any of them in any order.
inline redist::PlacedMesh random_mesh(std::mt19937& rng, std::vector<int> free) {
  const int available = static_cast<int>(free.size());
  redist::PlacedMesh m;
  m.naxes = std::uniform_int_distribution<int>(1, 3)(rng);
  int devices = 1;
  for (int a = 0; a < m.naxes; ++a) {
    m.axis_size[a] = std::uniform_int_distribution<int>(1, available / devices)(rng);
    devices *= m.axis_size[a];
  }
  if (rng() % 2 == 0) {
    const int first = std::uniform_int_distribution<int>(0, available - devices)(rng);
    m.ranks.assign(free.begin() + first, free.begin() + first + devices);
  } else {
    std::shuffle(free.begin(), free.end(), rng);
    m.ranks.assign(free.begin(), free.begin() + devices);
  }
  return m;
}

inline std::vector<int> ranks_not_in(const redist::PlacedMesh& mesh, int world_size) {
  std::vector<int> rest;
  for (int r = 0; r < world_size; ++r)
    if (std::find(mesh.ranks.begin(), mesh.ranks.end(), r) == mesh.ranks.end()) rest.push_back(r);
  return rest;
}

// Each mesh axis shards a random dim or none, in a random order.
inline redist::BlockLayout random_layout(std::mt19937& rng, const redist::PlacedMesh& mesh,
                                  const std::vector<std::size_t>& extents) {
  redist::BlockLayout l;
  l.ndim = static_cast<int>(extents.size());
  for (int d = 0; d < l.ndim; ++d) l.extent[d] = extents[d];
  std::vector<int> axes(mesh.naxes);
  for (int a = 0; a < mesh.naxes; ++a) axes[a] = a;
  std::shuffle(axes.begin(), axes.end(), rng);
  for (int a : axes) {
    const int d = std::uniform_int_distribution<int>(0, l.ndim)(rng);
    if (d < l.ndim) l.sharding[d].axis[l.sharding[d].count++] = a;
  }
  return l;
}

inline Problem random_problem(std::mt19937& rng, int world_size) {
  // Small extents (primes among them, and fewer elements than devices) keep
  // the element-by-element checks fast while making ragged and empty boxes common.
  static const std::size_t kMaxExtent[] = {0, 41, 13, 7, 5};
  const int ndim = std::uniform_int_distribution<int>(1, 4)(rng);
  std::vector<std::size_t> extents(ndim);
  for (std::size_t& e : extents) e = std::uniform_int_distribution<std::size_t>(1, kMaxExtent[ndim])(rng);
  Problem p;
  const std::vector<int> everyone = ranks_not_in(redist::PlacedMesh{}, world_size);
  p.source = random_mesh(rng, everyone);
  const std::vector<int> rest = ranks_not_in(p.source, world_size);
  switch (rng() % 5) {
    case 0: p.target = p.source; break;
    case 1: p.target = random_mesh(rng, rest.empty() ? everyone : rest); break;  // disjoint
    default: p.target = random_mesh(rng, everyone);
  }
  p.source_layout = random_layout(rng, p.source, extents);
  p.target_layout = random_layout(rng, p.target, extents);
  p.elem_bytes = kElemSizes[rng() % 5];
  return p;
}

// Pending-sum axes for the reducing exchange: axes of `mesh` that shard no
// dim of `layout`, each kept with probability 1/2.
inline std::vector<int> random_pending(std::mt19937& rng, const redist::PlacedMesh& mesh,
                                       const redist::BlockLayout& layout) {
  std::vector<int> axes;
  for (int a = 0; a < mesh.naxes; ++a) {
    bool used = false;
    for (int d = 0; d < layout.ndim; ++d)
      for (int k = 0; k < layout.sharding[d].count; ++k) used = used || layout.sharding[d].axis[k] == a;
    if (!used && rng() % 2 == 0) axes.push_back(a);
  }
  return axes;
}

}  // namespace exchange_test
