// Shared by the MPI backend's tests (tests/runtime) and the NCCL backend's
// (tests/runtime_gpu): the world, source labels and layouts, so that both
// suites fill and check arrays the same way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "redist/mpi_c.hpp"
#include "redist/redist.hpp"

namespace redist_test {

inline int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

inline int world_size() {
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

// Byte b of element e of the source array of rank r (salt varies per call
// so that stale data from an earlier call cannot pass).
inline unsigned char label(int rank, std::size_t e, std::size_t b, unsigned salt) {
  std::uint64_t h = (static_cast<std::uint64_t>(rank) + 1) * 0x9E3779B97F4A7C15ull;
  h ^= (e + 1) * 0xC2B2AE3D27D4EB4Full + b * 0x165667B19E3779F9ull + salt * 0x27D4EB2F165667C5ull;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 32;
  return static_cast<unsigned char>(h);
}

// The byte every output buffer is filled with before a call, so that bytes
// a call should not write can be checked.
constexpr unsigned char kPoison = 0xA5;

inline redist::Layout layout_of(const std::vector<std::size_t>& extents, std::size_t elem) {
  redist::Layout l{static_cast<int>(extents.size()), {}, elem};
  for (std::size_t i = 0; i < extents.size(); ++i) l.extent[i] = extents[i];
  return l;
}

}  // namespace redist_test
