// Buffers from redist::shared_alloc (redist/shared.hpp) outside the random
// exchanges of test_exchange.cpp: the split phase over arrays read in place
// (at an offset inside their buffer), every element of every rank; buffers
// of 0 bytes; and misuse of shared_alloc and shared_free on one rank, an
// error on every rank, none waiting, the buffers still live afterwards.
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string>

#include "exchange_problems.hpp"
#include "redist/exchange.hpp"
#include "redist/shared.hpp"
#include "support.hpp"

namespace {

using redist::Errc;

std::string address(const void* p) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", p);
  return text;
}

void* allocate(std::size_t bytes) {
  void* p = nullptr;
  const redist::Status st = redist::shared_alloc(MPI_COMM_WORLD, bytes, &p);
  REQUIRE_MESSAGE(st.ok(), st.message());
  REQUIRE(p != nullptr);
  return p;
}

TEST_CASE("shared arrays, split phase: start, test while computing, wait, three times on the same arrays "
          "(the source at an offset in its buffer); every element, the receives read in place") {
  const int n = test::world_size(), me = test::world_rank();
  constexpr std::size_t kPerRank = 1000;
  redist::Exchange ex;
  const exchange_test::Problem p = exchange_test::flat_problem(n, kPerRank * static_cast<std::size_t>(n));
  REQUIRE(redist::Exchange::create(MPI_COMM_WORLD, p.source, p.source_layout, p.target, p.target_layout,
                                   p.elem_bytes, &ex)
              .ok());
  auto* buffer = static_cast<std::int32_t*>(allocate(2 * ex.source_bytes()));
  auto* dst = static_cast<std::int32_t*>(allocate(ex.target_bytes()));
  std::int32_t* src = buffer + kPerRank;
  const std::size_t expect_direct = me == n - 1 - me ? 0 : kPerRank;  // the middle rank keeps its block
  for (int round = 0; round < 3; ++round) {
    for (std::size_t i = 0; i < kPerRank; ++i) src[i] = static_cast<std::int32_t>((round + 1) * 100000 + me * kPerRank + i);
    std::fill(dst, dst + kPerRank, -1);
    redist::Status st = ex.start(src, ex.source_bytes(), dst, ex.target_bytes());
    REQUIRE_MESSAGE(st.ok(), st.message());
    bool done = false;
    volatile double acc = 0;
    while (st.ok() && !done) {
      for (int i = 0; i < 200; ++i) acc = acc + i * 0.5;
      st = ex.test(&done);
    }
    REQUIRE_MESSAGE(st.ok(), st.message());
    CHECK(ex.wait().ok());
    long wrong = 0;
    const std::size_t from = static_cast<std::size_t>(n - 1 - me);
    for (std::size_t i = 0; i < kPerRank; ++i)
      wrong += dst[i] != static_cast<std::int32_t>((round + 1) * 100000 + from * kPerRank + i);
    CHECK_MESSAGE(wrong == 0, "round " << round << ": " << wrong << " wrong elements");
    CHECK(ex.direct_elements() == expect_direct);
  }
  CHECK(redist::shared_free(MPI_COMM_WORLD, dst).ok());
  CHECK(redist::shared_free(MPI_COMM_WORLD, buffer).ok());
}

TEST_CASE("shared_alloc: 0 bytes is a distinct buffer that frees; buffers are aligned for any element") {
  void* empty = allocate(0);
  void* other = allocate(0);
  void* odd = allocate(3);
  CHECK(empty != other);
  CHECK(reinterpret_cast<std::uintptr_t>(odd) % alignof(std::max_align_t) == 0);
  CHECK(redist::shared_free(MPI_COMM_WORLD, odd).ok());
  CHECK(redist::shared_free(MPI_COMM_WORLD, other).ok());
  CHECK(redist::shared_free(MPI_COMM_WORLD, empty).ok());
}

TEST_CASE("shared_free misuse on one rank: a pointer not from shared_alloc, a double free, another "
          "allocation; an error on every rank, the buffers still live") {
  const int n = test::world_size(), me = test::world_rank();
  const int culprit = n - 1;
  const std::string remote = "another rank reported an error";
  void* a = allocate(64);
  void* b = allocate(64);
  int on_heap = 0;
  redist::Status st = redist::shared_free(MPI_COMM_WORLD, me == culprit ? static_cast<void*>(&on_heap) : a);
  if (me == culprit)
    CHECK_ERROR(st, Errc::invalid_argument,
                "shared_free: pointer " + address(&on_heap) + " was not allocated by shared_alloc");
  else
    CHECK_ERROR(st, Errc::remote_error, remote);
  if (n > 1) {
    st = redist::shared_free(MPI_COMM_WORLD, me == culprit ? b : a);
    CHECK_ERROR(st, Errc::invalid_argument, "shared_free: ranks freed buffers of different allocations");
  }
  // Still live: written and freed.
  static_cast<unsigned char*>(a)[63] = 1;
  CHECK(redist::shared_free(MPI_COMM_WORLD, a).ok());
  st = redist::shared_free(MPI_COMM_WORLD, me == culprit ? a : b);
  if (me == culprit)
    CHECK_ERROR(st, Errc::invalid_argument, "shared_free: pointer " + address(a) + " was freed already");
  else
    CHECK_ERROR(st, Errc::remote_error, remote);
  CHECK(redist::shared_free(MPI_COMM_WORLD, b).ok());
  CHECK_ERROR(redist::shared_free(MPI_COMM_NULL, b), Errc::invalid_argument,
              "shared_free: communicator is MPI_COMM_NULL");
}

TEST_CASE("shared_alloc misuse on one rank: a null output, more than 2^40 bytes; an error on every rank") {
  const int me = test::world_rank(), culprit = test::world_size() - 1;
  void* p = &p;
  redist::Status st = redist::shared_alloc(MPI_COMM_WORLD, 8, me == culprit ? nullptr : &p);
  if (me == culprit) CHECK_ERROR(st, Errc::invalid_argument, "shared_alloc: output pointer is null");
  else CHECK_ERROR(st, Errc::remote_error, "another rank reported an error");
  if (me != culprit) CHECK(p == nullptr);
  st = redist::shared_alloc(MPI_COMM_WORLD, me == culprit ? (std::size_t{1} << 40) + 1 : 8, &p);
  if (me == culprit)
    CHECK_ERROR(st, Errc::too_large, "shared_alloc: 1099511627777 bytes exceed the runtime's 2^40 bytes an array");
  else CHECK_ERROR(st, Errc::remote_error, "another rank reported an error");
  CHECK(p == nullptr);
  CHECK_ERROR(redist::shared_alloc(MPI_COMM_NULL, 8, &p), Errc::invalid_argument,
              "shared_alloc: communicator is MPI_COMM_NULL");
}

}  // namespace
