// A small test runner for the NCCL/CUDA backend.  Unlike doctest it knows
// which cases need a GPU, so that a machine without one reports them as
// skipped rather than passed.  Every rank runs every case; a case fails if
// it fails on any rank.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "../runtime/common.hpp"
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
void add_exchange_cases(std::vector<Case>& cases);
void add_nccl_comm_cases(std::vector<Case>& cases);
void add_reduce_cases(std::vector<Case>& cases);

// How many times the global operator new has been called (alloc_count.cpp).
long operator_new_calls();

using redist_test::kPoison;
using redist_test::label;
using redist_test::layout_of;
using redist_test::world_rank;
using redist_test::world_size;

inline std::vector<unsigned char> labelled(int rank, std::size_t bytes, unsigned salt) {
  std::vector<unsigned char> v(bytes);
  for (std::size_t i = 0; i < bytes; ++i) v[i] = label(rank, i, 0, salt);
  return v;
}

constexpr std::size_t kCanary = 64;  // poisoned bytes checked after every output

std::string describe(const redist::Layout& l);

}  // namespace gputest
