// The split phase of the direct and the reducing exchange (start, test,
// wait; redist/exchange.hpp): random problems started, polled while the
// rank computes, and waited for, every element of every rank checked (the
// direct exchange against the global array, the reducing exchange against
// run()'s bytes, which test_exchange.cpp checks against the model); misuse:
// test and wait without start, start twice, one rank's second start, run
// in between, destruction in flight, and (builds without NDEBUG) a source
// written before completion.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "exchange_problems.hpp"
#include "redist/exchange.hpp"
#include "redist/reduce_exchange.hpp"
#include "support.hpp"

namespace {

using redist::Errc;
using namespace exchange_test;

// The global linear index of element e of `box`'s local array.
std::size_t global_of(const redist::Box& box, const redist::BlockLayout& layout, std::size_t e) {
  std::size_t rest = e, g = 0, stride = 1;
  for (int d = box.ndim; d-- > 0;) {
    const std::size_t extent = box.hi[d] - box.lo[d];
    g += (box.lo[d] + rest % extent) * stride;
    rest /= extent;
    stride *= layout.extent[d];
  }
  return g;
}

// The local array of `box`, each element labelled by its global index.
std::vector<unsigned char> global_labels(const redist::Box& box, const redist::BlockLayout& layout,
                                         std::size_t elem, unsigned salt) {
  const std::size_t n = redist::box_elements(box);
  std::vector<unsigned char> v(n * elem);
  for (std::size_t e = 0; e < n; ++e)
    for (std::size_t b = 0; b < elem; ++b) v[e * elem + b] = test::label(0, global_of(box, layout, e), b, salt);
  return v;
}

// Computes between start() and wait(), calling test() now and then, until
// it reports done; false on an error (recorded in *st).
template <class Exchange>
bool compute_until_done(Exchange& ex, redist::Status* st) {
  volatile double acc = 0;
  bool done = false;
  while (!done) {
    for (int i = 0; i < 200; ++i) acc = acc + i * 0.5;
    if (*st = ex.test(&done); !st->ok()) return false;
  }
  return true;
}

void* data_or_null(std::vector<unsigned char>& v) { return v.empty() ? nullptr : v.data(); }

redist::Status create(const Problem& p, redist::Exchange* ex) {
  return redist::Exchange::create(MPI_COMM_WORLD, p.source, p.source_layout, p.target, p.target_layout,
                                  p.elem_bytes, ex);
}

// The world as one axis sharding a 1-d array of 10 elements per rank, the
// target ranks reversed.
Problem flat_problem() {
  const int n = test::world_size();
  return exchange_test::flat_problem(n, 10 * static_cast<std::size_t>(n));
}

// Rank r's values 10r .. 10r+9; after the exchange it holds target
// position n-1-r's block.
struct Flat {
  std::vector<std::int32_t> src, dst;
  Flat() : src(10), dst(10, -1) {
    for (int i = 0; i < 10; ++i) src[i] = 10 * test::world_rank() + i;
  }
  redist::Status start(redist::Exchange& ex) {
    std::fill(dst.begin(), dst.end(), -1);
    return ex.start(src.data(), 40, dst.data(), 40);
  }
  bool right() const {
    for (int i = 0; i < 10; ++i)
      if (dst[i] != 10 * (test::world_size() - 1 - test::world_rank()) + i) return false;
    return true;
  }
};

TEST_CASE("split phase: 100 random exchange problems, start, test while computing, wait, every element") {
  std::mt19937 rng(20270301u + static_cast<unsigned>(test::world_size()));
  test::Tally tally;
  for (int i = 0; i < 100; ++i) {
    const Problem p = random_problem(rng, test::world_size());
    const std::string what = describe(p);
    const unsigned salt = static_cast<unsigned>(i + 1);
    redist::Exchange ex;
    if (redist::Status st = create(p, &ex); !st.ok()) {
      tally.fail(what + ": " + st.message());
      continue;
    }
    std::vector<unsigned char> src = global_labels(ex.source_box(), p.source_layout, p.elem_bytes, salt);
    std::vector<unsigned char> dst(ex.target_bytes(), test::kPoison);
    redist::Status st = ex.start(data_or_null(src), src.size(), data_or_null(dst), dst.size());
    if (st.ok() && compute_until_done(ex, &st)) st = ex.wait();  // returns at once after done
    if (!st.ok()) {
      tally.fail(what + ": " + st.message());
      continue;
    }
    if (dst != global_labels(ex.target_box(), p.source_layout, p.elem_bytes, salt))
      tally.fail(what + ": a wrong element after wait");
  }
  tally.finish();
}

TEST_CASE("split phase: 50 random reducing exchange problems, start, test while computing, wait: run()'s bytes") {
  const int n = test::world_size(), me = test::world_rank();
  std::mt19937 rng(20270302u + static_cast<unsigned>(n));
  test::Tally tally;
  for (int i = 0; i < 50; ++i) {
    Problem p = random_problem(rng, n);
    const redist::Dtype dtype = i % 2 ? redist::Dtype::u32 : redist::Dtype::i64;
    p.elem_bytes = redist::dtype_bytes(dtype);
    const std::vector<int> ps = random_pending(rng, p.source, p.source_layout);
    const std::vector<int> pt = random_pending(rng, p.target, p.target_layout);
    const std::string what = describe(p);
    redist::ReducingExchange ex;
    if (redist::Status st = redist::ReducingExchange::create(
            MPI_COMM_WORLD, p.source, p.source_layout, ps.data(), static_cast<int>(ps.size()), p.target,
            p.target_layout, pt.data(), static_cast<int>(pt.size()), dtype, redist::Op::sum, &ex);
        !st.ok()) {
      tally.fail(what + ": " + st.message());
      continue;
    }
    std::vector<unsigned char> src(ex.source_bytes()), ws(ex.workspace_bytes());
    for (std::size_t b = 0; b < src.size(); ++b) src[b] = test::label(me, b / p.elem_bytes, b % p.elem_bytes, i + 1u);
    std::vector<unsigned char> by_run(ex.target_bytes(), test::kPoison), split(ex.target_bytes(), test::kPoison);
    redist::Status st = ex.run(data_or_null(src), src.size(), data_or_null(by_run), by_run.size(), data_or_null(ws),
                               ws.size());
    if (st.ok()) st = ex.start(data_or_null(src), src.size(), data_or_null(split), split.size(), data_or_null(ws),
                               ws.size());
    if (st.ok() && compute_until_done(ex, &st)) st = ex.wait();
    if (!st.ok()) tally.fail(what + ": " + st.message());
    else if (split != by_run) tally.fail(what + ": start/test/wait differs from run()");
  }
  tally.finish();
}

TEST_CASE("split phase misuse: test and wait without start, start twice, run in between, one rank's second start") {
  const int me = test::world_rank();
  redist::Exchange ex;
  REQUIRE(create(flat_problem(), &ex).ok());
  Flat flat;
  bool done = true;
  CHECK_ERROR(ex.wait(), Errc::invalid_argument, "Exchange::wait: no operation in flight: start() first");
  CHECK_ERROR(ex.test(&done), Errc::invalid_argument, "Exchange::test: no operation in flight: start() first");
  CHECK(!done);
  CHECK_ERROR(ex.test(nullptr), Errc::invalid_argument, "Exchange::test: done is null");

  REQUIRE(flat.start(ex).ok());
  CHECK_ERROR(ex.start(flat.src.data(), 40, flat.dst.data(), 40), Errc::invalid_argument,
              "Exchange::start: an operation is already started");
  CHECK_ERROR(ex.run(flat.src.data(), 40, flat.dst.data(), 40), Errc::invalid_argument,
              "Exchange::run: an operation is already started");
  REQUIRE(ex.wait().ok());
  CHECK(flat.right());
  CHECK_ERROR(ex.wait(), Errc::invalid_argument, "no operation in flight");

  // test() saw done: a start() before wait() is still refused, wait() returns at once.
  REQUIRE(flat.start(ex).ok());
  redist::Status st;
  REQUIRE(compute_until_done(ex, &st));
  CHECK(ex.test(&done).ok());
  CHECK(done);
  CHECK_ERROR(ex.start(flat.src.data(), 40, flat.dst.data(), 40), Errc::invalid_argument, "already started");
  CHECK(ex.wait().ok());
  CHECK(flat.right());

  // Rank 0 starts again without waiting, the others after waiting: every rank fails, none hangs.
  REQUIRE(flat.start(ex).ok());
  if (me != 0) REQUIRE(ex.wait().ok());
  st = ex.start(flat.src.data(), 40, flat.dst.data(), 40);
  if (me == 0) CHECK_ERROR(st, Errc::invalid_argument, "already started");
  else CHECK_ERROR(st, Errc::remote_error, "another rank reported an error");
  if (me == 0) REQUIRE(ex.wait().ok());
  CHECK(flat.right());
  REQUIRE(ex.run(flat.src.data(), 40, flat.dst.data(), 40).ok());
  CHECK(flat.right());
}

TEST_CASE("split phase: an exchange destroyed in flight completes first; a moved one carries its operation") {
  Flat flat;
  {
    redist::Exchange ex;
    REQUIRE(create(flat_problem(), &ex).ok());
    REQUIRE(flat.start(ex).ok());
  }
  CHECK(flat.right());
  redist::Exchange ex;
  REQUIRE(create(flat_problem(), &ex).ok());
  REQUIRE(flat.start(ex).ok());
  redist::Exchange moved = std::move(ex);
  CHECK_ERROR(ex.wait(), Errc::invalid_argument, "no operation in flight");
  REQUIRE(moved.wait().ok());
  CHECK(flat.right());
}

#ifndef NDEBUG
TEST_CASE("split phase (builds without NDEBUG): a source written before completion is an error on its rank") {
  const int me = test::world_rank();
  redist::Exchange ex;
  REQUIRE(create(flat_problem(), &ex).ok());
  Flat flat;
  REQUIRE(flat.start(ex).ok());
  if (me == 0) flat.src[3] += 1;  // as a freed and reused array would
  const redist::Status st = ex.wait();
  if (me == 0) CHECK_ERROR(st, Errc::invalid_argument, "Exchange::wait: the source array changed between start()");
  else CHECK(st.ok());
  // The error ended the operation; the exchange runs again.
  CHECK_ERROR(ex.wait(), Errc::invalid_argument, "no operation in flight");
  flat.src[3] = 10 * me + 3;
  REQUIRE(ex.run(flat.src.data(), 40, flat.dst.data(), 40).ok());
  CHECK(flat.right());
}
#endif

}  // namespace
