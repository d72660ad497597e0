// The hot path allocates nothing: replaces the global operator new of the
// test binary and counts its calls while the collectives run on valid
// arguments.  (MPI is C and allocates through malloc, which is not counted.)
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "redist/exchange.hpp"
#include "redist/mpi_reduce.hpp"
#include "redist/reduce_exchange.hpp"
#include "redist/region_exchange.hpp"
#include "support.hpp"

namespace {
std::atomic<long> g_news{0};
}

void* operator new(std::size_t n) {
  ++g_news;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

TEST_CASE("collectives allocate nothing on valid arguments") {
  redist::Mesh& mesh = test::flat_mesh();
  const int n = mesh.size();
  const redist::Group g{1, n};
  const redist::Layout l{3, {2, 3, 2 * std::size_t(n)}, 8};
  const std::size_t b = redist::bytes(l);
  std::vector<unsigned char> src(b, 1), dst(b * n), scratch(b * n);
  std::vector<int> table(n);
  for (int r = 0; r < n; ++r) table[r] = (r + 1) % n;
  {
    // The counter sees allocations at all (the replacement is in effect).
    const long before = g_news.load();
    std::vector<int> probe(16);
    CHECK(g_news.load() > before);
  }
  for (bool agreement : {true, false}) {
    mesh.set_agreement(agreement);
    const long before = g_news.load();
    bool ok = true;
    for (int d = 0; d < 3; ++d) {
      ok &= redist::all_gather(mesh, g, l, d, src.data(), b, dst.data(), dst.size(), scratch.data(), scratch.size()).ok();
      ok &= redist::dyn_slice(mesh, g, l, 2, src.data(), b, dst.data(), dst.size()).ok();
      for (int t = 0; t < 3; ++t)
        if (t != d && l.extent[t] % n == 0)
          ok &= redist::all_to_all(mesh, g, l, d, t, src.data(), b, dst.data(), b, scratch.data(), b).ok();
    }
    ok &= redist::all_permute(mesh, table.data(), n, l, src.data(), b, dst.data(), b).ok();
    for (redist::Dtype t : {redist::Dtype::f64, redist::Dtype::i64, redist::Dtype::c64}) {
      for (int d = 0; d < 3; ++d)
        if (l.extent[d] % n == 0)
          ok &= redist::reduce_scatter(mesh, g, t, redist::Op::sum, l, d, src.data(), b, dst.data(), b, scratch.data(), b).ok();
      ok &= redist::all_reduce(mesh, g, t, redist::Op::sum, l, src.data(), b, dst.data(), b, scratch.data(), b).ok();
    }
    const long allocations = g_news.load() - before;
    CHECK(ok);
    CHECK(allocations == 0);
  }
  mesh.set_agreement(true);
}

TEST_CASE("the exchange's run allocates nothing") {
  const int n = test::world_size();
  // A 2-d array moving from the world's ranks in order, rows sharded, to
  // the reversed ranks, both dims sharded over a {n, 1} mesh: every rank
  // sends, receives and keeps a part.
  redist::PlacedMesh source = redist::PlacedMesh::contiguous(&n, 1, 0);
  const int target_axes[] = {n, 1};
  redist::PlacedMesh target = redist::PlacedMesh::contiguous(target_axes, 2, 0);
  std::reverse(target.ranks.begin(), target.ranks.end());
  redist::BlockLayout from, to;
  from.ndim = to.ndim = 2;
  from.extent[0] = to.extent[0] = 7 * std::size_t(n) + 3;
  from.extent[1] = to.extent[1] = 5;
  from.sharding[0] = redist::DimSharding{1, {0}};
  to.sharding[1] = redist::DimSharding{1, {0}};
  redist::Exchange ex;
  REQUIRE(redist::Exchange::create(MPI_COMM_WORLD, source, from, target, to, 8, &ex).ok());
  std::vector<unsigned char> src(ex.source_bytes() + 1), dst(ex.target_bytes() + 1);
  const long before = g_news.load();
  bool ok = true;
  for (int i = 0; i < 3; ++i)
    ok &= ex.run(src.data(), ex.source_bytes(), dst.data(), ex.target_bytes()).ok();
  const long allocations = g_news.load() - before;
  CHECK(ok);
  CHECK(allocations == 0);
}

TEST_CASE("the region exchange's run allocates nothing") {
  const int n = test::world_size(), me = test::world_rank();
  // A 1-d array of 6 elements per rank: rank r sends its first half to
  // r + 1, receives r - 1's into its first half, and copies its second
  // half there too (one rank copies both halves).
  redist::LocalShape shape;
  shape.ndim = 1;
  shape.extent[0] = 6;
  auto half = [](std::size_t offset) {
    redist::RegionBox b;
    b.offset[0] = offset;
    b.extent[0] = 3;
    return b;
  };
  redist::RegionLists lists;
  lists.copies.push_back({half(3), half(3)});
  if (n == 1) {
    lists.copies.push_back({half(0), half(0)});
  } else {
    lists.sends.push_back({(me + 1) % n, {half(0)}});
    lists.recvs.push_back({(me + n - 1) % n, {half(0)}});
  }
  redist::RegionExchange ex;
  REQUIRE(redist::RegionExchange::create(MPI_COMM_WORLD, shape, shape, 8, lists, &ex).ok());
  std::vector<unsigned char> src(ex.source_bytes()), dst(ex.target_bytes());
  const long before = g_news.load();
  bool ok = true;
  for (int i = 0; i < 3; ++i) ok &= ex.run(src.data(), ex.source_bytes(), dst.data(), ex.target_bytes()).ok();
  const long allocations = g_news.load() - before;
  CHECK(ok);
  CHECK(allocations == 0);
}

TEST_CASE("the reducing region exchange's run allocates nothing (its staging is made at create)") {
  const int n = test::world_size(), me = test::world_rank();
  // Every rank's 6 f64 elements combine (max) into every rank's target,
  // contributions in ascending rank, its own at its place: n slots of staging.
  redist::LocalShape shape;
  shape.ndim = 1;
  shape.extent[0] = 6;
  redist::RegionBox all;
  all.extent[0] = 6;
  redist::RegionLists lists;
  for (int p = 0; p < n; ++p) {
    lists.sends.push_back({p, {all}});
    lists.recvs.push_back({p, {all}});
  }
  redist::RegionExchange ex;
  REQUIRE(redist::RegionExchange::create(MPI_COMM_WORLD, shape, shape,
                                         redist::RegionReduction{redist::Dtype::f64, redist::Op::max}, lists, {}, &ex)
              .ok());
  CHECK(ex.staging_bytes() == (n > 1 ? static_cast<std::size_t>(n) * 48 : 0u));
  std::vector<double> src(6, me), dst(6);
  const long before = g_news.load();
  bool ok = true;
  for (int i = 0; i < 3; ++i) ok &= ex.run(src.data(), ex.source_bytes(), dst.data(), ex.target_bytes()).ok();
  const long allocations = g_news.load() - before;
  CHECK(ok);
  CHECK(allocations == 0);
  CHECK(dst[5] == static_cast<double>(n - 1));
}

TEST_CASE("the reducing exchange's run allocates nothing") {
  const int n = test::world_size();
  // Rows pending over the whole world on {n}, to rows sharded on the
  // reversed ranks of {n, 1}: every rank sends, receives and adds.
  redist::PlacedMesh source = redist::PlacedMesh::contiguous(&n, 1, 0);
  const int target_axes[] = {n, 1};
  redist::PlacedMesh target = redist::PlacedMesh::contiguous(target_axes, 2, 0);
  std::reverse(target.ranks.begin(), target.ranks.end());
  redist::BlockLayout from, to;
  from.ndim = to.ndim = 2;
  from.extent[0] = to.extent[0] = 7 * std::size_t(n) + 3;
  from.extent[1] = to.extent[1] = 5;
  to.sharding[0] = redist::DimSharding{1, {0}};
  const int pending[] = {0};
  redist::ReducingExchange ex;
  REQUIRE(redist::ReducingExchange::create(MPI_COMM_WORLD, source, from, pending, 1, target, to, nullptr, 0,
                                           redist::Dtype::f32, redist::Op::sum, &ex).ok());
  std::vector<unsigned char> src(ex.source_bytes() + 1), dst(ex.target_bytes() + 1), ws(ex.workspace_bytes() + 1);
  const long before = g_news.load();
  bool ok = true;
  for (int i = 0; i < 3; ++i)
    ok &= ex.run(src.data(), ex.source_bytes(), dst.data(), ex.target_bytes(), ws.data(), ex.workspace_bytes()).ok();
  const long allocations = g_news.load() - before;
  CHECK(ok);
  CHECK(allocations == 0);
}
