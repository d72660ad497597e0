// A small test runner for the NCCL/CUDA backend.  Unlike doctest it knows
// which cases need a GPU, so that a machine without one reports them as
// skipped rather than passed.  Every rank runs every case; a case fails if
// it fails on any rank.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "redist/nccl.hpp"

namespace gputest {

// What a case needs from the machine: nothing; a CUDA device of its own
// on every rank; or no CUDA device visible to any rank.
enum class Needs { anything, gpu, no_gpu };

class Tally {
 public:
  void fail(const std::string& what) {
    if (bad_++ == 0) first_ = what;
  }
  void expect(bool ok, const std::string& what) {
    if (!ok) fail(what);
  }
  // Fails unless st has code `code` (ok() for Errc::ok).
  void expect_code(const redist::Status& st, redist::Errc code, const std::string& what) {
    if (st.code() != code)
      fail(what + ": expected " + redist::errc_name(code) + ", got " + redist::errc_name(st.code()) +
           (st.ok() ? "" : " (" + st.message() + ")"));
  }
  long bad() const { return bad_; }
  const std::string& first() const { return first_; }

 private:
  long bad_ = 0;
  std::string first_;
};

struct Case {
  std::string name;
  Needs needs;
  void (*body)(Tally&);
};

void add_plan_cases(std::vector<Case>& cases);
void add_argument_cases(std::vector<Case>& cases);
void add_kernel_cases(std::vector<Case>& cases);
void add_collective_cases(std::vector<Case>& cases);
void add_misuse_cases(std::vector<Case>& cases);

// Byte b of element e of rank r's array; salt separates calls so that
// stale data cannot pass.
inline unsigned char label(int rank, std::size_t e, std::size_t b, unsigned salt) {
  std::uint64_t h = (static_cast<std::uint64_t>(rank) + 1) * 0x9E3779B97F4A7C15ull;
  h ^= (e + 1) * 0xC2B2AE3D27D4EB4Full + b * 0x165667B19E3779F9ull + salt * 0x27D4EB2F165667C5ull;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 32;
  return static_cast<unsigned char>(h);
}

inline std::vector<unsigned char> labelled(int rank, std::size_t bytes, unsigned salt) {
  std::vector<unsigned char> v(bytes);
  for (std::size_t i = 0; i < bytes; ++i) v[i] = label(rank, i, 0, salt);
  return v;
}

constexpr unsigned char kPoison = 0xA5;
constexpr std::size_t kCanary = 64;  // poisoned bytes checked after every output

redist::Layout layout_of(const std::vector<std::size_t>& extents, std::size_t elem);
std::string describe(const redist::Layout& l);

int world_rank();
int world_size();

}  // namespace gputest
