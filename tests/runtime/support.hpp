// Test support: labels, naive index math written independently of the
// runtime, poisoned buffers, and failure tallies agreed over all ranks.
#pragma once

#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "common.hpp"
#include "redist/mpi.hpp"

// A failed Status of code errc whose one-line message names text.
#define CHECK_ERROR(status, errc, text)                                                      \
  do {                                                                                       \
    const redist::Status st_ = (status);                                                     \
    CHECK_MESSAGE(st_.code() == (errc), st_.message());                                      \
    CHECK_MESSAGE(st_.message().find(text) != std::string::npos, st_.message());             \
  } while (0)

namespace test {

using redist_test::kPoison;
using redist_test::label;
using redist_test::layout_of;
using redist_test::world_rank;
using redist_test::world_size;

constexpr std::size_t kCanary = 32;  // poisoned bytes after every buffer

using Index = std::vector<std::size_t>;

inline std::size_t count(const Index& ext) {
  std::size_t n = 1;
  for (std::size_t e : ext) n *= e;
  return n;
}

// Multi-index of linear position `lin` in a row-major array of shape ext.
inline Index unravel(std::size_t lin, const Index& ext) {
  Index idx(ext.size());
  for (std::size_t i = ext.size(); i-- > 0;) {
    idx[i] = lin % ext[i];
    lin /= ext[i];
  }
  return idx;
}

inline std::size_t ravel(const Index& idx, const Index& ext) {
  std::size_t lin = 0;
  for (std::size_t i = 0; i < ext.size(); ++i) lin = lin * ext[i] + idx[i];
  return lin;
}

// Member k of rank r's group over rank-space (stride, size).
inline int member(int r, int stride, int size, int k) {
  const int coord = (r / stride) % size;
  return r + (k - coord) * stride;
}

// Source array of `rank`: element e, byte b holds label(rank, e, b, salt).
std::vector<unsigned char> source(int rank, const Index& ext, std::size_t elem, unsigned salt);

// `bytes` poisoned bytes followed by kCanary poisoned bytes.
inline std::vector<unsigned char> poisoned(std::size_t bytes) {
  return std::vector<unsigned char>(bytes + kCanary, kPoison);
}

// Counts mismatches on this rank and remembers the first one.
struct Tally {
  long bad = 0;
  std::string first;
  void fail(const std::string& what) {
    if (bad++ == 0) first = what;
  }
  // Expected dst: element e (shape ext) equals label(src_rank(e), src_elem(e), b).
  // Also checks that the canary after `used` bytes is intact.
  template <class Source>
  void expect(const std::vector<unsigned char>& dst, const Index& ext, std::size_t elem,
              unsigned salt, Source src_of, const std::string& what);
  void canary(const std::vector<unsigned char>& buf, std::size_t used, const std::string& what);
  // Collective over MPI_COMM_WORLD: every rank CHECKs that no rank failed,
  // and a failing rank reports its first failure.
  void finish();
};

template <class Source>
void Tally::expect(const std::vector<unsigned char>& dst, const Index& ext, std::size_t elem,
                   unsigned salt, Source src_of, const std::string& what) {
  const std::size_t n = count(ext);
  for (std::size_t e = 0; e < n; ++e) {
    const Index idx = unravel(e, ext);
    int rank = 0;
    std::size_t src_elem = 0;
    src_of(idx, &rank, &src_elem);
    for (std::size_t b = 0; b < elem; ++b) {
      if (dst[e * elem + b] != label(rank, src_elem, b, salt)) {
        fail(what + ": wrong byte at element " + std::to_string(e));
        return;
      }
    }
  }
  canary(dst, n * elem, what);
}

// Every rank-space group of a mesh of n devices: stride * size divides n.
std::vector<redist::Group> all_groups(int n);

// The mesh {world_size()} with every group of all_groups prepared.
redist::Mesh& flat_mesh();

std::string describe(const Index& ext, std::size_t elem);

}  // namespace test
