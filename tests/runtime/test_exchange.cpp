// The direct exchange (redist/exchange.hpp) on random problems: uneven
// extents (primes, fewer elements than devices), 1..4 dims, every element
// size, source and target meshes of different sizes and placements
// (contiguous at an offset, or any permuted subset of the world's ranks).
// Boxes and the spread rule are recomputed here element by element, written
// independently of the runtime; every element of every rank is checked
// against the global array, whose element at global index g is a function of g.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "exchange_problems.hpp"
#include "redist/exchange.hpp"
#include "redist/reduce_exchange.hpp"
#include "redist/shared.hpp"
#include "support.hpp"

namespace {

using redist::Errc;
using test::Index;
using namespace exchange_test;

constexpr int kProblems = 200;  // per world size

// ---- the model's boxes, element by element -----------------------------------

// [lo, hi) per dim of world rank r's box; all-empty when r is not in the mesh.
struct NaiveBox {
  Index lo, hi;
  bool contains(const Index& i) const {
    for (std::size_t d = 0; d < i.size(); ++d)
      if (i[d] < lo[d] || i[d] >= hi[d]) return false;
    return true;
  }
  Index extents() const {
    Index e(lo.size());
    for (std::size_t d = 0; d < e.size(); ++d) e[d] = hi[d] - lo[d];
    return e;
  }
  std::size_t elements() const { return test::count(extents()); }
  // Global index of element e of the box's local array.
  Index global(std::size_t e) const {
    Index g = test::unravel(e, extents());
    for (std::size_t d = 0; d < g.size(); ++d) g[d] += lo[d];
    return g;
  }
};

NaiveBox naive_box_at(const redist::PlacedMesh& mesh, const redist::BlockLayout& layout, int position) {
  const Index shape(mesh.axis_size, mesh.axis_size + mesh.naxes);
  const Index coord = test::unravel(static_cast<std::size_t>(position), shape);
  NaiveBox box{Index(layout.ndim), Index(layout.ndim)};
  for (int d = 0; d < layout.ndim; ++d) {
    std::size_t parts = 1, c = 0;
    for (int k = 0; k < layout.sharding[d].count; ++k) {
      const int a = layout.sharding[d].axis[k];
      parts *= shape[a];
      c = c * shape[a] + coord[a];
    }
    const std::size_t n = layout.extent[d];
    const std::size_t b = (n + parts - 1) / parts;
    box.lo[d] = std::min(n, c * b);
    box.hi[d] = std::min(n, (c + 1) * b);
  }
  return box;
}

NaiveBox naive_box(const redist::PlacedMesh& mesh, const redist::BlockLayout& layout, int rank) {
  for (int p = 0; p < mesh.size(); ++p)
    if (mesh.ranks[p] == rank) return naive_box_at(mesh, layout, p);
  const Index zero(layout.ndim, 0);
  return {zero, zero};
}

// Every world rank's boxes, so that the spread rule can be evaluated per element.
struct World {
  std::vector<NaiveBox> source_at, target_at;   // by mesh position
  std::vector<NaiveBox> source_of, target_of;   // by world rank
  World(const Problem& p, int world_size) {
    for (int s = 0; s < p.source.size(); ++s) source_at.push_back(naive_box_at(p.source, p.source_layout, s));
    for (int t = 0; t < p.target.size(); ++t) target_at.push_back(naive_box_at(p.target, p.target_layout, t));
    for (int r = 0; r < world_size; ++r) {
      source_of.push_back(naive_box(p.source, p.source_layout, r));
      target_of.push_back(naive_box(p.target, p.target_layout, r));
    }
  }
  // The spread rule: the world rank that sends element i to world rank r
  // (r's target box has i, its source box does not).
  int holder(const Problem& p, int r, const Index& i) const {
    std::vector<int> holders;
    for (int s = 0; s < p.source.size(); ++s)
      if (source_at[s].contains(i)) holders.push_back(p.source.ranks[s]);
    int k = 0;
    for (int t = 0; t < p.target.size() && p.target.ranks[t] != r; ++t) {
      const int q = p.target.ranks[t];
      if (target_at[t].contains(i) && !source_of[q].contains(i)) ++k;
    }
    return holders.at(k % holders.size());
  }
};

// ---- running and checking one problem ---------------------------------------------

std::size_t global_linear(const Index& i, const redist::BlockLayout& l) {
  return test::ravel(i, Index(l.extent, l.extent + l.ndim));
}

// Where a rank's local arrays lie: on the heap, or in shared memory from
// redist::shared_alloc, which the exchange reads in place on one host.
struct Placement {
  bool (*shared_source)(int rank);
  bool (*shared_destination)(int rank);
};
bool nowhere(int) { return false; }
bool everywhere(int) { return true; }
bool on_even_ranks(int rank) { return rank % 2 == 0; }
bool on_odd_ranks(int rank) { return rank % 2 == 1; }
constexpr Placement kHeap{nowhere, nowhere};

// A local array of `bytes` bytes and kCanary more, poisoned, on the heap or
// from redist::shared_alloc (collective: every rank makes its arrays in the
// same order, and they are destroyed in the same order).
class LocalArray {
 public:
  LocalArray(bool shared, std::size_t bytes, test::Tally& tally) : bytes_(bytes) {
    if (shared) {
      void* p = nullptr;
      if (redist::Status st = redist::shared_alloc(MPI_COMM_WORLD, bytes + test::kCanary, &p); !st.ok())
        tally.fail(st.message());
      shared_ = static_cast<unsigned char*>(p);
    } else {
      heap_.resize(bytes + test::kCanary);
    }
    std::fill(begin(), begin() + bytes + test::kCanary, test::kPoison);
  }
  LocalArray(const LocalArray&) = delete;
  LocalArray& operator=(const LocalArray&) = delete;
  ~LocalArray() {
    if (shared_ != nullptr) CHECK(redist::shared_free(MPI_COMM_WORLD, shared_).ok());
  }
  unsigned char* begin() { return shared_ != nullptr ? shared_ : heap_.data(); }
  // What a rank passes for the array: null for none (outside the mesh).
  unsigned char* argument() { return bytes_ > 0 ? begin() : nullptr; }
  // Whether the kCanary bytes after the array are intact.
  bool canary_intact() {
    return std::all_of(begin() + bytes_, begin() + bytes_ + test::kCanary,
                       [](unsigned char c) { return c == test::kPoison; });
  }

 private:
  std::size_t bytes_;
  std::vector<unsigned char> heap_;
  unsigned char* shared_ = nullptr;
};

// Writes the local array of `box`, element at global index g labelled by g.
void fill(const NaiveBox& box, const Problem& p, unsigned salt, unsigned char* v) {
  for (std::size_t e = 0; e < box.elements(); ++e) {
    const Index g = box.global(e);
    for (std::size_t b = 0; b < p.elem_bytes; ++b)
      v[e * p.elem_bytes + b] = test::label(0, global_linear(g, p.source_layout), b, salt);
  }
}

// Runs one problem on every rank `rounds` times with the same arrays (the
// source rewritten with new values each time) and checks what this rank
// ends with.  With arrays placed in shared memory, the receives from a
// shared source array must all have been read in place (every rank of the
// tests is on one host), the others none.
void check_problem(const Problem& p, const World& world, unsigned salt, test::Tally& tally,
                   Placement placement = kHeap, int rounds = 1) {
  const int me = test::world_rank();
  const std::string what = describe(p);
  redist::Exchange ex;
  const redist::Status created = redist::Exchange::create(
      MPI_COMM_WORLD, p.source, p.source_layout, p.target, p.target_layout, p.elem_bytes, &ex);
  if (!created.ok()) return tally.fail(what + ": " + created.message());

  const NaiveBox& src_box = world.source_of[me];
  const NaiveBox& tgt_box = world.target_of[me];
  const std::size_t src_bytes = src_box.elements() * p.elem_bytes;
  const std::size_t tgt_bytes = tgt_box.elements() * p.elem_bytes;
  if (ex.source_bytes() != src_bytes || ex.target_bytes() != tgt_bytes)
    return tally.fail(what + ": local array sizes differ from the model's ceil blocks");

  LocalArray src(placement.shared_source(me), src_bytes, tally);
  LocalArray dst(placement.shared_destination(me), tgt_bytes, tally);
  std::size_t expect_direct = 0;
  for (const redist::Exchange::Peer& peer : ex.receives())
    if (placement.shared_source(peer.rank)) expect_direct += peer.elements;
  for (int round = 0; round < rounds; ++round) {
    const unsigned round_salt = salt + 7919u * static_cast<unsigned>(round);
    fill(src_box, p, round_salt, src.begin());
    const redist::Status ran = ex.run(src.argument(), src_bytes, dst.argument(), tgt_bytes);
    if (!ran.ok()) return tally.fail(what + ": " + ran.message());
    // A wrong element ends the checks of this round only: every rank must
    // make the same collective calls.
    bool right = true;
    for (std::size_t e = 0; right && e < tgt_box.elements(); ++e) {
      const Index g = tgt_box.global(e);
      for (std::size_t b = 0; right && b < p.elem_bytes; ++b)
        right = dst.begin()[e * p.elem_bytes + b] == test::label(0, global_linear(g, p.source_layout), b, round_salt);
      if (!right) tally.fail(what + ": round " + std::to_string(round) + ": wrong byte at local element " + std::to_string(e));
    }
    if (!dst.canary_intact()) tally.fail(what + ": wrote past its result");
    if (ex.direct_elements() != expect_direct)
      tally.fail(what + ": " + std::to_string(ex.direct_elements()) + " elements read in place, expected " +
                 std::to_string(expect_direct));
  }

  // Who sent what against the spread rule.
  std::map<int, std::size_t> expect_from;
  std::size_t kept = 0;
  for (std::size_t e = 0; e < tgt_box.elements(); ++e) {
    const Index g = tgt_box.global(e);
    if (src_box.contains(g)) ++kept;
    else ++expect_from[world.holder(p, me, g)];
  }
  std::map<int, std::size_t> got_from;
  std::size_t received = 0;
  for (const redist::Exchange::Peer& peer : ex.receives()) {
    got_from[peer.rank] += peer.elements;
    received += peer.elements;
  }
  if (received != tgt_box.elements() - kept)
    tally.fail(what + ": received " + std::to_string(received) + " elements, |target \\ source| is " +
               std::to_string(tgt_box.elements() - kept));
  if (ex.kept_elements() != kept) tally.fail(what + ": kept count differs from |target & source|");
  if (got_from != expect_from) tally.fail(what + ": peers differ from the spread rule's holders");
  if (got_from.size() != ex.receives().size()) tally.fail(what + ": two messages from one peer");

  // What this rank sends to each target rank, by the same rule.
  std::map<int, std::size_t> expect_to, got_to;
  for (int r = 0; r < test::world_size(); ++r) {
    const NaiveBox& theirs = world.target_of[r];
    for (std::size_t e = 0; e < theirs.elements(); ++e) {
      const Index g = theirs.global(e);
      if (!world.source_of[r].contains(g) && world.holder(p, r, g) == me) ++expect_to[r];
    }
  }
  for (const redist::Exchange::Peer& peer : ex.sends()) got_to[peer.rank] += peer.elements;
  if (got_to != expect_to) tally.fail(what + ": sends differ from the spread rule's");
}

// The classes of problems the generator must produce, so that a change to it
// cannot silently narrow what the random test covers.
struct Coverage {
  int uneven = 0, empty_box = 0, same_mesh = 0, different_sizes = 0, submesh = 0, disjoint = 0,
      overlapping = 0, permuted = 0;
  int dims[5] = {}, elem_sizes[17] = {};

  void add(const Problem& p, const World& world) {
    auto is_uneven = [](const redist::BlockLayout& l, const redist::PlacedMesh& m) {
      for (int d = 0; d < l.ndim; ++d) {
        std::size_t parts = 1;
        for (int k = 0; k < l.sharding[d].count; ++k) parts *= m.axis_size[l.sharding[d].axis[k]];
        if (l.extent[d] % parts != 0) return true;
      }
      return false;
    };
    auto any_empty = [](const std::vector<NaiveBox>& boxes) {
      return std::any_of(boxes.begin(), boxes.end(), [](const NaiveBox& b) { return b.elements() == 0; });
    };
    auto is_permuted = [](const redist::PlacedMesh& m) {
      for (int q = 1; q < m.size(); ++q)
        if (m.ranks[q] != m.ranks[q - 1] + 1) return true;
      return false;
    };
    std::vector<int> a = p.source.ranks, b = p.target.ranks, common;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(common));
    const bool same = mesh_text(p.source) == mesh_text(p.target);
    uneven += is_uneven(p.source_layout, p.source) || is_uneven(p.target_layout, p.target);
    empty_box += any_empty(world.source_at) || any_empty(world.target_at);
    same_mesh += same;
    different_sizes += p.source.size() != p.target.size();
    submesh += p.source.size() < test::world_size() || p.target.size() < test::world_size();
    disjoint += common.empty();
    overlapping += !common.empty() && a != b;
    permuted += is_permuted(p.source) || is_permuted(p.target);
    ++dims[p.source_layout.ndim];
    ++elem_sizes[p.elem_bytes];
  }

  void check() const {
    CHECK(same_mesh > 0);
    for (int d = 1; d <= 4; ++d) CHECK(dims[d] > 0);
    for (std::size_t e : kElemSizes) CHECK(elem_sizes[e] > 0);
    if (test::world_size() == 1) return;  // one rank: every mesh is {1}@[0]
    CHECK(uneven > 0);
    CHECK(empty_box > 0);
    CHECK(different_sizes > 0);
    CHECK(submesh > 0);
    CHECK(disjoint > 0);
    CHECK(overlapping > 0);
    CHECK(permuted > 0);
  }
};

TEST_CASE("exchange: 200 random problems per world size, every element of every rank") {
  std::mt19937 rng(20261123u + static_cast<unsigned>(test::world_size()));
  test::Tally tally;
  Coverage coverage;
  for (int i = 0; i < kProblems; ++i) {
    const Problem p = random_problem(rng, test::world_size());
    const World world(p, test::world_size());
    check_problem(p, world, static_cast<unsigned>(i + 1), tally);
    coverage.add(p, world);
  }
  tally.finish();
  coverage.check();
}

TEST_CASE("exchange, single copy: 60 random problems per world size with every array from shared_alloc, "
          "each run twice on the same arrays; every receive read in place, every element of every rank") {
  std::mt19937 rng(20261130u + static_cast<unsigned>(test::world_size()));
  test::Tally tally;
  Coverage coverage;
  for (int i = 0; i < kProblems / 10 * 3; ++i) {
    const Problem p = random_problem(rng, test::world_size());
    const World world(p, test::world_size());
    check_problem(p, world, static_cast<unsigned>(i + 1), tally, {everywhere, everywhere}, 2);
    coverage.add(p, world);
  }
  tally.finish();
  coverage.check();
}

TEST_CASE("exchange, single copy: sources from shared_alloc on even ranks only, destinations on odd ranks "
          "only (60 random problems): the receives from even ranks read in place, the others by MPI") {
  std::mt19937 rng(20261131u + static_cast<unsigned>(test::world_size()));
  test::Tally tally;
  for (int i = 0; i < kProblems / 10 * 3; ++i) {
    const Problem p = random_problem(rng, test::world_size());
    check_problem(p, World(p, test::world_size()), static_cast<unsigned>(i + 1), tally,
                  {on_even_ranks, on_odd_ranks}, 2);
  }
  tally.finish();
}

TEST_CASE("exchange: 8-dim arrays, every mesh axis sharding a different dim, reversed ranks") {
  const int n = test::world_size();
  test::Tally tally;
  for (std::size_t elem : kElemSizes) {
    Problem p;
    // {2, 1, n/2 or 1}: three axes whatever the world size.
    const int axes[] = {n >= 2 ? 2 : 1, 1, n >= 4 ? n / 2 : 1};
    p.source = redist::PlacedMesh::contiguous(axes, 3, 0);
    p.target = p.source;
    std::reverse(p.target.ranks.begin(), p.target.ranks.end());
    p.source_layout.ndim = p.target_layout.ndim = redist::kMaxRank;
    for (int d = 0; d < redist::kMaxRank; ++d) p.source_layout.extent[d] = p.target_layout.extent[d] = 2 + d % 2;
    p.source_layout.sharding[0] = redist::DimSharding{2, {0, 2}};
    p.source_layout.sharding[7] = redist::DimSharding{1, {1}};
    p.target_layout.sharding[3] = redist::DimSharding{1, {2}};
    p.target_layout.sharding[5] = redist::DimSharding{2, {1, 0}};
    p.elem_bytes = elem;
    check_problem(p, World(p, n), static_cast<unsigned>(1000 + elem), tally);
  }
  tally.finish();
}

// ---- the reducing exchange ------------------------------------------------------------

// The world ranks of the devices of `mesh` that differ from `position` only
// on `axes` (its group), in any order.
std::vector<int> group_of(const redist::PlacedMesh& mesh, int position, const std::vector<int>& axes) {
  const Index shape(mesh.axis_size, mesh.axis_size + mesh.naxes);
  const Index mine = test::unravel(static_cast<std::size_t>(position), shape);
  std::vector<int> out;
  for (int q = 0; q < mesh.size(); ++q) {
    const Index c = test::unravel(static_cast<std::size_t>(q), shape);
    bool same = true;
    for (int a = 0; a < mesh.naxes; ++a)
      same = same && (c[a] == mine[a] || std::find(axes.begin(), axes.end(), a) != axes.end());
    if (same) out.push_back(mesh.ranks[q]);
  }
  return out;
}

int position_in(const redist::PlacedMesh& mesh, int rank) {
  return static_cast<int>(std::find(mesh.ranks.begin(), mesh.ranks.end(), rank) - mesh.ranks.begin());
}

// Rank r's contribution at global linear index g: any value, so that a
// missing, doubled or misplaced contribution changes the sum.
std::uint64_t contribution(int r, std::size_t g, unsigned salt) {
  std::uint64_t h = (std::uint64_t(r) + 1) * 0x9E3779B97F4A7C15ull ^ (g + 1) * 0xC2B2AE3D27D4EB4Full ^ salt;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 32);
}

// What the random reducing problems must cover.
struct PendingCoverage {
  int with_pending = 0, pending_target = 0;
  void check() const {
    if (test::world_size() == 1) return;
    CHECK(with_pending > 0);
    CHECK(pending_target > 0);
  }
};

// Draws one reducing problem (random pending axes on both sides, an integer
// type), runs it `rounds` times on the same arrays placed as `placement`
// says (new contributions each round) and checks that every element this
// rank ends with is its group's sum, and that the receives from a shared
// source array were all copied in place (every rank of the tests is on one
// host), the others none.
void check_reducing(std::mt19937& rng, unsigned salt, test::Tally& tally, PendingCoverage& coverage,
                    Placement placement = kHeap, int rounds = 1) {
  static const redist::Dtype kIntegers[] = {redist::Dtype::u8, redist::Dtype::i16, redist::Dtype::u32,
                                            redist::Dtype::i64};
  const int n = test::world_size();
  const int me = test::world_rank();
  Problem p = random_problem(rng, n);
  const redist::Dtype dtype = kIntegers[rng() % 4];
  p.elem_bytes = redist::dtype_bytes(dtype);
  const std::vector<int> ps = exchange_test::random_pending(rng, p.source, p.source_layout);
  const std::vector<int> pt = exchange_test::random_pending(rng, p.target, p.target_layout);
  coverage.with_pending += !ps.empty();
  coverage.pending_target += !pt.empty();
  const World world(p, n);
  const std::string what = describe(p) + " pending " + std::to_string(ps.size()) + " -> " + std::to_string(pt.size());
  redist::ReducingExchange ex;
  const redist::Status created = redist::ReducingExchange::create(
      MPI_COMM_WORLD, p.source, p.source_layout, ps.data(), static_cast<int>(ps.size()), p.target,
      p.target_layout, pt.data(), static_cast<int>(pt.size()), dtype, redist::Op::sum, &ex);
  if (!created.ok()) return tally.fail(what + ": " + created.message());
  const NaiveBox& src_box = world.source_of[me];
  const NaiveBox& tgt_box = world.target_of[me];
  const std::size_t w = p.elem_bytes;
  LocalArray src(placement.shared_source(me), src_box.elements() * w, tally);
  LocalArray dst(placement.shared_destination(me), tgt_box.elements() * w, tally);
  std::vector<unsigned char> ws = test::poisoned(ex.workspace_bytes());
  std::size_t expect_direct = 0;
  for (const redist::ReducingExchange::Peer& peer : ex.receives())
    if (placement.shared_source(peer.rank)) expect_direct += peer.elements;
  // Designated: pending coordinates 0 on the target mesh.
  bool designated = true;
  const int my_target = position_in(p.target, me);
  if (my_target < p.target.size()) {
    const Index c = test::unravel(static_cast<std::size_t>(my_target), Index(p.target.axis_size, p.target.axis_size + p.target.naxes));
    for (int a : pt) designated = designated && c[a] == 0;
  }
  for (int round = 0; round < rounds; ++round) {
    const unsigned round_salt = salt + 7919u * static_cast<unsigned>(round);
    for (std::size_t e = 0; e < src_box.elements(); ++e) {
      const std::uint64_t v = contribution(me, global_linear(src_box.global(e), p.source_layout), round_salt);
      std::memcpy(src.begin() + e * w, &v, w);
    }
    const redist::Status ran = ex.run(src.argument(), src_box.elements() * w, dst.argument(), tgt_box.elements() * w,
                                      ex.workspace_bytes() ? ws.data() : nullptr, ex.workspace_bytes());
    if (!ran.ok()) return tally.fail(what + ": " + ran.message());
    for (std::size_t e = 0; e < tgt_box.elements(); ++e) {
      const Index g = tgt_box.global(e);
      std::uint64_t want = 0;
      if (designated) {
        const int holder = src_box.contains(g) ? me : world.holder(p, me, g);
        for (int m : group_of(p.source, position_in(p.source, holder), ps))
          want += contribution(m, global_linear(g, p.source_layout), round_salt);
      }
      std::uint64_t got = 0;
      std::memcpy(&got, dst.begin() + e * w, w);
      const std::uint64_t mask = w >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * w)) - 1;
      if ((got & mask) != (want & mask)) {
        tally.fail(what + ": round " + std::to_string(round) + ": element " + std::to_string(e) +
                   " is not its group's sum");
        break;
      }
    }
    if (!dst.canary_intact()) tally.fail(what + ": wrote past its result");
    tally.canary(ws, ex.workspace_bytes(), what + " (workspace)");
    if (ex.direct_elements() != expect_direct)
      tally.fail(what + ": " + std::to_string(ex.direct_elements()) + " elements read in place, expected " +
                 std::to_string(expect_direct));
  }
}

TEST_CASE("reducing exchange: 200 random problems per world size (pending axes on both sides, uneven, "
          "two meshes), every element of every rank is its group's sum") {
  std::mt19937 rng(20261124u + static_cast<unsigned>(test::world_size()));
  test::Tally tally;
  PendingCoverage coverage;
  for (int i = 0; i < kProblems; ++i) check_reducing(rng, static_cast<unsigned>(i + 1), tally, coverage);
  tally.finish();
  coverage.check();
}

TEST_CASE("reducing exchange, single copy: 60 random problems per world size with every array from "
          "shared_alloc, each run twice; every receive copied in place, every element its group's sum") {
  std::mt19937 rng(20261201u + static_cast<unsigned>(test::world_size()));
  test::Tally tally;
  PendingCoverage coverage;
  for (int i = 0; i < kProblems / 10 * 3; ++i)
    check_reducing(rng, static_cast<unsigned>(i + 1), tally, coverage, {everywhere, everywhere}, 2);
  tally.finish();
  coverage.check();
}

TEST_CASE("reducing exchange, single copy: sources from shared_alloc on odd ranks only, destinations on even "
          "ranks only (60 random problems): the receives from odd ranks copied in place, the others by MPI") {
  std::mt19937 rng(20261202u + static_cast<unsigned>(test::world_size()));
  test::Tally tally;
  PendingCoverage coverage;
  for (int i = 0; i < kProblems / 10 * 3; ++i)
    check_reducing(rng, static_cast<unsigned>(i + 1), tally, coverage, {on_odd_ranks, on_even_ranks}, 2);
  tally.finish();
}

// ---- misuse -------------------------------------------------------------------------

redist::Status create(const Problem& p, redist::Exchange* ex) {
  return redist::Exchange::create(MPI_COMM_WORLD, p.source, p.source_layout, p.target,
                                  p.target_layout, p.elem_bytes, ex);
}

TEST_CASE("exchange: a short buffer on one rank is an error on every rank, nothing written") {
  const int n = test::world_size(), me = test::world_rank();
  redist::Exchange ex;
  REQUIRE(create(flat_problem(test::world_size(), 10 * static_cast<std::size_t>(n)), &ex).ok());
  std::vector<unsigned char> src(ex.source_bytes(), 1), dst = test::poisoned(ex.target_bytes());
  const std::size_t dst_bytes = ex.target_bytes() - (me == n - 1 ? 1 : 0);
  const redist::Status st = ex.run(src.data(), src.size(), dst.data(), dst_bytes);
  if (me == n - 1)
    CHECK_ERROR(st, Errc::buffer_too_small, "Exchange::run: destination has 39 bytes, needs 40");
  else
    CHECK_ERROR(st, Errc::remote_error, "another rank reported an error");
  CHECK(std::all_of(dst.begin(), dst.end(), [](unsigned char c) { return c == test::kPoison; }));

  // The exchange stays usable, and runs again: rank r now holds the block
  // of target position n-1-r, elements 10(n-1-r) ... of the global array.
  std::vector<std::int32_t> values(10), received(10);
  for (int i = 0; i < 10; ++i) values[i] = 10 * me + i;
  for (int round = 0; round < 2; ++round) {
    std::fill(received.begin(), received.end(), -1);
    REQUIRE(ex.run(values.data(), 40, received.data(), 40).ok());
    for (int i = 0; i < 10; ++i) CHECK(received[i] == 10 * (n - 1 - me) + i);
  }
}

TEST_CASE("exchange: source and destination must not overlap") {
  redist::Exchange ex;
  REQUIRE(create(flat_problem(test::world_size(), 10 * static_cast<std::size_t>(test::world_size())), &ex).ok());
  std::vector<unsigned char> buf(ex.source_bytes() + ex.target_bytes());
  CHECK_ERROR(ex.run(buf.data(), ex.source_bytes(), buf.data() + 1, ex.target_bytes()),
              Errc::overlap, "source and destination overlap");
}

TEST_CASE("exchange: arguments differing between ranks fail on every rank") {
  const int n = test::world_size(), me = test::world_rank();
  if (n == 1) return;  // one rank cannot disagree with itself
  redist::Exchange ex;
  const Problem p = flat_problem(test::world_size(), me == 0 ? 10 : 11);
  CHECK_ERROR(create(p, &ex), Errc::invalid_argument,
              "ranks passed different meshes, layouts or element sizes");
  // A layout only rank 0 finds invalid: its error there, remote_error elsewhere.
  Problem q = flat_problem(test::world_size(), 10);
  if (me == 0) q.target_layout.sharding[0].axis[0] = 1;
  if (me == 0)
    CHECK_ERROR(create(q, &ex), Errc::invalid_argument,
                "target layout: dim 0 is sharded over axis 1 but the mesh has axes 0..0");
  else
    CHECK_ERROR(create(q, &ex), Errc::remote_error, "another rank reported an error");
  CHECK(ex.source_bytes() == 0);
}

TEST_CASE("exchange: invalid meshes and layouts are named on every rank") {
  const int n = test::world_size();
  redist::Exchange ex;
  Problem p = flat_problem(test::world_size(), 10);
  p.target.ranks[0] = n;
  CHECK_ERROR(create(p, &ex), Errc::invalid_argument,
              "Exchange::create: target mesh: rank " + std::to_string(n) +
                  " at position 0 is outside the world of " + std::to_string(n) + " ranks");
  p = flat_problem(test::world_size(), 10);
  p.source.ranks.pop_back();
  CHECK_ERROR(create(p, &ex), Errc::invalid_argument,
              "source mesh: mesh has " + std::to_string(n) + " devices but " +
                  std::to_string(n - 1) + " ranks are listed");
  if (n >= 2) {
    p = flat_problem(test::world_size(), 10);
    p.source.ranks[1] = p.source.ranks[0];
    CHECK_ERROR(create(p, &ex), Errc::invalid_argument, "rank 0 appears at positions 0 and 1");
  }
  p = flat_problem(test::world_size(), 10);
  p.source_layout.ndim = p.target_layout.ndim = 2;
  p.source_layout.extent[1] = p.target_layout.extent[1] = 3;
  p.source_layout.sharding[1] = redist::DimSharding{1, {0}};
  CHECK_ERROR(create(p, &ex), Errc::invalid_argument,
              "source layout: axis 0 shards both dim 0 and dim 1");
  p = flat_problem(test::world_size(), 10);
  p.target_layout.extent[0] = 12;
  CHECK_ERROR(create(p, &ex), Errc::invalid_argument, "source shape [10] differs from target shape [12]");
  p = flat_problem(test::world_size(), 10);
  p.elem_bytes = 3;
  CHECK_ERROR(create(p, &ex), Errc::invalid_argument, "element size 3 bytes is not 1, 2, 4, 8 or 16");
  p = flat_problem(test::world_size(), 10);
  const int too_many = n + 1;
  p.source = redist::PlacedMesh::contiguous(&too_many, 1, 0);
  CHECK_ERROR(create(p, &ex), Errc::invalid_argument,
              "mesh has more devices than the world's " + std::to_string(n) + " ranks");
  // A local extent beyond MPI's int count is no error: its datatypes are
  // built from blocks (no memory is touched by create).
  p = flat_problem(test::world_size(), 10);
  p.source = p.target = redist::PlacedMesh::contiguous(&n, 1, 0);
  p.source_layout.extent[0] = p.target_layout.extent[0] = (std::size_t{1} << 31) * std::size_t(n);
  p.elem_bytes = 1;
  {
    redist::Exchange large;
    REQUIRE(create(p, &large).ok());
    CHECK(large.source_bytes() == std::size_t{1} << 31);
  }
  p.source_layout.extent[0] = p.target_layout.extent[0] = std::size_t{1} << 62;
  p.elem_bytes = 2;
  CHECK_ERROR(create(p, &ex), Errc::too_large, "source layout: global array of more than 2^62 bytes");
  redist::Exchange empty;
  CHECK_ERROR(empty.run(nullptr, 0, nullptr, 0), Errc::invalid_argument, "exchange is empty");
  REQUIRE(create(flat_problem(test::world_size(), 10), &ex).ok());
  redist::Exchange moved(std::move(ex));
  CHECK_ERROR(ex.run(nullptr, 0, nullptr, 0), Errc::invalid_argument, "exchange is empty");
  std::vector<unsigned char> src(moved.source_bytes()), dst(moved.target_bytes());
  CHECK(moved.run(src.data(), src.size(), dst.data(), dst.size()).ok());
}

}  // namespace
