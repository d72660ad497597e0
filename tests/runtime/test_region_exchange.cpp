// The region exchange (redist/region_exchange.hpp): it must move exactly
// the elements its region lists name.  The lists are built here in two
// independent ways: from the Part 2 exchange the runtime computes
// (exchange_peers), each message cut into several boxes listed in a
// shuffled order that both sides share; and by brute force from the
// composed-cut table of the model's Part 3 (block-cyclic and ceil cuts),
// element by element.  Every element of every rank's target array is then
// checked against the global array, whose element at global index g is a
// function of g.  Mismatched lists must fail at create on every rank.
#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "exchange_problems.hpp"
#include "internal/exchange_peers.hpp"
#include "redist/region_exchange.hpp"
#include "support.hpp"

namespace {

using redist::Errc;
using redist::LocalShape;
using redist::RegionBox;
using redist::RegionCopy;
using redist::RegionLists;
using redist::RegionMessage;
using test::Index;

// This rank's part of one exchange, and for checking it the global linear
// index of every element of its local arrays.
struct RankPart {
  LocalShape source, target;
  RegionLists lists;
  std::vector<std::size_t> source_global, target_global;
};

unsigned char global_byte(std::size_t g, std::size_t b, unsigned salt) { return test::label(0, g, b, salt); }

Index shape_index(const LocalShape& s) { return Index(s.extent, s.extent + s.ndim); }

// Runs the exchange twice (run(), then start() and wait()) with fresh data
// and checks every element of the target array and the canary after it.
void run_and_check(const RankPart& part, std::size_t elem, unsigned salt, test::Tally& tally, const std::string& what) {
  redist::RegionExchange ex;
  if (redist::Status st = redist::RegionExchange::create(MPI_COMM_WORLD, part.source, part.target, elem, part.lists, &ex);
      !st.ok()) {
    tally.fail(what + ": create: " + st.message());
    return;
  }
  if (ex.source_bytes() != part.source_global.size() * elem || ex.target_bytes() != part.target_global.size() * elem)
    tally.fail(what + ": array sizes differ from the shapes'");
  for (int round = 0; round < 2; ++round) {
    const unsigned round_salt = salt * 2 + static_cast<unsigned>(round);
    std::vector<unsigned char> src = test::poisoned(ex.source_bytes());
    std::vector<unsigned char> dst = test::poisoned(ex.target_bytes());
    for (std::size_t e = 0; e < part.source_global.size(); ++e)
      for (std::size_t b = 0; b < elem; ++b) src[e * elem + b] = global_byte(part.source_global[e], b, round_salt);
    redist::Status st;
    if (round == 0) {
      st = ex.run(src.data(), ex.source_bytes(), dst.data(), ex.target_bytes());
    } else {
      st = ex.start(src.data(), ex.source_bytes(), dst.data(), ex.target_bytes());
      if (st.ok()) st = ex.wait();
    }
    const std::string how = what + (round == 0 ? " (run)" : " (start, wait)");
    if (!st.ok()) {
      tally.fail(how + ": " + st.message());
      continue;
    }
    for (std::size_t e = 0; e < part.target_global.size(); ++e)
      for (std::size_t b = 0; b < elem; ++b)
        if (dst[e * elem + b] != global_byte(part.target_global[e], b, round_salt)) {
          tally.fail(how + ": wrong byte at target element " + std::to_string(e));
          e = part.target_global.size();
          break;
        }
    tally.canary(dst, ex.target_bytes(), how);
  }
}

// ---- lists from the Part 2 exchange --------------------------------------------

LocalShape shape_of(const redist::Box& box) {
  LocalShape s;
  s.ndim = box.ndim;
  for (int d = 0; d < box.ndim; ++d) s.extent[d] = box.hi[d] - box.lo[d];
  return s;
}

// The global linear index of every element of `box`'s local array.
std::vector<std::size_t> globals_of(const redist::Box& box, const redist::BlockLayout& layout) {
  const Index global_shape(layout.extent, layout.extent + layout.ndim);
  const Index local = shape_index(shape_of(box));
  std::vector<std::size_t> g(test::count(local));
  for (std::size_t e = 0; e < g.size(); ++e) {
    Index i = test::unravel(e, local);
    for (int d = 0; d < box.ndim; ++d) i[d] += box.lo[d];
    g[e] = test::ravel(i, global_shape);
  }
  return g;
}

// `region` (global indices) cut into up to four boxes and shuffled, as a
// function of `seed` alone, so that a sender and its receiver cut and order
// a message alike.
std::vector<redist::Box> pieces(const redist::Box& region, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<redist::Box> out{region};
  for (int cut = 0; cut < 3; ++cut) {
    redist::Box& b = out[rng() % out.size()];
    const int d = static_cast<int>(rng() % static_cast<unsigned>(b.ndim));
    if (b.hi[d] - b.lo[d] < 2) continue;
    redist::Box rest = b;
    b.hi[d] = rest.lo[d] = b.lo[d] + 1 + rng() % (b.hi[d] - b.lo[d] - 1);
    out.push_back(rest);
  }
  std::shuffle(out.begin(), out.end(), rng);
  return out;
}

RegionBox local_box(const redist::Box& piece, const redist::Box& array) {
  RegionBox b;
  for (int d = 0; d < piece.ndim; ++d) {
    b.offset[d] = piece.lo[d] - array.lo[d];
    b.extent[d] = piece.hi[d] - piece.lo[d];
  }
  return b;
}

unsigned pair_seed(int sender, int receiver, unsigned salt) {
  return salt * 7919u + static_cast<unsigned>(sender) * 131u + static_cast<unsigned>(receiver);
}

RankPart from_exchange_peers(const exchange_test::Problem& p, unsigned salt) {
  const int me = test::world_rank();
  const redist::backend::ExchangePeers peers = redist::backend::exchange_peers(
      me, test::world_size(), p.source, p.source_layout, p.target, p.target_layout);
  RankPart part;
  part.source = shape_of(peers.source_box);
  part.target = shape_of(peers.target_box);
  part.source_global = globals_of(peers.source_box, p.source_layout);
  part.target_global = globals_of(peers.target_box, p.target_layout);
  for (const redist::backend::Transfer& t : peers.sends) {
    RegionMessage m{t.rank, {}};
    for (const redist::Box& piece : pieces(t.region, pair_seed(me, t.rank, salt)))
      m.boxes.push_back(local_box(piece, peers.source_box));
    part.lists.sends.push_back(m);
  }
  for (const redist::backend::Transfer& t : peers.receives) {
    RegionMessage m{t.rank, {}};
    for (const redist::Box& piece : pieces(t.region, pair_seed(t.rank, me, salt)))
      m.boxes.push_back(local_box(piece, peers.target_box));
    part.lists.recvs.push_back(m);
  }
  if (box_elements(peers.kept) > 0)
    for (const redist::Box& piece : pieces(peers.kept, pair_seed(me, me, salt)))
      part.lists.copies.push_back({local_box(piece, peers.source_box), local_box(piece, peers.target_box)});
  return part;
}

// ---- lists from the composed-cut table, by brute force -----------------------------

// One cut of a dimension over one mesh axis (Part 3): ceil blocks
// (block == 0) or blocks of `block` dealt round-robin.
struct Cut {
  int axis;
  std::size_t block;
};

// A mesh on world ranks and one cut per dimension; every mesh axis cuts a
// dimension, so each element has one holder.
struct CutLayout {
  std::vector<int> axis_size;
  std::vector<int> ranks;  // world rank of each mesh position, row-major
  std::vector<Cut> cuts;
};

// The device index along the cut's axis and the local index of element i
// of a dimension of extent n cut over p devices.
std::pair<std::size_t, std::size_t> place(std::size_t i, std::size_t n, std::size_t p, std::size_t block) {
  if (block == 0) {
    const std::size_t b = (n + p - 1) / p;
    return {i / b, i - (i / b) * b};
  }
  return {(i / block) % p, ((i / block) / p) * block + i % block};
}

// World rank and local multi-index of global element i; *shape is that
// rank's local shape (the number of elements each dimension's cut leaves it).
int holder_of(const CutLayout& l, const Index& extent, const Index& i, Index* local, Index* shape) {
  std::vector<std::size_t> coord(l.axis_size.size());
  local->resize(i.size());
  shape->assign(i.size(), 0);
  for (std::size_t d = 0; d < i.size(); ++d) {
    const std::size_t p = static_cast<std::size_t>(l.axis_size[static_cast<std::size_t>(l.cuts[d].axis)]);
    const auto [j, li] = place(i[d], extent[d], p, l.cuts[d].block);
    coord[static_cast<std::size_t>(l.cuts[d].axis)] = j;
    (*local)[d] = li;
    for (std::size_t k = 0; k < extent[d]; ++k) (*shape)[d] += place(k, extent[d], p, l.cuts[d].block).first == j;
  }
  std::size_t position = 0;
  for (std::size_t a = 0; a < coord.size(); ++a) position = position * static_cast<std::size_t>(l.axis_size[a]) + coord[a];
  return l.ranks[position];
}

// The boxes of one message or of the copies: pairs of a box of the source
// array and a box of the target array of equal extents.
using BoxPairs = std::vector<std::pair<RegionBox, RegionBox>>;

// Extends the last pair by the element at local indices `from` (source)
// and `to` (target) when on both sides it is the next along the last
// dimension of the same row, else starts a pair.  A function of the
// element sequence alone: a sender and its receiver build the same pairs.
void append(BoxPairs& pairs, const Index& from, const Index& to) {
  const std::size_t last = from.size() - 1;
  auto extends = [&](const RegionBox& b, const Index& index) {
    bool next = b.offset[last] + b.extent[last] == index[last];
    for (std::size_t d = 0; d < last; ++d) next = next && b.offset[d] == index[d];
    return next;
  };
  if (!pairs.empty() && extends(pairs.back().first, from) && extends(pairs.back().second, to)) {
    ++pairs.back().first.extent[last];
    ++pairs.back().second.extent[last];
    return;
  }
  RegionBox f, t;
  for (std::size_t d = 0; d < from.size(); ++d) f.offset[d] = from[d], t.offset[d] = to[d], f.extent[d] = t.extent[d] = 1;
  pairs.push_back({f, t});
}

// Every element of the global array in row-major order: its source holder s
// sends it to its target holder t (or copies it, s == t).
RankPart from_cuts(const Index& extent, const CutLayout& from, const CutLayout& to) {
  const int me = test::world_rank();
  const int ndim = static_cast<int>(extent.size());
  RankPart part;
  part.source.ndim = part.target.ndim = ndim;
  std::map<int, BoxPairs> sends, recvs;
  BoxPairs kept;
  std::vector<std::pair<Index, std::size_t>> src_elems, tgt_elems;
  const std::size_t n = test::count(extent);
  for (std::size_t g = 0; g < n; ++g) {
    const Index i = test::unravel(g, extent);
    Index src_local, src_shape, tgt_local, tgt_shape;
    const int s = holder_of(from, extent, i, &src_local, &src_shape);
    const int t = holder_of(to, extent, i, &tgt_local, &tgt_shape);
    if (s == me) {
      std::copy(src_shape.begin(), src_shape.end(), part.source.extent);
      src_elems.push_back({src_local, g});
    }
    if (t == me) {
      std::copy(tgt_shape.begin(), tgt_shape.end(), part.target.extent);
      tgt_elems.push_back({tgt_local, g});
    }
    if (s == me && t == me)
      append(kept, src_local, tgt_local);
    else if (s == me)
      append(sends[t], src_local, tgt_local);
    else if (t == me)
      append(recvs[s], src_local, tgt_local);
  }
  auto globals = [](const LocalShape& shape, const std::vector<std::pair<Index, std::size_t>>& elems) {
    std::vector<std::size_t> g(test::count(shape_index(shape)));
    for (const auto& [local, global] : elems) g[test::ravel(local, shape_index(shape))] = global;
    return g;
  };
  part.source_global = globals(part.source, src_elems);
  part.target_global = globals(part.target, tgt_elems);
  for (const auto& [peer, pairs] : sends) {
    part.lists.sends.push_back({peer, {}});
    for (const auto& pair : pairs) part.lists.sends.back().boxes.push_back(pair.first);
  }
  for (const auto& [peer, pairs] : recvs) {
    part.lists.recvs.push_back({peer, {}});
    for (const auto& pair : pairs) part.lists.recvs.back().boxes.push_back(pair.second);
  }
  for (const auto& [f, t] : kept) part.lists.copies.push_back({f, t});
  return part;
}

std::vector<int> identity_ranks(int n) {
  std::vector<int> r(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) r[static_cast<std::size_t>(k)] = k;
  return r;
}

// The largest divisor of n that is at most sqrt(n).
int grid_rows(int n) {
  int a = 1;
  for (int k = 1; k * k <= n; ++k)
    if (n % k == 0) a = k;
  return a;
}

}  // namespace

TEST_CASE("region exchange: 150 random Part 2 problems per world size, lists from exchange_peers cut into "
          "shuffled boxes, every element of every rank") {
  std::mt19937 rng(20261201u + static_cast<unsigned>(test::world_size()));
  test::Tally tally;
  std::size_t multi_box = 0;
  for (int i = 0; i < 150; ++i) {
    const exchange_test::Problem p = exchange_test::random_problem(rng, test::world_size());
    const RankPart part = from_exchange_peers(p, static_cast<unsigned>(i));
    for (const RegionMessage& m : part.lists.sends) multi_box += m.boxes.size() > 1;
    run_and_check(part, p.elem_bytes, static_cast<unsigned>(i + 1), tally, exchange_test::describe(p));
  }
  tally.finish();
  std::size_t multi_box_anywhere = 0;
  MPI_Allreduce(&multi_box, &multi_box_anywhere, 1, MPI_UNSIGNED_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (test::world_size() > 1) CHECK_MESSAGE(multi_box_anywhere > 0, "no message of several boxes was sent");
}

TEST_CASE("region exchange: 1-D block-cyclic {x}%B N <-> {x} N (B 1..3, uneven N, target ranks reversed), "
          "lists by brute force from the composed-cut table") {
  const int n = test::world_size();
  test::Tally tally;
  unsigned salt = 0;
  for (std::size_t extent : {std::size_t{1}, std::size_t{5}, std::size_t{7}, std::size_t{13}, 2 * std::size_t(n) + 1,
                             std::size_t{37}})
    for (std::size_t block : {1, 2, 3})
      for (bool reversed : {false, true})
        for (bool cyclic_first : {true, false}) {
          CutLayout cyclic{{n}, identity_ranks(n), {{0, block}}};
          CutLayout ceil{{n}, identity_ranks(n), {{0, 0}}};
          if (reversed) std::reverse(ceil.ranks.begin(), ceil.ranks.end());
          const RankPart part = cyclic_first ? from_cuts({extent}, cyclic, ceil) : from_cuts({extent}, ceil, cyclic);
          const std::string what = std::string(cyclic_first ? "{x}%" + std::to_string(block) + " -> {x} "
                                                            : "{x} -> {x}%" + std::to_string(block) + " ") +
                                   std::to_string(extent) + (reversed ? " reversed" : "");
          run_and_check(part, 4, ++salt, tally, what);
        }
  tally.finish();
}

TEST_CASE("region exchange: 2-D block-cyclic on a P x Q grid to the Q x P grid with other block sizes "
          "(ScaLAPACK's grid change), lists by brute force") {
  const int n = test::world_size();
  const int rows = grid_rows(n), cols = n / rows;
  test::Tally tally;
  unsigned salt = 100;
  for (const Index& extent : {Index{7, 5}, Index{9, 11}, Index{4, 13}, Index{1, 6}})
    for (std::size_t mb : {1, 2, 3})
      for (std::size_t elem : {1, 8, 16}) {
        // Source: rows dealt in blocks of mb over x, columns in blocks of 2 over y.
        const CutLayout source{{rows, cols}, identity_ranks(n), {{0, mb}, {1, 2}}};
        // Target: the transposed grid, rows in blocks of mb + 1 over its first
        // axis, columns in ceil blocks over its second, ranks reversed.
        CutLayout target{{cols, rows}, identity_ranks(n), {{0, mb + 1}, {1, 0}}};
        std::reverse(target.ranks.begin(), target.ranks.end());
        const RankPart part = from_cuts(extent, source, target);
        run_and_check(part, elem, ++salt, tally,
                      "[" + std::to_string(extent[0]) + "," + std::to_string(extent[1]) + "] MB " + std::to_string(mb) +
                          " elem " + std::to_string(elem));
      }
  tally.finish();
}

TEST_CASE("region exchange: a broken pairing (a sender's boxes of equal extents in reverse order) is caught "
          "by the element check") {
  const int n = test::world_size();
  if (n == 1) return;  // no messages
  // Cyclic with B = 1 into ceil blocks: every message is boxes of one element.
  CutLayout cyclic{{n}, identity_ranks(n), {{0, 1}}};
  CutLayout ceil{{n}, identity_ranks(n), {{0, 0}}};
  // 2n^2 + 3 elements: every message carries two or more boxes.
  RankPart part = from_cuts({std::size_t(2 * n * n + 3)}, cyclic, ceil);
  for (RegionMessage& m : part.lists.sends) std::reverse(m.boxes.begin(), m.boxes.end());
  test::Tally broken;
  run_and_check(part, 4, 7, broken, "reversed sends");
  long bad_anywhere = 0;
  MPI_Allreduce(&broken.bad, &bad_anywhere, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  CHECK_MESSAGE(bad_anywhere > 0, "reversing the sent boxes went unnoticed");
}

namespace {

// A 1-D problem of 4 elements per rank, sending nothing: every rank copies
// its own array; the tests below add messages that do not pair.
RankPart copies_only() {
  RankPart part;
  part.source.ndim = part.target.ndim = 1;
  part.source.extent[0] = part.target.extent[0] = 4;
  RegionBox all;
  all.extent[0] = 4;
  part.lists.copies.push_back({all, all});
  return part;
}

RegionBox box1(std::size_t offset, std::size_t extent) {
  RegionBox b;
  b.offset[0] = offset;
  b.extent[0] = extent;
  return b;
}

redist::Status create(const RankPart& part, std::size_t elem = 4) {
  redist::RegionExchange ex;
  return redist::RegionExchange::create(MPI_COMM_WORLD, part.source, part.target, elem, part.lists, &ex);
}

// `status` is the error of `culprit` there, remote_error on every other rank.
void check_culprit(const redist::Status& status, int culprit, Errc errc, const std::string& text) {
  if (test::world_rank() == culprit)
    CHECK_ERROR(status, errc, text);
  else
    CHECK_ERROR(status, Errc::remote_error, "RegionExchange::create: another rank reported an error");
}

}  // namespace

TEST_CASE("region exchange: a peer expecting a box nobody sends fails at create on every rank") {
  if (test::world_size() == 1) return;
  RankPart part = copies_only();
  if (test::world_rank() == 1) part.lists.recvs.push_back({0, {box1(0, 1)}});
  check_culprit(create(part), 1, Errc::invalid_argument,
                "RegionExchange::create: rank 1 expects 1 box from rank 0, which sends it 0 boxes");
}

TEST_CASE("region exchange: extents that differ between a sent and a received box fail at create on every rank") {
  if (test::world_size() == 1) return;
  RankPart part = copies_only();
  if (test::world_rank() == 0) part.lists.sends.push_back({1, {box1(0, 1), box1(0, 2)}});
  if (test::world_rank() == 1) part.lists.recvs.push_back({0, {box1(0, 1), box1(1, 3)}});
  check_culprit(create(part), 1, Errc::invalid_argument,
                "RegionExchange::create: box 1 that rank 1 receives from rank 0 has extents [3], rank 0 sends [2]");
}

TEST_CASE("region exchange: invalid lists on one rank are named there and fail on every rank") {
  const int n = test::world_size();
  const int culprit = n - 1;
  struct Case {
    void (*spoil)(RankPart&, int n);
    Errc errc;
    std::string text;
  };
  const std::vector<Case> cases = {
      {[](RankPart& p, int) { p.lists.copies[0].to = box1(1, 4); }, Errc::invalid_argument,
       "copy 0: dim 0 offset 1 extent 4 exceeds the target array's extent 4"},
      {[](RankPart& p, int) { p.lists.copies[0].to = box1(0, 3); }, Errc::invalid_argument,
       "copy 0: source box extents [4] differ from target box extents [3]"},
      {[](RankPart& p, int n) { p.lists.sends.push_back({n, {box1(0, 1)}}); }, Errc::invalid_argument,
       "peer " + std::to_string(n) + " of a message sent to is not a rank of the world (0.." + std::to_string(n - 1) + ")"},
      {[](RankPart& p, int n) { p.lists.recvs.push_back({n - 1, {box1(0, 1)}}); }, Errc::invalid_argument,
       "rank " + std::to_string(n - 1) + " lists itself as a peer received from"},
      {[](RankPart& p, int) { p.lists.sends.push_back({0, {box1(3, 2)}}); }, Errc::invalid_argument,
       "box 0 sent to rank 0: dim 0 offset 3 extent 2 exceeds the source array's extent 4"},
      {[](RankPart& p, int) {
         p.lists.sends.push_back({0, {}});
         p.lists.sends.push_back({0, {}});
       },
       Errc::invalid_argument, "rank 0 is listed twice as a peer sent to"},
      {[](RankPart& p, int) { p.target.ndim = 2; }, Errc::invalid_argument, "target ndim 2 differs from source ndim 1"},
  };
  for (const Case& c : cases) {
    // The peer-0 cases need a peer other than the culprit.
    if (n == 1 && c.text.find("rank 0") != std::string::npos) continue;
    RankPart part = copies_only();
    if (test::world_rank() == culprit) c.spoil(part, n);
    check_culprit(create(part), culprit, c.errc, "RegionExchange::create: " + c.text);
  }
}

TEST_CASE("region exchange: element sizes that differ between ranks fail on every rank; run() checks buffers") {
  const int n = test::world_size(), me = test::world_rank();
  const RankPart part = copies_only();
  if (n > 1)
    CHECK_ERROR(create(part, me == 0 ? 4 : 8), Errc::invalid_argument,
                "ranks passed different element sizes or numbers of dimensions");
  redist::RegionExchange ex;
  REQUIRE(redist::RegionExchange::create(MPI_COMM_WORLD, part.source, part.target, 4, part.lists, &ex).ok());
  std::vector<unsigned char> src(16, 1), dst = test::poisoned(16);
  // A short destination on the last rank: its error there, remote_error elsewhere, nothing written.
  const std::size_t dst_bytes = me == n - 1 ? 15 : 16;
  const redist::Status st = ex.run(src.data(), 16, dst.data(), dst_bytes);
  if (me == n - 1)
    CHECK_ERROR(st, Errc::buffer_too_small, "RegionExchange::run");
  else
    CHECK_ERROR(st, Errc::remote_error, "RegionExchange::run: another rank reported an error");
  CHECK(std::all_of(dst.begin(), dst.end(), [](unsigned char b) { return b == test::kPoison; }));
  redist::RegionExchange empty;
  CHECK_ERROR(empty.run(src.data(), 16, dst.data(), 16), Errc::invalid_argument, "exchange is empty");
}

// ---- the reducing region exchange ----------------------------------------
// Lists written here by hand, apart from any planner: every rank's whole
// source array (4 elements) is a contribution to every even rank's target
// array, listed in ascending rank (an even rank's own entry at its place);
// odd ranks receive nothing and must hold the identity.

namespace {

RankPart all_to_even_ranks() {
  const int n = test::world_size(), me = test::world_rank();
  RankPart part;
  part.source.ndim = part.target.ndim = 1;
  part.source.extent[0] = part.target.extent[0] = 4;
  for (int p = 0; p < n; p += 2) part.lists.sends.push_back({p, {box1(0, 4)}});
  if (me % 2 == 0)
    for (int p = 0; p < n; ++p) part.lists.recvs.push_back({p, {box1(0, 4)}});
  return part;
}

// Runs the reducing exchange of all_to_even_ranks with contributions
// value(rank, e), by run() and then by start() and test(), and compares the
// target with want(e) (even ranks) or identity (odd ranks).
template <class T, class Value, class Want>
void check_reducing(redist::Dtype dtype, redist::Op op, Value value, Want want, T identity, const std::string& what) {
  const int me = test::world_rank();
  const RankPart part = all_to_even_ranks();
  redist::RegionExchange ex;
  const redist::Status st = redist::RegionExchange::create(MPI_COMM_WORLD, part.source, part.target,
                                                           redist::RegionReduction{dtype, op}, part.lists, {}, &ex);
  REQUIRE_MESSAGE(st.ok(), what << ": create: " << st.message());
  CHECK(ex.contributions() == (me % 2 == 0 ? static_cast<std::size_t>(test::world_size()) : 0u));
  for (int split = 0; split < 2; ++split) {
    std::vector<T> src(4), dst(4, T(77));
    for (std::size_t e = 0; e < 4; ++e) src[e] = value(me, e);
    if (split == 0) {
      REQUIRE(ex.run(src.data(), sizeof(T) * 4, dst.data(), sizeof(T) * 4).ok());
    } else {
      REQUIRE(ex.start(src.data(), sizeof(T) * 4, dst.data(), sizeof(T) * 4).ok());
      for (bool done = false; !done;) REQUIRE(ex.test(&done).ok());
    }
    for (std::size_t e = 0; e < 4; ++e) {
      const T expected = me % 2 == 0 ? want(e) : identity;
      CHECK_MESSAGE(dst[e] == expected, what << (split ? " (split phase)" : "") << ": element " << e << " is "
                                             << static_cast<long long>(dst[e]) << ", expected "
                                             << static_cast<long long>(expected));
    }
  }
}

}  // namespace

TEST_CASE("reducing region exchange: hand-written lists, sum of i32 and max of i16 over every rank, identity where nothing arrives") {
  const int n = test::world_size();
  auto sum_value = [](int r, std::size_t e) { return static_cast<std::int32_t>((r + 1) * 1000 + static_cast<int>(e) * (r + 3)); };
  check_reducing<std::int32_t>(
      redist::Dtype::i32, redist::Op::sum, sum_value,
      [&](std::size_t e) {
        std::int32_t s = 0;
        for (int r = 0; r < n; ++r) s += sum_value(r, e);
        return s;
      },
      0, "sum i32");
  auto max_value = [](int r, std::size_t e) { return static_cast<std::int16_t>((static_cast<int>(e) * 37 + r * 11) % 23 - 11); };
  check_reducing<std::int16_t>(
      redist::Dtype::i16, redist::Op::max, max_value,
      [&](std::size_t e) {
        std::int16_t m = max_value(0, e);
        for (int r = 1; r < n; ++r) m = std::max(m, max_value(r, e));
        return m;
      },
      INT16_MIN, "max i16");
}

TEST_CASE("reducing region exchange: lists that do not number each entry's contribution alike, and a divisor other than avg's, fail on every rank") {
  const int n = test::world_size();
  if (n == 1) return;
  const int culprit = 0;
  auto create_reducing = [](const RankPart& part, redist::Op op, std::size_t avg_divisor = 1) {
    redist::RegionExchange ex;
    return redist::RegionExchange::create(MPI_COMM_WORLD, part.source, part.target,
                                          redist::RegionReduction{redist::Dtype::i32, op, avg_divisor}, part.lists, {}, &ex);
  };
  {
    // Rank 0 combines its own [0, 2) and rank 1's [1, 3): rank 1's elements
    // would be the first contribution at position 2 and the second at 1.
    RankPart part;
    part.source.ndim = part.target.ndim = 1;
    part.source.extent[0] = part.target.extent[0] = 4;
    if (test::world_rank() == 0) {
      part.lists.sends.push_back({0, {box1(0, 2)}});
      part.lists.recvs = {{0, {box1(0, 2)}}, {1, {box1(1, 2)}}};
    }
    if (test::world_rank() == 1) part.lists.sends.push_back({0, {box1(1, 2)}});
    check_culprit(create_reducing(part, redist::Op::sum), culprit, Errc::invalid_argument,
                  "RegionExchange::create: the entry from rank 1 is contribution 1 at some target positions and 0 at others");
  }
  {
    RankPart part = all_to_even_ranks();
    check_culprit(create_reducing(part, redist::Op::sum, test::world_rank() == culprit ? 2 : 1), culprit,
                  Errc::invalid_argument, "RegionExchange::create: avg divisor 2 (avg: the source's pending group size; 1 for sum)");
  }
  {
    // An own send entry without its receive entry.
    RankPart part = all_to_even_ranks();
    if (test::world_rank() == culprit) part.lists.recvs.erase(part.lists.recvs.begin());
    check_culprit(create_reducing(part, redist::Op::sum), culprit, Errc::invalid_argument,
                  "RegionExchange::create: rank 0 sends itself 1 box and receives 0 boxes from itself");
  }
}
